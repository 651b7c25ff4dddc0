"""`python -m ops catalog ...`: the reference data set as one JSON file (docs/catalog.schema.json).

    python -m ops catalog export catalog.json           everything, each record with its id, and the
                                                         database's change version (`exportedFrom`)
    python -m ops catalog import catalog.json --dry-run  each record that would be added, changed (field by
                                                         field), deactivated or removed; then the counts
    python -m ops catalog import catalog.json           check it whole, then load it in one transaction
    python -m ops catalog import catalog.json --with-stock   the stock rows too (live: orders move them)
    python -m ops catalog import catalog.json --force    undo the live changes made since the export
    python -m ops catalog schema                         regenerate docs/catalog.schema.json (commit it)

A file with any problem changes nothing and exits 1, naming each record and field; a file older than
live changes it would undo (prices, sale rules, promo codes, stock) is refused the same way, naming
them. The rules are in `domain.dataset`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from core.serialization import to_json
from domain.dataset.exporting import export_data_set
from domain.dataset.importing import import_data_set
from domain.dataset.models import DataSet
from domain.dataset.planning import DataSetOutdated, Plan, RecordChange
from domain.dataset.reading import DataSetRefused, read
from ops.output import CommandRefused, print_result, table

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "docs" / "catalog.schema.json"
SCHEMA_ID = "https://car-retail-api/docs/catalog.schema.json"
# Far above any real catalog (the demo data, 31 cars in three languages, is under 1 MB).
MAX_FILE_BYTES = 64 * 2**20


def schema_text() -> str:
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SCHEMA_ID}
    schema |= DataSet.model_json_schema(mode="validation")
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def add_commands(commands: Any) -> None:
    catalog = commands.add_parser("catalog", help="export or import the reference data set (one JSON file)")
    actions = catalog.add_subparsers(dest="action", required=True)
    export = actions.add_parser("export", help="write the whole reference data set as one JSON document")
    export.add_argument("file", help="where to write it (- for standard output)")
    load = actions.add_parser(
        "import",
        help="load a data set file: checked whole first, then one transaction; records missing from the file "
        "are removed (a car or branch that orders name is deactivated instead)",
    )
    load.add_argument("file", help="the data set (- for standard input)")
    load.add_argument(
        "--dry-run",
        action="store_true",
        help="print each record that would be added, changed (field by field), deactivated or removed; write nothing",
    )
    load.add_argument(
        "--with-stock",
        action="store_true",
        help="import the file's stock rows too (left out, the database's stock stays as orders left it)",
    )
    load.add_argument(
        "--force",
        action="store_true",
        help="import even if that undoes live changes made since the file was exported (prices, sale rules, "
        "promo codes, stock), which are named",
    )
    actions.add_parser("schema", help=f"write {SCHEMA_PATH.name}, the JSON Schema of the file (commit it)")


def read_file(name: str) -> str:
    """The file's text, read within MAX_FILE_BYTES (a file larger than any catalog is refused before
    it is read whole) and decoded as UTF-8 (a byte order mark allowed)."""
    limit = MAX_FILE_BYTES
    if name == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        with Path(name).open("rb") as handle:
            data = handle.read(limit + 1)
    if len(data) > limit:
        raise CommandRefused(
            f"{name} is over {limit:,} bytes, more than any catalog: is it the data set file?",
            code="FILE_TOO_LARGE",
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CommandRefused(
            f"{name} is not UTF-8 text (byte {error.start}): save the data set as UTF-8 JSON "
            "(car-retail-ops catalog export writes it so)",
            code="FILE_NOT_UTF8",
        ) from None


RECORD_COLUMNS = ("collection", "record", "name", "action", "field", "before", "after")
CELL_CHARS = 60


def record_rows(plan: Plan) -> list[dict[str, Any]]:
    """Each record the import adds, changes, deactivates or removes; a change has a row per field."""
    rows = []
    for change in plan.records:
        base = {"collection": change.section, "record": change.record, "name": change.label, "action": change.action}
        if not change.fields:
            rows.append(base)
        rows += [{**base, "field": path, "before": old, "after": new} for path, old, new in change.fields]
    return rows


def _cell(value: Any) -> str:
    text = value if isinstance(value, str) else to_json(value)
    return text if len(text) <= CELL_CHARS else text[: CELL_CHARS - 3] + "..."


def _as_json(change: RecordChange) -> dict[str, Any]:
    fields = [{"field": path, "before": old, "after": new} for path, old, new in change.fields]
    return {"collection": change.section, "record": change.record, "name": change.label, "action": change.action} | (
        {"fields": fields} if fields else {}
    )


def report(plan: Plan, *, dry_run: bool, as_json: bool = False) -> None:
    counts = plan.counts()
    lines = []
    if plan.records:
        cells = [
            {
                key: value if key in ("collection", "record", "name", "action") else _cell(value)
                for key, value in row.items()
            }
            for row in record_rows(plan)
        ]
        lines += [table(cells, RECORD_COLUMNS), ""]
    lines += [
        f"{collection}: " + ", ".join(f"{what} {n}" for what, n in numbers.items())
        for collection, numbers in counts.items()
    ]
    lines += [f"{section}: not imported (live data; --with-stock imports it)" for section in plan.not_imported]
    lines += [f"overwritten (--force): {problem}" for problem in plan.overwritten]
    if plan.empty:
        lines.append("nothing would change" if dry_run else "nothing changed")
    else:
        lines.append("dry run: nothing was written" if dry_run else "imported in one transaction")
    result = {
        "dryRun": dry_run,
        "changed": not plan.empty,
        "counts": counts,
        "records": [_as_json(change) for change in plan.records],
        "notImported": plan.not_imported,
        "overwritten": plan.overwritten,
    }
    print_result(result, lines, as_json=as_json)


def run(args: argparse.Namespace) -> int:
    if args.action == "schema":
        SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
        print(f"wrote {SCHEMA_PATH}")
        return 0
    if args.action == "export":
        text = export_data_set().model_dump_json(indent=1) + "\n"
        if args.file == "-":
            sys.stdout.write(text)
        else:
            Path(args.file).write_text(text, encoding="utf-8")
            print(f"wrote {args.file}", file=sys.stderr)
        return 0
    text = read_file(args.file)
    try:
        plan = import_data_set(read(text), dry_run=args.dry_run, with_stock=args.with_stock, force=args.force)
    except (DataSetRefused, DataSetOutdated) as refused:
        for problem in refused.problems:  # each on its line, then the one line every failure ends with
            print(problem, file=sys.stderr)
        raise
    report(plan, dry_run=args.dry_run, as_json=args.json)
    return 0
