"""Minted ObjectIds: unique within a process, and minted only through core.ids (SnapStart-safe)."""

from __future__ import annotations

import ast
from pathlib import Path

from bson import ObjectId

from core import ids

ROOT = Path(__file__).resolve().parents[3]


def test_minted_ids_are_unique_and_increase_within_a_process():
    # Given / When a process mints many ids
    minted = [ids.new_id() for _ in range(1000)]

    # Then none repeats, each is a valid ObjectId, and they sort in minting order within a second
    assert len(set(minted)) == 1000
    assert all(ObjectId.is_valid(str(oid)) for oid in minted)
    assert {oid.binary[4:9] for oid in minted} == {minted[0].binary[4:9]}  # one process-random part


def test_reseeding_draws_a_new_process_random_part():
    # Given an id minted before a restore
    before = ids.new_id()

    # When the process is re-seeded (the after-restore hook)
    ids.reseed()

    # Then later ids carry other random bytes
    assert ids.new_id().binary[4:9] != before.binary[4:9]


def test_no_code_lets_bson_mint_an_id():
    # Given every module shipped to Lambda
    modules = [*(ROOT / "layers" / "shared").rglob("*.py"), *(ROOT / "functions").rglob("*.py")]

    # When their calls are read
    bare = [
        f"{module.relative_to(ROOT)}:{node.lineno}"
        for module in modules
        for node in ast.walk(ast.parse(module.read_text()))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "ObjectId"
        and not node.args
        and not node.keywords
    ]

    # Then none calls ObjectId() (same ids in every instance restored from one snapshot): core.ids.new_id
    assert not bare
