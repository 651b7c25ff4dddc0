"""What every operator command does with a refusal: says why on stderr and exits 1."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable

from core.errors import AppError
from core.serialization import to_json
from edge.error_codes import message


class CommandRefused(Exception):
    """A command's own refusal of its arguments (the operator's, in English, not an API error code)."""


def refused_exits(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    @functools.wraps(run)
    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except CommandRefused as refused:
            print(f"refused: {refused}", file=sys.stderr)
            return 1
        except AppError as refused:
            print(f"refused: {refused.code}: {message(refused.code, 'en', refused.params)}", file=sys.stderr)
            if refused.details:
                print(to_json(refused.details), file=sys.stderr)
            return 1

    return guarded
