"""The MyID adapter of the identity-provider port: MyID's face verification, which partner apps embed as
an SDK. The SDK verifies the buyer's face against the state register and gives the app a one-time
`code`; the service reads the person behind it from MyID's API with its own client credentials:

1. `POST {MYID}/api/v1/auth/clients/access-token`, JSON {client_id, client_secret}
   -> {"access_token", "expires_in", "token_type": "Bearer"}: kept until shortly before it expires;
2. `GET {MYID}/api/v1/sdk/data?code=<code>` with `Authorization: Bearer <access_token>`
   -> {"data": {"profile": {"common_data": {"pinfl", "first_name", "last_name", "middle_name",
   "birth_date" (DD.MM.YYYY), ...}, "doc_data": {"pass_data", ...}, ...}, "comparison_value", ...}}.

3. `POST {MYID}/api/v2/sdk/sessions` with `Authorization: Bearer <access_token>`, JSON {} (an empty
   session: the SDK asks for the passport on the device) -> {"session_id", "expires_in"?}: what the
   partner app starts MyID's SDK with, under this service's MyID registration (`start_session`, with
   the client hash and hash id MyID gave the registration).

MyID answers a code it will not give the person for with 400 (unknown or expired) or 401 (already used:
codes are single-use), and 401 as well for an access token it no longer accepts (expired early,
revoked, keys rotated). So a 401 on the data call with a token from the cache fetches a token again
once and repeats the call; a 401 with a token fetched for this very call is the code's: the buyer's
400, as is a 400. A 401 on the token call itself means our credentials are wrong (503). An answer
without `profile` (MyID's re-verification answers carry only the comparison) names nobody: the app
started the SDK for re-verification instead of identification, a 400 of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any
from urllib.parse import quote

from core import clock
from core.errors import Unavailable
from core.observability import logger
from core.outbound import Request
from data.caches import BoundedCache
from domain.identity.provider import (
    CodeRejected,
    ProviderUnavailable,
    SdkSession,
    VerifiedPerson,
    person_from,
)
from domain.identity.provider_http import (
    ProviderClient,
    ProviderHttp,
    Refused,
    get_request,
    json_request,
)
from domain.identity.settings import IdentitySettings

TOKEN_PATH = "/api/v1/auth/clients/access-token"  # noqa: S105 (a path, not a password)
DATA_PATH = "/api/v1/sdk/data"
SESSIONS_PATH = "/api/v2/sdk/sessions"
# A token is used no later than this before MyID says it expires: a call may take that long in flight.
TOKEN_MARGIN = timedelta(seconds=60)
DEFAULT_TOKEN_LIFETIME = timedelta(minutes=5)  # when MyID does not say

# Access tokens by (API, client id): one per warm instance, shared by its invocations.
tokens: BoundedCache[str] = BoundedCache(max_entries=8)


@dataclass
class MyIdProvider:
    client: ProviderClient
    http: ProviderHttp = field(default_factory=ProviderHttp)
    client_hash: str | None = None
    client_hash_id: str | None = None

    @classmethod
    def from_settings(cls, settings: IdentitySettings) -> MyIdProvider:
        return cls(
            ProviderClient.from_settings(settings),
            ProviderHttp.from_settings(settings),
            client_hash=settings.myid_client_hash,
            client_hash_id=settings.myid_client_hash_id,
        )

    def verify(self, code: str, *, redirect_uri: str | None = None) -> VerifiedPerson:
        deadline = self.http.deadline()  # `redirect_uri` is OneID's: a MyID code has none
        data_url = f"{self.client.url}{DATA_PATH}?code={quote(code, safe='')}"
        try:
            answer = self._with_token("data", lambda token: get_request(data_url, bearer=token), deadline)
        except Refused as refused:
            raise _refusal(refused) from None
        return parse_sdk_data(answer)

    def start_session(self) -> SdkSession:
        """An empty MyID SDK session for the partner app, under this service's registration."""
        if not (self.client_hash and self.client_hash_id):
            logger.error("MyID SDK sessions need MYID_CLIENT_HASH and MYID_CLIENT_HASH_ID (MyID gives them)")
            raise Unavailable("SERVICE_NOT_CONFIGURED")
        deadline = self.http.deadline()
        url = f"{self.client.url}{SESSIONS_PATH}"
        try:
            answer = self._with_token("session", lambda token: json_request(url, {}, bearer=token), deadline)
        except Refused as refused:
            _refusal(refused)
            logger.error("identity provider refused to start an SDK session")
            raise ProviderUnavailable() from None
        session_id = _session_id(answer)
        if session_id is None:
            logger.warning("identity provider session answer without a session_id")
            raise ProviderUnavailable()
        lifetime = _object(answer.get("data")).get("expires_in", answer.get("expires_in"))
        return SdkSession(
            session_id=session_id,
            client_hash=self.client_hash,
            client_hash_id=self.client_hash_id,
            expires_in=lifetime if isinstance(lifetime, int) and not isinstance(lifetime, bool) else None,
        )

    def _with_token(self, step: str, request: Callable[[str], Request], deadline: float) -> dict[str, Any]:
        """Call `step` with an access token; a 401 with a cached token fetches a token once and calls
        again, a 401 with a token fetched for the call is handed back (`Refused`) for the caller to judge."""
        token, fresh = self._token(deadline)
        try:
            return self.http.call(step, request(token), deadline)
        except Refused as refused:
            if refused.status != 401 or fresh:
                raise
            logger.info("identity provider refused a cached access token; fetching a new one")
        token, _ = self._token(deadline, fresh=True)
        return self.http.call(step, request(token), deadline)

    def _token(self, deadline: float, *, fresh: bool = False) -> tuple[str, bool]:
        """An access token, and whether it was fetched just now (a 401 with it is not the token's)."""
        key = (self.client.url, self.client.client_id)
        now = clock.now()
        cached = None if fresh else tokens.get(key, now)
        if cached is not None:
            return cached.value, False
        request = json_request(
            f"{self.client.url}{TOKEN_PATH}",
            {"client_id": self.client.client_id, "client_secret": self.client.client_secret},
        )
        try:
            answer = self.http.call("token", request, deadline)
        except Refused as refused:
            raise _refusal(refused) from None
        token = answer.get("access_token")
        if not isinstance(token, str) or not token:
            logger.warning("identity provider token response without an access token")
            raise ProviderUnavailable()
        lifetime = answer.get("expires_in")
        valid_for = (
            timedelta(seconds=lifetime)
            if isinstance(lifetime, int) and not isinstance(lifetime, bool) and lifetime > 0
            else DEFAULT_TOKEN_LIFETIME
        )
        tokens.put(key, token, expires=now + valid_for - TOKEN_MARGIN, now=now)
        return token, True


