"""What the request gate asks about a caller (the `edge.context.Callers` protocol, which this module
satisfies), answered from the partners and identity stores. Each function gives it to its app:
`app = create_app(callers=callers)`; the edge itself never imports the domain."""

from __future__ import annotations

from data.caches import register_loader
from domain.identity import store, tokens
from domain.partners.store import find_active_partner, load_active_partners

# The gate asks for the caller's partner on every request, and checks a token with the signing key on
# every authenticated one: a SnapStart restore reads them first.
register_loader(load_active_partners)
register_loader(tokens.prepare_current_key)


def partner_name(client_key: str) -> str | None:
    """The name of the active partner owning this client key; None for an unknown or inactive key."""
    partner = find_active_partner(client_key)
    return None if partner is None else partner["name"]


def user_exists(user_id: str) -> bool:
    return store.user_exists(user_id)


def verify_access_token(token: str, partner: str) -> str:
    """The user id an access token was issued to, presented with its partner's key; raises
    NotAuthenticated for any defect."""
    claims = tokens.verify(token, "access")
    tokens.check_partner(claims, partner)
    return claims.sub
