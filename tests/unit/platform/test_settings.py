"""Settings a deployed stack must have: the assets base URL, from the template, or the functions refuse
to start; and a setting out of its bounds refuses the start of the functions that use it, only theirs."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Iterator

import pytest
from pydantic import ValidationError

from core.assets import url
from core.settings import LOCAL_ASSETS_BASE_URL, LOCAL_EDGE_FILES_URL, Settings, reset_settings
from domain.identity import callers
from edge.app import create_app, lambda_entry
from local.template import ROOT, load_template

ENVIRONMENTS = ("default", "dev", "staging", "prod")


@pytest.fixture
def fresh_settings() -> Iterator[None]:
    reset_settings()
    yield
    reset_settings()


def test_a_function_outside_local_without_an_assets_base_url_refuses_to_start(
    fresh_settings: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a deployed stage whose environment has no ASSETS_BASE_URL
    monkeypatch.setenv("STAGE", "staging")
    monkeypatch.delenv("ASSETS_BASE_URL", raising=False)
    # When a function starts, then it fails its start saying what is missing
    with pytest.raises(RuntimeError, match="ASSETS_BASE_URL must be set outside the local stage"):
        lambda_entry(create_app(callers=callers))
    # And nothing could have answered a storage key as an image URL
    with pytest.raises(RuntimeError, match="ASSETS_BASE_URL"):
        url("organizations/kapitalbank.svg")


def test_a_function_with_the_templates_assets_base_url_starts_and_answers_urls_under_it(
    fresh_settings: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STAGE", "prod")
    monkeypatch.setenv("ASSETS_BASE_URL", "https://d111111abcdef8.cloudfront.net/media/")
    assert callable(lambda_entry(create_app(callers=callers)))
    assert (
        url("organizations/kapitalbank.svg")
        == "https://d111111abcdef8.cloudfront.net/media/organizations/kapitalbank.svg"
    )


def test_locally_the_assets_are_the_local_servers() -> None:
    assert Settings(stage="local").assets_base == LOCAL_ASSETS_BASE_URL
    assert Settings(stage="local", assets_base_url="http://127.0.0.1:3100/assets").assets_base.endswith(":3100/assets")


@pytest.mark.parametrize(
    ("stage", "base"),
    [("prod", "http://assets.example.uz"), ("dev", "assets.example.uz"), ("local", "/assets"), ("prod", "https://")],
)
def test_an_assets_base_url_that_is_not_an_absolute_url_is_refused(stage: str, base: str) -> None:
    # http is refused outside local: partner web apps are served over https and browsers block http images
    with pytest.raises(ValidationError, match="ASSETS_BASE_URL must be an absolute"):
        Settings(stage=stage, assets_base_url=base)


def test_the_edge_files_are_fetched_from_the_configured_url_or_locally_from_make_runs_host() -> None:
    # Given the URL the template gives (the distribution), or none on a laptop
    deployed = Settings(stage="prod", edge_files_url="https://d111111abcdef8.cloudfront.net/")
    # Then a buyer is sent to the distribution, or to `make run`'s own host
    assert deployed.edge_files_base == "https://d111111abcdef8.cloudfront.net"
    assert Settings(stage="local").edge_files_base == LOCAL_EDGE_FILES_URL
    # And a deployed stage without one, or with one buyers could not fetch from a web app, is refused
    with pytest.raises(RuntimeError, match="EDGE_FILES_URL must be set outside the local stage"):
        _ = Settings(stage="prod").edge_files_base
    with pytest.raises(ValidationError, match="EDGE_FILES_URL must be an absolute https URL"):
        Settings(stage="prod", edge_files_url="http://d111111abcdef8.cloudfront.net")


def test_the_template_requires_the_assets_base_url_and_every_environment_gives_one() -> None:
    template = load_template()
    parameter = template["Parameters"]["AssetsBaseUrl"]
    assert "Default" not in parameter
    pattern = re.compile(parameter["AllowedPattern"])
    assert template["Globals"]["Function"]["Environment"]["Variables"]["ASSETS_BASE_URL"] == {"Ref": "AssetsBaseUrl"}
    config = tomllib.loads((ROOT / "samconfig.toml").read_text(encoding="utf-8"))
    for environment in ENVIRONMENTS:
        given = config[environment]["deploy"]["parameters"]["parameter_overrides"]
        overrides = dict(item.split("=", 1) for item in shlex.split(given))
        assert pattern.fullmatch(overrides["AssetsBaseUrl"]), environment
        Settings(stage=overrides["Stage"], assets_base_url=overrides["AssetsBaseUrl"]).ensure_can_serve()


def start(module: str, **environment: str) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter importing a function's handler module (its init phase) in this environment."""
    roots = os.pathsep.join(str(ROOT / part) for part in ("layers/shared", "functions"))
    command = [sys.executable, "-c", "import importlib, sys; importlib.import_module(sys.argv[1])", module]
    return subprocess.run(  # noqa: S603 (our interpreter, our module)
        command, env={**os.environ, "PYTHONPATH": roots, **environment}, capture_output=True, text=True, check=False
    )


# A value out of bounds for a setting of one concern, and a function that has that concern.
OUT_OF_BOUNDS = {
    "IDENTITY_MAX_RETRIES": ("9", "auth.app"),
    "PAYMENT_PROCESSOR_TIMEOUT_SECONDS": ("20", "transactions.app"),
}


@pytest.mark.parametrize("variable", OUT_OF_BOUNDS)
def test_a_setting_out_of_bounds_refuses_the_start_of_a_function_that_uses_it(variable: str) -> None:
    # Given an environment with one setting out of its bounds (at most 5 retries, at most 8 s a call)
    value, module = OUT_OF_BOUNDS[variable]
    # When a function that uses it starts
    started = start(module, **{variable: value})
    # Then its start fails, naming the setting
    assert started.returncode != 0
    assert variable.lower() in started.stderr


def test_a_function_starts_whatever_the_settings_of_concerns_it_does_not_have() -> None:
    # Given those same settings out of bounds
    environment = {variable: value for variable, (value, _) in OUT_OF_BOUNDS.items()}
    # When a function that neither verifies identities nor pays by card starts / Then it starts
    started = start("catalog.app", **environment)
    assert started.returncode == 0, started.stderr
