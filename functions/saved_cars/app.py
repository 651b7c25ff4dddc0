"""SavedCars function: cars saved per device fingerprint."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from core.models import CountedPage
from domain.catalog.models import CarItem
from domain.identity import callers
from edge import context, responses
from edge.access import PUBLIC
from edge.app import create_app, lambda_entry
from edge.envelope import Envelope
from edge.validation import DEFAULT_PAGE_SIZE, Limit, MongoId, Offset
from saved_cars import service
from saved_cars.models import SavedCarToggle

app = create_app(callers=callers)

MESSAGES = {"saved": "Car saved", "removed": "Car removed from saved cars"}


@app.get(
    "/api/v1/saved-cars",
    operation_id="listSavedCars",
    middlewares=[PUBLIC],
    summary="The cars saved on this device, last saved first",
)
def get_saved_cars(limit: Limit = DEFAULT_PAGE_SIZE, offset: Offset = 0) -> Response[Envelope[CountedPage[CarItem]]]:
    caller = context.current()
    page = service.list_saved(fingerprint=caller.fingerprint, limit=limit, offset=offset, locale=caller.locale)
    return responses.ok(page)


@app.patch(
    "/api/v1/saved-cars/<id>",
    operation_id="toggleSavedCar",
    middlewares=[PUBLIC],
    status_code=201,
    summary="Save a car on this device, or remove it if it is saved",
    description="Saved cars are kept per device (`fingerprint`), without signing in.",
)
def patch_saved_cars_by_id(id: MongoId) -> Response[Envelope[SavedCarToggle]]:
    toggled = service.toggle(id, fingerprint=context.current().fingerprint)
    return responses.created(toggled, message=MESSAGES[toggled.status])


lambda_handler = lambda_entry(app)
