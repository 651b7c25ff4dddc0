"""SavedCars function: cars saved per device fingerprint."""

from __future__ import annotations

from common.app import create_app, lambda_entry
from common.errors import NotImplementedYet

app = create_app()


@app.get("/api/v1/saved-cars")
def get_saved_cars():
    raise NotImplementedYet()


@app.patch("/api/v1/saved-cars/<id>")
def patch_saved_cars_by_id(id: str):
    raise NotImplementedYet()


lambda_handler = lambda_entry(app)
