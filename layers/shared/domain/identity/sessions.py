"""A login's tokens: the pair a login is issued (`issue_pair`) and a refresh token's rotation (`rotate`),
signed and verified by `domain.identity.tokens`. Only the auth routes issue and rotate tokens; every
function's gate verifies them without this module.

A refresh token is single-use. Each one is recorded in `refresh_tokens`; refreshing consumes it with a
conditional update, so of two racing refreshes only one consumes it. Presenting a consumed token again
is treated as theft: the whole family (every token rotated from the same login) is revoked, unless the
same client does so within a short grace window (see `consume_refresh`).
"""

import hashlib
from datetime import datetime, timedelta
from typing import NamedTuple

from core import clock
from core.errors import NotAuthenticated
from core.ids import new_id
from core.settings import get_settings
from domain.identity import store
from domain.identity.store import RefreshToken, RefreshTokenUse
from domain.identity.tokens import Claims, check_partner, encode, verify


class TokenPair(NamedTuple):
    access_token: str
    refresh_token: str


def issue_pair(user_id: str, *, partner: str | None = None) -> TokenPair:
    """A new pair starting its own family (a login), bound to the partner app it is issued to. Every route
    that issues tokens names it; a tool minting one outside a request (tests) may leave it unbound."""
    refresh_jti = str(new_id())
    return _issue(user_id, refresh_jti, family=refresh_jti, partner=partner)


def continue_family(user_id: str, family: str, *, partner: str | None = None) -> TokenPair:
    """The next pair of `family` (a refresh), bound to the partner refreshing it."""
    refresh_jti = str(new_id())
    pair = _issue(user_id, refresh_jti, family=family, partner=partner)
    # A reuse may have revoked the family between consuming the old token and inserting this one; the
    # revocation did not see this token, so it must not survive it. One of the two writes sees the other.
    if store.family_is_revoked(family):
        store.revoke_refresh_token(refresh_jti, clock.now())
        raise NotAuthenticated("REFRESH_TOKEN_REUSED")
    return pair


def _issue(user_id: str, refresh_jti: str, *, family: str, partner: str | None) -> TokenPair:
    settings = get_settings()
    issued = clock.now()
    store.insert_refresh_token(
        RefreshToken(
            _id=refresh_jti,
            userId=user_id,
            family=family,
            createdAt=issued,
            expiresAt=issued + timedelta(seconds=settings.refresh_token_ttl_seconds),
            usedAt=None,
            revokedAt=None,
        )
    )
    return TokenPair(
        access_token=encode(
            user_id, "access", str(new_id()), issued, settings.access_token_ttl_seconds, partner=partner
        ),
        refresh_token=encode(
            user_id, "refresh", refresh_jti, issued, settings.refresh_token_ttl_seconds, partner=partner
        ),
    )


def consume_refresh(claims: Claims, *, client: str) -> str:
    """Mark a refresh token used, once, by `client` (who presents it: partner and device). Returns its
    family so the next token continues it.

    The same client presenting it again within the grace window (`REFRESH_REUSE_GRACE_SECONDS`) is a
    retry after a lost answer, or two parts of one app refreshing at once: the family lives on and the
    caller gets a sibling of the token already issued. Any other reuse is treated as theft and revokes
    the whole family."""
    now = clock.now()
    record = store.use_refresh_token(claims.jti, claims.sub, client=client, at=now)
    if record is not None:
        return record["family"]
    known = store.find_refresh_token_use(claims.jti)
    if known is not None and _reused_within_grace(known, client, now):
        return known["family"]
    if known is not None:
        store.revoke_family(known["family"], now)
    raise NotAuthenticated("REFRESH_TOKEN_REUSED")


def rotate(refresh_token: str, *, client: str, partner: str) -> TokenPair:
    """A new pair for a refresh token of a user who still exists, presented with the key of the partner
    it was issued to, which the token's family continues (bound to that partner)."""
    claims = verify(refresh_token, "refresh")
    check_partner(claims, partner)
    if not store.user_exists(claims.sub):
        raise NotAuthenticated("USER_NOT_FOUND")
    return continue_family(claims.sub, consume_refresh(claims, client=client), partner=partner)


def refresh_client(partner: str, fingerprint: str) -> str:
    """Who presents a refresh token, as stored beside it: a digest, so any fingerprint fits the record."""
    return hashlib.sha256(f"{partner}\n{fingerprint}".encode()).hexdigest()


def _reused_within_grace(record: RefreshTokenUse, client: str, now: datetime) -> bool:
    used_at = record.get("usedAt")
    grace = timedelta(seconds=get_settings().refresh_reuse_grace_seconds)
    return (
        record.get("revokedAt") is None
        and used_at is not None
        and record.get("usedBy") == client
        and now - used_at <= grace
    )
