"""Settings, read from the environment once per process.

`Settings` holds what every function needs. A concern only some functions have keeps its settings in
its domain package, a model of the same kind read by `from_env` and cached by `cached_settings`
(`domain.identity.settings`: sign-in limits, the identity provider; `domain.orders.settings`: holds and
a person's limits; `domain.payments.settings`: the card processor, card-payment limits;
`domain.partners.settings`: the webhook signing key, delivery), so the
functions without that concern never define it (each field is paid for at cold start).
`read_settings` reads every one the process defined, `reset_settings` forgets them all.

Secrets (the JWT key, the Mongo URI) come from AWS Secrets Manager when deployed: the template passes
their ARNs, and `core.secrets` resolves them lazily. Locally they come straight from env vars.
"""

# No `from __future__ import annotations`, as in every settings module (docs/DECISIONS.md, "Import-time work").
import os
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Literal, Self
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, model_validator

LOCAL_ORIGINS = ("http://localhost:*", "http://127.0.0.1:*")  # a web app's dev server, on any port
# `make run` serves local/assets here (it sets ASSETS_BASE_URL to its own host and port).
LOCAL_ASSETS_BASE_URL = "http://127.0.0.1:3000/assets"
# `make run` serves a fair opening's public files at its own host (it sets EDGE_FILES_URL to it).
LOCAL_EDGE_FILES_URL = "http://127.0.0.1:3000"
LOCAL_JWT_SECRET = "local-development-only-jwt-secret-0123456789"  # noqa: S105 (dev default, refused outside local)


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True)

    # Fail safe: a process that was not told its stage is treated as production (real partners, a real
    # JWT key required). `make run`, `make test` and `python -m local` set STAGE=local.
    stage: str = "prod"
    mongodb_uri: str | None = None
    mongodb_uri_secret_id: str | None = None
    mongodb_db: str = "car_retail"
    mongodb_server_selection_timeout_ms: int = Field(default=3000, ge=100)
    # Every database operation gives up after this (pymongo timeoutMS), well inside the Lambda's 10 s,
    # so a stalled database is our 503 in the envelope rather than API Gateway's timeout.
    mongodb_timeout_ms: int = Field(default=5000, ge=100)
    # A Lambda instance serves one request at a time: a small pool, so that scale-out (capped by the
    # reserved concurrency) cannot exhaust the cluster's connections.
    mongodb_max_pool_size: int = Field(default=5, ge=1, le=100)

    jwt_secret: str | None = None
    # Locally, the key tokens were signed with before JWT_SECRET was rotated (deployed: AWSPREVIOUS).
    jwt_previous_secret: str | None = None
    jwt_secret_arn: str | None = None
    jwt_issuer: str = "car-retail-api"
    access_token_ttl_seconds: int = Field(default=15 * 60, gt=0)
    refresh_token_ttl_seconds: int = Field(default=30 * 24 * 3600, gt=0)
    # A used refresh token presented again by the same client this soon is a retry, not a theft.
    refresh_reuse_grace_seconds: int = Field(default=10, ge=0, le=60)

    partner_cache_seconds: int = Field(default=60, ge=0)
    # Reference data (brands, regions, banks, financing programs...) is cached per instance this long; 0: never.
    reference_cache_seconds: int = Field(default=60, ge=0)
    # Browser origins allowed to call the API (CORS), comma-separated: exact origins, or `scheme://host:*`
    # for any port. Unset: none, except locally (LOCAL_ORIGINS).
    allowed_origins: str | None = None

    # Where image and file keys (`organizations/kapitalbank.svg`) are served from: required outside
    # `local` (the template passes it), else every image URL a deployed stack answers would be broken.
    assets_base_url: str | None = None
    event_bus_name: str = "default"
    event_publisher: Literal["eventbridge", "log"] | None = None

    # The FIFO queue the outbox hands partner webhooks to (unset on a laptop: the local runtime delivers
    # them itself). Their signing key and delivery: domain.partners.settings.
    webhook_queue_url: str | None = None

    # Where a fair opening's public files (status.json, draw.json) are written: the bucket CloudFront serves
    # them from (template.yaml), or without one a folder the local gateway serves (data.edge_files).
    edge_files_bucket: str | None = None
    edge_files_dir: str | None = None
    # Where buyers fetch them (the catalog answers a queued car's status.json URL): the CloudFront
    # distribution in front of the bucket (template.yaml gives it to the Catalog function), else `make run`.
    edge_files_url: str | None = None

    # What one request may spend on calls to partners (card processors, identity providers), all of them
    # together: below the functions' 10 s timeout, so what is unfinished is our 503 and the payment
    # reconciliation's to settle, never API Gateway's timeout (core.deadline).
    provider_budget_seconds: float = Field(default=7.0, gt=0, le=9)

    @model_validator(mode="after")
    def _public_urls_are_absolute(self) -> Self:
        """The assets' and the edge files' base URLs, when given, are absolute; https outside `local`
        (partner web apps are served over https, and browsers block http images and fetches there)."""
        schemes = ("https", "http") if self.is_local else ("https",)
        for name, value in (("ASSETS_BASE_URL", self.assets_base_url), ("EDGE_FILES_URL", self.edge_files_url)):
            parts = urlsplit(value) if value is not None else None
            if parts is not None and (parts.scheme not in schemes or not parts.netloc):
                raise ValueError(f"{name} must be an absolute {' or '.join(schemes)} URL")
        return self

    def ensure_can_serve(self) -> None:
        """Raise unless a process serving the API has what it needs beyond the defaults. Functions call it
        when they start (`edge.app.lambda_entry`); operator commands, which serve nothing, do not."""
        if self.assets_base_url is None and not self.is_local:
            raise RuntimeError(f"ASSETS_BASE_URL must be set outside the local stage (stage {self.stage!r})")

    @property
    def is_local(self) -> bool:
        return self.stage == "local"

    @property
    def allowed_origin_list(self) -> tuple[str, ...]:
        if self.allowed_origins is None:
            return LOCAL_ORIGINS if self.is_local else ()
        return tuple(origin.strip() for origin in self.allowed_origins.split(",") if origin.strip())

    @property
    def assets_base(self) -> str:
        """The base URL of images and files: the configured one, or the local server's on a laptop."""
        self.ensure_can_serve()
        return (self.assets_base_url or LOCAL_ASSETS_BASE_URL).rstrip("/")

    @property
    def edge_files_base(self) -> str:
        """Where buyers fetch the edge files: the configured URL, or the local server's on a laptop."""
        if self.edge_files_url is None and not self.is_local:
            raise RuntimeError(f"EDGE_FILES_URL must be set outside the local stage (stage {self.stage!r})")
        return (self.edge_files_url or LOCAL_EDGE_FILES_URL).rstrip("/")

    @property
    def effective_event_publisher(self) -> Literal["eventbridge", "log"]:
        """EventBridge when deployed; the log on a laptop, which has no AWS account."""
        return self.event_publisher or ("log" if self.is_local else "eventbridge")


def from_env[M: BaseModel](model: type[M], environ: Mapping[str, str] = os.environ) -> M:
    """A settings model read from the environment: each field from the variable of its name in capitals,
    its default when that is unset or empty."""
    values = {name: environ[name.upper()] for name in model.model_fields if environ.get(name.upper()) not in (None, "")}
    return model.model_validate(values)


# Every cached settings reader, with what forgets its value.
_readers: list[tuple[Callable[[], BaseModel], Callable[[], None]]] = []


def cached_settings[M: BaseModel](read: Callable[[], M]) -> Callable[[], M]:
    """`read` run once per process, for `read_settings` to run and `reset_settings` to forget."""
    cached = lru_cache(maxsize=1)(read)
    _readers.append((cached, cached.cache_clear))
    return cached


@cached_settings
def get_settings() -> Settings:
    return from_env(Settings)


def read_settings() -> None:
    """Read every settings object of the modules imported so far: a function does it when it starts
    (`edge.app.lambda_entry`, the SnapStart before-snapshot hook), so that an invalid value fails its
    start and a snapshot holds them all."""
    for read, _ in _readers:
        read()


def reset_settings() -> None:
    """Forget every cached settings object (tests and the local server change the environment)."""
    for _, forget in _readers:
        forget()
