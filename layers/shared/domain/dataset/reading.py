"""Reading a data set file: the JSON, the number of records of each list, then every record checked on its
own against the file's models (`models.py`), every problem named with its JSON path."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, get_args

from bson import ObjectId
from pydantic import TypeAdapter, ValidationError

from core.errors import InvalidInput
from domain.dataset.models import SECTION_LIMITS, DataSet
from domain.dataset.sections import SECTIONS


class DataSetRefused(InvalidInput):
    """The file is not a valid data set: `problems` name each record and field."""

    default_code = "DATA_SET_REFUSED"

    def __init__(self, *, problems: list[str]) -> None:
        super().__init__()
        self.problems = problems


MAX_PROBLEMS = 100  # a file's problems reported at most (then how many more there are)
LISTS = tuple(section for section in SECTIONS if section != "contacts")


@dataclass
class Parsed:
    """A file read whole: its valid records (an invalid record left out), every problem found (with its
    JSON path, at most MAX_PROBLEMS and how many more) and the ids of the invalid records, so that their
    references are not reported as missing too."""

    data: DataSet
    problems: list[str]
    more: int = 0
    invalid_ids: dict[str, set[ObjectId]] = field(default_factory=dict)
    positions: dict[str, list[int]] = field(default_factory=dict)  # each valid record's index in the file

    def add(self, problem: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(problem)
        else:
            self.more += 1

    @property
    def full(self) -> bool:
        return len(self.problems) >= MAX_PROBLEMS

    def refuse(self, *extra: str) -> None:
        """DataSetRefused with every problem found, if there is one."""
        for problem in extra:
            self.add(problem)
        if self.problems:
            tail = [f"... and {self.more} more problems"] if self.more else []
            raise DataSetRefused(problems=[*self.problems, *tail])


def parse(text: str) -> DataSet:
    """The data set in `text`, or DataSetRefused naming every record and field that is wrong."""
    parsed = read(text)
    parsed.refuse()
    return parsed.data


def read(text: str) -> Parsed:
    """The file's valid records and every problem of its records: the JSON first (a broken file is one
    problem, where it breaks), the number of records of each list (over a limit: refused before its
    records are read), then every record on its own (DataSetRefused for the first two)."""
    if over := oversized_sections(text):
        raise DataSetRefused(problems=over)
    try:
        raw = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise DataSetRefused(problems=[broken_json(text, error)]) from None
    except RecursionError:
        raise DataSetRefused(problems=["(file): nested far deeper than any data set"]) from None
    except ValueError as error:  # a number of more digits than Python converts (sys.get_int_max_str_digits)
        raise DataSetRefused(problems=[f"(file): {_first_line(error)}"]) from None
    if not isinstance(raw, dict):
        raise DataSetRefused(problems=[f"(file): a data set is a JSON object, not {_json_type(raw)}"])
    return _validated(raw)


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:200]


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _validated(raw: dict[str, Any]) -> Parsed:
    """Each record checked on its own, so every problem is found in one pass and a file of wrong types
    everywhere stops at MAX_PROBLEMS; the top level (format, contacts, unknown lists) by the DataSet."""
    top = {key: ([] if key in LISTS and isinstance(value, list) else value) for key, value in raw.items()}
    parsed = Parsed(DataSet.model_construct(format=1), [])
    try:
        parsed.data = DataSet.model_validate(top)
    except ValidationError as error:
        for problem in error.errors():
            parsed.add(f"{location(problem['loc'])}: {problem['msg']}")
    records: dict[str, list[Any]] = {}
    for section in LISTS:
        items = raw.get(section)
        if not isinstance(items, list):
            continue
        if len(items) > SECTION_LIMITS[section]:
            parsed.add(f"{section}: more than {SECTION_LIMITS[section]:,} records, more than any catalog has")
            continue
        adapter = _ITEM_ADAPTERS[section]
        valid, invalid, positions = [], set(), []
        for n, item in enumerate(items):
            if parsed.full:
                parsed.more += 1
                continue
            try:
                valid.append(adapter.validate_python(item))
                positions.append(n)
            except ValidationError as error:
                for problem in error.errors():
                    parsed.add(f"{location((section, n, *problem['loc']))}: {problem['msg']}")
                if isinstance(item, dict) and isinstance(item.get("id"), str) and ObjectId.is_valid(item["id"]):
                    invalid.add(ObjectId(item["id"]))
        records[section] = valid
        parsed.invalid_ids[section] = invalid
        parsed.positions[section] = positions
    parsed.data = parsed.data.model_copy(update=records)
    return parsed


def _record_model(section: str) -> Any:
    """`Brand` for `brands`: the item of the section's `list[...] | None`."""
    listed = next(arg for arg in get_args(DataSet.model_fields[section].annotation) if arg is not type(None))
    return get_args(listed)[0]


