"""The OneID adapter of the identity-provider port: the government single sign-on (id.egov.uz).

The partner app sends the buyer to OneID (`response_type=one_code`) and receives a `code` on its
redirect URI; the service redeems it with two form POSTs to OneID's one OAuth endpoint
(`https://sso.egov.uz/sso/oauth/Authorization.do`), as OneID's integration guide describes:

1. `grant_type=one_authorization_code`, client_id, client_secret, code, redirect_uri
   -> {"access_token", "token_type", "expires_in", "refresh_token", "scope"};
2. `grant_type=one_access_token_identify`, client_id, client_secret, access_token, scope
   -> the person in OneID's field names: `valid`, `pin`, `first_name`, `sur_name`, `mid_name`,
   `birth_date`, `pport_no` (and `user_id`, `full_name`, `user_type`, `legal_info`, ... unused here).

The access token serves that one identify call and is never kept. A partner app with its own redirect
URI registered with OneID sends it with the code: a code is redeemed with the URI it was issued for, one
of the stage's allowed list (ONEID_REDIRECT_URI and ONEID_REDIRECT_URIS), else a 400 before OneID is
asked. OneID also answers errors with HTTP 200 (`{"error", "error_description"}` in place of the token
or the person): an error for all that, the code's unless it names our client.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.errors import InvalidInput
from core.observability import logger
from domain.identity.provider import CodeRejected, ProviderUnavailable, VerifiedPerson, person_from
from domain.identity.provider_http import ProviderClient, ProviderHttp, Refused, form_request
from domain.identity.settings import IdentitySettings


@dataclass
class OneIdProvider:
    client: ProviderClient
    redirect_uri: str | None = None
    scope: str | None = None
    allowed_redirect_uris: frozenset[str] = frozenset()
    http: ProviderHttp = field(default_factory=ProviderHttp)

    def __post_init__(self) -> None:
        # OneID's scope of a client is, unless OneID registered another, its id.
        self.scope = self.scope or self.client.client_id

    @classmethod
    def from_settings(cls, settings: IdentitySettings) -> OneIdProvider:
        return cls(
            ProviderClient.from_settings(settings),
            redirect_uri=settings.oneid_redirect_uri,
            scope=settings.oneid_scope,
            http=ProviderHttp.from_settings(settings),
            allowed_redirect_uris=settings.allowed_redirect_uris,
        )

    def verify(self, code: str, *, redirect_uri: str | None = None) -> VerifiedPerson:
        if redirect_uri is not None and redirect_uri not in self.allowed_redirect_uris | {self.redirect_uri}:
            logger.info("OneID code sent with a redirect URI not allowed on this stage")
            raise InvalidInput.field("body.redirectUri", "REDIRECT_URI_NOT_ALLOWED")
        deadline = self.http.deadline()
        client = {"client_id": self.client.client_id, "client_secret": self.client.client_secret}
        try:
            token = self.http.call(
                "token",
                form_request(
                    self.client.url,
                    {
                        "grant_type": "one_authorization_code",
                        **client,
                        "code": code,
                        "redirect_uri": redirect_uri or self.redirect_uri,
                    },
                ),
                deadline,
            )
            access_token = token.get("access_token")
            if token.get("error") or not isinstance(access_token, str) or not access_token:
                raise _without_token(token)
            profile = self.http.call(
                "identify",
                form_request(
                    self.client.url,
                    {
                        "grant_type": "one_access_token_identify",
                        **client,
                        "access_token": access_token,
                        "scope": self.scope,
                    },
                ),
                deadline,
            )
            if profile.get("error"):
                raise Refused("identify", 200, profile)
        except Refused as refused:
            raise _refusal(refused) from None
        return parse_profile(profile)


def _without_token(answer: dict[str, Any]) -> Exception:
    """OneID answers a code it will not redeem with an OAuth2 error in place of the token, in an HTTP 200."""
    if answer.get("error"):
        return _refusal(Refused("token", 200, answer))
    logger.warning("identity provider token response without an access token")
    return ProviderUnavailable()


def _refusal(refused: Refused) -> Exception:
    logger.info(
        "identity provider refused the request",
        extra={"step": refused.step, "status": refused.status, "error": refused.error},
    )
    if refused.status == 401 or refused.error in ("invalid_client", "unauthorized_client"):
        # Our own client id or secret is wrong: not the caller's fault, and retrying will not help them.
        logger.error("identity provider refused the client credentials; check IDENTITY_CLIENT_ID and the secret")
        return ProviderUnavailable()
    if refused.step == "identify":
        return CodeRejected("IDENTITY_PROFILE_REFUSED")
    return CodeRejected()


def parse_profile(data: dict[str, Any]) -> VerifiedPerson:
    """OneID's identify answer -> VerifiedPerson; a person OneID marks not valid, or answers with a return
    code (`ret_cd`) other than 0, is a 400. Public sources list `ret_cd` among the identify answer's
    fields without saying what its values mean (tests/fake_oneid.py); 0 is the one they show with a
    person. Since no source says another value still names a confirmed person, only 0 or no `ret_cd`
    at all verifies (docs/OPERATIONS.md "Before going live with OneID")."""
    if str(data.get("valid", "true")).lower() == "false":
        raise CodeRejected("IDENTITY_NOT_CONFIRMED")
    if "ret_cd" in data and str(data["ret_cd"]).strip() != "0":
        logger.info("OneID answered a person with a failing return code", extra={"ret_cd": str(data["ret_cd"])[:16]})
        raise CodeRejected("IDENTITY_NOT_CONFIRMED")
    return person_from(
        pin=data.get("pin"),
        first_name=data.get("first_name"),
        last_name=data.get("sur_name"),
        middle_name=data.get("mid_name"),
        birth_date=data.get("birth_date"),
        document=data.get("pport_no"),
    )