def _session_id(answer: dict[str, Any]) -> str | None:
    """The session's id, at the top level of the answer or inside `data`: the public sources disagree
    (tests/fake_myid.py names them; docs/OPERATIONS.md "Before going live with MyID"), and MyID wraps its
    SDK data in `data` (`parse_sdk_data`); either reading names one session, so both are taken."""
    for found in (answer.get("session_id"), _object(answer.get("data")).get("session_id")):
        if isinstance(found, str) and found:
            return found
    return None


def _refusal(refused: Refused) -> Exception:
    logger.info(
        "identity provider refused the request",
        extra={"step": refused.step, "status": refused.status, "error": refused.error},
    )
    if refused.step in ("token", "session") or refused.status == 403:
        # Our client id or secret is wrong, or MyID refuses this client: not the caller's fault.
        logger.error("identity provider refused the client credentials; check IDENTITY_CLIENT_ID and the secret")
        return ProviderUnavailable()
    # 400, 401 with a fresh token, 404, 410...: a code MyID does not know, already used or expired.
    return CodeRejected()


def parse_sdk_data(answer: dict[str, Any]) -> VerifiedPerson:
    """MyID's SDK data -> VerifiedPerson. MyID wraps the profile in `data`; older answers do not."""
    wrapped = answer.get("data")
    body = wrapped if isinstance(wrapped, dict) else answer
    if not isinstance(body.get("profile"), dict):
        # A re-verification's answer: the face compared, nobody named. The app started the SDK for that.
        logger.info("identity provider answered without a profile (re-verification)")
        raise CodeRejected("IDENTITY_NO_PROFILE")
    profile = _object(body.get("profile"))
    common, document = _object(profile.get("common_data")), _object(profile.get("doc_data"))
    return person_from(
        pin=common.get("pinfl"),
        first_name=common.get("first_name"),
        last_name=common.get("last_name"),
        middle_name=common.get("middle_name"),
        birth_date=common.get("birth_date"),
        document=document.get("pass_data"),
    )


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
