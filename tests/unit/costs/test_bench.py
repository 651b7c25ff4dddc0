"""The tables of `make bench`: cold init beside both floors (flagged over the goal of 1.15x the validated
floor), and warm calls beside their floors in instructions."""

from __future__ import annotations

from tools.bench import FLOOR, SECONDS, VALIDATED_FLOOR, Function, cold_table


def test_each_function_is_compared_with_both_floors_and_flagged_over_the_goal() -> None:
    # Given a run where validation alone costs 1.25x the library floor, and three functions
    targets = [Function("Lean", "lean.app"), Function("Fair", "fair.app"), Function("Heavy", "heavy.app")]
    seconds = {FLOOR: 0.200, VALIDATED_FLOOR: 0.250, "Lean": 0.230, "Fair": 0.285, "Heavy": 0.300}

    # When the table is printed
    lines = cold_table(targets, seconds, "Cold init", SECONDS)

    # Then each row has its ratio to both floors; what is over the goal of 1.15x the validated floor is
    # flagged, with how many functions are within the goal
    rows = {line.split()[0]: line for line in lines if line.startswith(("validated", "Lean", "Fair", "Heavy"))}
    assert rows["Lean"].split()[-2:] == ["1.15x", "0.92x"]
    assert rows["Fair"].split()[-2:] == ["1.42x", "1.14x"]
    assert rows["Heavy"].split()[2:5] == ["300", "1.50x", "1.20x"]
    assert rows["Heavy"].endswith("1.20x  > 1.15x the validated floor")
    assert rows["validated"].endswith("1.25x        1.00x")
    assert "library floor (import pymongo, pydantic, jwt, aws_lambda_powertools.event_handler): 200 ms" in lines
    assert lines[-1] == "within 1.15x of the validated floor: 2 of 3 functions"


def test_a_function_with_requirements_of_its_own_is_compared_with_the_floors_measured_with_them() -> None:
    # Given a run where the floors with auth's own requirements (cryptography) cost 0.040 s more, and two
    # functions: one with the layer's requirements alone, one (Auth) with its own too
    targets = [Function("Lean", "lean.app"), Function("Auth", "auth.app", "auth")]
    seconds = {FLOOR: 0.200, VALIDATED_FLOOR: 0.250, "floor (auth)": 0.240, "validated floor (auth)": 0.290}
    seconds |= {"Lean": 0.275, "Auth": 0.319}

    # When the table is printed
    lines = cold_table(targets, seconds, "Cold init", SECONDS)

    # Then each is compared with the floors of its own requirements, and both pairs of floors are printed
    rows = {line.split()[0]: line for line in lines if line.startswith(("Lean", "Auth"))}
    assert rows["Lean"].split()[2:5] == ["275", "1.38x", "1.10x"]
    assert rows["Auth"].split()[2:5] == ["319", "1.33x", "1.10x"]
    assert rows["Auth"].endswith("(floors with auth's own requirements)")
    validated = [line for line in lines if line.startswith("validated floor (those libraries")]
    assert validated[-1].endswith("with auth's own requirements): 290 ms")


def test_each_warm_call_is_compared_with_its_floor_in_instructions() -> None:
    from tools.bench import instructions_table
    from tools.request_probe import ANSWER_FLOOR, BARE, FIND_ONE, FLOOR_FUNCTION, OUR_EDGE, REFILLED, RESTORE

    # Given floors of 0.4 M (bare route), 1.0 M with one find_one, our edge adding 0.3 M, and a function
    # whose after-restore hook cost 8 M, the first request after it 3 M, the second 1 M and the same
    # request after its caches were refilled 2 M; a bare route
    # answering what each call answered costs 1.2 M and 0.5 M
    results = {
        FLOOR_FUNCTION: [(BARE, 400_000, 0), (FIND_ONE, 1_000_000, 1), (OUR_EDGE, 700_000, 0)],
        "Catalog": [
            (RESTORE, 8_000_000, 0),
            ("first request (catalog/car.json)", 3_000_000, 0),
            ("second request (catalog/car.json)", 1_000_000, 0),
            (f"{REFILLED} (catalog/car.json)", 2_000_000, 0),
            ("catalog/car.json", 1_500_000, 2),
            (f"{ANSWER_FLOOR} (catalog/car.json)", 1_200_000, 2),
            ("catalog/brands.json", 700_000, 0),
            (f"{ANSWER_FLOOR} (catalog/brands.json)", 500_000, 0),
        ],
    }

    # When the table is printed
    lines = instructions_table(results)

    # Then each call's floor is the bare route plus 0.6 M per command, and what is over 1.5x is flagged;
    # each call is also compared with the floor of its own answer, and both are counted;
    # the first request is shown beside the hook before it and flagged over 2x the second, and compared
    # with the same request's cache misses on a warm instance
    rows = {line.split()[0]: line for line in lines if line.strip()}
    assert rows["catalog/car.json"].split()[1:7] == ["1.50", "2", "1.60", "0.94x", "1.20", "1.25x"]
    assert rows["catalog/brands.json"].split()[5:7] == ["0.50", "1.40x"]
    assert rows["catalog/brands.json"].endswith("> 1.5x its floor (answer + edge 2.00x)")
    assert "within 1.5x of the floor: 1 of 2; within 1.5x of the floor of their own answer: 2 of 2" in lines
    assert any(line.endswith("adds 0.30 M  > 0.2 M") for line in lines)
    assert "restore   8.00 M" in rows["Catalog"]
    assert "first / second 3.00x" in rows["Catalog"]
    assert "refilled   2.00 M  first / refilled 1.50x" in rows["Catalog"]
    assert rows["Catalog"].endswith("> 2.0x the second")


def test_cold_init_times_each_function_and_the_floors_of_its_requirements() -> None:
    from tools.bench import cold_init, functions

    # Given the function that has requirements of its own (Auth)
    auth = next(function for function in functions() if function.name == "Auth")
    assert auth.requirements == "auth"

    # When cold init is timed once, with the import roots a deployed function has
    seconds = cold_init([auth], rounds=1)

    # Then it was timed beside both floors, measured with the layer's requirements and with its own
    assert set(seconds) == {FLOOR, VALIDATED_FLOOR, "floor (auth)", "validated floor (auth)", "Auth"}
    assert all(value > 0 for value in seconds.values())
