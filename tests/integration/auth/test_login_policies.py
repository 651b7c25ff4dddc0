"""Sign-in by the partner's login policy (issue 37), through HTTP against the local API Gateway: partners
set up by the operators' commands, `assertion` partners' signed JWTs, `otp` partners' SMS codes (the
sandbox gateway), tokens bound to their partner, and a PINFL given at login as a claim only."""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from pymongo.database import Database

from core import clock
from core.clock import FrozenClock
from ops.__main__ import main as ops_main
from tests.factories import ApiClient, valid_pinfl

Db = Database[dict[str, Any]]
LOGIN = "/api/v1/auth/login"
REFRESH = "/api/v1/auth/refresh-token"
ME = "/api/v1/auth/me"
LIMIT = "/api/v1/users/limit"
AUDIENCE = "car-retail:local"


def ops(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    capsys.readouterr()
    status = ops_main(["partners", *args])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out.strip().splitlines()


def add_partner(capsys: pytest.CaptureFixture[str], name: str, policy: str) -> str:
    """A partner added by the operators' command with this policy; its key."""
    return ops(capsys, "add", name, "--login", policy)[-1]


def login(api: ApiClient, key: str, **body: Any) -> Any:
    return api.post(LOGIN, json=body, headers={"client": key}, auth=False)


# -- otp: one-time codes by SMS (the sandbox gateway: sends nothing, its code is 666666)


def test_an_otp_partners_login_sends_a_code_then_signs_in_with_it(
    api: ApiClient, db: Db, capsys: pytest.CaptureFixture[str], frozen_clock: FrozenClock
) -> None:
    # Given a partner whose users sign in by SMS code
    key = add_partner(capsys, "Bank App", "otp")
    # When a login names a phone without a code
    sent = login(api, key, phone="+998901234500")
    # Then it answers 202, says when the code expires and when another may be asked, and gives no token
    assert sent.status_code == 202
    body = sent.json()
    assert (body["statusCode"], body["message"]) == (202, "auth.login.code_sent")
    assert set(body["data"]) == {"codeSent", "expiresAt", "resendAt"}
    assert "accessToken" not in sent.text
    # And the code is stored hashed, the phone too
    stored = db.login_codes.find_one() or {}
    assert "666666" not in str(stored)
    assert "901234500" not in str(stored)
    # When the same login comes with the sandbox's code
    signed_in = login(api, key, phone="+998901234500", otp="666666")
    # Then it is 201 with tokens of that phone's account
    assert signed_in.status_code == 201
    token = signed_in.json()["data"]["accessToken"]
    me = api.get(ME, headers={"client": key, "Authorization": f"Bearer {token}"})
    assert me.json()["data"]["phone"] == "+998901234500"
    # And the code worked once
    again = login(api, key, phone="+998901234500", otp="666666")
    assert (again.status_code, again.json()["code"]) == (400, "LOGIN_CODE_EXPIRED")


def test_an_otp_partners_login_without_a_code_never_signs_in(
    api: ApiClient, db: Db, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an otp partner / When its key alone names a phone, or a PINFL alone
    key = add_partner(capsys, "Bank App", "otp")
    by_phone = login(api, key, phone="+998901234501")
    by_pin = login(api, key, pin=valid_pinfl())
    # Then no account is signed in: a code is sent, and a PINFL alone has nowhere to send it
    assert by_phone.status_code == 202
    assert (by_pin.status_code, by_pin.json()["code"]) == (400, "PHONE_REQUIRED_FOR_CODE")
    assert db.users.count_documents({}) == 0


def test_wrong_codes_spend_the_phones_guesses_at_this_address_for_an_hour(
    api: ApiClient, capsys: pytest.CaptureFixture[str], frozen_clock: FrozenClock
) -> None:
    # Given a code sent to a phone
    key = add_partner(capsys, "Bank App", "otp")
    assert login(api, key, phone="+998901234502").status_code == 202
    # When wrong codes are given from one address
    wrong = [login(api, key, phone="+998901234502", otp=f"{index:06d}") for index in range(1, 6)]
    # Then each is a 400 saying how many tries are left, and the fifth spends this address's guesses (429)
    assert [(answer.status_code, answer.json()["code"]) for answer in wrong[:4]] == [(400, "LOGIN_CODE_WRONG")] * 4
    assert [answer.json()["details"] for answer in wrong[:4]] == [{"attemptsLeft": left} for left in (4, 3, 2, 1)]
    assert (wrong[4].status_code, wrong[4].json()["code"]) == (429, "LOGIN_CODE_LOCKED")
    # And while they are spent even the right code is refused, until the first wrong one is an hour old
    right = login(api, key, phone="+998901234502", otp="666666")
    assert (right.status_code, right.json()["code"]) == (429, "LOGIN_CODE_LOCKED")
    assert int(right.headers["Retry-After"]) == 3600
    # And another person's phone is not locked
    assert login(api, key, phone="+998901234503").status_code == 202
    # When the hour is over, a new code is sent and signs in
    frozen_clock.advance(3601)
    assert login(api, key, phone="+998901234502").status_code == 202
    assert login(api, key, phone="+998901234502", otp="666666").status_code == 201


def test_a_login_asking_again_during_the_cooldown_is_told_of_the_code_already_sent(
    api: ApiClient, capsys: pytest.CaptureFixture[str], frozen_clock: FrozenClock
) -> None:
    # Given a code just sent
    key = add_partner(capsys, "Bank App", "otp")
    sent = login(api, key, phone="+998901234504")
    assert sent.status_code == 202
    # When another is asked at once (someone else may have asked for this phone)
    again = login(api, key, phone="+998901234504")
    # Then it is the same code's 202: the phone holds it, nothing new is sent
    assert again.status_code == 202
    assert again.json()["data"] == sent.json()["data"]
    # When the code's 5 minutes pass / Then it no longer signs in
    frozen_clock.advance(301)
    late = login(api, key, phone="+998901234504", otp="666666")
    assert (late.status_code, late.json()["code"]) == (400, "LOGIN_CODE_EXPIRED")


@functools.cache
def _auth_handler() -> Callable[[dict[str, Any], Any], dict[str, Any]]:
    from local.gateway import load_handler
    from local.invoke import handler_name

    return load_handler(handler_name("Auth"))


def _login_from(address: str, device: str, key: str, **body: Any) -> tuple[int, str | None]:
    """A login as API Gateway hands it to the function, from `address` (its source IP) and `device`."""
    from local.context import LocalLambdaContext
    from tests.factories import api_event

    event = api_event("POST", LOGIN, body=body, headers={"client": key, "fingerprint": device})
    event["requestContext"]["identity"]["sourceIp"] = address
    answer = _auth_handler()(event, LocalLambdaContext(function_name="Auth"))
    return answer["statusCode"], json.loads(answer["body"]).get("code")


def _login_checking(
    capsys: pytest.CaptureFixture[str], address: str, device: str, key: str, **body: Any
) -> tuple[tuple[int, str | None], bool]:
    """`_login_from`'s answer, and whether the answer was checked against the phone's code and found wrong
    (the `LoginCodesWrong` metric the request published, as CloudWatch would count it)."""
    capsys.readouterr()
    answer = _login_from(address, device, key, **body)
    return answer, '"LoginCodesWrong"' in capsys.readouterr().out


def test_a_phone_takes_at_most_10_wrong_answers_in_any_hour_however_many_codes_and_addresses(
    db: Db, capsys: pytest.CaptureFixture[str], frozen_clock: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given published metrics (as deployed), an otp partner, and guessers at four addresses asking a new code
    # every minute for three hours
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "false")
    key = add_partner(capsys, "Bank App", "otp")
    phone = "+998901234510"
    answers: list[tuple[int, str | None]] = []
    wrong_at: list[int] = []  # the minute of each wrong answer the phone's code was checked against
    for minute in range(180):
        frozen_clock.advance(60 if minute else 0)
        address, device = f"203.0.113.{minute % 4}", f"guesser-{minute}"
        assert _login_from(address, device, key, phone=phone)[0] in (202, 429)
        # When each guesses twice per code
        for guess in (f"{minute:04d}01", f"{minute:04d}02"):
            answer, wrong = _login_checking(capsys, address, device, key, phone=phone, otp=guess)
            answers.append(answer)
            wrong_at += [minute] * wrong
    # Then in no hour were more than 10 wrong answers checked (LOGIN_CODE_GUESSES_PER_PHONE), and each hour
    # the budget let through as many as left it, however many codes were asked for
    assert max(sum(start <= minute < start + 60 for minute in wrong_at) for start in range(180)) == 10
    assert len(wrong_at) == 30
    # And in the first hour nine wrong answers were told so, the tenth spent the budget, and every later
    # answer was refused
    first_hour = answers[:120]
    assert sum(answer == (400, "LOGIN_CODE_WRONG") for answer in first_hour) == 9
    assert sum(answer == (429, "LOGIN_CODE_LOCKED") for answer in first_hour) == len(first_hour) - 9
    # And the right code is refused too, from any address, until the oldest of the last hour's guesses is an
    # hour old
    assert _login_from("198.51.100.9", "owner", key, phone=phone, otp="666666") == (429, "LOGIN_CODE_LOCKED")
    frozen_clock.advance(61)
    assert _login_from("198.51.100.9", "owner", key, phone=phone)[0] == 202
    assert _login_from("198.51.100.9", "owner", key, phone=phone, otp="666666") == (201, None)


def test_spent_code_guesses_lock_only_sign_in_by_code_never_the_persons_other_ways_in(
    db: Db, capsys: pytest.CaptureFixture[str], frozen_clock: FrozenClock
) -> None:
    # Given a phone whose code guesses a stranger spent from two addresses (an otp partner's app)
    otp_key = add_partner(capsys, "Bank App", "otp")
    phone = "+998901234511"
    for index in range(10):
        address = f"203.0.113.{index // 5}"
        _login_from(address, "stranger", otp_key, phone=phone)
        _login_from(address, "stranger", otp_key, phone=phone, otp=f"{index:06d}")
    owner = ("198.51.100.9", "owner")
    assert _login_from(*owner, otp_key, phone=phone, otp="666666") == (429, "LOGIN_CODE_LOCKED")
    # When the person signs in at once through a partner whose backend vouches for them, and one whose key does
    assertion_key = add_partner(capsys, "Avto Market", "assertion")
    secret = ops(capsys, "set-login", "Avto Market", "assertion", "--hs256")[-1]
    now = int(clock.now().timestamp())
    by_assertion = _login_from(
        *owner, assertion_key, phone=phone, assertion=assertion_of(secret, "HS256", now, phone=phone)
    )
    by_key = _login_from(*owner, add_partner(capsys, "Dealer Site", "trusted"), phone=phone)
    # Then both sign in: only guessing codes is locked
    assert by_assertion == by_key == (201, None)


@pytest.mark.parametrize(("minutes", "refused_by_address"), [(1, 900), (10, 0)], ids=["in-a-minute", "over-10-minutes"])
def test_from_one_address_1000_logins_naming_10_people_leave_each_able_to_sign_in_at_once(  # noqa: PLR0917 (fixtures)
    db: Db,
    capsys: pytest.CaptureFixture[str],
    frozen_clock: FrozenClock,
    monkeypatch: pytest.MonkeyPatch,
    minutes: int,
    refused_by_address: int,
) -> None:
    from core.settings import reset_settings

    # Given the deployed login limits (the tests' own are lifted: they all log in from 127.0.0.1)
    for name in ("LOGIN_RATE_LIMIT", "LOGIN_IP_RATE_LIMIT", "LOGIN_DEVICE_RATE_LIMIT"):
        monkeypatch.delenv(name, raising=False)
    reset_settings()
    # And an otp partner, and a stranger at one address naming 10 people's phones 1,000 times, within a minute
    # (the address's limit stops most) or over ten (every one passes it), with a new device each time:
    # asking codes and giving wrong ones
    key = add_partner(capsys, "Bank App", "otp")
    victims = [f"+99890765432{index}" for index in range(10)]
    attack = []
    for index in range(1000):
        if index and index % (1000 // minutes) == 0:
            frozen_clock.advance(60)
        phone = victims[index % 10]
        body = {"phone": phone} if index % 20 < 10 else {"phone": phone, "otp": f"{index % 999_999:06d}"}
        attack.append(_login_from("203.0.113.66", f"stranger-{index}", key, **body))
    # When each person signs in from their own address and device at once
    signed = []
    for index, phone in enumerate(victims):
        asked = _login_from(f"198.51.100.{index + 10}", f"phone-of-{index}", key, phone=phone)
        signed.append(
            (asked[0], _login_from(f"198.51.100.{index + 10}", f"phone-of-{index}", key, phone=phone, otp="666666"))
        )
    # Then every one of them is signed in
    assert signed == [(202, (201, None))] * 10
    # And the stranger was stopped by their own address's limits: its login limit, and at most 5 answers
    # checked per phone from its address in the hour (four told wrong, the fifth spending that budget)
    assert sum(answer == (429, "TOO_MANY_LOGINS_FROM_ADDRESS") for answer in attack) == refused_by_address
    assert sum(answer == (400, "LOGIN_CODE_WRONG") for answer in attack) == 40


def test_a_malformed_code_is_400(api: ApiClient, capsys: pytest.CaptureFixture[str]) -> None:
    key = add_partner(capsys, "Bank App", "otp")
    for code in ("12345", "1234567", "12a456"):
        refused = login(api, key, phone="+998901234505", otp=code)
        assert refused.status_code == 400, code


def test_the_sandbox_gateway_is_refused_in_prod(settings_env: Callable[..., None]) -> None:
    from core.errors import Unavailable
    from domain.identity.login_codes import get_gateway

    # Given a production stage configured with the sandbox SMS gateway
    settings_env(STAGE="prod")
    # When a code is to be sent / Then there is no gateway: 666666 never signs anyone in in prod
    with pytest.raises(Unavailable):
        get_gateway()


# -- assertion: a JWT the partner's backend signs


KeyMaker = Callable[[], tuple[str, Any, str]]


def ed25519_key() -> tuple[str, Any, str]:
    private = ed25519.Ed25519PrivateKey.generate()
    return "EdDSA", private, _pem(private.public_key())


def es256_key() -> tuple[str, Any, str]:
    private = ec.generate_private_key(ec.SECP256R1())
    return "ES256", private, _pem(private.public_key())


def rs256_key() -> tuple[str, Any, str]:
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return "RS256", private, _pem(private.public_key())


def _pem(public: Any) -> str:
    return public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def assertion_of(key: Any, algorithm: str, now: int, **claims: Any) -> str:
    payload = {"aud": AUDIENCE, "iat": now, "exp": now + 120, "jti": uuid.uuid4().hex, **claims}
    return jwt.encode(payload, key, algorithm=algorithm)


@pytest.mark.parametrize("make_key", [ed25519_key, es256_key, rs256_key], ids=["EdDSA", "ES256", "RS256"])
def test_a_good_assertion_signs_in_once_and_no_other_does(  # noqa: PLR0917 (pytest's fixtures)
    api: ApiClient,
    db: Db,
    capsys: pytest.CaptureFixture[str],
    frozen_clock: FrozenClock,
    tmp_path: Path,
    make_key: KeyMaker,
) -> None:
    # Given a partner whose backend signs assertions with a key the operator registered from a file
    algorithm, private, public_pem = make_key()
    key = add_partner(capsys, "Avto Market", "assertion")
    (tmp_path / "partner.pem").write_text(public_pem)
    ops(capsys, "set-login", "Avto Market", "assertion", "--public-key", str(tmp_path / "partner.pem"))
    now = int(clock.now().timestamp())
    phone = "+998901234510"
    good = assertion_of(private, algorithm, now, phone=phone)
    # When the app signs in with it
    signed_in = login(api, key, phone=phone, assertion=good)
    # Then it is 201, and the same assertion again is refused (single-use jti)
    assert signed_in.status_code == 201
    replayed = login(api, key, phone=phone, assertion=good)
    assert (replayed.status_code, replayed.json()["code"]) == (401, "ASSERTION_REPLAYED")
    # And every defective assertion is refused
    other_private = make_key()[1]
    defective = {
        "ASSERTION_REQUIRED": None,
        "ASSERTION_EXPIRED": assertion_of(private, algorithm, now - 600, phone=phone),
        "ASSERTION_INVALID": assertion_of(other_private, algorithm, now, phone=phone),
        "ASSERTION_OTHER_PERSON": assertion_of(private, algorithm, now, phone="+998901234599"),
    }
    for code, assertion in defective.items():
        refused = login(api, key, phone=phone, **({} if assertion is None else {"assertion": assertion}))
        assert (refused.status_code, refused.json()["code"]) == (401, code), code
    wrong_audience = assertion_of(private, algorithm, now, phone=phone, aud="car-retail:prod")
    too_long = assertion_of(private, algorithm, now, phone=phone, exp=now + 301)
    for assertion in (wrong_audience, too_long):
        assert login(api, key, phone=phone, assertion=assertion).json()["code"] == "ASSERTION_INVALID"
    assert db.users.count_documents({}) == 1


@pytest.mark.parametrize(
    "times",
    [
        lambda now: {"exp": str(now + 120)},
        lambda now: {"iat": str(now)},
        lambda now: {"nbf": str(now)},
        lambda now: {"exp": True},
        lambda now: {"iat": [now]},
    ],
    ids=["exp-numeric-string", "iat-numeric-string", "nbf-numeric-string", "exp-boolean", "iat-array"],
)
def test_an_assertions_times_must_be_json_numbers(
    api: ApiClient,
    capsys: pytest.CaptureFixture[str],
    frozen_clock: FrozenClock,
    times: Callable[[int], dict[str, Any]],
) -> None:
    # Given an assertion partner, and an assertion whose time claim is no JSON number (RFC 7519: NumericDate)
    key = add_partner(capsys, "Avto Market", "trusted")
    secret = ops(capsys, "set-login", "Avto Market", "assertion", "--hs256")[-1]
    now = int(clock.now().timestamp())
    assertion = assertion_of(secret, "HS256", now, phone="+998901234512", **times(now))
    # When it signs in / Then it is refused, as the same assertion with numbers is not
    refused = login(api, key, phone="+998901234512", assertion=assertion)
    assert (refused.status_code, refused.json()["code"]) == (401, "ASSERTION_INVALID")
    good = assertion_of(secret, "HS256", now, phone="+998901234512", nbf=now)
    assert login(api, key, phone="+998901234512", assertion=good).status_code == 201


def test_an_assertion_not_valid_before_a_future_time_is_refused_until_then(
    api: ApiClient, capsys: pytest.CaptureFixture[str], frozen_clock: FrozenClock
) -> None:
    # Given an assertion valid only from a minute on (`nbf`), judged by the service's clock
    key = add_partner(capsys, "Avto Market", "trusted")
    secret = ops(capsys, "set-login", "Avto Market", "assertion", "--hs256")[-1]
    now = int(clock.now().timestamp())
    early = assertion_of(secret, "HS256", now, phone="+998901234513", nbf=now + 60, exp=now + 180)
    # When it is sent now / Then it is refused; a minute later it signs in
    assert login(api, key, phone="+998901234513", assertion=early).json()["code"] == "ASSERTION_EXPIRED"
    frozen_clock.advance(61)
    assert login(api, key, phone="+998901234513", assertion=early).status_code == 201


def test_an_hs256_secret_is_generated_shown_once_and_verifies(
    api: ApiClient, db: Db, capsys: pytest.CaptureFixture[str], frozen_clock: FrozenClock
) -> None:
    # Given a partner switched to assertions with a generated HS256 secret (alone on the last line)
    key = add_partner(capsys, "Avto Market", "trusted")
    secret = ops(capsys, "set-login", "Avto Market", "assertion", "--hs256")[-1]
    assert secret.startswith("hs256_")
    assert secret not in str(list(db.partners.find()))
    now = int(clock.now().timestamp())
    pin = valid_pinfl("3010199000031")
    # When its backend signs an assertion for a PINFL with it / Then that PINFL signs in
    assertion = assertion_of(secret, "HS256", now, pin=pin)
    assert login(api, key, pin=pin, assertion=assertion).status_code == 201
    # And an assertion signed with the algorithm "none" or another secret is refused
    unsigned = jwt.encode({"aud": AUDIENCE, "iat": now, "exp": now + 60, "jti": "x", "pin": pin}, "", algorithm="none")
    forged = assertion_of("hs256_" + "A" * 43, "HS256", now, pin=pin)
    for refused in (unsigned, forged):
        assert login(api, key, pin=pin, assertion=refused).json()["code"] == "ASSERTION_INVALID"


def test_an_assertion_partner_without_a_key_refuses_every_login(
    api: ApiClient, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given an assertion partner whose key was never registered
    key = add_partner(capsys, "Avto Market", "assertion")
    # When its key alone, or with a made-up assertion, signs someone in / Then both are refused
    assert login(api, key, phone="+998901234511").json()["code"] == "ASSERTION_REQUIRED"
    assert login(api, key, phone="+998901234511", assertion="a.b.c").json()["code"] == "ASSERTION_INVALID"


# -- the operators' commands


def test_partners_list_shows_each_partners_login_policy(
    db: Db, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Given partners of each policy, one assertion partner with an ES256 key
    add_partner(capsys, "Trusted App", "trusted")
    add_partner(capsys, "Bank App", "otp")
    add_partner(capsys, "Avto Market", "assertion")
    ops(capsys, "add", "Old App")
    (tmp_path / "key.pem").write_text(es256_key()[2])
    ops(capsys, "set-login", "Avto Market", "assertion", "--public-key", str(tmp_path / "key.pem"))
    add_partner(capsys, "Keyless", "assertion")
    # When they are listed, for machines and for people
    mine = {"Trusted App", "Old App", "Bank App", "Avto Market", "Keyless"}
    rows = {row["name"]: row["login"] for row in json.loads(ops(capsys, "list", "--json")[0]) if row["name"] in mine}
    table = ops(capsys, "list")
    # Then each shows its policy (trusted by default) and an assertion partner its key's algorithm
    assert rows == {
        "Trusted App": "trusted",
        "Old App": "trusted",
        "Bank App": "otp",
        "Avto Market": "assertion (ES256)",
        "Keyless": "assertion (no key: logins refused)",
    }
    assert table[0].split()[-1] == "login"
    assert any(line.startswith("Bank App") and line.endswith("otp") for line in table)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["set-login", "Nobody", "otp"], "PARTNER_NOT_FOUND"),
        (["set-login", "Avto Market", "assertion"], "ASSERTION_KEY_REQUIRED"),
        (["set-login", "Avto Market", "otp", "--hs256"], "ASSERTION_KEY_ONLY_FOR_ASSERTION"),
        (["set-login", "Avto Market", "assertion", "--public-key", "{weak}"], "ASSERTION_KEY_UNSUPPORTED"),
        (["set-login", "Avto Market", "assertion", "--public-key", "{text}"], "ASSERTION_KEY_UNSUPPORTED"),
    ],
)
def test_set_login_refuses_what_cannot_work_in_one_line(
    db: Db, capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], code: str
) -> None:
    # Given a partner, a 1024-bit RSA key and a file that is no key
    add_partner(capsys, "Avto Market", "trusted")
    weak = rsa.generate_private_key(public_exponent=65537, key_size=1024).public_key()  # noqa: S505 (the point)
    (tmp_path / "weak.pem").write_text(_pem(weak))
    (tmp_path / "text.pem").write_text("not a key")
    files = {"{weak}": str(tmp_path / "weak.pem"), "{text}": str(tmp_path / "text.pem")}
    # When the command is run with what cannot work
    capsys.readouterr()
    status = ops_main(["partners", *[files.get(arg, arg) for arg in args]])
    # Then it exits 1 with the code on one line, and the partner keeps its policy
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 1
    assert len(err) == 1
    assert err[0].startswith(f"error: {code}: ")
    assert (db.partners.find_one({"name": "Avto Market"}) or {})["login"]["policy"] == "trusted"


# -- tokens belong to their partner


def test_a_token_works_only_with_its_own_partners_key(api: ApiClient, capsys: pytest.CaptureFixture[str]) -> None:
    # Given a user signed in through the demo partner, and another partner's key
    other = add_partner(capsys, "Other App", "trusted")
    tokens = api.login("+998901234520")
    # When the tokens are used with the other partner's key
    me = api.get(ME, headers={"client": other, "Authorization": f"Bearer {tokens['accessToken']}"})
    refreshed = api.post(REFRESH, json={"token": tokens["refreshToken"]}, headers={"client": other}, auth=False)
    # Then both are refused, and they still work with their own
    assert (me.status_code, me.json()["code"]) == (401, "TOKEN_OTHER_PARTNER")
    assert (refreshed.status_code, refreshed.json()["code"]) == (401, "TOKEN_OTHER_PARTNER")
    assert api.get(ME, headers={"Authorization": f"Bearer {tokens['accessToken']}"}).status_code == 200


def test_a_disabled_partners_tokens_stop_working_with_any_key(
    api: ApiClient, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a user signed in through a partner, which is then disabled
    key = add_partner(capsys, "Leaky App", "trusted")
    access = login(api, key, phone="+998901234521").json()["data"]["accessToken"]
    ops(capsys, "disable", "Leaky App")
    # When its token is used with its own key or with the demo partner's
    own = api.get(ME, headers={"client": key, "Authorization": f"Bearer {access}"})
    other = api.get(ME, headers={"Authorization": f"Bearer {access}"})
    # Then both are refused
    assert own.status_code == 403
    assert (other.status_code, other.json()["code"]) == (401, "TOKEN_OTHER_PARTNER")


# -- a PINFL given at login is a claim


def test_a_strangers_pinfl_never_signs_in_to_a_verified_account_under_the_public_key(api: ApiClient, db: Db) -> None:
    # Given a person verified through the identity provider (person 21), who has a phone
    api.login("+998901234530")
    verified = api.post(LIMIT, json={"code": "sandbox-verified-21"})
    assert verified.status_code == 200
    pin = (db.users.find_one({"phone": "+998901234530"}) or {})["pin"]
    # When someone with the demo partner's public key logs in with that PINFL alone, or with another phone
    alone = api.post(LOGIN, json={"pin": pin}, auth=False)
    other_phone = api.post(LOGIN, json={"pin": pin, "phone": "+998901234531"}, auth=False)
    # Then neither signs in
    assert (alone.status_code, alone.json()["code"]) == (409, "PINFL_NEEDS_ACCOUNT_PHONE")
    assert other_phone.status_code == 409
    # And with the account's own phone it does
    assert api.post(LOGIN, json={"pin": pin, "phone": "+998901234530"}, auth=False).status_code == 201


def test_a_squatted_pinfl_does_not_stop_the_real_persons_verification(api: ApiClient, db: Db) -> None:
    # Given the PINFL of person 22, claimed first by a stranger's login with the public key
    from domain.identity.sandbox import SandboxIdentityProvider

    pin = SandboxIdentityProvider().verify("sandbox-verified-22").pin
    squatter = api.post(LOGIN, json={"pin": pin}, auth=False)
    assert squatter.status_code == 201
    # When person 22 signs in with their own phone and verifies
    api.login("+998901234532")
    verified = api.post(LIMIT, json={"code": "sandbox-verified-22"})
    # Then the verification goes through, and the squatting account loses the PINFL
    assert verified.status_code == 200
    owner = db.users.find_one({"pin": pin}) or {}
    assert (owner["phone"], owner["verified"]) == ("+998901234532", True)
    assert db.users.count_documents({"pin": pin}) == 1


def test_a_made_up_pinfl_attached_to_a_victims_phone_does_not_stop_their_verification(api: ApiClient, db: Db) -> None:
    # Given a made-up PINFL attached to a victim's phone by a login with the public key
    api.login("+998901234533")
    made_up = valid_pinfl("3010199000077")
    assert api.post(LOGIN, json={"phone": "+998901234533", "pin": made_up}, auth=False).status_code == 201
    # When the victim verifies as themselves (person 23)
    verified = api.post(LIMIT, json={"code": "sandbox-verified-23"})
    # Then it goes through and the account carries the verified PINFL, not the made-up one
    assert verified.status_code == 200
    user = db.users.find_one({"phone": "+998901234533"}) or {}
    assert user["verified"] is True
    assert user["pin"] != made_up
