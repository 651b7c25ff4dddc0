"""The MyID adapter of the identity-provider port: MyID's face verification, which partner apps embed as
an SDK. The SDK verifies the buyer's face against the state register and gives the app a one-time
`code`; the service reads the person behind it from MyID's API with its own client credentials:

1. `POST {MYID}/api/v1/auth/clients/access-token`, JSON {client_id, client_secret}
   -> {"access_token", "expires_in", "token_type": "Bearer"}: kept until shortly before it expires;
2. `GET {MYID}/api/v1/sdk/data?code=<code>` with `Authorization: Bearer <access_token>`
   -> {"data": {"profile": {"common_data": {"pinfl", "first_name", "last_name", "middle_name",
   "birth_date" (DD.MM.YYYY), ...}, "doc_data": {"pass_data", ...}, ...}, "comparison_value", ...}}.

A token MyID no longer accepts (401 on the data call: expired early, revoked, keys rotated) is fetched
again once and the call repeated; a second 401 means our credentials are wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any
from urllib.parse import quote

from core import clock
from core.observability import logger
from data.caches import BoundedCache
from domain.identity.provider import CodeRejected, ProviderUnavailable, VerifiedPerson, person_from
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
# A token is used no later than this before MyID says it expires: a call may take that long in flight.
TOKEN_MARGIN = timedelta(seconds=60)
DEFAULT_TOKEN_LIFETIME = timedelta(minutes=5)  # when MyID does not say

# Access tokens by (API, client id): one per warm instance, shared by its invocations.
tokens: BoundedCache[str] = BoundedCache(max_entries=8)


@dataclass
class MyIdProvider:
    client: ProviderClient
    http: ProviderHttp = field(default_factory=ProviderHttp)

    @classmethod
    def from_settings(cls, settings: IdentitySettings) -> MyIdProvider:
        return cls(ProviderClient.from_settings(settings), ProviderHttp.from_settings(settings))

    def verify(self, code: str) -> VerifiedPerson:
        deadline = self.http.deadline()
        data_url = f"{self.client.url}{DATA_PATH}?code={quote(code, safe='')}"
        try:
            try:
                answer = self.http.call("data", get_request(data_url, bearer=self._token(deadline)), deadline)
            except Refused as refused:
                if refused.status != 401:
                    raise
                logger.info("identity provider refused its access token; fetching a new one")
                answer = self.http.call(
                    "data", get_request(data_url, bearer=self._token(deadline, fresh=True)), deadline
                )
        except Refused as refused:
            raise _refusal(refused) from None
        return parse_sdk_data(answer)

    def _token(self, deadline: float, *, fresh: bool = False) -> str:
        key = (self.client.url, self.client.client_id)
        now = clock.now()
        cached = None if fresh else tokens.get(key, now)
        if cached is not None:
            return cached.value
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
        return token


def _refusal(refused: Refused) -> Exception:
    logger.info(
        "identity provider refused the request",
        extra={"step": refused.step, "status": refused.status, "error": refused.error},
    )
    if refused.step == "token" or refused.status in (401, 403):
        # Our client id or secret is wrong, or MyID refuses this client: not the caller's fault.
        logger.error("identity provider refused the client credentials; check IDENTITY_CLIENT_ID and the secret")
        return ProviderUnavailable()
    return CodeRejected()  # 400, 404, 410...: a code MyID does not know, already used or expired


def parse_sdk_data(answer: dict[str, Any]) -> VerifiedPerson:
    """MyID's SDK data -> VerifiedPerson. MyID wraps the profile in `data`; older answers do not."""
    wrapped = answer.get("data")
    body = wrapped if isinstance(wrapped, dict) else answer
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
