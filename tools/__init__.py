"""Developer tools: what builds and measures the service (`make openapi`, `make bench`), never an
operator's command (those are `car-retail-ops`, ops/) and never shipped: pyproject's package list leaves
this package out, and nothing deployed, operator or local imports it (tests/unit/architecture).

`python -m tools <command>` runs from the checkout's root with the import roots a Lambda function has on
PYTHONPATH (layers/shared:functions:.), as the Makefile sets them, like `python -m local`.
"""
