"""A route's body budget, read from its model's JSON schema, and the check of a body's text against it
(edge.json_budget): what the largest valid body holds fits, the scan measures exactly what parsing would
build (string contents aside), and the count of characters never says less than the scan."""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from edge.json_budget import (
    DEFAULT_MAX_ITEMS,
    UNDECLARED,
    JsonBudget,
    UnboundedBody,
    budget_of_model,
    budget_of_schema,
    exceeds,
    short_and_shallow,
    upper_bound,
)
from local.template import ROOT
from tests.route_table import FUNCTIONS

# Strings that hold what tokens are made of, escapes and non-ASCII: the scan must skip their contents.
TRICKY_TEXT = st.text(alphabet=st.sampled_from(list('ab{}[],:"\\ é\n')), max_size=8)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | TRICKY_TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(TRICKY_TEXT, children, max_size=4),
    max_leaves=30,
)


def measure(value: Any) -> JsonBudget:
    """What the JSON text of `value` holds, from the value itself: depth, and its strings, brackets,
    braces, commas and colons."""
    if isinstance(value, list):
        items = [measure(item) for item in value]
        return JsonBudget(
            1 + max((item.depth for item in items), default=0),
            2 + max(len(items) - 1, 0) + sum(item.tokens for item in items),
        )
    if isinstance(value, dict):
        members = [measure(item) for item in value.values()]
        return JsonBudget(
            1 + max((member.depth for member in members), default=0),
            2 + 2 * len(members) + max(len(members) - 1, 0) + sum(member.tokens for member in members),
        )
    return JsonBudget(0, 1 if isinstance(value, str) else 0)


class Choice(BaseModel):
    code: str
    amounts: list[int] = Field(max_length=3)


class Body(BaseModel):
    name: str
    choice: Choice | None = None
    pair: tuple[str, str]
    labels: dict[str, int] = Field(max_length=2)


LARGEST_BODY = {
    "name": "n",
    "choice": {"code": "c", "amounts": [1, 2, 3]},
    "pair": ["a", "b"],
    "labels": {"x": 1, "y": 2},
}


class Node(BaseModel):
    children: list[Node] = Field(max_length=2)


# The schema


def test_the_largest_valid_body_fits_its_schemas_budget_and_nests_as_deep() -> None:
    # Given a model of nested objects, a bounded list, a pair and a bounded map, and its largest body
    Body.model_validate(LARGEST_BODY)
    # When its schema's budget is derived
    budget = budget_of_schema(Body.model_json_schema())
    # Then the body fits it, as deep as the schema allows
    assert measure(LARGEST_BODY).within(budget)
    assert budget.depth == measure(LARGEST_BODY).depth == 3
    assert not exceeds(json.dumps(LARGEST_BODY), budget)


def test_a_route_budget_adds_the_allowance_for_undeclared_properties() -> None:
    assert budget_of_model(Body) == budget_of_schema(Body.model_json_schema()).plus(UNDECLARED)


def test_a_list_without_max_items_counts_as_the_default_many_items() -> None:
    # Given a list of numbers with no bound, alone and bounded
    unbounded = budget_of_schema({"type": "array", "items": {"type": "integer"}})
    bounded = budget_of_schema({"type": "array", "items": {"type": "integer"}, "maxItems": 3})
    # Then the unbounded one counts DEFAULT_MAX_ITEMS items, each with its comma
    assert unbounded == JsonBudget(1, 2 + 2 * DEFAULT_MAX_ITEMS)
    assert bounded == JsonBudget(1, 2 + 2 * 3)


def test_a_union_holds_what_its_largest_branch_holds() -> None:
    schema: dict[str, Any] = {
        "anyOf": [{"type": "string"}, {"$ref": "#/$defs/Choice"}, {"type": "null"}],
        "$defs": {"Choice": Choice.model_json_schema()},
    }
    assert budget_of_schema(schema) == budget_of_schema(Choice.model_json_schema())


def test_a_model_that_contains_itself_has_no_budget() -> None:
    with pytest.raises(UnboundedBody, match="Node contains itself"):
        budget_of_schema(Node.model_json_schema())


