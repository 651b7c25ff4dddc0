"""`python -m ops partners ...`: a partner added by the command can call the API; disabled, it cannot;
a rotated key keeps the old one working for the grace period it names, no longer."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pymongo.database import Database

from core.clock import FrozenClock
from ops.__main__ import main as ops_main
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
BRANDS = "/api/v1/brands"


def partners(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    capsys.readouterr()
    status = ops_main(["partners", *args])
    return status, capsys.readouterr().out.strip().splitlines()


def call_with(api: ApiClient, key: str) -> int:
    return api.get(BRANDS, headers={"client": key}).status_code


def test_a_partner_added_by_the_command_calls_the_api_until_disabled(
    api: ApiClient, db: Db, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a partner added by the command, its key alone on the last line
    status, out = partners(capsys, "add", "Avto Market")
    assert status == 0
    key = out[-1]
    assert len(key) >= 40
    assert " " not in key
    # Then it can call the API, and only the key's hash is stored
    assert call_with(api, key) == 200
    assert key not in str(list(db.partners.find()))
    # When it is disabled, its key is refused (PARTNER_CACHE_SECONDS is 0 in the tests)
    assert partners(capsys, "disable", "Avto Market")[0] == 0
    assert call_with(api, key) == 403
    # And enabled again, accepted again
    assert partners(capsys, "enable", "Avto Market")[0] == 0
    assert call_with(api, key) == 200


def test_partners_list_shows_names_state_and_creation_never_keys(db: Db, capsys: pytest.CaptureFixture[str]) -> None:
    # Given two partners, one disabled
    key = partners(capsys, "add", "Avto Market")[1][-1]
    partners(capsys, "add", "Car Club")
    partners(capsys, "disable", "Car Club")
    # When they are listed, for people and for machines
    status, out = partners(capsys, "list")
    listed = json.loads(partners(capsys, "list", "--json")[1][0])
    # Then each shows its name, state and creation time, and no key
    assert status == 0
    assert out[0].split() == ["name", "state", "createdAt", "previousKeyUntil", "login"]
    assert any(line.startswith("Car Club") and " disabled " in line for line in out)
    rows = {row["name"]: row for row in listed}
    assert rows["Avto Market"]["state"] == "enabled"
    assert rows["Car Club"]["state"] == "disabled"
    assert rows["Car Club"]["createdAt"].startswith("20")
    assert key not in "\n".join(out) + str(listed)


def test_a_name_is_one_partner_and_an_unknown_one_is_refused(db: Db, capsys: pytest.CaptureFixture[str]) -> None:
    # Given a partner / When another is added with its name, or an unknown one disabled / Then exit 1
    partners(capsys, "add", "Avto Market")
    assert ops_main(["partners", "add", "Avto Market"]) == 1
    assert "PARTNER_NAME_TAKEN: A partner named Avto Market exists" in capsys.readouterr().err
    assert ops_main(["partners", "disable", "Nobody"]) == 1
    assert "PARTNER_NOT_FOUND" in capsys.readouterr().err


def test_a_rotated_key_keeps_the_old_one_for_the_grace_period_only(
    api: ApiClient, db: Db, capsys: pytest.CaptureFixture[str], frozen_clock: FrozenClock
) -> None:
    # Given a partner with a key
    old = partners(capsys, "add", "Avto Market")[1][-1]
    # When its key is rotated with 2 hours' grace
    status, out = partners(capsys, "rotate", "Avto Market", "--grace-hours", "2")
    assert status == 0
    new = out[-1]
    assert new != old
    assert "until" in out[0]
    # Then both keys work within the grace period
    assert call_with(api, new) == 200
    assert call_with(api, old) == 200
    # And after it only the new one does
    frozen_clock.advance(2 * 3600 + 1)
    assert call_with(api, old) == 403
    assert call_with(api, new) == 200


def test_with_json_a_new_key_is_one_json_object(db: Db, capsys: pytest.CaptureFixture[str]) -> None:
    # Given / When a partner is added for a machine (--json)
    status, out = partners(capsys, "add", "Avto Market", "--json")
    # Then one JSON object names the partner and its key
    assert status == 0
    added = json.loads("\n".join(out))
    assert added["partner"] == "Avto Market"
    assert len(added["key"]) >= 40


@pytest.mark.parametrize("stage", ["dev", "staging", "prod"])
def test_outside_local_a_partner_is_added_only_with_the_login_policy_the_operator_names(
    db: Db, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stage: str
) -> None:
    from core.settings import reset_settings

    # Given an operator of a deployed stage
    monkeypatch.setenv("STAGE", stage)
    reset_settings()
    capsys.readouterr()
    # When they add a partner without saying how its users sign in
    status = ops_main(["partners", "add", "Avto Market"])
    # Then it is refused in one line naming --login (exit 2), and no partner is stored
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith(
        f"error: BAD_ARGUMENT: partners add: --login is required outside the local stage (STAGE={stage})"
    )
    assert len(err.strip().splitlines()) == 1
    assert db.partners.count_documents({"name": "Avto Market"}) == 0
    # When they name the policy / Then the partner has it: `trusted` only when they say so
    assert partners(capsys, "add", "Avto Market", "--login", "otp")[0] == 0
    assert partners(capsys, "add", "Backend Partner", "--login", "trusted")[0] == 0
    listed = {row["name"]: row["login"] for row in json.loads(partners(capsys, "list", "--json")[1][0])}
    assert (listed["Avto Market"], listed["Backend Partner"]) == ("otp", "trusted")


def test_on_a_laptop_a_partner_added_without_login_is_trusted(db: Db, capsys: pytest.CaptureFixture[str]) -> None:
    # Given STAGE=local (make run, the tests) / When a partner is added without --login / Then it is trusted
    assert partners(capsys, "add", "Avto Market")[0] == 0
    listed = {row["name"]: row["login"] for row in json.loads(partners(capsys, "list", "--json")[1][0])}
    assert listed["Avto Market"] == "trusted"