_ITEM_ADAPTERS: dict[str, TypeAdapter[Any]] = {section: TypeAdapter(_record_model(section)) for section in LISTS}


def oversized_sections(text: str) -> list[str]:
    """The lists of the file with more records than SECTION_LIMITS allows, found by reading their records
    one at a time and stopping at the first one over (a file of 100,000 brands is refused after 201);
    nothing if the file is no JSON object (the full read says so)."""
    decoder, problems = json.JSONDecoder(), []
    position = _skip(text, 0)
    if not text.startswith("{", position):
        return []
    position += 1
    try:
        while not text.startswith("}", position := _skip(text, position)):
            section, position = decoder.raw_decode(text, position)
            position = _skip(text, _skip(text, position) + 1)  # the colon
            limit = SECTION_LIMITS.get(section) if isinstance(section, str) else None
            if limit is None or not text.startswith("[", position):
                _, position = decoder.raw_decode(text, position)
            else:
                count, position = 0, position + 1
                while not text.startswith("]", position := _skip(text, position)):
                    count += 1
                    if count > limit:
                        problems.append(f"{section}: more than {limit:,} records, more than any catalog has")
                        return problems  # its other lists are not read: this one refuses the file already
                    _, position = decoder.raw_decode(text, position)
                    position = _skip(text, position)
                    position += 1 if text.startswith(",", position) else 0
                position += 1
            position = _skip(text, position)
            position += 1 if text.startswith(",", position) else 0
    except (json.JSONDecodeError, RecursionError, ValueError, IndexError):
        return []  # broken, too deep or a huge number: the full read names it
    return problems


def location(loc: Iterable[int | str]) -> str:
    """`('cars', 12, 'brandId')` as `cars[12].brandId`."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(file)"


def broken_json(text: str, error: json.JSONDecodeError) -> str:
    """Where the file stops being JSON, named by the last record that was read whole (a truncated
    export names the list and index it was cut at)."""
    where = f"line {error.lineno} column {error.colno}: {error.msg}"
    decoder = json.JSONDecoder()
    position, section, index = _skip(text, 0), "", -1
    if not text.startswith("{", position):
        return f"(file): not a JSON object ({where})"
    position += 1
    try:
        while True:
            position = _skip(text, position)
            section, position = decoder.raw_decode(text, position)
            position = _skip(text, position) + 1  # the colon
            position = _skip(text, position)
            if text.startswith("[", position):
                index, position = -1, position + 1
                while not text.startswith("]", position := _skip(text, position)):
                    index += 1
                    _, position = decoder.raw_decode(text, position)
                    position = _skip(text, position)
                    position += 1 if text.startswith(",", position) else 0
                position += 1
            else:
                index = -1
                _, position = decoder.raw_decode(text, position)
            position = _skip(text, position)
            position += 1 if text.startswith(",", position) else 0
    except (json.JSONDecodeError, IndexError):
        record = f"{section}[{index}]" if index >= 0 else str(section or "(file)")
        return f"{record}: the file is broken or cut short here ({where})"


def _skip(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position
