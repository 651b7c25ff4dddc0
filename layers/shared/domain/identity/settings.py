"""Sign-in's and identity verification's settings: how many logins a person, an address and a partner
may make, and the identity provider (docs/DEMO_DATA.md, "Identity codes"). Read from the environment once
per process by the code that signs callers in and verifies them (Auth); the other functions, which only
check tokens, never define this model."""

# No `from __future__ import annotations`, as in every settings module (docs/DECISIONS.md, "Import-time work").
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from core import secrets
from core.settings import cached_settings, from_env

CODE_MARK = "{code}"


class IdentitySettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    # What one caller cannot exhaust for another: no limit is partner-wide (docs/DECISIONS.md, "No
    # partner-wide lockout"); a partner's login rate is a metric with an alarm (template.yaml).
    # Counted in this order, a refused request counting against nothing after it: the address, the device,
    # then the person at that address (docs/DECISIONS.md, "Login limits").
    login_rate_limit: int = Field(
        default=20, ge=1, description="logins per phone number and per PINFL from one address per window"
    )
    login_ip_rate_limit: int = Field(default=100, ge=1, description="logins per source IP per window")
    login_device_rate_limit: int = Field(default=20, ge=1, description="logins per device (fingerprint) per window")
    login_rate_window_seconds: int = Field(default=60, ge=1)

    # One-time sign-in codes of `otp` partners (domain.identity.login_codes), sent by SMS.
    login_code_ttl_seconds: int = Field(default=300, ge=30, le=1800, description="how long a sent code is valid")
    login_code_resend_seconds: int = Field(default=60, ge=1, description="cooldown before another code is sent")
    # Answers checked against a phone's codes, whatever code they were for (a new code resets nothing):
    # at most this many an hour from one address, and this many an hour from all addresses together.
    login_code_guesses_per_address: int = Field(
        default=5, ge=1, le=20, description="answers to a phone's codes checked from one address per guess window"
    )
    login_code_guesses_per_phone: int = Field(
        default=10, ge=1, le=50, description="answers to a phone's codes checked from all addresses per guess window"
    )
    login_code_guess_window_seconds: int = Field(default=3600, ge=60, description="the guess budgets' sliding window")
    # The sign-in SMS, per language, as registered with Eskiz (which sends only texts its moderators
    # approved, character for character): `{code}` marks the code's place, once; rendered exactly.
    eskiz_login_template_uz: str = Field(
        default="Car Retail: kirish kodingiz {code}. Uni hech kimga aytmang.", description="the uz sign-in SMS"
    )
    eskiz_login_template_ru: str = Field(
        default="Car Retail: ваш код входа {code}. Никому его не сообщайте.", description="the ru sign-in SMS"
    )
    eskiz_login_template_en: str = Field(
        default="Car Retail: your sign-in code is {code}. Do not tell it to anyone.", description="the en sign-in SMS"
    )
    # An Eskiz test account sends only Eskiz's fixed test phrases, which carry no code: the sign-in code is
    # then the sandbox's (666666), so such an account is refused in prod like the sandbox.
    eskiz_test_account: bool = Field(default=False, description="the Eskiz account is a test account")
    eskiz_test_text: Literal["This is test from Eskiz", "Bu Eskiz dan test", "Это тест от Eskiz"] = Field(
        default="This is test from Eskiz", description="the test phrase a test account sends"
    )
    # The SMS gateway: the sandbox (sends nothing; its code is 666666; refused in prod) or Eskiz
    # (notify.eskiz.uz). Eskiz's credentials are one secret, the JSON {"email": ..., "password": ...}.
    sms_provider: Literal["sandbox", "eskiz"] = "sandbox"
    eskiz_url: str = Field(default="https://notify.eskiz.uz", description="Eskiz's API, without /api")
    eskiz_from: str = Field(default="4546", description="the sender name Eskiz approved (its default: 4546)")
    eskiz_credentials: str | None = None
    eskiz_credentials_secret_id: str | None = None
    sms_timeout_seconds: float = Field(default=5.0, gt=0, le=20, description="per HTTP request to the gateway")

    # Identity verification (POST /api/v1/users/limit): the sandbox, MyID or OneID. The URL is MyID's API
    # (https://api.myid.uz) or OneID's OAuth endpoint (https://sso.egov.uz/sso/oauth/Authorization.do);
    # the client is the one the provider registered.
    identity_provider: Literal["sandbox", "myid", "oneid"] = "sandbox"
    identity_provider_url: str | None = None
    identity_client_id: str | None = None
    identity_client_secret: str | None = None
    identity_client_secret_id: str | None = None
    oneid_redirect_uri: str | None = Field(default=None, description="the redirect URI registered with OneID")
    # Partners with their own redirect URI registered with OneID for this stage send it with the code
    # (`redirectUri`); comma-separated, exact URIs.
    oneid_redirect_uris: str | None = Field(default=None, description="more redirect URIs allowed, comma-separated")
    # What MyID gave this service's registration for the partner apps' SDK (not secrets: apps embed them).
    myid_client_hash: str | None = None
    myid_client_hash_id: str | None = None
    myid_session_rate_limit: int = Field(default=10, ge=1, description="MyID SDK sessions per user per window")
    myid_session_rate_window_seconds: int = Field(default=600, ge=1)
    oneid_scope: str | None = Field(default=None, description="OneID scope; OneID's default is the client id")
    identity_timeout_seconds: float = Field(default=3.0, gt=0, description="per HTTP request")
    identity_max_retries: int = Field(default=2, ge=0, le=5, description="retries on 5xx and connection errors")
    identity_retry_backoff_seconds: float = Field(
        default=0.25, ge=0, description="first retry delay, doubled each time"
    )
    identity_deadline_seconds: float = Field(
        default=8.0, gt=0, description="budget of one verification, retries included"
    )
    verified_purchase_limit: int = Field(default=500_000_000, ge=0, description="sums unlocked by verification")

    @field_validator("eskiz_login_template_uz", "eskiz_login_template_ru", "eskiz_login_template_en")
    @classmethod
    def _marks_the_code_once(cls, template: str) -> str:
        if template.count(CODE_MARK) != 1:
            raise ValueError(f"a sign-in SMS template marks the code's place with {CODE_MARK} exactly once")
        return template

    def login_template(self, language: str) -> str:
        """The sign-in SMS template of `language` (ru, uz or en; uz, the default locale, for any other)."""
        return {"ru": self.eskiz_login_template_ru, "en": self.eskiz_login_template_en}.get(
            language, self.eskiz_login_template_uz
        )

    @property
    def allowed_redirect_uris(self) -> frozenset[str]:
        """Every redirect URI a OneID code may have been issued for: the stage's own and the partners'."""
        listed = (self.oneid_redirect_uris or "").split(",")
        return frozenset(uri.strip() for uri in [*listed, self.oneid_redirect_uri or ""] if uri.strip())


@cached_settings
def get_identity_settings() -> IdentitySettings:
    return from_env(IdentitySettings)


def eskiz_credentials() -> str:
    """Eskiz's credentials, the JSON {"email": ..., "password": ...}, from one secret."""
    settings = get_identity_settings()
    return secrets.required(
        settings.eskiz_credentials,
        settings.eskiz_credentials_secret_id,
        "ESKIZ_CREDENTIALS or ESKIZ_CREDENTIALS_SECRET_ID must be set when SMS_PROVIDER is eskiz",
    )


def identity_client_secret() -> str:
    """The client secret of the identity provider the stage uses (MyID or OneID)."""
    settings = get_identity_settings()
    return secrets.required(
        settings.identity_client_secret,
        settings.identity_client_secret_id,
        "IDENTITY_CLIENT_SECRET or IDENTITY_CLIENT_SECRET_ID must be set when IDENTITY_PROVIDER is myid or oneid",
    )
