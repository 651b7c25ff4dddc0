"""SavedCars function: cars saved per device fingerprint."""

from __future__ import annotations

from common import context, responses
from common.app import create_app, lambda_entry
from common.validation import DEFAULT_PAGE_SIZE, Limit, MongoId, Offset
from saved_cars import service

app = create_app()

MESSAGES = {"saved": "Car saved", "removed": "Car removed from saved cars"}


@app.get("/api/v1/saved-cars")
def get_saved_cars(limit: Limit = DEFAULT_PAGE_SIZE, offset: Offset = 0):
    return responses.ok(service.list_saved(context.current().fingerprint, limit=limit, offset=offset))


@app.patch("/api/v1/saved-cars/<id>")
def patch_saved_cars_by_id(id: MongoId):
    status = service.toggle(id, context.current().fingerprint)
    return responses.created({"status": status, "carId": id}, message=MESSAGES[status])


lambda_handler = lambda_entry(app)
