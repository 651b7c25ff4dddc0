"""The data set file: its published JSON Schema and the demo data file are current, and a refusal names
the record and field (or, for a broken file, the record it breaks in)."""

from __future__ import annotations

import json

import pytest

from domain.dataset.models import DataSet
from domain.dataset.transfer import DataSetRefused, location, parse
from local.seed import DEMO_DATA_FILE, demo_data_text
from ops.catalog import SCHEMA_PATH, schema_text


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
