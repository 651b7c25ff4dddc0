"""How a partner's users sign in (`python -m ops partners add NAME --login POLICY`, `set-login`):

- `trusted`: the partner's `client` key vouches for the person a login names (the interface's original
  model, for a partner whose backend calls us; the default).
- `assertion`: the partner's backend, which verified the person, signs a short-lived JWT the app sends
  with the login (`domain.identity.assertions` checks it) with a key registered here: an Ed25519, P-256
  or RSA public key (EdDSA, ES256, RS256), or a shared HS256 secret generated here.
- `otp`: the person proves the phone with a one-time code sent by SMS (`domain.identity.login_codes`).

An HS256 secret is never stored: like a webhook secret (`domain.partners.webhooks`) it is derived
(HMAC-SHA256) from the stage's webhook signing key and a random salt stored with the partner, shown to
the operator once, when it is made.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import get_args

from core import clock
from core.errors import InvalidInput, NotFound, NotPermitted
from domain.partners import store
from domain.partners.store import AssertionAlgorithm, AssertionKey, LoginPolicy, PartnerLogin, PartnerRecord

POLICIES: tuple[LoginPolicy, ...] = get_args(LoginPolicy)
DEFAULT_POLICY: LoginPolicy = "trusted"
HS256_SECRET_PREFIX = "hs256_"  # noqa: S105 (a prefix that says what the value is, not a secret)
MIN_RSA_BITS = 2048
MAX_PUBLIC_KEY_CHARS = 8192  # a 4096-bit RSA key in PEM is about 800


def policy_of(login: PartnerLogin | None) -> LoginPolicy:
    return DEFAULT_POLICY if login is None else login["policy"]


def login_of(partner: str) -> PartnerLogin | None:
    """How the named partner's users sign in (None: `trusted`, as every partner made before policies).
    A partner disabled or gone since the gate let its key in (its cache lasts PARTNER_CACHE_SECONDS) is
    refused as its key would be now."""
    found = store.find_partner_login(partner)
    if found is None or not found[0]:
        raise NotPermitted("CLIENT_KEY_UNKNOWN")
    return found[1]


def new_login(policy: LoginPolicy) -> PartnerLogin:
    return PartnerLogin(policy=policy, assertionKey=None)


def set_login(
    name: str, policy: LoginPolicy, *, public_key_pem: str | None = None, hs256: bool = False
) -> tuple[PartnerRecord, str | None]:
    """Set the named partner's login policy, registering an assertion key when one is given. The record
    after, and the HS256 secret when one was generated (shown this once). `assertion` needs a key: the
    one given, or one registered before."""
    found = store.find_partner_login(name)
    if found is None:
        raise NotFound("PARTNER_NOT_FOUND", partner=name)
    current = found[1]
    key = None if current is None else current["assertionKey"]
    secret = None
    if public_key_pem is not None and hs256:
        raise InvalidInput("ASSERTION_KEY_ONE_OF")
    if (public_key_pem is not None or hs256) and policy != "assertion":
        raise InvalidInput("ASSERTION_KEY_ONLY_FOR_ASSERTION")
    if public_key_pem is not None:
        key = AssertionKey(
            alg=algorithm_of(public_key_pem), publicKey=public_key_pem.strip(), salt=None, setAt=clock.now()
        )
    elif hs256:
        salt = secrets.token_urlsafe(32)
        key = AssertionKey(alg="HS256", publicKey=None, salt=salt, setAt=clock.now())
        secret = hs256_secret(salt)
    if policy == "assertion" and key is None:
        raise InvalidInput("ASSERTION_KEY_REQUIRED")
    record = store.set_partner_login(name, PartnerLogin(policy=policy, assertionKey=key), at=clock.now())
    if record is None:
        raise NotFound("PARTNER_NOT_FOUND", partner=name)
    return record, secret


def hs256_secret(salt: str) -> str:
    """The HS256 secret a salt stands for: the partner signs with it, the service verifies with it."""
    # Imported here: only an HS256 partner's login defines the webhook settings (a cold start's cost).
    from domain.partners.settings import webhook_signing_key

    digest = hmac.new(webhook_signing_key().encode(), f"login-assertion\n{salt}".encode(), hashlib.sha256).digest()
    return HS256_SECRET_PREFIX + base64.urlsafe_b64encode(digest).decode().rstrip("=")


def algorithm_of(public_key_pem: str) -> AssertionAlgorithm:
    """The JWS algorithm a PEM public key verifies: Ed25519 -> EdDSA, P-256 -> ES256, RSA of 2048 bits or
    more -> RS256; any other key, or text that is no public key, is refused."""
    # Imported here: only the operators' command registers keys.
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
    from cryptography.hazmat.primitives.serialization import load_pem_public_key

    if len(public_key_pem) > MAX_PUBLIC_KEY_CHARS:
        raise InvalidInput("ASSERTION_KEY_UNSUPPORTED")
    try:
        key = load_pem_public_key(public_key_pem.strip().encode())
    except (ValueError, TypeError) as exc:
        raise InvalidInput("ASSERTION_KEY_UNSUPPORTED") from exc
    if isinstance(key, ed25519.Ed25519PublicKey):
        return "EdDSA"
    if isinstance(key, ec.EllipticCurvePublicKey) and isinstance(key.curve, ec.SECP256R1):
        return "ES256"
    if isinstance(key, rsa.RSAPublicKey) and key.key_size >= MIN_RSA_BITS:
        return "RS256"
    raise InvalidInput("ASSERTION_KEY_UNSUPPORTED")


def verification_key(key: AssertionKey) -> str:
    """What verifies the partner's assertions with PyJWT: the PEM public key, or the HS256 secret."""
    if key["alg"] == "HS256":
        return hs256_secret(str(key["salt"]))
    return str(key["publicKey"])
