"""The ports of what runs on a laptop at the same time do not clash: `make run`'s API (PORT), its webhook
receiver (LOCAL_WEBHOOK_PORT) and `make sam-api` (SAM_LOCAL_PORT, run beside `make run`, whose database it
reads); and the documents send requests to the port each one listens on."""

from __future__ import annotations

import re

from local import webhooks
from local.template import ROOT

MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")
CONTRIBUTING = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def makefile_default(name: str) -> int:
    found = re.search(rf"^{name}\s*\?=\s*(\d+)$", MAKEFILE, re.MULTILINE)
    assert found, f"the Makefile gives {name} a default"
    return int(found.group(1))


def test_make_run_its_webhook_receiver_and_sam_api_listen_on_distinct_ports() -> None:
    # Given the defaults of the three servers a developer runs at once
    ports = {
        "PORT": makefile_default("PORT"),
        "LOCAL_WEBHOOK_PORT": webhooks.DEFAULT_RECEIVER_PORT,
        "SAM_LOCAL_PORT": makefile_default("SAM_LOCAL_PORT"),
    }
    # Then no two share a port
    assert len(set(ports.values())) == len(ports), ports


def test_the_documents_name_each_server_on_its_own_port() -> None:
    # Given the sam local steps of CONTRIBUTING and the README's receiver and settings
    sam_api = makefile_default("SAM_LOCAL_PORT")
    steps = CONTRIBUTING[CONTRIBUTING.index("## sam local") :]
    steps = steps[: steps.index("\n## ")]
    # Then every request of the sam local steps goes to sam-api's port, and the README says the same ports
    assert set(re.findall(r"http://127\.0\.0\.1:(\d+)", steps)) == {str(sam_api)}
    assert f"| `SAM_LOCAL_PORT` | `{sam_api}` |" in README
    assert f"| `LOCAL_WEBHOOK_PORT` | `{webhooks.DEFAULT_RECEIVER_PORT}` |" in README
    assert f"webhook receiver on http://127.0.0.1:{webhooks.DEFAULT_RECEIVER_PORT}/webhooks" in README
