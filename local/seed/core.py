"""Core demo data: the demo partner key and a demo user."""

from __future__ import annotations

from typing import Any

from pymongo.database import Database

from core import clock
from domain.partners.store import hash_client_key
from local.seed.support import insert_missing, stable_id

DEMO_PARTNER_KEY = "demo-partner-key"
DEMO_PARTNER = "Demo partner"
DEMO_USER_ID = stable_id("user:demo")
DEMO_USER_PHONE = "+998901234567"


def seed(db: Database[dict[str, Any]]) -> int:
    now = clock.now()
    partners = [{"_id": hash_client_key(DEMO_PARTNER_KEY), "name": DEMO_PARTNER, "active": True, "createdAt": now}]
    users = [
        {
            "_id": DEMO_USER_ID,
            "phone": DEMO_USER_PHONE,
            "firstName": "Aziz",
            "lastName": "Karimov",
            "balance": 0,
            "verified": False,
            "createdAt": now,
            "updatedAt": now,
        }
    ]
    return insert_missing(db.partners, partners) + insert_missing(db.users, users)
