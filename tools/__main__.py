"""Developer tools, run from the checkout's root as the Makefile runs them (PYTHONPATH=layers/shared:functions:.):

python -m tools openapi          regenerate openapi.json and docs/INTERFACE.md's error codes (make openapi)
python -m tools bench [--help]   cold init and warm requests, measured (make bench ARGS=...; tools/bench.py);
                                 --scale, --hostile, --sale, --opening, --opening-model, --draw: the other benches

Not operator commands: those are `car-retail-ops --help` (ops/).
"""

from __future__ import annotations

import argparse
import sys

PROG = "python -m tools"
# Each command and what it does (bench has its own options: `bench --help`).
COMMANDS = {
    "openapi": "write openapi.json (generated from the resolvers) and docs/INTERFACE.md's error codes",
    "bench": "cold init per function and warm requests per sample event, measured",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in COMMANDS.items():
        commands.add_parser(name, help=text, add_help=name != "bench")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:  # its own options (python -m tools bench --help)
        from tools import bench

        return bench.main(argv[1:])
    build_parser().parse_args(argv)  # `openapi`, the one command left; anything else is refused (exit 2)
    return openapi()


def openapi() -> int:
    from local.runtime import apply_local_defaults
    from tools import error_docs
    from tools.openapi import write

    # Importing the functions' handlers checks the stage's settings; the document is the same for every stage.
    apply_local_defaults()
    for path in (write(), error_docs.write()):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
