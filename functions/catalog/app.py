"""Catalog function: cars, brands, catalog filters."""

from __future__ import annotations

from common.access import OPTIONAL_JWT
from common.app import create_app, lambda_entry
from common.errors import NotImplementedYet

app = create_app()


@app.get("/api/v1/cars", middlewares=[OPTIONAL_JWT])
def get_cars():
    raise NotImplementedYet()


@app.get("/api/v1/cars/<id>", middlewares=[OPTIONAL_JWT])
def get_cars_by_id(id: str):
    raise NotImplementedYet()


@app.get("/api/v1/cars/<id>/info")
def get_cars_by_id_info(id: str):
    raise NotImplementedYet()


@app.get("/api/v1/cars/<id>/modifications")
def get_cars_by_id_modifications(id: str):
    raise NotImplementedYet()


@app.get("/api/v1/brands")
def get_brands():
    raise NotImplementedYet()


@app.get("/api/v1/brands/<id>")
def get_brands_by_id(id: str):
    raise NotImplementedYet()


@app.get("/api/v1/filters/bodies")
def get_filters_bodies():
    raise NotImplementedYet()


@app.get("/api/v1/filters/powertrains")
def get_filters_powertrains():
    raise NotImplementedYet()


@app.get("/api/v1/filters/all")
def get_filters_all():
    raise NotImplementedYet()


lambda_handler = lambda_entry(app)
