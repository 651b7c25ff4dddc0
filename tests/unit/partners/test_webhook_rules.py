"""Partner webhook rules without a database: which endpoint URLs are accepted, how secrets are derived,
what the signature header says, and what the template gives the delivery."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from core.errors import InvalidInput
from core.settings import reset_settings
from domain.partners import webhooks
from domain.partners.store import WebhookEndpoint
from edge.error_codes import message
from local.template import load_template

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
    assert webhooks.check_url(f"  {url} ") == url


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
        webhooks.check_url(url)
    assert refused.value.errors is not None
    assert refused.value.errors[0]["field"] == "url"
    assert why in message(refused.value.errors[0]["code"], "en")


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "[::1]"])
def test_a_laptop_may_use_plain_http_to_itself_only(stage: Any, host: str) -> None:
    # Given the local stage
    stage("local")
    # When / Then http to a loopback host is accepted, http anywhere else is not
    assert webhooks.check_url(f"http://{host}:3001/webhooks") == f"http://{host}:3001/webhooks"
    with pytest.raises(InvalidInput):
        webhooks.check_url("http://partner.example.uz/hooks")


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
