"""A fake MyID (face verification, myid.uz), written from MyID's backend API as its documentation and
SDK guides describe it and from public integrations (named by their id in the stored code index,
readable with `read_file id=...`), not from our adapter:

- `POST /api/v1/auth/clients/access-token`, JSON {client_id, client_secret} -> {access_token,
  expires_in, token_type: "Bearer"} (38290678397 shows the answer); wrong credentials are 401 {"detail"}.
- `POST /api/v2/sdk/sessions` with `Authorization: Bearer <access_token>`, JSON {} for an empty session
  (the SDK asks for the passport on the device) or {phone_number, birth_date, pinfl, pass_data,
  is_resident, threshold} -> {"session_id" (a UUID), "expires_in"} (69834801164, 37840876442,
  38461954248, 38712320473; 38067401756 reads `session_id` alone). Issue 46's review of the sources found
  one reading the id inside `data` (`{"data": {"session_id", "expires_in"}}`, the wrapping MyID's
  `/sdk/data` answer has); the fake answers either (`session_shape`: "top" or "data") and records the
  shape each session was answered in. The app's SDK starts with that
  `sessionId` and the registration's `clientHash` and `clientHashId` (61536294689, the SDK's config).
- `GET /api/v1/sdk/data?code=<code>` with the bearer token -> {"data": {"profile": {"common_data":
  {...}, "doc_data": {...}, "contacts": {...}, "address": {...}}, "comparison_value", "job_id"}}, dates
  as DD.MM.YYYY. A token MyID did not issue, or has revoked, is 401 (69834801164 fetches a token again
  once on a 401). Codes are single-use: a code already given out is 401 and an unknown or expired one
  400, as MyID's documentation's error table reads in the issue's review (so a 401 is the code's or the
  token's: only a fresh token tells them apart). A re-verification's answer carries the comparison and
  no `profile` (`add_reverification`).
"""

from __future__ import annotations

import json
import secrets
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any, Literal
from urllib.parse import parse_qs

from tests.fake_http import Answer, FakeServer, serving

TOKEN_PATH = "/api/v1/auth/clients/access-token"
DATA_PATH = "/api/v1/sdk/data"
SESSIONS_PATH = "/api/v2/sdk/sessions"
CLIENT_ID = "car-retail-test"
CLIENT_SECRET = "fake-myid-client-secret"
CLIENT_HASH, CLIENT_HASH_ID = "fake-myid-client-hash", "fake-myid-client-hash-id"


class FakeMyId(FakeServer):
    def __init__(self) -> None:
        super().__init__("token", "data", "session")
        self.people: dict[str, dict[str, Any]] = {}
        self.client_secret = CLIENT_SECRET
        self.token_requests: list[dict[str, Any]] = []
        self.data_authorizations: list[str] = []
        self._tokens: set[str] = set()
        self._given: set[str] = set()
        self.reverifications: set[str] = set()
        self.sessions: list[dict[str, Any]] = []
        self.session_shape: Literal["top", "data"] = "top"  # where a session's answer puts its id

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

    def add_reverification(self, code: str) -> None:
        """A code from the SDK started for re-verification: MyID compared the face and names nobody."""
        self.reverifications.add(code)

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
            "MYID_CLIENT_HASH": CLIENT_HASH,
            "MYID_CLIENT_HASH_ID": CLIENT_HASH_ID,
        }

    def route(
        self, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> tuple[str, Callable[[], Answer]] | None:
        if method == "POST" and path == TOKEN_PATH:
            return "token", lambda: self._token(body)
        if method == "POST" and path == SESSIONS_PATH:
            return "session", lambda: self._session(body, headers.get("authorization", ""))
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
            if code in self._given:
                return 401, {"detail": "Code already used"}
            if code in self.reverifications:
                self._given.add(code)
                return 200, {"data": {"profile": None, "comparison_value": 0.96, "job_id": str(uuid.uuid4())}}
            if code not in self.people:
                return 400, {"detail": "Code is invalid or expired"}
            self._given.add(code)
            profile = self.people[code]
        return 200, {"data": {"profile": profile, "comparison_value": 0.97, "job_id": str(uuid.uuid4())}}

    def _session(self, body: bytes, authorization: str) -> Answer:
        scheme, _, token = authorization.partition(" ")
        with self.lock:
            if scheme != "Bearer" or token not in self._tokens:
                return 401, {"detail": "Invalid token"}
            try:
                request = json.loads(body or b"{}")
            except ValueError:
                return 400, {"detail": "JSON body expected"}
            session = {"session_id": str(uuid.uuid4()), "expires_in": 3600, "request": request}
            session["shape"] = self.session_shape
            self.sessions.append(session)
        answer = {"session_id": session["session_id"], "expires_in": 3600}
        return 200, (answer if self.session_shape == "top" else {"data": answer})


@contextmanager
def running_fake_myid() -> Iterator[FakeMyId]:
    with serving(FakeMyId()) as fake:
        yield fake
