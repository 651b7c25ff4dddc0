"""The cold-init table of `make bench`: each function beside both floors, flagged over 1.2x the library floor."""

from __future__ import annotations

from ops.bench import FLOOR, SECONDS, VALIDATED_FLOOR, Function, cold_table


def test_each_function_is_compared_with_both_floors_and_flagged_against_the_library_floor() -> None:
    # Given a run where validation alone costs 1.25x the library floor, and two functions
    targets = [Function("Lean", "lean.app"), Function("Heavy", "heavy.app")]
    seconds = {FLOOR: 0.200, VALIDATED_FLOOR: 0.250, "Lean": 0.230, "Heavy": 0.300}

    # When the table is printed
    lines = cold_table(targets, seconds, "Cold init", SECONDS)

    # Then each row has its ratio to both floors, and only what is over 1.2x the library floor is flagged
    rows = {line.split()[0]: line for line in lines if line.startswith(("validated", "Lean", "Heavy"))}
    assert rows["Lean"].split()[-2:] == ["1.15x", "0.92x"]
    assert rows["Heavy"].split()[2:5] == ["300", "1.50x", "1.20x"]
    assert rows["Heavy"].endswith("> 1.2x the library floor")
    assert rows["validated"].endswith("> 1.2x the library floor")
    assert "library floor (import pymongo, pydantic, jwt, aws_lambda_powertools.event_handler): 200 ms" in lines
