"""docs/OPERATIONS.md, "Bringing up a new environment", run as written: its shell blocks are read from
the document, the outputs and variables they name checked against template.yaml and the settings
models, then its operator commands run against a fresh database whose connection string is in a
(moto) Secrets Manager secret, and its smoke check's requests answered by the API."""

from __future__ import annotations

import re
import shlex
import shutil
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.partners.store import all_partners
from local.seed import DEMO_DATA_FILE
from ops.__main__ import main as ops_main
from ops.partners import describe_login
from tests.databases import drop_database, reset_process_state
from tests.documented import OPERATIONS, exported, section, settings_names, shell_blocks, template

TITLE = "Bringing up a new environment"
COMMAND = "car-retail-ops"
AWS_VARIABLES = {"AWS_DEFAULT_REGION"}  # the AWS CLI's and SDK's own


def runbook() -> list[list[str]]:
    return shell_blocks(section(OPERATIONS, TITLE))


def lines_of_runbook() -> list[str]:
    return [line for block in runbook() for line in block]


def stack_output(name: str, stage: str) -> str:
    value = template()["Outputs"][name]["Value"]
    assert set(value) == {"Sub"}, f"{name}: a literal name to export, as the runbook does"
    return str(value["Sub"]).replace("${Stage}", stage)


def test_the_runbook_names_outputs_of_the_template_and_settings_of_the_code() -> None:
    # Given the runbook's shell blocks
    text = "\n".join(lines_of_runbook())
    # Then every stack output it asks for is one of the template's, the database secret's among them
    outputs = re.findall(r"OutputKey==`(\w+)`", text)
    assert "MongoDbUriSecretName" in outputs
    assert set(outputs) <= set(template()["Outputs"])
    # And every variable it exports is a setting the code reads (or the AWS SDK's own)
    variables = exported(lines_of_runbook())
    assert set(variables) - AWS_VARIABLES <= settings_names()
    # And the database secret it exports is the one the stack output names for that stage
    assert variables["MONGODB_URI_SECRET_ID"] == stack_output("MongoDbUriSecretName", variables["STAGE"])
    # And the webhook signing key it exports is the stage's secret, the one the stack output gives
    assert variables["WEBHOOK_SIGNING_KEY_ARN"] == signing_key_name(variables["STAGE"])
    assert template()["Outputs"]["WebhookSigningKeySecretArn"]["Value"] == {"Ref": "WebhookSigningKey"}


def signing_key_name(stage: str) -> str:
    """The name of the stage's webhook signing key secret (its fixed name: the template retains it)."""
    name = template()["Resources"]["WebhookSigningKey"]["Properties"]["Name"]
    assert set(name) == {"Sub"}
    return str(name["Sub"]).replace("${Stage}", stage)


def operator_commands() -> list[tuple[list[str], list[str]]]:
    """Each `car-retail-ops` command of the runbook with the output lines it shows (comments below it)."""
    commands: list[tuple[list[str], list[str]]] = []
    for block in runbook():
        shown: list[str] | None = None  # the output lines of the block's last command
        for line in block:
            if line.startswith(COMMAND):
                shown = []
                commands.append((shlex.split(line)[1:], shown))
            elif line.startswith("# ") and shown is not None and "…" not in line:
                shown.append(line[2:])
    return commands


def smoke_requests(key: str, api: str) -> list[tuple[str, dict[str, str], int]]:
    """The smoke check's curl requests (URL, headers) and the status each comment expects."""
    block = next(block for block in runbook() if any(line.startswith("curl") for line in block))
    variables = {"KEY": key, "API": api}
    requests: list[tuple[str, dict[str, str], int]] = []
    for line in block:
        expanded = re.sub(r"\$(\w+)", lambda found: variables.get(found.group(1), found.group(0)), line)
        if line.startswith("H="):
            variables["H"] = shlex.split(expanded)[0].partition("=")[2]
            continue
        if line.startswith("curl"):
            command, _, comment = expanded.partition(" | ")[0].partition("#")
            if not comment:
                _, _, comment = expanded.partition("#")
            words = shlex.split(command.replace("$H", variables["H"]), comments=True)
            headers = dict(words[i + 1].split(":", 1) for i, word in enumerate(words) if word == "-H")
            url = next(word for word in words if word.startswith("http"))
            requests.append((url, headers, int(comment.split(",")[0]) if comment.strip() else 0))
        elif line.startswith("# ") and requests and requests[-1][2] == 0:
            url, headers, _ = requests[-1]
            requests[-1] = (url, headers, int(line[2:5]))
    return requests


@pytest.fixture
def fresh_environment(
    mongo_uri: str, secretsmanager: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """A fresh database, its connection string in the secret the stack names (moto), the runbook's
    variables exported, and the catalog file in the working directory."""
    variables = exported([line for line in lines_of_runbook() if not line.startswith("#")])
    database = f"runbook_{uuid.uuid4().hex[:12]}"
    secretsmanager.create_secret(Name=variables["MONGODB_URI_SECRET_ID"], SecretString=mongo_uri)
    secretsmanager.create_secret(Name=variables["WEBHOOK_SIGNING_KEY_ARN"], SecretString=uuid.uuid4().hex * 2)
    monkeypatch.delenv("MONGODB_URI", raising=False)
    monkeypatch.setenv("MONGODB_DB", database)
    monkeypatch.setenv("ASSETS_BASE_URL", "https://assets.example.uz")  # the template passes it to the API
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    shutil.copy(DEMO_DATA_FILE, tmp_path / "catalog.json")
    monkeypatch.chdir(tmp_path)
    reset_process_state()
    yield
    reset_process_state()
    drop_database(mongo_uri, database)


def test_the_runbook_brings_up_a_fresh_environment(
    fresh_environment: None, api_server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a fresh database named by the stack's secret (fresh_environment)
    # When the operator runs each command as written
    key = ""
    for arguments, shown in operator_commands():
        capsys.readouterr()
        status = ops_main(arguments)
        out, err = capsys.readouterr()
        # Then each succeeds and prints what the runbook shows
        assert status == 0, f"{COMMAND} {shlex.join(arguments)}: {err}"
        for line in shown:
            assert line in out, f"{COMMAND} {shlex.join(arguments)} did not print {line!r}:\n{out}"
        if arguments[:2] == ["partners", "add"]:
            key = out.strip().splitlines()[-1]
    # And no partner it added is `trusted` (its key alone signing any phone in): the runbook says how each signs in
    added = {arguments[2] for arguments, _ in operator_commands() if arguments[:2] == ["partners", "add"]}
    policies = {partner["name"]: describe_login(partner) for partner in all_partners()}
    assert added
    assert all(policies[name] != "trusted" for name in added), policies
    # And the smoke check's requests are answered as it says
    assert key
    requests = smoke_requests(key, api_server)
    assert {expected for _, _, expected in requests} == {200, 403}
    for url, headers, expected in requests:
        assert answer_status(url, headers) == expected, url


def answer_status(url: str, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 (the local API's URL)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return int(refused.code)
