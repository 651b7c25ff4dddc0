"""`python -m ops catalog ...`: the reference data set as one JSON file (docs/catalog.schema.json).

    python -m ops catalog export catalog.json           everything, each record with its id
    python -m ops catalog import catalog.json --dry-run  what would be added, changed and removed, per collection
    python -m ops catalog import catalog.json           check it whole, then load it in one transaction
    python -m ops catalog schema                         regenerate docs/catalog.schema.json (commit it)

A file with any problem changes nothing and exits 1, naming each record and field. The rules are in
`domain.dataset.transfer`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from domain.dataset.models import DataSet
from domain.dataset.transfer import DataSetRefused, Plan, export_data_set, import_data_set, parse
from ops.output import CommandRefused, print_result

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
    load.add_argument("--dry-run", action="store_true", help="print what would change, per collection; write nothing")
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


def report(plan: Plan, *, dry_run: bool, as_json: bool = False) -> None:
    counts = plan.counts()
    lines = [
        f"{collection}: " + ", ".join(f"{what} {n}" for what, n in numbers.items())
        for collection, numbers in counts.items()
    ]
    if plan.empty:
        lines.append("nothing would change" if dry_run else "nothing changed")
    else:
        lines.append("dry run: nothing was written" if dry_run else "imported in one transaction")
    print_result({"dryRun": dry_run, "changed": not plan.empty, "counts": counts}, lines, as_json=as_json)


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
        plan = import_data_set(parse(text), dry_run=args.dry_run)
    except DataSetRefused as refused:
        for problem in refused.problems:  # each on its line, then the one line every failure ends with
            print(problem, file=sys.stderr)
        raise
    report(plan, dry_run=args.dry_run, as_json=args.json)
    return 0
