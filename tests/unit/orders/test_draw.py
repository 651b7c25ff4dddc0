"""The draw's order as published (docs/INTERFACE.md, "Sale queues"): ascending HMAC-SHA256 hex, then the id.
The service sorts on the raw digest for speed; anyone checking sorts on the hex."""

from __future__ import annotations

import random

from bson import ObjectId

from domain.orders import draw


def published_order(seed: str, entry_ids: list[str]) -> list[str]:
    """The order by the published algorithm, written out as a checker would."""
    key = draw.draw_key(seed, entry_ids)
    return sorted(entry_ids, key=lambda entry_id: (draw.ticket(key, entry_id), entry_id))


def test_the_order_is_the_published_one_for_any_ids() -> None:
    # Given entry ids as the service makes them, and ids of any characters (UTF-8 of several bytes)
    rng = random.Random(45)
    ids = [str(ObjectId()) for _ in range(2_000)]
    ids += ["".join(rng.choice("aZ0é€𝄞\n ") for _ in range(rng.randint(1, 6))) for _ in range(500)]
    seed = draw.new_seed()
    # When the draw orders them
    ordered = draw.drawn_order(seed, ids)
    # Then it is the published order: ascending hex ticket, then id
    assert ordered == published_order(seed, ids)


def test_ids_with_the_same_ticket_follow_their_ids_order() -> None:
    # Given the same id twice (the one way two tickets are equal) beside others
    seed = draw.new_seed()
    ids = ["b", "a", "b", "c"]
    # When the draw orders them, Then equal tickets keep the published tie-break
    assert draw.drawn_order(seed, ids) == published_order(seed, ids)
