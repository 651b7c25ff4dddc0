"""Pure catalog query building: id lists, search, filters and sort orders."""

from __future__ import annotations

from typing import get_args

import pytest
from bson import ObjectId

from core.errors import InvalidInput
from core.locale import LOCALES
from domain.catalog.query import ACTIVE_CAR, CarSort, car_filter, car_sort, parse_ids


def test_parse_ids_skips_blanks_and_duplicates() -> None:
    first, second = ObjectId(), ObjectId()
    assert parse_ids(f" {first},,{second},{first}, ", "query.brands") == [first, second]
    assert parse_ids(None, "query.brands") == []
    assert parse_ids("", "query.brands") == []


# Fixed ids: parameters name the tests, and every pytest-xdist worker must collect the same ones.
@pytest.mark.parametrize(
    "value",
    ["abc", "6650f1c2a1b2c3d4e5f60701,nope", "0" * 23, ",".join(f"6650f1c2a1b2c3d4e5f6{n:04x}" for n in range(51))],
)
def test_parse_ids_refuses_malformed_lists_naming_the_field(value: str) -> None:
    with pytest.raises(InvalidInput) as raised:
        parse_ids(value, "query.bodyTypes")
    assert [error["field"] for error in raised.value.errors or []] == ["query.bodyTypes"]


def test_car_filter_combines_every_condition() -> None:
    # Given a brand, a body type, a price range and a search term
    brand, body = ObjectId(), ObjectId()
    # When the cars query is built
    query = car_filter(brand_ids=[brand], body_type_ids=[body], min_price=1, max_price=2, search="Chevrolet Co")
    # Then each is a condition an index serves: ids, a price range, the term's folded words
    assert query["brandId"] == {"$in": [brand]}
    assert query["bodyTypeId"] == {"$in": [body]}
    assert query["priceFrom"] == {"$gte": 1, "$lte": 2}
    assert query["searchPrefixes"] == {"$all": ["shevrolet", "ko"]}


def test_car_filter_without_parameters_matches_every_active_car() -> None:
    # Given no parameters / When the filter is built / Then only deactivated cars are left out
    query = car_filter(brand_ids=[], body_type_ids=[], min_price=None, max_price=None, search="")
    assert query == {"active": {"$ne": False}}


def test_car_filter_with_min_above_max_is_an_empty_range() -> None:
    # Given min above max, When the filter is built, Then it bounds priceFrom by both: nothing matches
    query = car_filter(brand_ids=[], body_type_ids=[], min_price=3, max_price=2, search=None)
    assert query == {**ACTIVE_CAR, "priceFrom": {"$gte": 3, "$lte": 2}}


def test_every_sort_ends_with_id() -> None:
    for sort in get_args(CarSort):
        assert car_sort(sort, "ru")[-1][0] == "_id"
    assert car_sort("name", "ru") == [("name.ru", 1), ("_id", 1)]
    assert car_sort("new", "en") == [("createdAt", -1), ("_id", -1)]


def test_a_name_sort_is_by_the_callers_language_in_every_language() -> None:
    # Given each language, When the name sorts are asked for, Then they sort on that language's name
    for locale in LOCALES:
        assert car_sort("name", locale) == [(f"name.{locale}", 1), ("_id", 1)]
        assert car_sort("-name", locale) == [(f"name.{locale}", -1), ("_id", -1)]
        assert car_sort("price", locale) == [("priceFrom", 1), ("_id", 1)]
