"""Partner webhooks end to end: the outbox queues each status change of a partner's order on a moto SQS
FIFO queue, the delivery function (functions/webhooks) POSTs it to a real HTTP receiver, signed, and a
failed delivery comes back later. The receiver checks every signature with the verification snippet
of docs/INTERFACE.md, exactly as published."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from pymongo.database import Database
from standardwebhooks.webhooks import Webhook as StandardWebhook
from standardwebhooks.webhooks import WebhookVerificationError
from webhooks import app as delivery_function

from core.clock import FrozenClock
from core.settings import reset_settings
from data import aws, outbox, webhook_queue
from domain.partners import delivery as webhook_delivery
from domain.partners import webhooks
from local import webhooks as local_webhooks
from local.context import LocalLambdaContext
from local.seed.core import DEMO_PARTNER
from local.template import ROOT
from ops import orders as ops_orders
from ops.__main__ import main as ops_main
from tests.conftest import AWS_REGION
from tests.data import order_body, place_and_pay_by_card, purchasable_car
from tests.factories import ApiClient
from tests.locks import checkout_lock

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
    refusal: int = 500  # the status a refused delivery gets
    refusal_headers: dict[str, str] = field(default_factory=dict)

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
                self.send_response(state.refusal)
                for name, value in state.refusal_headers.items():
                    self.send_header(name, value)
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
    ops_orders.transition(order["contractNumber"], ops_orders.OrderStatus.READY, "arrived at the branch")
    ops_orders.transition(order["contractNumber"], ops_orders.OrderStatus.IMPLEMENTED, "handed over")


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
    # Given the default schedule (30 s, doubling, at most 6 hours), the jitter aside
    reset_settings()
    # When attempts fail one after another / Then each waits twice as long as the one before, up to 6 hours
    delays = [webhook_delivery.retry_delay_seconds(attempt, spread=0) for attempt in range(1, 13)]
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
    # When the serving process's outbox publisher runs (make run: every local.scheduler.WEBHOOKS_EVERY)
    local_webhooks.install()
    try:
        outbox.publish_pending()
        # Then the first delivery was refused and the order's next event waits behind it
        assert [delivery.event["to"] for delivery in partner.receiver.refused] == ["NEW"]
        assert partner.receiver.deliveries == []
        # And its backoff holds it back on the publisher's next run, until the backoff has passed
        outbox.publish_pending()
        assert len(partner.receiver.refused) == 1
        partner.clock.advance(webhook_delivery.retry_delay_seconds(1, spread=0))
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


# --- verified by partners' libraries -------------------------------------------------------------


def test_a_real_delivery_verifies_with_the_standardwebhooks_library_and_the_documented_snippets(
    api: ApiClient, db: Db, queue: Queue, partner: Partner
) -> None:
    # Given a real delivery the receiver got (the clock is the real one: the library checks its own)
    place_and_pay(api, db)
    assert queue.deliver_all() == 2
    paid = partner.receiver.deliveries[1]
    # When / Then the Standard Webhooks reference library from PyPI verifies it with the partner's secret
    assert StandardWebhook(partner.secret).verify(paid.body, paid.headers) == paid.event
    # And refuses it under another secret, or with a changed body
    with pytest.raises(WebhookVerificationError):
        StandardWebhook("whsec_" + base64.b64encode(b"x" * 32).decode()).verify(paid.body, paid.headers)
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(partner.secret).verify(paid.body.replace(b"PAID", b"NEW"), paid.headers)
    # And the documented library snippet and standard-library snippet agree
    verified_event = local_webhooks.documented_function(local_webhooks.LIBRARY_SNIPPET_MARKER, "verified_event")
    assert verified_event(partner.secret, paid.headers, paid.body) == paid.event
    assert verified_event(partner.secret, paid.headers, paid.body + b" ") is None
    assert partner.verifies(paid)
    # And the webhook-id is the event's id, as X-Event-Id (still sent) is
    assert paid.headers["webhook-id"] == paid.event["eventId"] == paid.headers["X-Event-Id"]


def test_the_documented_typescript_snippet_verifies_a_real_delivery_on_node(
    api: ApiClient, db: Db, queue: Queue, partner: Partner, tmp_path: Path
) -> None:
    # Given the TypeScript snippet of docs/INTERFACE.md, compiled with tsc --strict, and real deliveries
    verifier = compiled_typescript_verifier(tmp_path)
    place_and_pay(api, db)
    queue.deliver_all()
    paid = partner.receiver.deliveries[1]
    now = partner.clock.current.timestamp()
    other = "whsec_" + base64.b64encode(b"y" * 32).decode()
    cases = [
        {"secret": partner.secret, "headers": paid.headers, "body": paid.body, "now": now},
        {"secret": other, "headers": paid.headers, "body": paid.body, "now": now},
        {"secret": partner.secret, "headers": paid.headers, "body": paid.body + b" ", "now": now},
        {"secret": partner.secret, "headers": paid.headers, "body": paid.body, "now": now + 301},
    ]
    # When node runs it on them
    verdicts = run_typescript_verifier(verifier, cases, tmp_path)
    # Then it accepts the delivery as sent, and nothing else
    assert verdicts == [True, False, False, False]


def compiled_typescript_verifier(workdir: Path) -> Path:
    """The snippet as published, and a driver that feeds it deliveries, compiled with the SDK's pinned
    TypeScript (`make sdk`'s npm packages) to JavaScript that node runs."""
    node, make = shutil.which("node"), shutil.which("make")
    assert node is not None, "Node.js runs the TypeScript snippet"
    assert make is not None
    with checkout_lock("sdk"):  # one npm ci at a time, whichever pytest-xdist worker (test_generated_client.py)
        installed = subprocess.run(  # noqa: S603 (fixed commands of this repository)
            [make, "--no-print-directory", "sdk/node_modules/.package-lock.json"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    assert installed.returncode == 0, installed.stderr[-4000:]
    source = workdir / "src"
    source.mkdir()
    (source / "verify.ts").write_text(
        local_webhooks.documented_block(local_webhooks.TYPESCRIPT_SNIPPET_MARKER, "typescript"), encoding="utf-8"
    )
    (source / "driver.ts").write_text(TYPESCRIPT_DRIVER, encoding="utf-8")
    (workdir / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    sdk_modules = ROOT / "sdk" / "node_modules"
    config = {
        "compilerOptions": {
            "target": "ES2022",
            "module": "NodeNext",
            "moduleResolution": "NodeNext",
            "strict": True,
            "noUncheckedIndexedAccess": True,
            "types": ["node"],
            "typeRoots": [str(sdk_modules / "@types")],
            "outDir": "build",
            "rootDir": "src",
        },
        "include": ["src"],
    }
    (workdir / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    compiled = subprocess.run(  # noqa: S603 (the SDK's pinned compiler)
        [str(sdk_modules / ".bin" / "tsc"), "--project", str(workdir / "tsconfig.json")],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert compiled.returncode == 0, f"tsc --strict refused the snippet:\n{compiled.stdout}\n{compiled.stderr}"
    return workdir / "build" / "driver.js"


# Reads deliveries ({secret, headers, body in base64, now}) as JSON on stdin; prints a verdict for each.
TYPESCRIPT_DRIVER = """import { readFileSync } from "node:fs";
import { verifyWebhook } from "./verify.js";

interface Case {
  secret: string;
  headers: Record<string, string>;
  body: string;
  now: number;
}

const cases = JSON.parse(readFileSync(0, "utf8")) as Case[];
const verdicts = cases.map((c) => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(c.headers)) headers[name.toLowerCase()] = value;
  return verifyWebhook(c.secret, headers, Buffer.from(c.body, "base64"), c.now);
});
console.log(JSON.stringify(verdicts));
"""


def run_typescript_verifier(script: Path, cases: list[dict[str, Any]], workdir: Path) -> list[bool]:
    node = shutil.which("node")
    assert node is not None
    given = [{**case, "body": base64.b64encode(case["body"]).decode()} for case in cases]
    ran = subprocess.run(  # noqa: S603 (node on the script this test compiled)
        [node, str(script)],
        input=json.dumps(given),
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    verdicts: list[bool] = json.loads(ran.stdout)
    return verdicts


# --- 410, Retry-After, the operator's commands ------------------------------------------------------


def test_an_endpoint_answering_410_is_disabled_gets_nothing_more_until_enabled(
    api: ApiClient, db: Db, queue: Queue, partner: Partner, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an endpoint that answers its next delivery 410 Gone
    partner.receiver.failing, partner.receiver.refusal = 1, 410
    # When a buyer orders and pays and the queue is worked off
    place_and_pay(api, db)
    consumed = queue.deliver_all()
    # Then the endpoint heard the first event only, once: the second was consumed unsent
    assert consumed == 2
    assert [delivery.event["to"] for delivery in partner.receiver.refused] == ["NEW"]
    assert partner.receiver.deliveries == []
    assert queue.receive() is None
    # And the operator's list shows it disabled, with why
    capsys.readouterr()  # the delivery's own log lines
    assert ops_main(["--json", "webhooks", "list"]) == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert listed["disabledAt"] is not None
    assert listed["disabledReason"].startswith("HTTP 410")
    # When the operator enables it again, and the back office moves the order
    assert ops_main(["webhooks", "enable", DEMO_PARTNER]) == 0
    assert "resumed" in capsys.readouterr().out
    order = db.orders.find_one({}, {"contractNumber": 1})
    assert order is not None
    hand_over({"contractNumber": order["contractNumber"]})
    outbox.publish_pending()
    queue.deliver_all()
    # Then deliveries reach it again
    assert partner.receiver.changes() == [("PAID", "READY"), ("READY", "IMPLEMENTED")]


def test_a_refusal_with_retry_after_is_retried_no_sooner_than_it_asks(
    api: ApiClient, db: Db, queue: Queue, partner: Partner, caplog: pytest.LogCaptureFixture
) -> None:
    # Given an endpoint that answers 503 with Retry-After: 2 hours (the backoff would be 30 s)
    partner.receiver.failing, partner.receiver.refusal = 1, 503
    partner.receiver.refusal_headers = {"Retry-After": "7200"}
    place_and_pay(api, db)
    message = queue.receive()
    assert message is not None
    caplog.clear()
    # When the delivery function takes the event
    assert queue.invoke(message) is False
    # Then it set the message's visibility (the next try) two hours away
    scheduled = [record for record in caplog.records if record.getMessage() == "webhook retry scheduled"]
    assert [getattr(record, "retry_in_seconds", None) for record in scheduled] == [7200]
    assert queue.receive() is None


def test_the_operator_sends_a_test_event_and_sees_the_answer(
    db: Db, partner: Partner, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given the partner's endpoint / When the operator sends a test event
    assert ops_main(["webhooks", "test", DEMO_PARTNER]) == 0
    # Then the endpoint got a signed webhook.test event, and the operator saw it delivered
    [test_event] = partner.receiver.deliveries
    assert test_event.event["type"] == "webhook.test"
    assert test_event.event["partner"] == DEMO_PARTNER
    assert partner.verifies(test_event)
    assert f"test event {test_event.event['eventId']} delivered (HTTP 204)" in capsys.readouterr().out
    # When the endpoint refuses the next one / Then the command fails, saying the answer in one line
    partner.receiver.failing = 1
    assert ops_main(["webhooks", "test", DEMO_PARTNER]) == 1
    [line] = capsys.readouterr().err.strip().splitlines()
    assert "WEBHOOK_TEST_NOT_DELIVERED" in line
    assert "HTTP 500" in line


def test_the_operator_replays_a_partners_events_since_a_time_with_their_ids(  # noqa: PLR0917 (fixtures)
    api: ApiClient, db: Db, queue: Queue, partner: Partner, eventbridge: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an order's two events, delivered, and the bus's copies taken
    place_and_pay(api, db)
    assert queue.deliver_all() == 2
    first = [delivery.event for delivery in partner.receiver.deliveries]
    eventbridge()
    # When the operator replays the partner's events of the last day
    assert ops_main(["webhooks", "replay", DEMO_PARTNER, "--since", "1d"]) == 0
    assert f"{DEMO_PARTNER}: 2 events since" in capsys.readouterr().out
    queue.deliver_all()
    # Then the partner gets both again, in order, with the same ids, freshly signed; the bus nothing
    again = [delivery.event for delivery in partner.receiver.deliveries[2:]]
    assert again == first
    assert all(partner.verifies(delivery) for delivery in partner.receiver.deliveries[2:])
    assert eventbridge() == []
    # When the operator replays from a time after them / Then nothing is sent
    later = (partner.clock.current + timedelta(minutes=1)).isoformat()
    assert ops_main(["webhooks", "replay", DEMO_PARTNER, "--since", later]) == 0
    assert f"{DEMO_PARTNER}: 0 events since" in capsys.readouterr().out


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "::a9fe:a9fe", "::ffff:0:7f00:1", "fec0::1"],
    ids=["loopback", "ipv4-compatible", "ipv4-translated", "site-local"],
)
def test_outside_local_a_delivery_to_a_name_now_resolving_to_an_internal_address_is_not_made(
    db: Db, partner: Partner, monkeypatch: pytest.MonkeyPatch, address: str
) -> None:
    # Given a deployed stage and the partner's endpoint (registered when its name was public), whose name
    # now resolves to this machine or an internal address in an IPv6 form (DNS rebinding)
    monkeypatch.setenv("STAGE", "prod")
    monkeypatch.setenv("WEBHOOK_SIGNING_KEY", "k" * 64)
    reset_settings()
    port = int(partner.receiver.url.split(":")[2].split("/")[0])
    db.partner_webhooks.update_one(
        {"_id": DEMO_PARTNER}, {"$set": {"url": f"https://hooks.partner.invalid:{port}/hooks"}}
    )
    # When a webhook is delivered
    attempt = webhook_delivery.deliver(DEMO_PARTNER, "evt1", "{}", resolve=lambda host, port: [address])
    reset_settings()
    # Then no connection was made, and the attempt failed (to be retried; the operator is alerted)
    assert not attempt.delivered
    assert attempt.reason.startswith("AddressRefused")
    assert partner.receiver.deliveries == partner.receiver.refused == []
