"""Partner webhooks end to end: the outbox queues each status change of a partner's order on a moto SQS
FIFO queue, the delivery function (functions/webhooks) POSTs it to a real HTTP receiver, signed, and a
failed delivery comes back later. The receiver checks every signature with the verification snippet
of docs/INTERFACE.md, exactly as published."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from pymongo.database import Database
from webhooks import app as delivery_function

from core.clock import FrozenClock
from core.settings import reset_settings
from data import aws, outbox, webhook_queue
from domain.partners import delivery as webhook_delivery
from domain.partners import webhooks
from local import webhooks as local_webhooks
from local.context import LocalLambdaContext
from local.seed.core import DEMO_PARTNER
from ops import orders as ops_orders
from ops.__main__ import main as ops_main
from tests.conftest import AWS_REGION
from tests.data import order_body, place_and_pay_by_card, purchasable_car
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
Verifier = Callable[..., bool]
MAX_RECEIVES = 3  # the test queue's redrive policy: a short one, so the dead-letter path is quick to reach


@dataclass
class Delivery:
    headers: dict[str, str]
    body: bytes

    @property
    def event(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed


@dataclass
class Receiver:
    """A partner's endpoint: a real HTTP server on a free port that answers 500 while `failing` says so."""

    url: str = ""
    deliveries: list[Delivery] = field(default_factory=list)
    failing: int = 0  # how many of the next deliveries to refuse
    refused: list[Delivery] = field(default_factory=list)

    def changes(self) -> list[tuple[str | None, str]]:
        return [(delivery.event["from"], delivery.event["to"]) for delivery in self.deliveries]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            delivery = Delivery(dict(self.headers), self.rfile.read(int(self.headers["Content-Length"])))
            if state.failing:
                state.failing -= 1
                state.refused.append(delivery)
                self.send_response(500)
            else:
                state.deliveries.append(delivery)
                self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_port}/hooks"
    yield state
    server.shutdown()
    server.server_close()


@dataclass
class Queue:
    """The webhook FIFO queue in moto, and what Lambda's event source mapping does with it."""

    sqs: Any
    url: str
    arn: str
    dead_letter_url: str

    def receive(self) -> dict[str, Any] | None:
        answer = self.sqs.receive_message(
            QueueUrl=self.url, MaxNumberOfMessages=1, AttributeNames=["All"], MessageAttributeNames=["All"]
        )
        messages: list[dict[str, Any]] = answer.get("Messages", [])
        return messages[0] if messages else None

    def invoke(self, message: dict[str, Any]) -> bool:
        """One invocation of the delivery function with this message (BatchSize 1, as deployed); like the
        event source mapping, deletes it when the function reports no failure. True when delivered."""
        record = {
            "messageId": message["MessageId"],
            "receiptHandle": message["ReceiptHandle"],
            "body": message["Body"],
            "attributes": message["Attributes"],
            "messageAttributes": {
                name: {"stringValue": value["StringValue"], "dataType": value["DataType"]}
                for name, value in message.get("MessageAttributes", {}).items()
            },
            "md5OfBody": message["MD5OfBody"],
            "eventSource": "aws:sqs",
            "eventSourceARN": self.arn,
            "awsRegion": AWS_REGION,
        }
        answer = delivery_function.lambda_handler(
            {"Records": [record]}, LocalLambdaContext(function_name="WebhookDelivery")
        )
        if answer["batchItemFailures"]:
            return False
        self.sqs.delete_message(QueueUrl=self.url, ReceiptHandle=message["ReceiptHandle"])
        return True

    def deliver_all(self) -> int:
        """Invoke the function for each visible message until none is left; how many were delivered."""
        delivered = 0
        while (message := self.receive()) is not None:
            delivered += self.invoke(message)
        return delivered

    def backoff_elapses(self, message: dict[str, Any]) -> None:
        """What SQS does when the message's visibility timeout (the backoff) runs out: offers it again."""
        self.sqs.change_message_visibility(
            QueueUrl=self.url, ReceiptHandle=message["ReceiptHandle"], VisibilityTimeout=0
        )

    def dead_letters(self) -> list[dict[str, Any]]:
        answer = self.sqs.receive_message(QueueUrl=self.dead_letter_url, MaxNumberOfMessages=10)
        return [json.loads(message["Body"]) for message in answer.get("Messages", [])]


