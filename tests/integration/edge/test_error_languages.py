"""Errors an app can branch on and a buyer can read, through HTTP: the same stable `code` whatever the
language, the message in the request's language (Russian in Cyrillic, Uzbek in Latin script, English),
`Content-Language` naming it, Uzbek when the request names none."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
import requests
from bson import ObjectId
from pymongo.database import Database

from core import clock
from tests.data import insert_promo_code
from tests.factories import ApiClient

Db = Database[dict[str, Any]]
CYRILLIC = re.compile("[А-Яа-яЁё]")
LATIN = re.compile("[A-Za-z]")
LANGUAGES = ("ru", "uz", "en")
APPLY = "/api/v1/orders/apply-promo-code"


def used_up_promo(api: ApiClient, db: Db, language: dict[str, str | None]) -> requests.Response:
    if db.promo_codes.find_one({"_id": "ONLYONE"}) is None:
        insert_promo_code(db, "ONLYONE", usage_limit=1, used_by=(ObjectId(),))
    return api.post(APPLY, json={"code": "ONLYONE"}, headers=language)


def expired_promo(api: ApiClient, db: Db, language: dict[str, str | None]) -> requests.Response:
    if db.promo_codes.find_one({"_id": "BYGONE"}) is None:
        insert_promo_code(db, "BYGONE", valid_to=clock.now() - timedelta(days=1))
    return api.post(APPLY, json={"code": "BYGONE"}, headers=language)


def invalid_phone(api: ApiClient, db: Db, language: dict[str, str | None]) -> requests.Response:
    return api.post("/api/v1/auth/login", json={"phone": "12"}, headers=language, auth=False)


def missing_header(api: ApiClient, db: Db, language: dict[str, str | None]) -> requests.Response:
    return api.get("/api/v1/brands", headers={**language, "fingerprint": None})


def bad_token(api: ApiClient, db: Db, language: dict[str, str | None]) -> requests.Response:
    return api.get("/api/v1/auth/me", headers={**language, "Authorization": "Bearer not-a-token"})


def unknown_order(api: ApiClient, db: Db, language: dict[str, str | None]) -> requests.Response:
    return api.get(f"/api/v1/orders/{ObjectId()}", headers=language)


Refusal = Callable[[ApiClient, Db, dict[str, str | None]], requests.Response]
CASES: list[tuple[Refusal, int, str]] = [
    (used_up_promo, 409, "PROMO_CODE_USED_UP"),
    (expired_promo, 409, "PROMO_CODE_EXPIRED"),
    (invalid_phone, 400, "VALIDATION_FAILED"),
    (missing_header, 400, "MISSING_HEADER"),
    (bad_token, 401, "TOKEN_INVALID"),
    (unknown_order, 404, "ORDER_NOT_FOUND"),
]


@pytest.mark.parametrize(("refusal", "status", "code"), CASES, ids=[code for _, _, code in CASES])
def test_the_same_code_in_every_language_with_the_message_in_that_language(
    api: ApiClient, db: Db, refusal: Refusal, status: int, code: str
) -> None:
    # Given a signed-in buyer
    api.login()
    # When the same refusal is asked for in Russian, Uzbek, English and with no language at all
    answers = {language: refusal(api, db, {"accept-language": language}) for language in LANGUAGES}
    unnamed = refusal(api, db, {"accept-language": None})
    # Then each has the same status and code, and says its language
    for language, response in [*answers.items(), (None, unnamed)]:
        assert (response.status_code, response.json()["code"]) == (status, code), response.text
        assert response.headers["Content-Language"] == (language or "uz")
    messages = {language: response.json()["message"] for language, response in answers.items()}
    # And Russian is in Cyrillic, Uzbek in Latin script, English in English; all three differ
    assert CYRILLIC.search(messages["ru"]), messages
    assert LATIN.search(messages["uz"]), messages
    assert not CYRILLIC.search(messages["uz"]), messages
    assert messages["en"].isascii(), messages
    assert len(set(messages.values())) == 3, messages
    # And no language named means Uzbek
    assert unnamed.json()["message"] == messages["uz"]


def test_field_errors_are_localized_with_their_own_codes(api: ApiClient) -> None:
    # Given a login with a malformed phone, asked for in Russian
    response = api.post("/api/v1/auth/login", json={"phone": "12"}, headers={"accept-language": "ru"}, auth=False)
    # Then the field is named with its code and a Russian message, never pydantic's English
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["code"]) == ("body.phone", "INVALID_PHONE")
    assert error["message"] == "Должен быть международный номер с кодом страны, например +998901234567"
    assert "body.phone" in response.json()["message"]


def test_a_used_up_promo_reads_naturally_in_each_language(api: ApiClient, db: Db) -> None:
    api.login()
    insert_promo_code(db, "ONLYONE", usage_limit=1, used_by=(ObjectId(),))
    messages = {
        language: api.post(APPLY, json={"code": "ONLYONE"}, headers={"accept-language": language}).json()["message"]
        for language in LANGUAGES
    }
    assert messages == {
        "ru": "Лимит использования промокода исчерпан",
        "uz": "Promokoddan foydalanish limiti tugagan",
        "en": "Promo code has been used up",
    }


def test_successes_say_their_language_and_keep_the_spec_messages(api: ApiClient) -> None:
    # Given a request in Russian and one naming no language
    russian = api.get("/api/v1/brands", headers={"accept-language": "ru-RU,ru;q=0.9"})
    unnamed = api.get("/api/v1/brands", headers={"accept-language": None})
    # Then each says its language, and the message stays the spec's `Success`
    assert (russian.headers["Content-Language"], russian.json()["message"]) == ("ru", "Success")
    assert (unnamed.headers["Content-Language"], unnamed.json()["message"]) == ("uz", "Success")
