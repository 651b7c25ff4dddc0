"""Where a car can be bought: a brand's regions rendered once, answered for each mix of stock."""

from __future__ import annotations

from typing import Any

import pytest
from bson import ObjectId

from core.locale import LOCALES
from data import mongo
from dictionaries import service
from dictionaries.models import BranchAvailability, Region

BRANCHES = service._WARM_UP_BRANCHES
REGION = service._WARM_UP_REGION
IDS = [branch["_id"] for branch in BRANCHES]
MIXES: list[set[ObjectId]] = [set(), {IDS[0]}, set(IDS), {IDS[1]}, set(), {IDS[0]}]


def one_model_at_a_time(locale: Any, stocked: set[ObjectId]) -> list[dict[str, Any]]:
    """The answer as built before: one model per branch, then the region, from a fresh rendering."""
    rendered = service._render(BRANCHES, [REGION], locale)
    regions = []
    for views in rendered.regions:
        branches = [BranchAvailability(**branch.fields, available=branch.id in stocked) for branch in views.branches]
        available = any(branch.available for branch in branches)
        regions.append(Region(id=views.id, name=views.name, available=available, branches=branches))
    return [region.model_dump(mode="json") for region in regions]


@pytest.mark.parametrize("locale", LOCALES)
def test_one_rendering_answers_every_mix_of_stock_as_models_built_afresh(locale: Any) -> None:
    # Given a region of two branches rendered once
    rendered = service._render(BRANCHES, [REGION], locale)

    # When it answers each mix of stock in turn (none, one, both, the other one, none, one again)
    answers = [[region.model_dump(mode="json") for region in service._with_stock(rendered, mix)] for mix in MIXES]

    # Then each answer is what building each model afresh gives, branches by name
    assert answers == [one_model_at_a_time(locale, mix) for mix in MIXES]
    assert [answer[0]["available"] for answer in answers] == [False, True, True, True, False, True]


def test_the_warm_up_renders_without_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a process that may not reach a database (before a SnapStart snapshot)
    def no_database() -> Any:
        raise AssertionError("a database client before the snapshot")

    monkeypatch.setattr(mongo, "get_client", no_database)

    # When the function's warm-up runs / Then it completes
    service.warm_up()
