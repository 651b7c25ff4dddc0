"""Responses of the sale queue routes: a person's entry in a car's fair opening."""

from typing import Literal

from pydantic import Field

from core.models import ApiModel, Id, Timestamp

EntryStatus = Literal["REGISTERED", "WAITING", "ADMITTED", "ORDERED", "MISSED", "SOLD_OUT"]
STATUS_DESCRIPTION = (
    "REGISTERED before the draw, and after it until the entry's position is written (minutes at a large "
    "opening: `position` is null until then); WAITING for its turn; ADMITTED: may order until "
    "`admittedUntil`; ORDERED; MISSED: the admission passed unused; SOLD_OUT before its turn"
)


class SaleQueueEntry(ApiModel):
    """The caller's entry, as registered."""

    entryId: Id
    carId: Id
    status: EntryStatus = Field(description=STATUS_DESCRIPTION)
    position: int | None = Field(
        ge=1, description="the place in the queue, once the draw has written it (null before)", examples=[1042]
    )
    drawAt: Timestamp = Field(description="when the entries registered before it are drawn (the sale's start)")


class MySaleQueueEntry(ApiModel):
    """The caller's entry now: their place, and whether they may order."""

    entryId: Id
    position: int | None = Field(
        ge=1, description="the place in the queue, once the draw has written it (null before)", examples=[1042]
    )
    status: EntryStatus = Field(description=STATUS_DESCRIPTION)
    admittedUntil: Timestamp | None = Field(description="until when the caller may place their order, once admitted")
