"""The transactional outbox: an event is stored with the state change it reports, in the same MongoDB
transaction, and delivered to EventBridge afterwards, at least once.

    def change(session):
        order = db.orders.find_one_and_update(..., session=session)
        outbox.add(session, aggregate=f"order:{order['_id']}", sequence=..., detail_type=..., detail=...)
    in_transaction(change)

So a change is never published without having happened, and never happens without being published:
if the process dies (or EventBridge fails) after the commit, the entry waits in `outbox` until a
publisher delivers it. Publishers: `flush()` right after each request (best effort, for the
aggregates the request touched: `data.outbox_requests`) and the scheduled outbox function every
minute (`publish_pending()` for everything left).

Order: each entry has a `sequence` within its aggregate (an order, a card payment). A publisher only
delivers an aggregate's lowest pending entry, after claiming it (a conditional update), and marks it
sent before the next one becomes deliverable; so an aggregate's events are put on the bus in sequence
order, one at a time, even with several publishers running. (EventBridge itself does not keep order:
consumers that care sort by `detail.sequence`.)

Destinations: every entry goes to the bus; an entry with a partner webhook (`Webhook`) also goes to the
partner webhook queue (`data.webhook_queue`), in the same sequence order. Both are imported with the
first delivery: most functions never write an event (SnapStart's before-snapshot hook imports them for
those that do, edge.snapstart). An entry is SENT when every
destination took it; one that took it already is remembered (`deliveredTo`) and not given it again.

Duplicates: the entry id is the event's `detail.eventId`. A publisher that dies after EventBridge
took an event but before marking it sent leaves it to be sent again after its claim: consumers drop
an `eventId` they have seen. Sent entries are kept 7 days, then a TTL index removes them.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from pymongo.client_session import ClientSession

from core import clock, ids
from core.observability import logger
from core.serialization import to_json
from data import outbox_requests
from data.mongo import Index, get_db

if TYPE_CHECKING:
    from data import events, webhook_queue

COLLECTION = "outbox"
PENDING = "PENDING"
SENT = "SENT"
BUS = "bus"
WEBHOOK = "webhook"
CLAIM_SECONDS = 60  # longer than one delivery takes; a dead publisher's entries are free again after it
SENT_RETENTION_SECONDS = 7 * 24 * 60 * 60

INDEXES = [
    # the publisher: pending entries, by aggregate in sequence order
    Index(
        collection=COLLECTION,
        keys=[("status", 1), ("aggregate", 1), ("sequence", 1)],
        name="outbox_pending_by_aggregate",
    ),
    # the operator's replay: one partner's webhooks since a time
    Index(
        collection=COLLECTION,
        keys=[("webhook.partner", 1), ("createdAt", 1)],
        name="outbox_webhooks_by_partner",
        options={"partialFilterExpression": {"webhook.partner": {"$exists": True}}},
    ),
    Index(
        collection=COLLECTION,
        keys=[("sentAt", 1)],
        name="outbox_sent_ttl",
        options={"expireAfterSeconds": SENT_RETENTION_SECONDS},
    ),
]


class Webhook(NamedTuple):
    """What a partner's endpoint receives for an event: `payload` (the outbox adds `eventId` and
    `sequence`), ordered within `group`."""

    partner: str
    group: str
    payload: dict[str, Any]


def add(
    session: ClientSession,
    *,
    aggregate: str,
    sequence: int,
    detail_type: str,
    detail: dict[str, Any],
    webhook: Webhook | None = None,
) -> str:
    """Store one event (and the partner webhook it makes, if any) in the caller's transaction; returns
    its id (the event's `eventId`)."""
    entry_id = ids.new_id()  # unique across SnapStart-restored instances (core.ids)
    event_id = str(entry_id)
    entry: dict[str, Any] = {
        "_id": entry_id,
        "aggregate": aggregate,
        "sequence": sequence,
        "detailType": detail_type,
        "detail": {**detail, "eventId": event_id, "sequence": sequence},
        "status": PENDING,
        "attempts": 0,
        "deliveredTo": [],
        "createdAt": clock.now(),
    }
    if webhook is not None:
        body = {"eventId": event_id, "sequence": sequence, **webhook.payload}
        entry["webhook"] = {"partner": webhook.partner, "group": webhook.group, "body": to_json(body)}
    get_db()[COLLECTION].insert_one(entry, session=session)
    outbox_requests.touch(aggregate)
    return str(entry_id)


def flush() -> int:
    """Deliver what this request wrote, right away. Best effort: a failure is logged and the scheduled
    publisher delivers it later; it never fails the request whose change is already committed."""
    touched = outbox_requests.take()
    if not touched:
        return 0
    try:
        return publish_pending(aggregates=touched).delivered
    except Exception:
        logger.exception(
            "outbox flush failed; the scheduled publisher will deliver", extra={"aggregates": sorted(touched)}
        )
        return 0


class PublishResult(NamedTuple):
    delivered: int
    failed: int


def publish_pending(*, aggregates: Collection[str] | None = None, limit: int = 1000) -> PublishResult:
    """Deliver pending entries (of `aggregates`, or all), oldest aggregates first, each aggregate's in
    sequence order; stops after `limit` deliveries or when nothing more can be delivered now."""
    from data import events

    delivered = failed = 0
    claim_id = uuid.uuid4().hex
    held_back: set[str] = set()  # aggregates whose next event was refused in this run: the rest waits
    while delivered < limit:
        now = clock.now()
        heads = _heads(aggregates, held_back, events.MAX_ENTRIES_PER_CALL)
        claimed = [entry for entry in heads if _claim(entry, claim_id, now)]
        if not claimed:
            break
        complete = 0
        for entry, taken_by in zip(claimed, _deliver(claimed), strict=True):
            if _destinations(entry) <= taken_by:
                complete += 1
                if _mark_sent(entry, claim_id, clock.now()):
                    delivered += 1
            else:
                _release(entry, claim_id, taken_by)
                held_back.add(entry["aggregate"])
                failed += 1
        if not complete:
            break  # the destinations refuse everything now: the next run tries again
    if delivered or failed:
        logger.info("outbox published", extra={"delivered": delivered, "failed": failed})
    return PublishResult(delivered, failed)


def webhooks_since(partner: str, since: datetime) -> list[dict[str, Any]]:
    """The partner webhooks of the events stored since `since` (sent or not; sent ones are kept
    SENT_RETENTION_SECONDS), oldest first, replays left out."""
    found = get_db()[COLLECTION].find(
        {"webhook.partner": partner, "createdAt": {"$gte": since}, "webhook.eventId": None},
        {"aggregate": 1, "sequence": 1, "detailType": 1, "detail": 1, "webhook": 1, "createdAt": 1},
    )
    return list(found.sort([("createdAt", 1), ("_id", 1)]))


def replay_webhooks(entries: list[dict[str, Any]]) -> list[str]:
    """Send these entries' webhooks (from `webhooks_since`) again, as new outbox entries for the webhook
    queue only (the bus had the events): each keeps its event id, one aggregate's in their order. The
    publishers deliver them as any other; returns each new entry's aggregate, to publish them."""
    if not entries:
        return []
    now = clock.now()
    replays = [
        {
            "_id": ids.new_id(),
            "aggregate": f"replay:{entry['aggregate']}",
            "sequence": entry["sequence"],
            "detailType": entry["detailType"],
            "detail": entry["detail"],
            "status": PENDING,
            "attempts": 0,
            "deliveredTo": [BUS],
            "createdAt": now,
            "webhook": {**entry["webhook"], "eventId": str(entry["_id"])},
        }
        for entry in entries
    ]
    get_db()[COLLECTION].insert_many(replays)
    return [replay["aggregate"] for replay in replays]


def oldest_pending_age_seconds() -> float:
    """How long the oldest undelivered event has waited (0 when none): what the stuck-outbox alarm watches."""
    oldest = get_db()[COLLECTION].find_one({"status": PENDING}, {"createdAt": 1}, sort=[("createdAt", 1)])
    if oldest is None:
        return 0.0
    return max(0.0, (clock.now() - oldest["createdAt"]).total_seconds())


def _heads(aggregates: Collection[str] | None, held_back: Collection[str], size: int) -> list[dict[str, Any]]:
    """The lowest pending entry of each aggregate (the only one that may be delivered), oldest first."""
    match: dict[str, Any] = {"status": PENDING}
    if aggregates is not None:
        match["aggregate"] = {"$in": sorted(set(aggregates) - set(held_back))}
    elif held_back:
        match["aggregate"] = {"$nin": sorted(held_back)}
    pipeline: list[dict[str, Any]] = [
        {"$match": match},
        {"$sort": {"aggregate": 1, "sequence": 1, "createdAt": 1}},
        {"$group": {"_id": "$aggregate", "head": {"$first": "$$ROOT"}}},
        {"$replaceRoot": {"newRoot": "$head"}},
        {"$sort": {"createdAt": 1, "_id": 1}},
        {"$limit": size},
    ]
    return list(get_db()[COLLECTION].aggregate(pipeline))


def _claim(entry: dict[str, Any], claim_id: str, now: datetime) -> bool:
    """Take the entry for this publisher, unless another one holds it (and is not presumed dead)."""
    result = get_db()[COLLECTION].update_one(
        {
            "_id": entry["_id"],
            "status": PENDING,
            "$or": [{"claimedUntil": None}, {"claimedUntil": {"$lte": now}}],
        },
        {
            "$set": {"claimId": claim_id, "claimedUntil": now + timedelta(seconds=CLAIM_SECONDS)},
            "$inc": {"attempts": 1},
        },
    )
    return result.modified_count == 1


def _mark_sent(entry: dict[str, Any], claim_id: str, now: datetime) -> bool:
    result = get_db()[COLLECTION].update_one(
        {"_id": entry["_id"], "status": PENDING, "claimId": claim_id},
        {"$set": {"status": SENT, "sentAt": now, "claimedUntil": None}},
    )
    return result.modified_count == 1


def _release(entry: dict[str, Any], claim_id: str, taken_by: set[str]) -> None:
    """Free the entry for the next try, remembering the destinations that took it already."""
    get_db()[COLLECTION].update_one(
        {"_id": entry["_id"], "status": PENDING, "claimId": claim_id},
        {"$set": {"claimedUntil": None}, "$addToSet": {"deliveredTo": {"$each": sorted(taken_by)}}},
    )


def _destinations(entry: dict[str, Any]) -> set[str]:
    return {BUS, WEBHOOK} if entry.get("webhook") else {BUS}


def _deliver(entries: list[dict[str, Any]]) -> list[set[str]]:
    """Give each entry to the destinations that have not taken it yet; for each, those that now have."""
    from data import events, webhook_queue

    taken = [set(entry.get("deliveredTo") or ()) for entry in entries]
    to_bus = [index for index, entry in enumerate(entries) if BUS not in taken[index]]
    for index, ok in zip(to_bus, events.deliver([_event(entries[i]) for i in to_bus]), strict=True):
        if ok:
            taken[index].add(BUS)
    to_queue = [index for index, entry in enumerate(entries) if entry.get("webhook") and WEBHOOK not in taken[index]]
    for index, ok in zip(to_queue, webhook_queue.send([_queued(entries[i]) for i in to_queue]), strict=True):
        if ok:
            taken[index].add(WEBHOOK)
    return taken


def _queued(entry: dict[str, Any]) -> webhook_queue.QueuedWebhook:
    from data import webhook_queue

    webhook = entry["webhook"]
    return webhook_queue.QueuedWebhook(
        event_id=str(webhook.get("eventId") or entry["_id"]),  # a replay's is the event's it sends again
        partner=webhook["partner"],
        group=webhook["group"],
        body=webhook["body"],
        deduplication_id=str(entry["_id"]),
    )


def _event(entry: dict[str, Any]) -> events.Event:
    from data import events

    return events.Event(
        id=str(entry["_id"]), detail_type=entry["detailType"], detail=entry["detail"], time=entry["createdAt"]
    )