@pytest.mark.parametrize("function", sorted(FUNCTIONS))
def test_every_route_that_takes_a_body_has_a_budget_that_costs_nothing_to_parse(function: str) -> None:
    # Given the routes of a function that take a JSON body
    app = importlib.import_module(f"{FUNCTIONS[function]}.app").app
    for declared in app.declarations.values():
        if declared.takes_body:
            # Then each has a budget (no body model is unbounded) of a few thousand tokens and a few levels
            assert declared.body_budget.within(JsonBudget(depth=10, tokens=10_000)), (declared.path, declared.body)


# The body's text


@given(JSON_VALUES)
def test_the_scan_measures_what_parsing_would_build_string_contents_skipped(value: Any) -> None:
    # Given the JSON text of any value (its strings holding brackets, commas, quotes and escapes)
    text = json.dumps(value, ensure_ascii=False)
    exact = measure(value)
    # Then it fits its exact measure, and exceeds a budget one level or one token smaller
    assert not exceeds(text, exact)
    if exact.depth:
        assert exceeds(text, JsonBudget(exact.depth - 1, exact.tokens))
    if exact.tokens:
        assert exceeds(text, JsonBudget(exact.depth, exact.tokens - 1))


@given(JSON_VALUES)
def test_the_count_of_characters_never_says_less_than_the_scan(value: Any) -> None:
    text = json.dumps(value, indent=1)
    assert measure(value).within(upper_bound(text))


@given(JSON_VALUES, st.integers(min_value=0, max_value=2))
def test_a_short_shallow_body_is_within_the_allowance_by_the_full_count_too(value: Any, indent: int) -> None:
    # Given any body's text; When its length and openers alone say it is within the allowance
    text = json.dumps(value, indent=indent)
    # Then the count of every token character says so too (and the text is never refused by it)
    if short_and_shallow(text):
        assert upper_bound(text).within(UNDECLARED)


def test_a_body_with_more_openers_than_the_allowance_is_counted_in_full() -> None:
    assert not short_and_shallow("[" * (UNDECLARED.depth + 1) + "]" * (UNDECLARED.depth + 1))
    assert not short_and_shallow(" " * (UNDECLARED.tokens + 1))
    assert short_and_shallow('{"leasingId": "7e8413d87533712538719ee7", "price": 379000000}')


def test_the_count_is_exact_for_a_body_whose_strings_hold_no_token_characters() -> None:
    text = '{"phone": "+998901112233", "ids": [1, 2, 3], "choice": {"code": "x"}}'
    assert upper_bound(text).tokens == measure(json.loads(text)).tokens == 20


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ('{"note": "a,b{c[d:e\\"f\\\\"}', 5),  # an escaped quote and an escaped backslash inside the string
        ('{"note": "a,b,c,d,e', 4),  # unterminated: the rest is one string
        ('{"note": "\\', 4),  # unterminated on a lone backslash
        ("]]]]]]]]", 8),  # closers beyond the root: nothing to close, still counted
        ("1234 true null", 0),  # no token but the values themselves
    ],
)
def test_the_scan_counts_the_tokens_of_malformed_text_too(text: str, tokens: int) -> None:
    assert not exceeds(text, JsonBudget(depth=1, tokens=tokens))
    assert exceeds(text, JsonBudget(depth=1, tokens=tokens - 1)) == (tokens > 0)


def test_the_scan_stops_at_the_first_token_over_the_budget_whatever_follows() -> None:
    # Given a body over its budget early, followed by a long unterminated string of escapes
    text = "[" * 10 + '"' + "\\," * 100_000
    # Then it is over the depth budget, and over the token budget (counting stops there)
    assert exceeds(text, JsonBudget(depth=9, tokens=100))
    assert exceeds(text, JsonBudget(depth=20, tokens=10))
    assert not exceeds(text, JsonBudget(depth=10, tokens=11))


def test_the_interface_states_the_allowance_and_the_default_bound_of_lists() -> None:
    limits = (ROOT / "docs" / "INTERFACE.md").read_text()
    line = next(line for line in limits.splitlines() if line.startswith("| request body |"))
    assert f"{UNDECLARED.depth} more levels and {UNDECLARED.tokens:,} more JSON tokens" in line
    assert f"counts as {DEFAULT_MAX_ITEMS} items" in line
