"""sdk/README.md shows what the test of the generated client runs: its TypeScript example is
sdk/src/first-order.ts as compiled and run against the local API
(tests/integration/contract/test_generated_client.py), and the make targets it names exist."""

from __future__ import annotations

import re

from local.template import ROOT

SDK = ROOT / "sdk"
README = (SDK / "README.md").read_text(encoding="utf-8")


def test_the_readmes_example_is_the_file_the_test_compiles_and_runs() -> None:
    # Given the README's TypeScript block / Then it is sdk/src/first-order.ts, whole
    blocks = re.findall(r"^```ts\n(.*?)^```", README, re.DOTALL | re.MULTILINE)
    assert blocks == [(SDK / "src" / "first-order.ts").read_text(encoding="utf-8")]


def test_the_readmes_make_targets_and_programs_exist() -> None:
    # Given the make targets and the compiled programs the README names
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^make ([a-z-]+)", README, re.MULTILINE))
    programs = set(re.findall(r"node sdk/build/([a-z-]+)\.js", README))
    # Then each target is the Makefile's, each program one of sdk/src
    assert targets >= {"sdk", "openapi"}
    assert all(re.search(rf"^{target}:", makefile, re.MULTILINE) for target in targets)
    assert programs == {"first-order", "journey"}
    assert all((SDK / "src" / f"{program}.ts").is_file() for program in programs)
