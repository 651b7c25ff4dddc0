"""A fake OneID (the government SSO, id.egov.uz), written from OneID's integration guide and what public
integrations report, not from our adapter: one OAuth endpoint, `POST /sso/oauth/Authorization.do`,
form-encoded, whose `grant_type` says what is asked:

- `one_authorization_code` (client_id, client_secret, code, redirect_uri): the code the user's browser
  brought back from `response_type=one_code` to the redirect URI it was issued for -> {access_token,
  token_type, expires_in, refresh_token, scope}. Codes are single-use and bound to their redirect URI:
  a partner app with its own URI registered with OneID gets codes for that URI (`issue_code(...,
  redirect_uri=...)`), redeemed only with it. A wrong client is 401 `invalid_client`; a code OneID did
  not issue, already redeemed, or sent with another redirect URI is an `invalid_grant` error (OAuth2's
  error names).
- `one_access_token_identify` (client_id, client_secret, access_token, scope) -> the person in OneID's
  field names: valid, pin, user_id, full_name, first_name, sur_name, mid_name, birth_date, pport_no,
  user_type, sess_id, ret_cd, auth_method, pkey, legal_info. An unknown token is an `invalid_token` error.
  `ret_cd` (a return code) comes with a person as "0" in the answers integrations show; no source found
  says what another value means or whether every answer carries it: a test may give a person any
  `ret_cd`, or none (`ret_cd=None`), and the fake records each identify answer it gave (`answered`).
- OneID answers errors with HTTP 200 as well as with 4xx: `errors_as_200` (on by default, as the
  issue's review of public integrations found) answers each refusal above as HTTP 200
  `{"error", "error_description"}`; off, as 400/401.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import parse_qs

from tests.fake_http import Answer, FakeServer, serving

PATH = "/sso/oauth/Authorization.do"
CLIENT_ID = "car-retail-test"
CLIENT_SECRET = "fake-oneid-client-secret"
REDIRECT_URI = "https://partner.example/oneid/callback"


class FakeOneId(FakeServer):
    def __init__(self) -> None:
        super().__init__("token", "identify")
        self.people: dict[str, dict[str, Any]] = {}
        self.forms: list[dict[str, str]] = []
        self.client_secret = CLIENT_SECRET
        self._tokens: dict[str, dict[str, Any]] = {}
        self._redeemed: set[str] = set()
        self._redirects: dict[str, str] = {}  # code -> the redirect URI it was issued for
        self.errors_as_200 = True
        self.answered: list[dict[str, Any]] = []  # the identify answers given

    @property
    def url(self) -> str:
        return f"{self.base_url}{PATH}"

    def add_person(self, code: str, pin: str, *, redirect_uri: str = REDIRECT_URI, **fields: Any) -> None:
        """A person who signed in to OneID and whose browser brought `code` back to `redirect_uri`."""
        self._redirects[code] = redirect_uri
        person = {
            "valid": "true",
            "pin": pin,
            "user_id": f"user{pin[-6:]}",
            "first_name": "DILNOZA",
            "sur_name": "RAHIMOVA",
            "mid_name": "BAHODIROVNA",
            "birth_date": "1991-05-17",
            "pport_no": "AB1234567",
            "user_type": "I",
            "sess_id": secrets.token_hex(8),
            "ret_cd": "0",
            "auth_method": "LOGINPASSMETHOD",
            "pkey": "",
            "legal_info": [],
            **fields,
        }
        person["full_name"] = " ".join(str(person[name] or "") for name in ("sur_name", "first_name", "mid_name"))
        self.people[code] = {name: value for name, value in person.items() if value is not None}

    def env(self) -> dict[str, str]:
        """The settings that point the API's OneID adapter at this server."""
        return {
            "IDENTITY_PROVIDER": "oneid",
            "IDENTITY_PROVIDER_URL": self.url,
            "IDENTITY_CLIENT_ID": CLIENT_ID,
            "IDENTITY_CLIENT_SECRET": CLIENT_SECRET,
            "ONEID_REDIRECT_URI": REDIRECT_URI,
        }

    @property
    def token_forms(self) -> list[dict[str, str]]:
        return [form for form in self.forms if form.get("grant_type") == "one_authorization_code"]

    def route(
        self, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> tuple[str, Callable[[], Answer]] | None:
        if method != "POST" or path != PATH:
            return None
        form = {name: values[-1] for name, values in parse_qs(body.decode()).items()}
        with self.lock:
            self.forms.append(form)
        grant = form.get("grant_type")
        if grant == "one_authorization_code":
            return "token", lambda: self._redeem(form)
        if grant == "one_access_token_identify":
            return "identify", lambda: self._identify(form)
        return "token", lambda: self._refuse(400, "unsupported_grant_type")

    def _refuse(self, status: int, error: str, description: str = "") -> Answer:
        return (200 if self.errors_as_200 else status), {"error": error, "error_description": description or error}

    def _client_is_known(self, form: dict[str, str]) -> bool:
        return form.get("client_id") == CLIENT_ID and form.get("client_secret") == self.client_secret

    def _redeem(self, form: dict[str, str]) -> Answer:
        if not self._client_is_known(form):
            return self._refuse(401, "invalid_client")
        code = form.get("code", "")
        with self.lock:
            issued_for = self._redirects.get(code)
            if code not in self.people or code in self._redeemed or form.get("redirect_uri") != issued_for:
                return self._refuse(400, "invalid_grant", "code is invalid or expired")
            self._redeemed.add(code)
            token = secrets.token_urlsafe(16)
            self._tokens[token] = self.people[code]
        return 200, {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": 3600,
            "refresh_token": secrets.token_urlsafe(16),
            "scope": CLIENT_ID,
        }

    def _identify(self, form: dict[str, str]) -> Answer:
        if not self._client_is_known(form):
            return self._refuse(401, "invalid_client")
        with self.lock:
            person = self._tokens.get(form.get("access_token", ""))
        if person is None:
            return self._refuse(401, "invalid_token")
        self.answered.append(person)
        return 200, person


@contextmanager
def running_fake_oneid() -> Iterator[FakeOneId]:
    with serving(FakeOneId()) as fake:
        yield fake
