"""How every operator command fails: one line on stderr, `error: CODE: what to do`, and a non-zero exit
(2 for a bad argument, 1 otherwise); never a traceback, which `--debug` adds.

The codes of the service's refusals (an unknown order, a partner name taken) are the API's
(`edge.error_codes`); the codes below are the command's own, about its setup, never answered by the API.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, NoReturn

from aws_lambda_powertools.utilities.parameters.exceptions import GetParameterError
from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError, NoRegionError
from pydantic import ValidationError
from pymongo.errors import ConfigurationError, ConnectionFailure, OperationFailure, PyMongoError

from core.errors import AppError
from core.secrets import SecretMissing, SettingMissing
from core.serialization import to_json
from edge.error_codes import message
from edge.error_codes.operators import CODES as OPERATOR_CODES

BAD_ARGUMENT_EXIT = 2
DEBUG_HINT = "run it again with --debug for the traceback"
SETTINGS_DOC = "docs/OPERATIONS.md, Configuration"
MONGODB_AUTH_FAILED = 18
MONGODB_UNAUTHORIZED = 13


class CommandRefused(Exception):
    """A command's own refusal of its arguments or its setup (in English, not an API error code)."""

    def __init__(self, text: str, *, code: str = "COMMAND_REFUSED") -> None:
        super().__init__(text)
        self.code = code


class BadArgument(CommandRefused):
    def __init__(self, text: str) -> None:
        super().__init__(text, code="BAD_ARGUMENT")


class Parser(argparse.ArgumentParser):
    """argparse's parser, whose mistakes are a BadArgument (one line) instead of its usage and exit 2.
    Its subcommands' parsers are of the same class (argparse makes them with the parent's)."""

    def error(self, message: str) -> NoReturn:
        raise BadArgument(f"{message} (see {self.prog} --help)")


def failure(error: BaseException) -> tuple[str, str, int]:
    """The code, what to do and the exit status of a command that failed with `error`."""
    if isinstance(error, CommandRefused):
        return error.code, str(error), BAD_ARGUMENT_EXIT if isinstance(error, BadArgument) else 1
    if isinstance(error, AppError):
        return error.code, _refusal(error), 1
    if isinstance(error, SettingMissing):
        code = "SECRET_MISSING" if isinstance(error, SecretMissing) else "SETTING_MISSING"
        return code, f"{error}: export it (or the name of its secret) and run it again ({SETTINGS_DOC})", 1
    if isinstance(error, ValidationError):
        problems = "; ".join(
            f"{str(problem['loc'][0]).upper() if problem['loc'] else 'a setting'}: {problem['msg']}"
            for problem in error.errors()
        )
        return "SETTING_INVALID", f"{problems} ({SETTINGS_DOC})", 1
    return _infrastructure(error) or ("UNEXPECTED", f"{type(error).__name__}: {_first(error)}; {DEBUG_HINT}", 1)


def _infrastructure(error: BaseException) -> tuple[str, str, int] | None:
    """The database, AWS and files: what the operator's machine or configuration lacks."""
    if isinstance(error, ConfigurationError):
        return "SETTING_INVALID", f"MONGODB_URI is not a usable connection string: {_first(error)}", 1
    if isinstance(error, OperationFailure) and error.code in (MONGODB_AUTH_FAILED, MONGODB_UNAUTHORIZED):
        return "DATABASE_REFUSED", "MongoDB refused the credentials of MONGODB_URI: check its user and password", 1
    if isinstance(error, ConnectionFailure):
        return (
            "DATABASE_UNREACHABLE",
            "MongoDB did not answer: check MONGODB_URI (or MONGODB_URI_SECRET_ID), the network and the "
            "cluster's IP access list (docs/OPERATIONS.md, Networking)",
            1,
        )
    if isinstance(error, PyMongoError):
        return "DATABASE_ERROR", f"MongoDB refused the command: {_first(error)}; {DEBUG_HINT}", 1
    if isinstance(error, NoCredentialsError | NoRegionError):
        return (
            "AWS_NOT_CONFIGURED",
            f"{_first(error)}: give AWS credentials and AWS_DEFAULT_REGION to read the stage's secrets",
            1,
        )
    if isinstance(error, ClientError | BotoCoreError | GetParameterError):
        return (
            "SECRET_UNREADABLE",
            f"a secret could not be read from AWS ({_first(error)}): check the AWS credentials "
            "(aws sts get-caller-identity), AWS_DEFAULT_REGION and the secret's name",
            1,
        )
    if isinstance(error, OSError | UnicodeError):
        return "FILE_UNREADABLE", f"{_first(error)}", 1
    return None


def _refusal(error: AppError) -> str:
    text = message(error.code, "en", error.params)
    if error.code in OPERATOR_CODES:
        text += f"; {OPERATOR_CODES[error.code].action}"
    if error.details:
        text += f" {to_json(error.details)}"
    return text


def _first(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0][:300] if lines else type(error).__name__


def error_line(error: BaseException) -> tuple[str, int]:
    code, what_to_do, status = failure(error)
    return f"error: {code}: {what_to_do}", status


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    return str(value)


def table(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """Rows for people: a header, then each row's cells aligned, two spaces apart; times to the second."""
    lines = [list(columns), *([_cell(row.get(column)) for column in columns] for row in rows)]
    widths = [max(len(line[index]) for line in lines) for index in range(len(columns))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip() for line in lines
    )


def print_rows(
    rows: Sequence[Mapping[str, Any]],
    columns: Sequence[str],
    *,
    as_json: bool,
    cells: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
) -> None:
    """A command's records: a JSON array of them with --json (for machines), else a table of `columns`
    (for people; `cells` says how a record reads there)."""
    if as_json:
        print(json.dumps(json.loads(to_json(list(rows))), ensure_ascii=False))
    elif not rows:
        print("(none)")
    else:
        print(table([cells(row) if cells else row for row in rows], columns))


def print_result(result: Mapping[str, Any], lines: Sequence[str], *, as_json: bool) -> None:
    """A command's outcome: one JSON object with --json (for machines), else its lines (for people)."""
    if as_json:
        print(json.dumps(json.loads(to_json(result)), ensure_ascii=False))
    else:
        print("\n".join(lines))
