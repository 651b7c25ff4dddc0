"""The commands of placing an order, counted with pymongo command monitoring (tools/command_counter.py) on a
warm instance: what the order's transaction holds (each of its round trips is time other buyers of the same
stock row wait), and that an order of a sold-out configuration is refused by a read, without a
transaction (docs/PERFORMANCE.md, "A sale opening")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pymongo.database import Database

from core.settings import reset_settings
from data.mongo import get_db, reset_client
from tests.data import CatalogCar, order_body, purchasable_car, stock_quantity
from tests.factories import ApiClient
from tools.command_counter import CommandCounter, Counts

Db = Database[dict[str, Any]]
ORDERS = "/api/v1/orders"
# The commands of a transaction's statements, in order: the person's guard and the count of their open
# holds (docs/DECISIONS.md, "The limits hold under races"), then the unit (a buyer who loses the race
# fails before writing an order), the order, its log entry and its event, then the commit.
ORDER_TRANSACTION = [
    ("update", "order_buyers"),  # the account's guard
    ("update", "order_buyers"),  # the verified person's guard
    ("aggregate", "orders"),
    ("findAndModify", "stock"),
    ("insert", "orders"),
    ("insert", "order_logs"),
    ("insert", "outbox"),
    ("commitTransaction", None),
]


@pytest.fixture
def counter(db: Db, monkeypatch: pytest.MonkeyPatch) -> Iterator[CommandCounter]:
    """The process's client (the in-process API server's too) reports every command to a counter; caches
    as deployed (60 s lifetimes)."""
    monkeypatch.setenv("REFERENCE_CACHE_SECONDS", "60")
    monkeypatch.setenv("PARTNER_CACHE_SECONDS", "60")
    reset_settings()
    counting = CommandCounter()
    reset_client(event_listeners=[counting])
    yield counting
    reset_client()


@pytest.fixture
def fresh_db(db: Db, counter: CommandCounter) -> Db:
    """The test's empty database, through the client that reports to the counter."""
    return get_db()


def in_transaction(counts: Counts) -> list[tuple[str, str | None]]:
    """The commands sent inside a transaction (`startTransaction` opens one, the commit or abort ends it),
    each with the collection it names."""
    inside: list[tuple[str, str | None]] = []
    open_ = False
    for name, command in zip(counts.names, counts.commands, strict=True):
        open_ = open_ or bool(command.get("startTransaction"))
        if open_:
            target = command.get(name)
            inside.append((name, target if isinstance(target, str) else None))
        if name in ("commitTransaction", "abortTransaction"):
            open_ = False
    return inside


def warm_buyer(api: ApiClient, car: CatalogCar) -> None:
    """A signed-in verified buyer whose instance has placed an order already (its caches filled, connections
    open)."""
    api.login("+998901230001")
    api.verify()
    assert api.post(ORDERS, json=order_body(car)).status_code == 201


def test_an_order_is_one_transaction_that_counts_the_person_then_takes_the_unit(
    api: ApiClient, fresh_db: Db, counter: CommandCounter
) -> None:
    # Given a warm instance and a car with units left
    car = purchasable_car(fresh_db, quantity=3)
    warm_buyer(api, car)
    # When a buyer orders it
    with counter.counting() as counts:
        placed = api.post(ORDERS, json=order_body(car))
    # Then its transaction is the buyer's guards and count, the unit, the order, its log entry, its event
    # and the commit, nothing else
    assert placed.status_code == 201, placed.text
    assert in_transaction(counts) == ORDER_TRANSACTION, in_transaction(counts)
    assert counts.names.count("commitTransaction") == 1


def test_an_order_of_a_sold_out_configuration_is_refused_by_a_read_without_a_transaction(
    api: ApiClient, fresh_db: Db, counter: CommandCounter
) -> None:
    # Given a warm instance, and the branch's last unit of a car just sold
    car = purchasable_car(fresh_db, quantity=1)
    warm_buyer(api, car)
    assert stock_quantity(fresh_db, car) == 0
    # When another buyer orders it
    with counter.counting() as counts:
        refused = api.post(ORDERS, json=order_body(car))
    # Then they are told it ran out, after reads alone: no transaction, no contract number, nothing written
    assert refused.status_code == 409
    assert (refused.json()["code"], refused.json()["details"]) == ("OUT_OF_STOCK", {"quantity": 0})
    assert in_transaction(counts) == []
    assert counts.writes == 0, counts.names
    assert counts.total <= 5, counts.names
