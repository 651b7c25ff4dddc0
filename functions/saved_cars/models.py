"""Responses of the saved-cars routes (a saved car in a list is the catalog's car list item)."""

from typing import Literal

from pydantic import Field

from core.models import ApiModel, Id


class SavedCarToggle(ApiModel):
    status: Literal["saved", "removed"] = Field(description="what the toggle did")
    carId: Id
