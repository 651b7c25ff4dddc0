"""Auth function: sign-in, token refresh, the caller's profile, identity verification."""

from __future__ import annotations

from auth import service
from auth.models import LimitBody, LoginBody, RefreshBody
from common import context, responses
from common.access import JWT
from common.app import create_app, lambda_entry

app = create_app()


@app.post("/api/v1/auth/login")
def login(body: LoginBody):
    pair = service.login(
        body,
        source_ip=app.current_event.request_context.identity.source_ip,
        partner=context.current().partner,
    )
    return responses.created(pair.as_dict())


@app.post("/api/v1/auth/refresh-token")
def refresh_token(body: RefreshBody):
    caller = context.current()
    pair = service.refresh(body.token, partner=caller.partner, fingerprint=caller.fingerprint)
    return responses.created(pair.as_dict(), message="auth.token.refresh")


@app.get("/api/v1/auth/me", middlewares=[JWT])
def me():
    return responses.ok(service.profile(context.caller_id()))


@app.post("/api/v1/users/limit", middlewares=[JWT])
def verify_identity(body: LimitBody):
    return responses.ok(service.verify_identity(context.caller_id(), body.code))


lambda_handler = lambda_entry(app)
