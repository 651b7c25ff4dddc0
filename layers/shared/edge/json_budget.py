"""What a route's JSON body may hold, read from its model's JSON schema, and a check of a body against it
made before the body is parsed (docs/DECISIONS.md, "Hostile bodies").

API Gateway lets bodies of up to 10 MB through, and `json.loads` builds a Python object of every value
before any model sees one: 10 MB of `[{},{},...]` is millions of dicts. Bytes cannot tell that body from
a valid one padded with whitespace or carrying a long undeclared string (the interface strips undeclared
properties, so clients may send them). A body is measured instead in what parsing it costs, in two
dimensions:

- depth: how many objects and arrays nest (a body that is one object is 1 deep);
- tokens: its strings, brackets, braces, commas and colons outside strings. A string is one token
  whatever its length; numbers, `true`, `false` and `null` are not counted (each stands next to a comma,
  colon or bracket that is).

A route's budget is the most its body model's schema can use, plus an allowance for undeclared
properties (`UNDECLARED`). A body is checked in two steps. Counting the characters of tokens
(`str.count`, in C) bounds both from above, whatever strings hold; only a body over the
budget by that count is walked token by token by one regular expression, which skips string contents and
stops as soon as the budget is exceeded, so it runs at most about twice the budget in steps of Python.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, NamedTuple

from pydantic import BaseModel


class JsonBudget(NamedTuple):
    """The most nesting and tokens (strings, brackets, braces, commas, colons) a JSON text holds. (A named
    tuple, not a dataclass: docs/DECISIONS.md, "Import-time work".)"""

    depth: int
    tokens: int

    def plus(self, other: JsonBudget) -> JsonBudget:
        return JsonBudget(self.depth + other.depth, self.tokens + other.tokens)

    def within(self, budget: JsonBudget) -> bool:
        return self.depth <= budget.depth and self.tokens <= budget.tokens


# What undeclared properties may add, parsed in well under a ms: a few levels below any object of the model
# and about 1,000 members (a member is its key, colon and comma, and its value if a string).
UNDECLARED = JsonBudget(depth=4, tokens=4_000)
# An array (or map) whose schema states no maxItems (maxProperties) counts as this many: a page's worth.
# A route whose body needs more states its bound (Field(max_length=...)).
DEFAULT_MAX_ITEMS = 100
SCALAR = JsonBudget(depth=0, tokens=1)
# The combinators whose branches a value matches: it holds at most what the largest branch holds.
BRANCHES = ("anyOf", "oneOf", "allOf")
OPENERS = "[{"
CLOSERS = "]}"


@cache
def _token_pattern() -> re.Pattern[str]:
    """One token, or a run of what is not one, in one linear pass: possessive quantifiers never backtrack,
    and a string's pattern also matches one left unterminated, to the end of the text. (Compiled on first
    use: few processes ever walk a body.)"""
    return re.compile(
        r'"[^"\\]*+(?:\\.[^"\\]*+)*+"?'  # a string, with its escapes
        r"|[\[\]{},:]"  # a bracket, brace, comma or colon
        r'|[^"\[\]{},:]++',  # whitespace, numbers, literals and anything else, up to the next token
        re.DOTALL,
    )


class UnboundedBody(TypeError):
    """A body model whose schema sets no bound to what a body holds (a model that contains itself)."""


@cache
def budget_of_model(model: type[BaseModel]) -> JsonBudget:
    """A route's budget: what its body model can use, and what undeclared properties may add. Derived
    once per model (building its JSON schema builds the model)."""
    return budget_of_schema(model.model_json_schema()).plus(UNDECLARED)


def budget_of_schema(schema: dict[str, Any]) -> JsonBudget:
    """The most depth and tokens a JSON text valid under `schema` (pydantic's JSON schema: `$ref`s into
    `$defs`) holds, undeclared properties aside."""
    return _most(schema, schema.get("$defs", {}), frozenset())


def _most(schema: Any, defs: dict[str, Any], expanding: frozenset[str]) -> JsonBudget:
    if not isinstance(schema, dict):  # `true`: any value; `false`: none
        return SCALAR
    if "$ref" in schema:
        name = str(schema["$ref"]).rpartition("/")[2]
        if name in expanding:
            raise UnboundedBody(f"{name} contains itself: its bodies have no most depth")
        return _most(defs[name], defs, expanding | {name})
    found = [_most(branch, defs, expanding) for key in BRANCHES for branch in schema.get(key, ())]
    kinds = schema.get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    if "object" in kinds or "properties" in schema or isinstance(schema.get("additionalProperties"), dict):
        found.append(_most_object(schema, defs, expanding))
    if "array" in kinds or "items" in schema or "prefixItems" in schema:
        found.append(_most_array(schema, defs, expanding))
    found.append(SCALAR)
    return JsonBudget(max(item.depth for item in found), max(item.tokens for item in found))


def _most_object(schema: dict[str, Any], defs: dict[str, Any], expanding: frozenset[str]) -> JsonBudget:
    # Braces, then per member its key, colon, value and comma.
    members = [_most(value, defs, expanding) for value in schema.get("properties", {}).values()]
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        members += [_most(extra, defs, expanding)] * int(schema.get("maxProperties", DEFAULT_MAX_ITEMS))
    return JsonBudget(
        1 + max((member.depth for member in members), default=0),
        2 + sum(3 + member.tokens for member in members),
    )


def _most_array(schema: dict[str, Any], defs: dict[str, Any], expanding: frozenset[str]) -> JsonBudget:
    # Brackets, then per item its value and comma.
    items = [_most(item, defs, expanding) for item in schema.get("prefixItems", ())]
    rest = schema.get("items", True)
    if rest is not False:
        count = int(schema.get("maxItems", len(items) if rest is True and items else DEFAULT_MAX_ITEMS))
        items += [_most(rest, defs, expanding)] * max(count - len(items), 0)
    return JsonBudget(
        1 + max((item.depth for item in items), default=0),
        2 + sum(1 + item.tokens for item in items),
    )


def upper_bound(text: str) -> JsonBudget:
    """At least what `text` holds, from the characters tokens are made of, wherever they stand: its
    openers bound its depth, and a string takes two `"` (one left unterminated, at the end, one). The
    tokens are exact for a body whose strings hold none of these characters."""
    openers = text.count("[") + text.count("{")
    others = text.count("]") + text.count("}") + text.count(",") + text.count(":") + (text.count('"') + 1) // 2
    return JsonBudget(openers, openers + others)


def short_and_shallow(text: str) -> bool:
    """Whether `text` is within `UNDECLARED` by its length and openers alone: each token of `upper_bound`
    is a character of its own (a string's two `"` count once), so no text holds more tokens than it has
    characters. Most bodies are a few hundred characters: two counts instead of eight."""
    return len(text) <= UNDECLARED.tokens and text.count("{") + text.count("[") <= UNDECLARED.depth


def exceeds(text: str, budget: JsonBudget) -> bool:
    """Whether `text` nests deeper or holds more tokens than `budget`, found by walking its tokens (string
    contents skipped) and stopping at the first one over the budget. Characters are read by position:
    `match.group()` would copy a 10 MB string."""
    depth = tokens = 0
    for match in _token_pattern().finditer(text):
        char = text[match.start()]
        if char in OPENERS:
            depth += 1
            if depth > budget.depth:
                return True
        elif char in CLOSERS:
            depth = max(depth - 1, 0)
        elif char not in ',:"':
            continue  # not a token: whitespace, a number, a literal
        tokens += 1
        if tokens > budget.tokens:
            return True
    return False