@pytest.fixture
def queue(aws_account: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Queue]:
    import boto3

    sqs = boto3.client("sqs", region_name=AWS_REGION)
    dead = sqs.create_queue(QueueName="webhooks-dead-letter.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    dead_arn = sqs.get_queue_attributes(QueueUrl=dead, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    url = sqs.create_queue(
        QueueName="webhooks.fifo",
        Attributes={
            "FifoQueue": "true",
            "VisibilityTimeout": "180",
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": dead_arn, "maxReceiveCount": MAX_RECEIVES}),
        },
    )["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    monkeypatch.setenv("WEBHOOK_QUEUE_URL", url)
    reset_settings()
    aws.reset_clients()
    yield Queue(sqs, url, arn, dead)
    aws.reset_clients()


@dataclass
class Partner:
    """The demo partner with its endpoint registered: the receiver, the secret the operator gave it, and
    the documented verification function (taken from docs/INTERFACE.md and run as published)."""

    receiver: Receiver
    secret: str
    verify: Verifier
    clock: FrozenClock

    def verifies(self, delivery: Delivery, secret: str | None = None) -> bool:
        """Whether the documented snippet accepts the delivery (with the partner's secret, or `secret`) now."""
        return bool(
            self.verify(secret or self.secret, delivery.headers, delivery.body, now=self.clock.current.timestamp())
        )


@pytest.fixture
def partner(db: Db, receiver: Receiver, frozen_clock: FrozenClock) -> Partner:
    secret = webhooks.set_endpoint(DEMO_PARTNER, receiver.url).secret
    assert secret is not None
    return Partner(receiver, secret, local_webhooks.documented_verifier(), frozen_clock)


def place_and_pay(api: ApiClient, db: Db) -> dict[str, Any]:
    """A buyer signs in through the demo partner's app, orders a car and pays it in full by card."""
    order, _ = place_and_pay_by_card(api, db)
    return order


def hand_over(order: dict[str, Any]) -> None:
    """The back office prepares the car and hands it over (python -m ops order transition ...)."""
    ops_orders.transition(order["contractNumber"], ops_orders.Status.READY, "arrived at the branch")
    ops_orders.transition(order["contractNumber"], ops_orders.Status.IMPLEMENTED, "handed over")


def test_a_partner_receives_each_status_change_of_its_order_once_signed_and_in_order(
    api: ApiClient, db: Db, queue: Queue, partner: Partner
) -> None:
    # Given the demo partner's endpoint, registered by the operator, and the secret it was given
    assert partner.secret.startswith("whsec_")
    # When a buyer of its app orders and pays, the back office hands the car over, and SQS feeds the
    # delivery function (a publisher run on top hands nothing twice)
    order = place_and_pay(api, db)
    hand_over(order)
    outbox.publish_pending()
    delivered = queue.deliver_all()
    # Then the partner got every change of the order, in order, each once
    deliveries = partner.receiver.deliveries
    assert delivered == 4
    assert partner.receiver.changes() == [(None, "NEW"), ("NEW", "PAID"), ("PAID", "READY"), ("READY", "IMPLEMENTED")]
    events = [delivery.event for delivery in deliveries]
    assert len({event["eventId"] for event in events}) == 4
    assert [event["sequence"] for event in events] == sorted(event["sequence"] for event in events)
    # And each carries what the documentation promises, the event id also in X-Event-Id
    paid = events[1]
    assert paid["type"] == "order.status_changed"
    assert (paid["orderId"], paid["contractNumber"]) == (order["_id"], order["contractNumber"])
    assert (paid["paidAmount"], paid["amountDue"]) == (1_000_000, 1_000_000)
    assert paid["at"].endswith("Z")
    assert [delivery.headers["X-Event-Id"] for delivery in deliveries] == [event["eventId"] for event in events]
    # And each verifies with the documented snippet and the partner's secret, and with nothing else
    assert all(partner.verifies(delivery) for delivery in deliveries)
    assert not partner.verifies(deliveries[0], secret="whsec_" + "A" * 44)
    assert not partner.verifies(Delivery(deliveries[1].headers, deliveries[1].body.replace(b"PAID", b"READY")))
    # And a delivery replayed after the window is refused by the same snippet
    partner.clock.advance(webhooks.REPLAY_WINDOW_SECONDS + 1)
    assert not partner.verifies(deliveries[0])


def test_a_failed_delivery_comes_again_later_and_the_orders_next_event_waits_for_it(
    api: ApiClient, db: Db, queue: Queue, partner: Partner
) -> None:
    # Given a partner endpoint that fails its next delivery
    receiver = partner.receiver
    receiver.failing = 1
    # When the buyer orders and pays (two events queued for one order) and the function takes the first
    place_and_pay(api, db)
    first = queue.receive()
    assert first is not None
    assert queue.invoke(first) is False
    # Then the endpoint was called once and refused; the event is neither lost nor offered again at once,
    # and the order's next event is held back behind it (nothing else is deliverable now)
    assert [delivery.event["to"] for delivery in receiver.refused] == ["NEW"]
    assert queue.receive() is None
    assert receiver.deliveries == []
    # When the backoff elapses and SQS offers it again
    queue.backoff_elapses(first)
    partner.clock.advance(30)
    queue.deliver_all()
    # Then the same event (same id) arrives, freshly signed, and the next one after it
    assert receiver.changes() == [(None, "NEW"), ("NEW", "PAID")]
    assert receiver.deliveries[0].event["eventId"] == receiver.refused[0].event["eventId"]
    assert receiver.deliveries[0].headers["webhook-id"] == receiver.refused[0].headers["webhook-id"]
    assert receiver.deliveries[0].headers["webhook-signature"] != receiver.refused[0].headers["webhook-signature"]
    assert all(partner.verifies(delivery) for delivery in receiver.deliveries)


def test_retries_back_off_exponentially_up_to_the_cap() -> None:
    # Given the default schedule (30 s, doubling, at most 6 hours)
    reset_settings()
    # When attempts fail one after another / Then each waits twice as long as the one before, up to 6 hours
    delays = [webhook_delivery.retry_delay_seconds(attempt) for attempt in range(1, 13)]
    assert delays == [30, 60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 21600, 21600]


def test_an_event_that_fails_every_retry_is_dead_lettered_and_the_order_moves_on(
    api: ApiClient, db: Db, queue: Queue, partner: Partner
) -> None:
    # Given an endpoint that refuses every delivery for a while
    partner.receiver.failing = MAX_RECEIVES
    place_and_pay(api, db)
    # When SQS offers the first event as often as the redrive policy allows, each attempt failing
    for _ in range(MAX_RECEIVES):
        message = queue.receive()
        assert message is not None
        assert queue.invoke(message) is False
        queue.backoff_elapses(message)
    queue.deliver_all()
    # Then it is in the dead-letter queue (the alarm watches it) and the order's next event went out
    assert [event["to"] for event in queue.dead_letters()] == ["NEW"]
    assert partner.receiver.changes() == [("NEW", "PAID")]


def test_a_removed_endpoint_hears_nothing_and_its_events_do_not_pile_up(
    api: ApiClient, db: Db, queue: Queue, partner: Partner
) -> None:
    # Given the demo partner's endpoint, removed by the operator
    assert ops_main(["webhooks", "remove", DEMO_PARTNER]) == 0
    # When a buyer of its app orders and pays, and the queue is worked off
    place_and_pay(api, db)
    delivered = queue.deliver_all()
    # Then the messages are consumed and the endpoint hears nothing
    assert delivered == 2
    assert partner.receiver.deliveries == []
    assert queue.receive() is None


def test_after_a_secret_rotation_both_secrets_verify_for_the_grace_period(
    api: ApiClient, db: Db, queue: Queue, partner: Partner, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the operator rotates the partner's secret with the command
    assert ops_main(["webhooks", "rotate-secret", DEMO_PARTNER]) == 0
    new = capsys.readouterr().out.strip().splitlines()[-1]
    assert new.startswith("whsec_")
    assert new != partner.secret
    # When an event is delivered within the grace period
    place_and_pay(api, db)
    message = queue.receive()
    assert message is not None
    assert queue.invoke(message)
    # Then it verifies with either secret (two v1 values)
    [first] = partner.receiver.deliveries
    assert first.headers["webhook-signature"].count("v1,") == 2
    assert first.headers["X-Signature"].count("v1=") == 2
    assert partner.verifies(first)
    assert partner.verifies(first, secret=new)
    # When the next is delivered after the grace period
    partner.clock.advance(webhooks.ROTATION_GRACE.total_seconds() + 1)
    queue.deliver_all()
    # Then only the new secret verifies it
    later = partner.receiver.deliveries[1]
    assert later.headers["webhook-signature"].count("v1,") == 1
    assert partner.verifies(later, secret=new)
    assert not partner.verifies(later)


def test_the_documented_example_signature_verifies_with_the_documented_snippet() -> None:
    # Given the example delivery of docs/INTERFACE.md, signed with the secret it names
    example = local_webhooks.documented_example()
    verify = local_webhooks.documented_verifier()
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    # When / Then the documented snippet accepts it at its own time, and refuses it a day later
    assert verify(secret, example.headers, example.body, now=example.timestamp)
    assert not verify(secret, example.headers, example.body, now=example.timestamp + 86400)
    # And its headers are what the service sends for that body, id and time (the legacy one included)
    signed = webhooks.standard_headers([secret], example.headers["webhook-id"], example.timestamp, example.body)
    assert signed == {name: example.headers[name] for name in signed}


def test_a_make_run_request_never_waits_on_the_endpoint_and_the_publisher_delivers_with_backoff(
    api: ApiClient, db: Db, partner: Partner
) -> None:
    # Given make run's workers (they leave webhooks to the serving process's publisher) and an endpoint
    # that refuses its first delivery
    local_webhooks.defer_to_publisher()
    partner.receiver.failing = 1
    try:
        # When a buyer orders and pays
        place_and_pay(api, db)
    finally:
        webhook_queue.use_local_consumer(None)
    # Then neither request called the endpoint: both events wait in the outbox (the bus has the first;
    # the second waits behind it, as an order's events do)
    assert partner.receiver.refused == partner.receiver.deliveries == []
    pending = db.outbox.find({"status": "PENDING", "webhook": {"$exists": True}}).sort("sequence", 1)
    assert [entry["deliveredTo"] for entry in pending] == [["bus"], []]
    # When the serving process's publisher runs (make run: every PUBLISH_EVERY_SECONDS)
    local_webhooks.install()
    try:
        outbox.publish_pending()
        # Then the first delivery was refused and the order's next event waits behind it
        assert [delivery.event["to"] for delivery in partner.receiver.refused] == ["NEW"]
        assert partner.receiver.deliveries == []
        # And its backoff holds it back on the publisher's next run, until the backoff has passed
        outbox.publish_pending()
        assert len(partner.receiver.refused) == 1
        partner.clock.advance(webhook_delivery.retry_delay_seconds(1))
        outbox.publish_pending()
    finally:
        webhook_queue.use_local_consumer(None)
    # Then both arrive, in order, signed
    assert partner.receiver.changes() == [(None, "NEW"), ("NEW", "PAID")]
    assert all(partner.verifies(delivery) for delivery in partner.receiver.deliveries)
    assert db.outbox.count_documents({"status": "PENDING"}) == 0


def test_a_webhook_sqs_refused_is_queued_by_the_publisher_without_putting_the_event_on_the_bus_again(
    api: ApiClient, db: Db, queue: Queue, partner: Partner, eventbridge: Any
) -> None:
    # Given an order placed while SQS refused its webhook (EventBridge took the event)
    with pytest.MonkeyPatch.context() as broken:
        broken.setattr(webhook_queue, "send", lambda batch: [False] * len(batch))
        api.login()
        api.post("/api/v1/orders", json=order_body(purchasable_car(db, prices=(1_000_000,))))
    assert [event["detail"]["to"] for event in eventbridge()] == ["NEW"]
    [entry] = list(db.outbox.find())
    assert (entry["status"], entry["deliveredTo"]) == ("PENDING", ["bus"])
    # When the scheduled publisher runs
    outbox.publish_pending()
    # Then the webhook is queued and delivered, and the bus did not get the event twice
    assert queue.deliver_all() == 1
    assert partner.receiver.changes() == [(None, "NEW")]
    assert eventbridge() == []
    assert db.outbox.count_documents({"status": "PENDING"}) == 0


def test_the_operator_registers_lists_and_moves_an_endpoint_and_sees_the_secret_once(
    db: Db, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a partner without an endpoint
    url = "https://partner.example.uz/hooks"
    # When the operator registers one
    assert ops_main(["webhooks", "set", DEMO_PARTNER, "http://127.0.0.1:3001/webhooks"]) == 0
    secret = capsys.readouterr().out.strip().splitlines()[-1]
    # Then the secret is printed alone on the last line, and stored nowhere
    assert secret.startswith("whsec_")
    assert secret not in str(list(db.partner_webhooks.find()))
    # When the endpoint moves / Then its secret stays and is not printed again
    assert ops_main(["webhooks", "set", DEMO_PARTNER, url]) == 0
    assert "whsec_" not in capsys.readouterr().out
    # And the list shows the partner and its URL, never a secret
    assert ops_main(["webhooks", "list"]) == 0
    listed = capsys.readouterr().out
    assert DEMO_PARTNER in listed
    assert url in listed
    assert "whsec_" not in listed
    assert "salt" not in listed


@pytest.mark.parametrize(
    ("arguments", "why"),
    [
        (["set", "No such partner", "https://partner.example.uz/hooks"], "No partner named"),
        (["set", DEMO_PARTNER, "http://partner.example.uz/hooks"], "must be https"),
        (["rotate-secret", DEMO_PARTNER], "has no webhook endpoint"),
        (["remove", DEMO_PARTNER], "has no webhook endpoint"),
    ],
)
def test_the_operator_is_refused_with_the_reason(
    db: Db, capsys: pytest.CaptureFixture[str], arguments: list[str], why: str
) -> None:
    # Given no endpoint / When the command cannot be done / Then it exits 1 and says why
    assert ops_main(["webhooks", *arguments]) == 1
    assert why in capsys.readouterr().err
