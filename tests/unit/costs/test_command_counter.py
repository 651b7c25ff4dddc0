"""Which MongoDB commands the benchmark and the round-trip tests count as writes."""

from __future__ import annotations

import pytest

from tools.command_counter import is_write


@pytest.mark.parametrize("name", ["insert", "update", "delete", "findAndModify", "bulkWrite", "commitTransaction"])
def test_commands_that_change_data_are_writes(name: str) -> None:
    # Given a command that changes data, When it is classified, Then it is a write
    assert is_write(name, {name: "cars"})


@pytest.mark.parametrize("name", ["find", "aggregate", "count", "distinct", "getMore"])
def test_queries_are_not_writes(name: str) -> None:
    # Given a query, When it is classified, Then it is no write
    assert not is_write(name, {name: "cars", "pipeline": [{"$match": {}}, {"$lookup": {"from": "brands"}}]})


def test_an_aggregation_writing_its_result_is_a_write() -> None:
    # Given an aggregation ending in $merge, When it is classified, Then it is a write
    assert is_write("aggregate", {"aggregate": "cars", "pipeline": [{"$match": {}}, {"$merge": {"into": "copy"}}]})
