"""Auth function: login, token refresh, the caller's profile, identity verification."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from auth import service
from auth.models import (
    IdentitySession,
    LimitBody,
    LoginBody,
    LoginCodeSent,
    Profile,
    RefreshBody,
    Tokens,
    VerifiedProfile,
)
from domain.identity import callers
from edge import context, responses
from edge.access import JWT, PUBLIC
from edge.app import create_app, lambda_entry
from edge.envelope import Envelope

app = create_app(callers=callers)


@app.post(
    "/api/v1/auth/login",
    operation_id="login",
    middlewares=[PUBLIC],
    status_code=201,
    summary="Sign in by phone or PINFL",
    description="Signs the user in, creating the account on first use, and returns a token pair, bound to "
    "the partner whose `client` key asked. How the person is vouched for is the partner's login policy "
    '(docs/INTERFACE.md, "Who the caller is"): `trusted` partners\' keys vouch for the phone; `assertion` '
    "partners send `assertion`, a JWT their backend signed; `otp` partners first send the phone alone, "
    "which sends a 6-digit code by SMS (202), then the phone with `otp` (201). Locally the demo partner is "
    "`trusted` (no SMS) and the demo user is +998901234567; the sandbox SMS gateway's code is 666666.",
    responses={
        201: {
            "description": "Signed in: the token pair",
            "content": {"application/json": {"model": Envelope[Tokens]}},
        },
        202: {
            "description": "`otp` partner, login without `otp`: a code was sent by SMS; send the login again "
            "with it before `expiresAt`",
            "content": {"application/json": {"model": Envelope[LoginCodeSent]}},
        },
        409: {"description": "The phone or PINFL belongs to a different account"},
    },
)
def login(body: LoginBody) -> Response[Envelope[Tokens | LoginCodeSent]]:
    caller = context.current()
    outcome = service.login(
        body,
        source_ip=app.current_event.request_context.identity.source_ip,
        partner=caller.partner,
        fingerprint=caller.fingerprint,
        language=caller.locale,
    )
    if isinstance(outcome, LoginCodeSent):
        return responses.ok(outcome, status=202, message="auth.login.code_sent")
    return responses.created(outcome)


@app.post(
    "/api/v1/auth/refresh-token",
    operation_id="refreshToken",
    middlewares=[PUBLIC],
    status_code=201,
    summary="Exchange a refresh token for a new token pair",
    description="Each refresh token works once; the new pair replaces it.",
    response_description="auth.token.refresh",
    responses={401: {"description": "The refresh token is invalid, expired or already used"}},
)
def refresh_token(body: RefreshBody) -> Response[Envelope[Tokens]]:
    caller = context.current()
    pair = service.refresh(body.token, partner=caller.partner, fingerprint=caller.fingerprint)
    return responses.created(pair, message="auth.token.refresh")


@app.get("/api/v1/auth/me", operation_id="getProfile", middlewares=[JWT], summary="The signed-in user's profile")
def me() -> Response[Envelope[Profile]]:
    return responses.ok(service.profile(context.caller_id()))


@app.post(
    "/api/v1/users/limit",
    operation_id="verifyIdentity",
    middlewares=[JWT],
    summary="Verify the user's identity (MyID or OneID) to raise the purchase limit",
    description="Send the one-time code the identity provider returned to the app: MyID's SDK `code` after "
    "face verification, or OneID's authorization `code` on the app's redirect URI (the stage's provider). "
    "Each code verifies once. The sandbox provider (dev, staging) knows only its documented codes: "
    "`sandbox-verified` and `sandbox-verified-<n>` verify person n, `sandbox-rejected` is refused, "
    "`sandbox-outage` is an outage.",
    responses={
        400: {"description": "The identity provider rejected the code (invalid or expired)"},
        409: {"description": "The code was already used"},
    },
)
def verify_identity(body: LimitBody) -> Response[Envelope[VerifiedProfile]]:
    return responses.ok(service.verify_identity(context.caller_id(), body.code, body.redirectUri))


@app.post(
    "/api/v1/users/limit/myid-session",
    operation_id="startIdentitySession",
    middlewares=[JWT],
    summary="Start a MyID SDK session for identity verification",
    description="The app starts MyID's SDK with the answer (`sessionId`, `clientHash`, `clientHashId`), under the "
    "retailer's MyID registration, then sends the `code` the SDK returns to POST /api/v1/users/limit. Where the "
    "stage verifies with OneID there is no SDK: 409. The sandbox answers a session whose codes are its own "
    "(`sandbox-verified`...).",
    responses={409: {"description": "The stage's identity provider is not MyID"}},
)
def start_identity_session() -> Response[Envelope[IdentitySession]]:
    return responses.ok(service.start_identity_session(context.caller_id()))


lambda_handler = lambda_entry(app)
