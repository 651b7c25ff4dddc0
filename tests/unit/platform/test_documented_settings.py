"""README.md and docs/OPERATIONS.md name only settings that exist: every UPPER_CASE variable they name is
read by a settings model, given by the template, read by the code or the Makefile, or is one of the
few names that are not ours (AWS's, GitHub's) or not settings at all (statuses, reasons, file names)."""

from __future__ import annotations

import re

import pytest

from tests.documented import OPERATIONS, README, settings_names, template_variables, variables_the_code_reads

# UPPER_CASE words with an underscore, not a file's name (docs/DEMO_DATA.md).
NAMED = re.compile(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b(?!\.md)")
IN_CODE = re.compile(r"`([A-Z][A-Z0-9_]*[A-Z0-9])`")
# Names the documents use that are not settings of ours, each with what it is.
NOT_OUR_SETTINGS = {
    "AWS_DEFAULT_REGION": "the AWS CLI's and SDK's region",
    "AWS_REGION": "a GitHub environment variable of the deploy workflow",
    "AWS_DEPLOY_ROLE_ARN": "a GitHub environment variable of the deploy workflow",
    "INSUFFICIENT_FUNDS": "a card payment's decline reason",
    "CARD_BLOCKED": "a card payment's decline reason",
    "FILE_TOO_LARGE": "an operator command's own failure code (ops.catalog)",
    "FILE_NOT_UTF8": "an operator command's own failure code (ops.catalog)",
    "SALE_RULES_INVALID": "an operator command's own failure code (ops.sale)",
    "DRAW_DOES_NOT_CHECK": "an operator command's own failure code (ops sale verify-draw)",
    "NO_DATABASE": "an operator command's own failure code (ops.local_run)",
}


def variable_cells(text: str) -> list[str]:
    """The first cell of each row of the tables whose first column is `variable` (`| `PORT`, `HOST` |`):
    one-word settings included."""
    cells: list[str] = []
    header: str | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        first = line.split("|")[1].strip()
        if header is None:
            header = first.lower()
        elif header == "variable" and not first.startswith("---"):
            cells.append(first)
    return cells


def not_settings() -> frozenset[str]:
    """The API's error codes and order statuses, which the runbook names too."""
    from domain.orders.states import OrderStatus
    from edge.error_codes import CODES

    return frozenset(CODES) | frozenset(status.value for status in OrderStatus)


def known() -> frozenset[str]:
    return (
        settings_names()
        | template_variables()
        | variables_the_code_reads()
        | not_settings()
        | frozenset(NOT_OUR_SETTINGS)
    )


@pytest.mark.parametrize("document", [README, OPERATIONS], ids=lambda path: path.name)
def test_every_setting_the_document_names_exists(document: object) -> None:
    # Given the UPPER_CASE names in the document
    text = document.read_text(encoding="utf-8")  # type: ignore[attr-defined]
    named = set(NAMED.findall(text))
    named |= {name for cell in variable_cells(text) for name in IN_CODE.findall(cell)}
    # Then each is a setting of the code, the template or the Makefile, or a name that is not ours
    assert named - known() == set()


def test_the_cross_check_catches_a_setting_the_code_does_not_read() -> None:
    # Given the name the runbook once exported, which nothing reads / Then it is not known
    assert "MONGODB_URI_SECRET_ARN" not in known()
    assert "MONGODB_URI_SECRET_ID" in known()
