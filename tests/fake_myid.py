"""A fake MyID (face verification, myid.uz), written from MyID's backend API as its documentation and
SDK guides describe it, not from our adapter:

- `POST /api/v1/auth/clients/access-token`, JSON {client_id, client_secret} -> {access_token,
  expires_in, token_type: "Bearer"}; wrong credentials are 401 {"detail"}.
- `GET /api/v1/sdk/data?code=<code>` with `Authorization: Bearer <access_token>` -> {"data": {"profile":
  {"common_data": {...}, "doc_data": {...}, "contacts": {...}, "address": {...}}, "comparison_value",
  "job_id"}}, dates as DD.MM.YYYY. A token MyID did not issue, or has revoked, is 401; no code is 400; a
  code MyID did not issue, or already gave out (codes are single-use), is 404.
"""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any
from urllib.parse import parse_qs

from tests.fake_http import Answer, FakeServer, serving

TOKEN_PATH = "/api/v1/auth/clients/access-token"
DATA_PATH = "/api/v1/sdk/data"
CLIENT_ID = "car-retail-test"
CLIENT_SECRET = "fake-myid-client-secret"


class FakeMyId(FakeServer):
    def __init__(self) -> None:
        super().__init__("token", "data")
        self.people: dict[str, dict[str, Any]] = {}
        self.client_secret = CLIENT_SECRET
        self.token_requests: list[dict[str, Any]] = []
        self.data_authorizations: list[str] = []
        self._tokens: set[str] = set()
        self._given: set[str] = set()

    def add_person(
        self,
        code: str,
        pin: str,
        *,
        first_name: str = "DILNOZA",
        last_name: str = "RAHIMOVA",
        middle_name: str | None = "BAHODIROVNA",
        birth_date: date | None = date(1991, 5, 17),
        document: str = "AB1234567",
    ) -> None:
        """A person whose face the SDK matched; the partner app received `code`."""
        self.people[code] = {
            "common_data": {
                "first_name": first_name,
                "middle_name": middle_name,
                "last_name": last_name,
                "first_name_en": first_name,
                "last_name_en": last_name,
                "pinfl": pin,
                "gender": "2",
                "birth_place": "TOSHKENT",
                "birth_country": "O'ZBEKISTON",
                "birth_country_id": "182",
                "birth_date": birth_date.strftime("%d.%m.%Y") if birth_date else None,
                "nationality": "O'ZBEK",
                "citizenship": "O'ZBEKISTON",
                "sdk_hash": secrets.token_hex(16),
                "last_update_pass_data": "2024-01-10T09:00:00",
            },
            "doc_data": {
                "pass_data": document,
                "issued_by": "TOSHKENT SHAHAR IIBB",
                "issued_date": "10.01.2024",
                "expiry_date": "09.01.2034",
                "doc_type": "IDENTITY CARD",
            },
            "contacts": {"phone": None, "email": None},
            "address": {"permanent_address": "TOSHKENT SHAHRI", "temporary_address": None},
            "authentication_method": "strong",
        }

    def revoke_tokens(self) -> None:
        """Every token issued so far stops working (expired early, keys rotated at MyID)."""
        with self.lock:
            self._tokens.clear()

    def env(self) -> dict[str, str]:
        """The settings that point the API's MyID adapter at this server."""
        return {
            "IDENTITY_PROVIDER": "myid",
            "IDENTITY_PROVIDER_URL": self.base_url,
            "IDENTITY_CLIENT_ID": CLIENT_ID,
            "IDENTITY_CLIENT_SECRET": CLIENT_SECRET,
        }

    def route(
        self, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> tuple[str, Callable[[], Answer]] | None:
        if method == "POST" and path == TOKEN_PATH:
            return "token", lambda: self._token(body)
        if method == "GET" and path == DATA_PATH:
            code = parse_qs(query).get("code", [""])[-1]
            return "data", lambda: self._data(code, headers.get("authorization", ""))
        return None

    def _token(self, body: bytes) -> Answer:
        try:
            request = json.loads(body)
        except ValueError:
            return 400, {"detail": "JSON body expected"}
        with self.lock:
            self.token_requests.append(request)
            if request.get("client_id") != CLIENT_ID or request.get("client_secret") != self.client_secret:
                return 401, {"detail": "Invalid client credentials"}
            token = secrets.token_urlsafe(24)
            self._tokens.add(token)
        return 200, {"access_token": token, "expires_in": 3600, "token_type": "Bearer"}

    def _data(self, code: str, authorization: str) -> Answer:
        scheme, _, token = authorization.partition(" ")
        with self.lock:
            self.data_authorizations.append(token)
            if scheme != "Bearer" or token not in self._tokens:
                return 401, {"detail": "Invalid token"}
            if not code:
                return 400, {"detail": "Code parameter is required"}
            if code not in self.people or code in self._given:
                return 404, {"detail": "Not found"}
            self._given.add(code)
            profile = self.people[code]
        return 200, {"data": {"profile": profile, "comparison_value": 0.97, "job_id": str(uuid.uuid4())}}


@contextmanager
def running_fake_myid() -> Iterator[FakeMyId]:
    with serving(FakeMyId()) as fake:
        yield fake
