"""The data set file: its published JSON Schema and the demo data file are current, and a refusal names
the record and field (or, for a broken file, the record it breaks in)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bson
import pytest
from bson import ObjectId

from domain.dataset.models import DataSet
from domain.dataset.reading import MAX_PROBLEMS, DataSetRefused, location, parse, read
from local.seed import DEMO_DATA_FILE, demo_data_text
from ops.catalog import MAX_FILE_BYTES, SCHEMA_PATH, read_file, schema_text
from ops.output import CommandRefused


def test_the_published_schema_is_generated_from_the_models() -> None:
    # Given the models / When the schema is generated / Then docs/catalog.schema.json is it
    assert SCHEMA_PATH.read_text(encoding="utf-8") == schema_text(), "run: python -m ops catalog schema"


def test_the_demo_data_file_is_generated_from_the_seed_tables() -> None:
    # Given local/seed's tables / When the file is written from them / Then the committed file is it
    assert DEMO_DATA_FILE.read_text(encoding="utf-8") == demo_data_text(), "run: python -m local demo-data"


def test_the_schema_says_what_the_models_enforce() -> None:
    # Given the schema / Then ids, money and localized texts are typed as the import checks them
    schema = json.loads(schema_text())
    definitions = schema["$defs"]
    assert definitions["ModificationEntry"]["properties"]["price"]["type"] == "integer"
    assert definitions["ModificationEntry"]["properties"]["price"]["minimum"] == 0
    assert definitions["Car"]["properties"]["brandId"]["pattern"] == "^[0-9a-f]{24}$"
    assert set(definitions["LocalizedName"]["required"]) == {"ru", "uz", "en"}
    assert definitions["Car"]["additionalProperties"] is False


@pytest.mark.parametrize(
    ("loc", "text"),
    [(("cars", 12, "brandId"), "cars[12].brandId"), (("contacts", "phone"), "contacts.phone"), ((), "(file)")],
)
def test_a_location_reads_as_the_record_and_field(loc: tuple[int | str, ...], text: str) -> None:
    assert location(loc) == text


def test_a_file_cut_short_names_the_record_it_was_cut_in() -> None:
    # Given a file whose third car is cut in the middle
    cars = [{"id": "a" * 24, "slug": f"car-{n}"} for n in range(3)]
    text = json.dumps({"format": 1, "brands": [], "cars": cars}, indent=1)
    cut = text[: text.index("car-2")]
    # When it is parsed / Then it is refused naming cars[2]
    with pytest.raises(DataSetRefused) as refused:
        parse(cut)
    assert refused.value.problems[0].startswith("cars[2]: the file is broken or cut short here (line ")


def test_an_empty_data_set_is_valid_and_leaves_every_collection_alone() -> None:
    data = parse('{"format": 1}')
    assert data == DataSet(format=1)
    assert data.cars is None


def test_an_unknown_field_or_format_is_refused() -> None:
    with pytest.raises(DataSetRefused) as refused:
        parse('{"format": 2, "carz": []}')
    assert {problem.split(":")[0] for problem in refused.value.problems} == {"format", "carz"}


def problems_of_text(text: str) -> list[str]:
    with pytest.raises(DataSetRefused) as refused:
        parse(text)
    return refused.value.problems


def test_a_file_of_100000_brands_is_refused_at_once_in_one_line() -> None:
    # Given a file of 100,000 brands, each a valid one
    brand = {"id": "a" * 24, "slug": "b", "name": "B", "logo": "x", "order": 1}
    text = json.dumps({"format": 1, "brands": [brand] * 100_000})
    # When it is read / Then it is one problem, found after the 201st brand
    started = time.process_time()
    assert problems_of_text(text) == ["brands: more than 200 records, more than any catalog has"]
    assert time.process_time() - started < 1


def test_wrong_types_everywhere_are_reported_in_one_pass_up_to_a_bound() -> None:
    # Given 1,000 cars of wrong types in every field
    text = json.dumps({"format": 1, "cars": [{"id": [1.5], "slug": [1.5], "name": [1.5], "year": [1.5]}] * 1_000})
    # When it is read / Then the first MAX_PROBLEMS problems are named with their paths, then how many more
    problems = problems_of_text(text)
    assert len(problems) == MAX_PROBLEMS + 1
    assert problems[0].startswith("cars[0].")
    assert re.fullmatch(r"\.\.\. and \d+ more problems", problems[-1])


def test_problems_of_every_record_and_the_top_level_are_reported_together() -> None:
    # Given a file with an unknown list, a brand without a name and a car with a float price
    raw = json.loads(DEMO_DATA_FILE.read_text(encoding="utf-8"))
    raw["carz"] = []
    del raw["brands"][1]["name"]
    raw["cars"][2]["modifications"][0]["price"] = 1.5
    # When it is read / Then all three are named, and the valid records are kept for the reference checks
    parsed = read(json.dumps(raw))
    assert parsed.problems == [
        "carz: Extra inputs are not permitted",
        "brands[1].name: Field required",
        "cars[2].modifications[0].price: Input should be a valid integer",
    ]
    assert parsed.positions["cars"][2] == 3  # the fourth car of the file is the third valid one
    assert ObjectId(raw["brands"][1]["id"]) in parsed.invalid_ids["brands"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"format": 1, "brands": [', "brands[0]: the file is broken or cut short"),
        ("[1, 2, 3]", "(file): a data set is a JSON object, not an array"),
        ('"just a string"', "(file): a data set is a JSON object, not a string"),
        ('{"format": 1, "contacts": ' + "[" * 100_000 + "]" * 100_000 + "}", "(file): nested far deeper"),
        ('{"format": 1, "brands": [{"order": ' + "9" * 5_000 + "}]}", "(file): Exceeds the limit"),
        ('{"format": 1, "regions": [{"order": NaN}]}', "(file): NaN is not a JSON number"),
        ('{"format": 1e999999}', "format: Input should be 1"),
        ('{"format": 1, "brands": {"id": 1}}', "brands: Input should be a valid list"),
        ("\x00\x01\x02garbage", "(file): not a JSON object"),
    ],
)
def test_a_broken_file_is_one_problem_never_an_exception(text: str, problem: str) -> None:
    # Given a file broken in one way / When it is read / Then it is refused naming the problem
    assert problems_of_text(text)[0].startswith(problem)


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ('{"format": 1}'.encode("utf-16"), "FILE_NOT_UTF8"),
        (bytes(range(256)) * 4, "FILE_NOT_UTF8"),
        (b" " * (MAX_FILE_BYTES + 1), "FILE_TOO_LARGE"),
    ],
)
def test_a_file_that_is_no_utf8_text_or_too_large_is_refused_before_it_is_parsed(
    content: bytes, code: str, tmp_path: Path
) -> None:
    # Given such a file / When the import reads it / Then it is one refusal with its code
    file = tmp_path / "catalog.json"
    file.write_bytes(content)
    with pytest.raises(CommandRefused) as refused:
        read_file(str(file))
    assert refused.value.code == code


def schema_nodes(node: Any, path: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object of the schema, with where it is."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from schema_nodes(value, f"{path}/{key}")
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from schema_nodes(value, f"{path}/{n}")


def test_every_text_list_and_section_of_the_schema_is_bounded() -> None:
    # Given the published schema / Then every string has a maxLength (or a pattern of bounded length, or is
    # a closed set) and every array a maxItems
    unbounded = []
    for path, node in schema_nodes(json.loads(schema_text())):
        kind = node.get("type")
        if (
            kind == "string"
            and not ({"maxLength", "enum", "const", "format"} & node.keys())
            and not node.get("pattern", "").endswith("}$")  # ids, phones: a fixed number of characters
        ):
            unbounded.append(path)
        if kind == "array" and "maxItems" not in node and "prefixItems" not in node:
            unbounded.append(path)
    assert unbounded == []


def test_every_number_and_moment_of_the_schema_is_bounded_within_what_mongodb_keeps() -> None:
    # Given the published schema / Then every integer has a minimum and a maximum within 64 bits (BSON's
    # integers), every number both bounds, and every moment its years (a year 1 overflows in UTC)
    schema = json.loads(schema_text())
    unbounded = []
    for path, node in schema_nodes(schema):
        if (
            node.get("type") in ("integer", "number")
            and "const" not in node
            and not (node.get("minimum", -(2**64)) >= -(2**63) and node.get("maximum", 2**64) < 2**63)
        ):
            unbounded.append(path)
        if node.get("format") == "date-time" and node.get("pattern") != "^(20[0-9]{2}|2100)-":
            unbounded.append(path)
    assert unbounded == []
    assert schema["$defs"]["SaleEntry"]["properties"]["depositAmount"]["anyOf"][0]["minimum"] == 1


@pytest.mark.parametrize(
    ("moment", "refused"),
    [
        ("0001-01-01T00:00:00+05:00", True),
        ("1999-12-31T23:59:59+05:00", True),
        ("2000-01-01T00:00:00+14:00", False),
        ("2100-12-31T23:59:59-12:00", False),
        ("2101-01-01T00:00:00Z", True),
        ("9999-12-31T23:59:59-05:00", True),
    ],
)
def test_a_moment_is_refused_outside_the_years_2000_to_2100_as_written(moment: str, refused: bool) -> None:
    # Given a promo code valid from that moment / When the file is read
    text = json.dumps(
        {"format": 1, "promoCodes": [{"code": "X1", "discountType": "FIXED", "value": 1, "validFrom": moment}]}
    )
    problems = read(text).problems
    # Then it is refused, naming the field, outside those years; inside, even at their edges in any zone, it
    # is a moment MongoDB keeps
    assert problems == (
        ["promoCodes[0].validFrom: Input should be a moment in the years 2000 to 2100"] if refused else []
    )
    if not refused:
        assert bson.decode(bson.encode({"at": parse(text).promoCodes[0].validFrom}))["at"]  # type: ignore[index]
