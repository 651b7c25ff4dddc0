"""Partner webhook rules without a database: which endpoint URLs are accepted, how secrets are derived,
what the signature header says, and what the template gives the delivery."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from standardwebhooks.webhooks import Webhook as StandardWebhook
from standardwebhooks.webhooks import WebhookVerificationError

from core.errors import InvalidInput
from core.settings import reset_settings
from domain.partners import delivery, destinations, transport, webhooks
from domain.partners.store import WebhookEndpoint
from edge.error_codes import message
from local.template import ROOT, load_template

NOW = datetime(2026, 1, 15, 9, 30, tzinfo=UTC)


@pytest.fixture
def stage(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    def use(name: str) -> None:
        monkeypatch.setenv("STAGE", name)
        monkeypatch.setenv("WEBHOOK_SIGNING_KEY", "k" * 64)
        reset_settings()

    yield use
    reset_settings()


@pytest.mark.parametrize(
    "url",
    [
        "https://partner.example.uz/hooks",
        "https://partner.example.uz:8443/car-retail/webhooks?source=car-retail",
    ],
)
def test_an_https_endpoint_is_accepted_everywhere(stage: Any, url: str) -> None:
    # Given a deployed stage / When an https URL is registered / Then it is taken as given
    stage("prod")
    assert destinations.check_url(f"  {url} ") == url


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://partner.example.uz/hooks", "https"),
        ("http://127.0.0.1:3001/webhooks", "https"),
        ("ftp://partner.example.uz/hooks", "https"),
        ("partner.example.uz/hooks", "https"),
        ("https://user:pass@partner.example.uz/hooks", "credentials"),
        ("https://partner.example.uz/hooks#part", "fragment"),
        ("https://" + "a" * 2100 + ".uz/", "https"),
    ],
)
def test_a_deployed_stage_refuses_plain_http_and_odd_urls(stage: Any, url: str, why: str) -> None:
    # Given a deployed stage / When such a URL is registered / Then it is refused, naming the field
    stage("prod")
    with pytest.raises(InvalidInput) as refused:
        destinations.check_url(url)
    assert refused.value.errors is not None
    assert refused.value.errors[0]["field"] == "url"
    assert why in message(refused.value.errors[0]["code"], "en")


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]"])
def test_a_laptop_may_use_plain_http_to_itself_only(stage: Any, host: str) -> None:
    # Given the local stage
    stage("local")
    # When / Then http to a loopback host is accepted, http anywhere else is not
    assert destinations.check_url(f"http://{host}:3001/webhooks") == f"http://{host}:3001/webhooks"
    with pytest.raises(InvalidInput):
        destinations.check_url("http://partner.example.uz/hooks")


def test_each_partner_and_salt_has_its_own_secret_and_the_key_decides_them_all(
    stage: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given one signing key
    stage("prod")
    first = webhooks.signing_secret("Partner A", "salt-1")
    # When the partner or the salt differs / Then so does the secret; the same inputs give the same one
    assert first == webhooks.signing_secret("Partner A", "salt-1")
    assert len({first, webhooks.signing_secret("Partner B", "salt-1"), webhooks.signing_secret("Partner A", "s2")}) == 3
    assert first.startswith("whsec_")
    # And another stage key gives other secrets (a copy of the database alone derives none)
    monkeypatch.setenv("WEBHOOK_SIGNING_KEY", "z" * 64)
    reset_settings()
    assert webhooks.signing_secret("Partner A", "salt-1") != first


def test_outside_local_the_signing_key_must_be_configured(stage: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a deployed stage without the key
    stage("prod")
    monkeypatch.delenv("WEBHOOK_SIGNING_KEY")
    reset_settings()
    # When a secret is needed / Then it refuses rather than sign with a development key
    with pytest.raises(RuntimeError, match="WEBHOOK_SIGNING_KEY"):
        webhooks.signing_secret("Partner A", "salt-1")


def test_the_signature_header_is_a_timestamp_and_an_hmac_of_timestamp_dot_body(stage: Any) -> None:
    # Given a body and a time
    stage("prod")
    body = b'{"eventId":"1"}'
    # When it is signed
    header = webhooks.signature_header(["whsec_a"], 1768469400, body)
    # Then the header is t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">
    expected = hmac.new(b"whsec_a", b"1768469400." + body, hashlib.sha256).hexdigest()
    assert header == f"t=1768469400,v1={expected}"


def test_the_previous_secret_signs_too_only_during_its_grace(stage: Any) -> None:
    # Given an endpoint whose secret was rotated, the previous one valid for a day
    stage("prod")
    endpoint = WebhookEndpoint(
        _id="Partner A",
        url="https://partner.example.uz/hooks",
        salt="new",
        previousSalt="old",
        previousUntil=NOW + timedelta(days=1),
        createdAt=NOW,
        updatedAt=NOW,
    )
    new, old = webhooks.signing_secret("Partner A", "new"), webhooks.signing_secret("Partner A", "old")
    # When / Then both sign within the day, the new one alone after it
    assert webhooks.signing_secrets(endpoint, NOW) == [new, old]
    assert webhooks.signing_secrets(endpoint, NOW + timedelta(days=1, seconds=1)) == [new]


def test_the_template_gives_the_delivery_least_privilege_a_dead_letter_queue_and_alarms() -> None:
    # Given the template
    resources = load_template()["Resources"]
    queue = resources["WebhookQueue"]["Properties"]
    function = resources["WebhookDeliveryFunction"]["Properties"]
    mapping = resources["WebhookDeliveryEventSource"]["Properties"]
    # Then the queue is FIFO, deduplicated by the event id, with a dead-letter queue
    assert queue["FifoQueue"] is True
    assert queue["ContentBasedDeduplication"] is False
    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == {"GetAtt": "WebhookDeadLetterQueue.Arn"}
    assert queue["VisibilityTimeout"] >= 6 * function["Timeout"]
    # And the function takes one message at a time, reporting failures itself, from that queue only
    assert (mapping["BatchSize"], mapping["FunctionResponseTypes"]) == (1, ["ReportBatchItemFailures"])
    assert "Events" not in function  # no SAM SQS event: it would grant the managed policy on every queue
    [statement] = next(policy["Statement"] for policy in function["Policies"] if "Statement" in policy)
    assert statement["Resource"] == {"GetAtt": "WebhookQueue.Arn"}
    assert "sqs:ChangeMessageVisibility" in statement["Action"]
    # And a dead-lettered webhook, a backlog and the function's errors raise alarms
    alarms = {name for name, resource in resources.items() if resource["Type"] == "AWS::CloudWatch::Alarm"}
    assert {"WebhookDeadLetterAlarm", "WebhookBacklogAlarm", "WebhookDeliveryFunctionErrorsAlarm"} <= alarms


# --- Standard Webhooks signing ---------------------------------------------------------------------

BODY = b'{"eventId":"6650f1c2a1b2c3d4e5f60799","type":"order.status_changed"}'


def test_the_standard_headers_sign_id_dot_timestamp_dot_body_with_the_secrets_key_bytes(stage: Any) -> None:
    # Given a base64 secret (the form Standard Webhooks gives: whsec_ and the key's bytes in base64)
    stage("prod")
    key = bytes(range(32))
    secret = "whsec_" + base64.b64encode(key).decode()
    # When a delivery is signed
    headers = webhooks.standard_headers([secret], "evt1", 1768469400, BODY)
    # Then webhook-signature is v1, and the base64 HMAC-SHA256 of "<id>.<timestamp>.<body>" under the key
    expected = hmac.new(key, b"evt1.1768469400." + BODY, hashlib.sha256).digest()
    assert headers["webhook-id"] == "evt1"
    assert headers["webhook-timestamp"] == "1768469400"
    assert headers["webhook-signature"] == "v1," + base64.b64encode(expected).decode()


def test_a_new_secret_is_base64_of_32_bytes_and_a_secret_issued_before_keeps_verifying(stage: Any) -> None:
    # Given a salt drawn now and one drawn before secrets were base64 (hex then)
    stage("prod")
    new = webhooks.signing_secret("Partner A", webhooks.BASE64_SALT_PREFIX + "0f" * 16)
    old = webhooks.signing_secret("Partner A", "0f" * 16)
    # Then the new secret is whsec_ and 32 bytes in base64; the old one is 64 hex digits, also base64
    assert len(webhooks.secret_key(new)) == 32
    assert re.fullmatch(r"whsec_[0-9a-f]{64}", old)
    # And the standardwebhooks library verifies what either signs, at the time it was signed
    for secret in (new, old):
        now = int(time.time())
        headers = webhooks.standard_headers([secret], "evt1", now, BODY)
        assert StandardWebhook(secret).verify(BODY, headers) == json.loads(BODY)


def test_after_a_rotation_the_signature_header_carries_one_v1_per_secret_space_separated(stage: Any) -> None:
    # Given two valid secrets (during a rotation's grace)
    stage("prod")
    first, second = (webhooks.signing_secret("Partner A", webhooks.BASE64_SALT_PREFIX + s) for s in ("a", "b"))
    now = int(time.time())
    # When a delivery is signed / Then each secret verifies it with the library
    headers = webhooks.standard_headers([first, second], "evt1", now, BODY)
    assert len(headers["webhook-signature"].split(" ")) == 2
    for secret in (first, second):
        StandardWebhook(secret).verify(BODY, headers)
    # And another secret does not
    with pytest.raises(WebhookVerificationError):
        StandardWebhook(webhooks.signing_secret("Partner B", "b64.a")).verify(BODY, headers)


def test_x_signature_is_sent_until_its_documented_last_day_and_then_no_more(stage: Any) -> None:
    # Given the last day of the deprecated header
    stage("prod")
    last = int(webhooks.LEGACY_SIGNATURE_UNTIL.timestamp())
    secret = webhooks.signing_secret("Partner A", "b64.a")
    # When / Then a delivery signed on it carries X-Signature, one signed after it does not
    assert "X-Signature" in webhooks.standard_headers([secret], "evt1", last, BODY)
    assert "X-Signature" not in webhooks.standard_headers([secret], "evt1", last + 1, BODY)
    # And the date is the one docs/INTERFACE.md announces
    interface = (ROOT / "docs" / "INTERFACE.md").read_text(encoding="utf-8")
    assert f"sent until **{webhooks.LEGACY_SIGNATURE_UNTIL:%-d %B %Y}**" in interface


# --- where deliveries may go -----------------------------------------------------------------------

PUBLIC = "93.184.215.14"


def resolver(names: dict[str, list[str]]) -> Any:
    """DNS as the test says for `names`; an IP literal in any spelling as the C library reads it."""

    def resolve(host: str, port: int) -> list[str]:
        return names[host] if host in names else transport.system_resolver(host, port)

    return resolve


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hooks",
        "https://0x7f000001/hooks",
        "https://2130706433/hooks",
        "https://0177.0.0.1/hooks",
        "https://127.1/hooks",
        "https://[::1]/hooks",
        "https://[::ffff:127.0.0.1]/hooks",
        "https://[::ffff:7f00:1]/hooks",
        "https://169.254.169.254/latest/meta-data/",
        "https://[fe80::1]/hooks",
        "https://10.0.0.8/hooks",
        "https://172.16.3.4/hooks",
        "https://192.168.1.1/hooks",
        "https://100.64.0.1/hooks",
        "https://0.0.0.0/hooks",
        "https://[fd00::1]/hooks",
        "https://[64:ff9b::a9fe:a9fe]/hooks",
        "https://[2002:7f00:1::]/hooks",
        "https://[::a9fe:a9fe]/hooks",
        "https://[::169.254.169.254]/hooks",
        "https://[::ffff:0:7f00:1]/hooks",
        "https://[::ffff:0:808:808]/hooks",
        "https://[fec0::1]/hooks",
        "https://[64:ff9b:1::808:808]/hooks",
        "https://[2606:4700::5efe:a00:1]/hooks",
        "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hooks",
        "https://compatible.partner.uz/hooks",
        "https://translated.partner.uz/hooks",
        "https://site-local.partner.uz/hooks",
        "https://internal.partner.uz/hooks",
        "https://rebound.partner.uz/hooks",
    ],
)
def test_outside_local_an_endpoint_on_an_internal_address_is_refused_in_any_spelling(stage: Any, url: str) -> None:
    # Given a deployed stage, and names that resolve to internal addresses (one of two, for one of them)
    stage("prod")
    names = {
        "internal.partner.uz": ["10.1.2.3"],
        "rebound.partner.uz": [PUBLIC, "127.0.0.1"],
        "compatible.partner.uz": ["::a9fe:a9fe"],
        "translated.partner.uz": ["::ffff:0:7f00:1"],
        "site-local.partner.uz": ["fec0::1"],
    }
    # When such an endpoint is registered / Then it is refused, naming the field
    with pytest.raises(InvalidInput) as refused:
        destinations.check_destination(url, resolver(names))
    assert refused.value.errors is not None
    assert refused.value.errors[0]["code"] == "WEBHOOK_URL_INTERNAL_ADDRESS"


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("https://partner.example.uz/ho\noks", "WEBHOOK_URL_CONTROL_CHARACTERS"),
        ("https://partner.example.uz/ho oks", "WEBHOOK_URL_CONTROL_CHARACTERS"),
        ("https://partner.example.uz\r\nX-Injected: 1/hooks", "WEBHOOK_URL_CONTROL_CHARACTERS"),
        ("https://partner.example.uz/\x00", "WEBHOOK_URL_CONTROL_CHARACTERS"),
        ("https://partner.example.uz/\x7f", "WEBHOOK_URL_CONTROL_CHARACTERS"),
        ("https://nowhere.partner.uz/hooks", "WEBHOOK_URL_UNRESOLVABLE"),
        ("https://partner.example.uz:99999/hooks", "WEBHOOK_URL_NOT_ABSOLUTE"),
        ("https://part%6eer.example.uz/hooks", "WEBHOOK_URL_NOT_ABSOLUTE"),
    ],
)
def test_outside_local_control_characters_and_hosts_that_do_not_resolve_are_refused(
    stage: Any, url: str, code: str
) -> None:
    # Given a deployed stage
    stage("prod")
    names = {"partner.example.uz": [PUBLIC], "nowhere.partner.uz": []}
    # When / Then
    with pytest.raises(InvalidInput) as refused:
        destinations.check_destination(url, resolver(names))
    assert refused.value.errors is not None
    assert refused.value.errors[0]["code"] == code


def test_outside_local_a_name_resolving_to_public_addresses_only_is_accepted(stage: Any) -> None:
    # Given a deployed stage and a partner's name with a public IPv4 and IPv6 address
    stage("prod")
    names = {"hooks.partner.uz": [PUBLIC, "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]}
    # When / Then it is registered as given
    url = "https://hooks.partner.uz/car-retail?x=1"
    assert destinations.check_destination(url, resolver(names)) == url


def test_the_local_stage_keeps_its_own_receiver_on_localhost(stage: Any) -> None:
    # Given the local stage (make run points the demo partner at its receiver on 127.0.0.1)
    stage("local")
    # When / Then loopback is accepted there, without resolving anything
    assert destinations.check_destination("http://127.0.0.1:3001/webhooks", resolver({})) == (
        "http://127.0.0.1:3001/webhooks"
    )


# --- retries ---------------------------------------------------------------------------------------


def test_the_retry_schedule_spans_about_three_days_within_the_queues_receive_count() -> None:
    # Given the default schedule and the queue's redrive policy
    reset_settings()
    receives = load_template()["Resources"]["WebhookQueue"]["Properties"]["RedrivePolicy"]["maxReceiveCount"]
    # When every attempt fails / Then the last one is about three days after the first, however the
    # retries' jitter falls
    shortest = sum(delivery.retry_delay_seconds(attempt, spread=0.999) for attempt in range(1, receives))
    waited = sum(delivery.retry_delay_seconds(attempt, spread=0) for attempt in range(1, receives))
    assert timedelta(days=2.5) <= timedelta(seconds=shortest) < timedelta(seconds=waited) <= timedelta(days=3.5)
    # And the queue keeps a message longer than that even behind an order's earlier event (14 days)
    retention = load_template()["Resources"]["WebhookQueue"]["Properties"]["MessageRetentionPeriod"]
    assert retention >= 2 * waited


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("120", 120),
        (" 7200 ", 7200),
        ("Thu, 15 Jan 2026 10:30:00 GMT", 3600),
        ("Thu, 15 Jan 2026 09:00:00 GMT", 0),
        ("soon", None),
        ("", None),
        (None, None),
    ],
)
def test_retry_after_is_read_as_seconds_or_an_http_date(header: str | None, seconds: int | None) -> None:
    # Given an answer's Retry-After at NOW / When read / Then the seconds it asks to wait
    assert delivery.retry_after_seconds(header, NOW) == seconds


def test_a_retry_waits_at_least_what_retry_after_asks_and_at_most_sqs_longest_delay() -> None:
    # Given the default schedule
    reset_settings()
    # When the endpoint asks for more than the backoff / Then it gets it, up to 12 hours
    assert delivery.retry_delay_seconds(1, retry_after=600, spread=0) == 600
    assert delivery.retry_delay_seconds(1, retry_after=5, spread=0) == 30
    assert delivery.retry_delay_seconds(3, retry_after=None, spread=0) == 120
    assert delivery.retry_delay_seconds(1, retry_after=10**9, spread=0.5) == 43200


def test_retries_are_spread_by_jitter_below_the_backoff_never_below_retry_after() -> None:
    # Given the default schedule and its 10 % jitter
    reset_settings()
    # When many events' fourth attempts fail together (a partner's outage)
    delays = {delivery.retry_delay_seconds(4) for _ in range(200)}
    # Then they come back spread over the tenth of the backoff below it, not all at once
    assert len(delays) > 10
    assert min(delays) >= 216
    assert max(delays) <= 240
    # And a Retry-After above the jittered delay is still honoured
    assert delivery.retry_delay_seconds(4, retry_after=240, spread=0.9) == 240
