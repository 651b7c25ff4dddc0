"""Settings a deployed stack must have: the assets base URL, from the template, or the functions refuse
to start."""

from __future__ import annotations

import re
import shlex
import tomllib
from collections.abc import Iterator

import pytest
from pydantic import ValidationError

from core.assets import url
from core.settings import LOCAL_ASSETS_BASE_URL, Settings, reset_settings
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
