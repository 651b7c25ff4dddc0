"""The demo partners' keys, published in the README: accepted on a laptop (STAGE=local) only, even by a
deployed stage whose database holds them."""

from __future__ import annotations

from typing import Any

import pytest
from pymongo.database import Database

from core.settings import reset_settings
from domain.partners.store import DEMO_KEY, DEMO_KEYS, DEMO_OTP_KEY, find_active_partner, register_partner
from local.seed.core import DEMO_OTP_PARTNER_KEY, DEMO_PARTNER_KEY


def test_the_demo_key_is_the_local_seeds() -> None:
    assert DEMO_PARTNER_KEY == DEMO_KEY == "demo-partner-key"
    assert DEMO_OTP_PARTNER_KEY == DEMO_OTP_KEY == "demo-otp-partner-key"


@pytest.mark.parametrize("key", sorted(DEMO_KEYS))
@pytest.mark.parametrize("stage", ["dev", "staging", "prod"])
def test_a_demo_key_opens_nothing_outside_local(
    db: Database[dict[str, Any]], monkeypatch: pytest.MonkeyPatch, stage: str, key: str
) -> None:
    # Given a database where a demo partner is registered, and active
    register_partner(key, "A demo partner")
    assert find_active_partner(key) is not None
    # When a deployed stage reads it / Then the key is no partner's; another registered key still is
    register_partner("a-real-partner-key", "Avto Market")
    monkeypatch.setenv("STAGE", stage)
    reset_settings()
    assert find_active_partner(key) is None
    assert find_active_partner("a-real-partner-key") is not None
