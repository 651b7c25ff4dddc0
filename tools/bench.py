"""`make bench` (python -m tools bench): what a cold start and a warm request cost, per function and route.

Cold init: a fresh interpreter imports each function's handler module, as Lambda's init phase does,
with the environment Lambda gives it (LAMBDA_TASK_ROOT, AWS_LAMBDA_FUNCTION_NAME...: Powertools sees a
real Lambda, tracing on) and the import roots a deployed function has (local/lambda_paths.py: its code,
the layer, the layer's requirements and its own, the standard library; no site-packages, so nothing a
developer installed besides is imported). Beside it, in the same run and with the same roots, two
references:
- the library floor: a fresh interpreter importing only the libraries every function needs
  (`import pymongo, pydantic, jwt, aws_lambda_powertools.event_handler`);
- the validated floor: the same libraries as an API function must use them, an
  `APIGatewayRestResolver(enable_validation=True)` with no route. Both `pydantic` and Powertools'
  event handler load their model and validation machinery lazily, on the first model or validating
  resolver, so the library floor leaves it out; this row shows what it costs by itself.
A function with requirements of its own (Auth: cryptography, which PyJWT and pymongo import whenever it
is installed) is compared with the floors measured with its roots, which import them too. Flagged: over
the goal of 1.15x the validated floor (docs/PERFORMANCE.md, "Cold init"; the library floor is no goal: an
API function validates, and validation alone is over 1.2x of it).
Runs are interleaved (floors, Auth, Catalog..., floors, Auth...) and the median is kept, so a busy
moment of a shared machine hits every column alike; quote ratios of one run, not milliseconds across
runs. Where wall time swings too much to settle a ratio, `--instructions` counts the instructions the
same imports execute, under valgrind (callgrind): one run each, the same count on every run.

Warm requests: every sample event of events/ goes through its function's real handler in this process
(the local stage, JWT routes with a fresh token of the demo user) against a freshly seeded database;
after a few warm-up calls (caches full, connections open) the median of N calls, and the MongoDB
commands one warm call sends (pymongo command monitoring), reads and writes. A GET that sends more than
3 commands, or writes, is flagged.

The database is MONGODB_URI when set, else the server the tests use (a real mongod, mongoeco where it
cannot run), started by this command; a database of its own is seeded and dropped afterwards.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import TYPE_CHECKING, Any

from local.lambda_paths import import_roots, link_requirements, own_requirements, requirement_files
from local.template import ROOT, api_routes, load_template

if TYPE_CHECKING:
    from tools.command_counter import CommandCounter

Handler = Callable[[dict[str, Any], Any], dict[str, Any]]

FLOOR_MODULES = ("pymongo", "pydantic", "jwt", "aws_lambda_powertools.event_handler")
FLOOR = "floor"
VALIDATED_FLOOR = "validated floor"
STARTUP = "startup"
FLOORS = {
    FLOOR: f"import {', '.join(FLOOR_MODULES)}",
    VALIDATED_FLOOR: f"import {', '.join(FLOOR_MODULES)}\n"
    "aws_lambda_powertools.event_handler.APIGatewayRestResolver(enable_validation=True)",
}
MAX_GET_COMMANDS = 3
MAX_COLD_VALIDATED_RATIO = 1.15  # the goal: a cold init over the validated floor
MAX_WARM_RATIO = 1.5  # a warm call's instructions over its floor
MAX_FIRST_RATIO = 2.0  # the first request after a restore over the second
MAX_OVERHEAD = 200_000  # instructions our edge may add to a request over the bare route
# Repeated POSTs must not run into the limits a client would (the samples are the same caller each time).
WARM_ENV = {
    "LOG_LEVEL": "WARNING",
    "LOGIN_RATE_LIMIT": "1000000",
    "LOGIN_DEVICE_RATE_LIMIT": "1000000",
    "CARD_CREATE_RATE_LIMIT": "1000000",
    # Caches full for the whole run: under valgrind a run outlasts their minute, and a call that happened
    # to read them again would count a warm instance's once-a-minute reload as its own.
    "PARTNER_CACHE_SECONDS": "3600",
    "REFERENCE_CACHE_SECONDS": "3600",
}
# What the probe measures: the statements given (imports), then the seconds they took, on stdout.
INIT_PROBE = """
import sys, time
code = compile(sys.argv[1], "<init>", "exec")
start = time.perf_counter()
exec(code, {})
print(time.perf_counter() - start)
"""


@dataclass(frozen=True)
class Function:
    name: str
    module: str  # the handler's module, e.g. catalog.app
    requirements: str | None = None  # the group whose own requirements it has (auth), None: the layer's alone


def functions() -> list[Function]:
    resources = load_template()["Resources"]
    found = []
    for name, resource in resources.items():
        if resource.get("Type") != "AWS::Serverless::Function":
            continue
        module = resource["Properties"]["Handler"].rpartition(".")[0]
        group = module.partition(".")[0]
        found.append(Function(name.removesuffix("Function"), module, group if own_requirements(group) else None))
    return found


def floor_label(floor: str, requirements: str | None) -> str:
    """A floor's label: `floor`, or `floor (auth)` when measured with a function's own requirements."""
    return floor if requirements is None else f"{floor} ({requirements})"


@contextmanager
def deployed_roots(targets: list[Function]) -> Iterator[dict[str | None, list[str]]]:
    """The import roots of the layer's requirements alone (None) and of each function's own (its group),
    linked into a folder removed afterwards."""
    with TemporaryDirectory(prefix="bench-roots-") as folder:
        yield {
            requirements: import_roots(
                link_requirements(requirement_files(requirements), Path(folder) / (requirements or "layer"))
            )
            for requirements in {None, *(target.requirements for target in targets)}
        }


def lambda_environment(function: str, roots: list[str]) -> dict[str, str]:
    """A Lambda instance's environment, as far as an import can tell (no AWS credentials: init makes no call),
    with the import roots `roots`."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": os.pathsep.join(roots),
        "LAMBDA_TASK_ROOT": str(ROOT / "functions"),
        "AWS_LAMBDA_FUNCTION_NAME": f"car-retail-{function}",
        "AWS_EXECUTION_ENV": "AWS_Lambda_python3.13",
        "AWS_REGION": "eu-central-1",
        "AWS_DEFAULT_REGION": "eu-central-1",
        "STAGE": "local",
        "LOG_LEVEL": "INFO",
        "POWERTOOLS_SERVICE_NAME": "car-retail-api",
        "POWERTOOLS_METRICS_NAMESPACE": "CarRetail",
        "PYDANTIC_DISABLE_PLUGINS": "__all__",  # as template.yaml's Globals set it
    }


@dataclass(frozen=True)
class Probe:
    """What one cold-init measurement runs: a label (a function's name or a floor's), its code, and the
    import roots it runs with."""

    label: str
    code: str
    roots: list[str]


def run_probe(probe: Probe, *, under: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter with a Lambda environment and no site-packages (`-S`) running the probe on its
    code, itself run `under` a command (valgrind) when one is given."""
    return run_measured(
        [*under, sys.executable, "-S", "-P", "-c", INIT_PROBE, probe.code],
        failure=f"{probe.code!r} failed{' under ' + under[0] if under else ''}",
        env=lambda_environment(probe.label, probe.roots),
    )


def run_measured(
    command: list[str], *, failure: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a measuring process of ours in the repository; one that fails ends the bench with `failure`
    and the end of what it printed on stderr."""
    result = subprocess.run(  # noqa: S603 (this interpreter or valgrind on it, running our own probes)
        command, env=env, cwd=ROOT, capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise SystemExit(f"{failure}:\n{result.stderr[-3000:]}")
    return result


def valgrind() -> str:
    """valgrind's path: `--instructions` counts with it."""
    found = shutil.which("valgrind")
    if found is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    return found


def init_seconds(probe: Probe) -> float:
    return float(run_probe(probe).stdout.strip().splitlines()[-1])


def cold_plan(targets: list[Function], roots: dict[str | None, list[str]]) -> list[Probe]:
    """What cold init measures: the floors with the layer's requirements, and with each function's own,
    then each function's handler import with its requirements."""
    return [
        *(
            Probe(floor_label(label, requirements), code, roots[requirements])
            for requirements in sorted(roots, key=lambda name: name or "")
            for label, code in FLOORS.items()
        ),
        *(Probe(target.name, f"import {target.module}", roots[target.requirements]) for target in targets),
    ]


def cold_init(targets: list[Function], rounds: int) -> dict[str, float]:
    """Median init seconds of the floors and of every handler module, from interleaved runs."""
    with deployed_roots(targets) as roots:
        plan = cold_plan(targets, roots)
        for probe in plan:  # one unmeasured run each: bytecode caches written, files in the page cache
            init_seconds(probe)
        samples: dict[str, list[float]] = {probe.label: [] for probe in plan}
        for _ in range(rounds):
            for probe in plan:
                samples[probe.label].append(init_seconds(probe))
    return {label: statistics.median(values) for label, values in samples.items()}


def init_instructions(probe: Probe) -> int:
    """Instructions a fresh interpreter executes to start, run the probe, and exit."""
    result = run_probe(probe, under=(valgrind(), "--tool=callgrind", "--callgrind-out-file=/dev/null"))
    counted = re.search(r"Collected : (\d+)", result.stderr)
    if counted is None:
        raise SystemExit(f"valgrind printed no instruction count for {probe.code!r}:\n{result.stderr[-2000:]}")
    return int(counted.group(1))


def cold_instructions(targets: list[Function]) -> dict[str, float]:
    """Instructions of the floors and of every handler module's import, start-up excluded (an empty
    probe's count is subtracted). Deterministic, so one run each, as many at once as there are cores,
    after one unmeasured run each: a module edited since its last import would count its compilation."""
    valgrind()  # before any work: the runs below need it
    with deployed_roots(targets) as roots:
        plan = [Probe(STARTUP, "pass", roots[None]), *cold_plan(targets, roots)]
        for probe in plan:  # bytecode caches written before anything is counted (an edited module compiles)
            init_seconds(probe)
        with ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
            counts = {probe.label: count for probe, count in zip(plan, pool.map(init_instructions, plan), strict=True)}
    startup = counts.pop(STARTUP)
    return {label: float(count - startup) for label, count in counts.items()}


@dataclass(frozen=True)
class WarmResult:
    event: str
    method: str
    path: str
    status: int
    median_ms: float
    commands: int
    reads: int
    writes: int
    names: list[str]

    @property
    def flagged(self) -> bool:
        return self.method == "GET" and (self.commands > MAX_GET_COMMANDS or self.writes > 0)


@contextmanager
def bench_database() -> Iterator[str]:
    """A freshly seeded database on MONGODB_URI, else on the server the tests use (a real mongod, or
    mongoeco where mongod cannot run), started here; dropped afterwards."""
    from local.runtime import start_local_database

    server = None
    if not os.environ.get("MONGODB_URI"):
        server, fallback = start_local_database(dbpath=None, sqlite_path=None)
        print(f"database: {server.description}" + (f" (fallback: {fallback})" if fallback else ""), file=sys.stderr)
        os.environ["MONGODB_URI"] = server.uri
    os.environ["MONGODB_DB"] = f"bench_{uuid.uuid4().hex[:12]}"
    try:
        from local.runtime import prepare_database

        prepare_database(seed=True)
        yield os.environ["MONGODB_DB"]
    finally:
        from data.mongo import drop_database, reset_client

        drop_database()
        reset_client()
        if server is not None:
            server.stop()
            del os.environ["MONGODB_URI"]


def sample_events(only: str | None) -> list[Path]:
    events = sorted((ROOT / "events").rglob("*.json"))
    return [path for path in events if only is None or only in str(path.relative_to(ROOT / "events"))]


def warm_handlers() -> tuple[CommandCounter, Callable[[dict[str, Any]], tuple[Handler, Any]]]:
    """A command counter the database client reports to, and each event's function handler, resolved
    once as a Lambda instance has it (only the invocation is timed)."""
    from core.observability import logger
    from data.mongo import reset_client
    from local.context import LocalLambdaContext
    from local.gateway import load_handler
    from tools.command_counter import CommandCounter

    logger.setLevel(WARM_ENV["LOG_LEVEL"])  # created when tools imported the layer, before WARM_ENV
    counter = CommandCounter()
    reset_client(event_listeners=[counter])
    handlers = {(route.method, route.path): (route.function, load_handler(route.handler)) for route in api_routes()}

    def handler_of(event: dict[str, Any]) -> tuple[Handler, Any]:
        function, handler = handlers[(event["httpMethod"], event["resource"])]
        return handler, LocalLambdaContext(function_name=function)

    return counter, handler_of


def warm_requests(events: list[Path], calls: int, warmup: int) -> list[WarmResult]:
    import json

    from local.invoke import load_event
    from local.seed.core import DEMO_USER_ID

    counter, handler_of = warm_handlers()
    results = []
    for path in events:
        event = load_event(path, user_id=str(DEMO_USER_ID))
        handler, context = handler_of(event)
        for _ in range(warmup):
            handler(event, context)
        with counter.counting() as counts:
            answer = handler(event, context)
        timings = []
        for _ in range(calls):
            start = time.perf_counter()
            handler(event, context)
            timings.append(time.perf_counter() - start)
        results.append(
            WarmResult(
                event=str(path.relative_to(ROOT / "events")),
                method=event["httpMethod"],
                path=event["resource"],
                status=int(answer["statusCode"]),
                median_ms=statistics.median(timings) * 1000,
                commands=counts.total,
                reads=counts.reads,
                writes=counts.writes,
                names=counts.names,
            )
        )
        if answer["statusCode"] >= 500:
            raise SystemExit(f"{path.name} answered {answer['statusCode']}: {json.dumps(answer)[:500]}")
    return results


def probe_requests(function: str, events: list[Path], out_dir: Path) -> list[tuple[str, int, int]]:
    """Label, instructions and MongoDB commands of each call tools.request_probe measures for `function`,
    under valgrind: one count per call (collection on only inside the probe's measured calls). The
    events go with their tokens issued here: the probe then reaches the database first in the
    after-restore hook, as a restored instance does."""
    import json

    from local.invoke import load_event
    from local.seed.core import DEMO_USER_ID

    events_root = out_dir / f"{function}-events"
    issued = []
    for path in events:
        name = path.relative_to(ROOT / "events")
        (events_root / name).parent.mkdir(parents=True, exist_ok=True)
        (events_root / name).write_text(json.dumps(load_event(path, user_id=str(DEMO_USER_ID))), encoding="utf-8")
        issued.append(events_root / name)
    out = out_dir / f"{function}.out"
    result = run_measured(
        [
            valgrind(),
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=ffi_call",
            "--dump-after=ffi_call",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-m",
            "tools.request_probe",
            f"--events-root={events_root}",
            function,
            *map(str, issued),
        ],
        failure=f"request probe of {function} failed",
    )
    labels = json.loads(result.stdout.strip().splitlines()[-1])
    dumps = sorted(out_dir.glob(f"{function}.out.*"), key=lambda path: int(path.suffix[1:]))
    counts = [int(re.search(r"^summary: (\d+)", path.read_text(), re.MULTILINE).group(1)) for path in dumps]  # type: ignore[union-attr]
    if len(counts) != len(labels):
        raise SystemExit(f"{function}: {len(labels)} measured calls but {len(counts)} callgrind dumps")
    return [(item["label"], count, item["commands"]) for item, count in zip(labels, counts, strict=True)]


def warm_instructions(events: list[Path]) -> list[str]:
    """Instructions of each sample event's warm call beside its floor (the bare validated route plus one
    find_one per command it sends) and the floor of its own answer (tools.request_probe.answer_floor), and
    of each function's first and second request after a restore."""
    import json
    import tempfile

    from tools.request_probe import FLOOR_FUNCTION

    valgrind()  # before any work: the runs below need it
    by_function: dict[str, list[Path]] = {}
    routes = {(route.method, route.path): route.function for route in api_routes()}
    for path in events:
        event = json.loads(path.read_text(encoding="utf-8"))
        by_function.setdefault(routes[(event["httpMethod"], event["resource"])], []).append(path)
    with tempfile.TemporaryDirectory() as out_dir, ThreadPoolExecutor(max_workers=os.cpu_count()) as pool:
        jobs: dict[str, list[Path]] = {FLOOR_FUNCTION: [], **by_function}
        probed = pool.map(lambda function: probe_requests(function, jobs[function], Path(out_dir)), jobs)
        return instructions_table(dict(zip(jobs, probed, strict=True)))


def instructions_table(results: dict[str, list[tuple[str, int, int]]]) -> list[str]:
    """The table of `warm_instructions`: each probed function's calls (label, instructions, commands),
    the floors among them."""
    from tools.request_probe import ANSWER_FLOOR, BARE, FIND_ONE, FLOOR_FUNCTION, OUR_EDGE, REFILLED, RESTORE

    results = dict(results)
    floors = {label: count for label, count, _ in results.pop(FLOOR_FUNCTION)}
    bare, per_find, overhead = floors[BARE], floors[FIND_ONE] - floors[BARE], floors[OUR_EDGE] - floors[BARE]
    mark = "" if overhead <= MAX_OVERHEAD else f"  > {MAX_OVERHEAD / 1e6:.1f} M"
    lines = [
        "Warm requests in instructions (valgrind callgrind, one call after warm-up; the same on every run)",
        f"floor: a bare validated Powertools route {bare / 1e6:.2f} M; one find_one by _id adds {per_find / 1e6:.2f} M",
        f"per-request overhead: the same route behind our edge (gate, CORS, logger, metrics, envelope) adds "
        f"{overhead / 1e6:.2f} M{mark}",
        "answer floor: a bare validated Powertools route declared as the sample's route, answering the sample's "
        "answer (built in advance) after the same number of find_one; answer + edge: that plus our edge, "
        "over the floor",
        "",
        f"{'sample event':<46}{'M instr':>9}{'cmds':>6}{'floor M':>9}{'/ floor':>9}{'answer M':>10}{'/ answer':>10}",
    ]
    answer_floors = {
        label.removeprefix(f"{ANSWER_FLOOR} (").removesuffix(")"): count
        for measured in results.values()
        for label, count, _ in measured
        if label.startswith(ANSWER_FLOOR)
    }
    first_lines = []
    within = within_answer = routes = 0
    for function, measured in results.items():
        for label, count, commands in measured:
            if label.startswith(("first request", "second request", REFILLED)) or label == RESTORE:
                first_lines.append((function, label, count))
                continue
            if label.startswith(ANSWER_FLOOR):
                continue
            floor, answer = bare + commands * per_find, answer_floors[label]
            routes += 1
            within += count <= MAX_WARM_RATIO * floor
            within_answer += count <= MAX_WARM_RATIO * answer
            # The least any service could cost behind our edge: Powertools taking the request and giving
            # this answer, plus the edge.
            least = (answer + overhead) / floor
            mark = (
                ""
                if count <= MAX_WARM_RATIO * floor
                else f"  > {MAX_WARM_RATIO}x its floor (answer + edge {least:.2f}x)"
            )
            lines.append(
                f"{label:<46}{count / 1e6:>9.2f}{commands:>6}{floor / 1e6:>9.2f}{count / floor:>8.2f}x"
                f"{answer / 1e6:>10.2f}{count / answer:>9.2f}x{mark}"
            )
    lines += [
        "",
        f"within {MAX_WARM_RATIO}x of the floor: {within} of {routes}; "
        f"within {MAX_WARM_RATIO}x of the floor of their own answer: {within_answer} of {routes}",
        "",
        "The after-restore hook (connect, fill the caches), then the first request after it and the second one;",
        "refilled: the same request on a warm instance after its caches were emptied and refilled as the hook",
        "fills them (what it pays each time its reference data expires: the first request's cache misses)",
        "",
    ]
    firsts = {function: count for function, label, count in first_lines if label.startswith("first")}
    restores = {function: count for function, label, count in first_lines if label == RESTORE}
    refilled = {function: count for function, label, count in first_lines if label.startswith(REFILLED)}
    for function, label, count in first_lines:
        if label.startswith("second"):
            ratio = firsts[function] / count
            mark = "" if ratio <= MAX_FIRST_RATIO else f"  > {MAX_FIRST_RATIO}x the second"
            lines.append(
                f"{function:<14}restore {restores[function] / 1e6:>6.2f} M  first {firsts[function] / 1e6:>6.2f} M  "
                f"second {count / 1e6:>6.2f} M  first / second {ratio:.2f}x  "
                f"refilled {refilled[function] / 1e6:>6.2f} M  "
                f"first / refilled {firsts[function] / refilled[function]:.2f}x  "
                f"{label.removeprefix('second request ')}{mark}"
            )
    return lines


HOSTILE_SIZE = 10 * 1024 * 1024  # API Gateway's limit: what reaches a function at most
LOGIN_PHONE = '{"phone": "+998901112233"'


def _filled(head: str, fill: str, tail: str, size: int = HOSTILE_SIZE) -> str:
    """`head`, `fill` repeated, `tail`: `size` characters (at most one `fill` short)."""
    return head + fill * ((size - len(head) - len(tail)) // len(fill)) + tail


# Each 10 MB (one just over): what no route can use is refused (413), a valid login however padded is read.
HOSTILE_BODIES = {
    "small objects": lambda: "[" + ",".join(["{}"] * (HOSTILE_SIZE // 3)) + "]",
    "numbers": lambda: _filled("[", "1,", "1]"),
    "small strings": lambda: _filled("[", '"a",', '"a"]'),
    "deep nesting": lambda: "[" * HOSTILE_SIZE,
    "one long string": lambda: '{"phone": "' + "9" * (HOSTILE_SIZE - 13) + '"}',
    "one long number": lambda: _filled('{"phone": ', "9", "}"),
    "wide object": lambda: "{" + ",".join(f'"k{index}":0' for index in range(HOSTILE_SIZE // 12)) + "}",
    "login, whitespace": lambda: _filled(LOGIN_PHONE, " ", "}"),
    "login, long extra field": lambda: _filled(LOGIN_PHONE + ', "note": "', "x", '"}'),
    "login, ,{[: in a string": lambda: _filled(LOGIN_PHONE + ', "note": "', ",{[:", '"}'),
    "login, escapes in a string": lambda: _filled(LOGIN_PHONE + ', "note": "', '\\"', '"}'),
    "unterminated string": lambda: _filled(LOGIN_PHONE + ', "note": "', "x,", ""),
    "login, just over 10 MB": lambda: _filled(LOGIN_PHONE, " ", "}", HOSTILE_SIZE + 1),
}


def hostile_bodies() -> list[str]:
    """CPU and memory a 10 MB body of each shape costs the public login (and its base64 form), refused or not."""
    import base64
    import json
    import tracemalloc

    from local.invoke import load_event

    _, handler_of = warm_handlers()
    lines = [
        f"Hostile bodies: {HOSTILE_SIZE // 1024 // 1024} MB to POST /api/v1/auth/login: CPU time of the call and the "
        "most memory it held at once (tracemalloc); beside it, what parsing the body alone would cost",
        "",
        f"{'body':<38}{'status':>7} {'code':<18}{'CPU ms':>9}{'peak MB':>9}{'parse ms':>10}{'parse MB':>10}",
    ]
    worst_cpu = worst_peak = 0.0
    for name, make in HOSTILE_BODIES.items():
        for encoded in (False, True):
            body = make()
            event = load_event(ROOT / "events" / "auth" / "login.json")
            event.update(body=base64.b64encode(body.encode()).decode() if encoded else body, isBase64Encoded=encoded)
            handler, context = handler_of(event)
            tracemalloc.start()
            started = time.process_time()
            answer = handler(event, context)
            cpu = time.process_time() - started
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            worst_cpu, worst_peak = max(worst_cpu, cpu), max(worst_peak, peak)
            label = f"{name}{' (base64)' if encoded else ''}"
            code = json.loads(answer["body"]).get("code") or "-"
            parse = "" if encoded else "{:>10.0f}{:>10.0f}".format(*_parse_cost(body))
            lines.append(f"{label:<38}{answer['statusCode']:>7} {code:<18}{cpu * 1000:>9.1f}{peak / 1e6:>9.1f}{parse}")
    lines += ["", f"Most of any body: {worst_cpu * 1000:.1f} ms of CPU, {worst_peak / 1e6:.1f} MB at once"]
    return lines


def _parse_cost(body: str) -> tuple[float, float]:
    """CPU ms and peak MB of `json.loads(body)`, what the gate would spend without the route's budget."""
    import json
    import tracemalloc

    tracemalloc.start()
    started = time.process_time()
    with contextlib.suppress(RecursionError, ValueError):  # too deep, not JSON, an integer too long
        json.loads(body)
    cpu = time.process_time() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return cpu * 1000, peak / 1e6


def scale_requests(calls: int) -> list[str]:
    """The list routes on the demo data and on a copy grown by `tools.scale.grow`, side by side."""
    from pymongo import MongoClient

    from core.settings import reset_settings
    from data.mongo import drop_database
    from local.runtime import prepare_database
    from tools import scale

    small = os.environ["MONGODB_DB"]
    large = f"{small}_grown"
    counter, handler_of = warm_handlers()
    # The growth and the explains on a client of their own: no request timeout, not counted.
    client: MongoClient[dict[str, Any]]
    with MongoClient(os.environ["MONGODB_URI"], tz_aware=True) as client:
        os.environ["MONGODB_DB"] = large
        prepare_database(seed=True)
        try:
            sizes = scale.grow(client[large])
            before, after = scale.measure(client, (small, large), counter, handler_of, calls)
        finally:
            os.environ["MONGODB_DB"] = large
            reset_settings()
            drop_database()
            os.environ["MONGODB_DB"] = small
            reset_settings()
    return scale.table(before, after, sizes, calls)


@dataclass(frozen=True)
class ColdMeasure:
    column: str  # the unit's column heading
    scale: float  # measured value -> the column's unit
    unit: str


SECONDS = ColdMeasure("init ms", 1000, "ms")
INSTRUCTIONS = ColdMeasure("M instr", 1e-6, "M instructions")


def cold_table(targets: list[Function], values: dict[str, float], title: str, measure: ColdMeasure) -> list[str]:
    """Each function beside the floors measured with its requirements (the layer's, or its own too)."""
    rows = [Function(VALIDATED_FLOOR, "(no route)"), *targets]
    name_width = max(len("function"), *(len(row.name) for row in rows)) + 2
    module_width = max(len("handler module"), *(len(row.module) for row in rows)) + 2
    lines = [title]
    for requirements in sorted({target.requirements for target in rows}, key=lambda name: name or ""):
        floor, validated = (values[floor_label(label, requirements)] for label in (FLOOR, VALIDATED_FLOOR))
        mine = "" if requirements is None else f", with {requirements}'s own requirements"
        lines += [
            f"library floor (import {', '.join(FLOOR_MODULES)}{mine}): {floor * measure.scale:.0f} {measure.unit}",
            f"validated floor (those libraries and an APIGatewayRestResolver(enable_validation=True){mine}): "
            f"{validated * measure.scale:.0f} {measure.unit}",
        ]
    lines += [
        "",
        f"{'function':<{name_width}}{'handler module':<{module_width}}{measure.column:>9}{'/ floor':>9}"
        f"{'/ validated':>13}",
    ]
    within_goal = 0
    for row in rows:
        value = values[row.name]
        floor, validated = (values[floor_label(label, row.requirements)] for label in (FLOOR, VALIDATED_FLOOR))
        ratio = value / floor
        mark = ""
        if value > MAX_COLD_VALIDATED_RATIO * validated:
            mark = f"  > {MAX_COLD_VALIDATED_RATIO}x the validated floor"
        elif row in targets:
            within_goal += 1
        mine = "" if row.requirements is None else f"  (floors with {row.requirements}'s own requirements)"
        lines.append(
            f"{row.name:<{name_width}}{row.module:<{module_width}}{value * measure.scale:>9.0f}{ratio:>8.2f}x"
            f"{value / validated:>12.2f}x{mark}{mine}"
        )
    goal = f"within {MAX_COLD_VALIDATED_RATIO}x of the validated floor"
    lines += ["", f"{goal}: {within_goal} of {len(targets)} functions"]
    return lines


def warm_table(results: list[WarmResult], calls: int, warmup: int) -> list[str]:
    lines = [
        f"Warm requests: in-process, median of {calls} calls after {warmup} warm-up calls; MongoDB commands of one "
        "warm call",
        "",
        f"{'sample event':<38}{'method':<7}{'status':>6}{'p50 ms':>9}{'cmds':>6}{'reads':>7}{'writes':>7}",
    ]
    for result in results:
        mark = f"  GET over {MAX_GET_COMMANDS} commands or writing" if result.flagged else ""
        lines.append(
            f"{result.event:<38}{result.method:<7}{result.status:>6}{result.median_ms:>9.2f}"
            f"{result.commands:>6}{result.reads:>7}{result.writes:>7}{mark}"
        )
    gets = [result for result in results if result.method == "GET"]
    worst = max((result.commands for result in gets), default=0)
    flagged = [result.event for result in gets if result.flagged]
    lines += [
        "",
        f"GET events: {len(gets)}, most commands in one warm call: {worst}, "
        f"over {MAX_GET_COMMANDS} or writing: {', '.join(flagged) or 'none'}",
    ]
    return lines


def add_sale_arguments(parser: argparse.ArgumentParser) -> None:
    from tools import opening_bench
    from tools.sale_bench import DEFAULT_BUYERS, DEFAULT_UNITS, DEFAULT_WORKERS

    parser.add_argument(
        "--sale",
        action="store_true",
        help="instead of the sample events, a sale opening through HTTP on `python -m local serve` "
        "(tools/sale_bench.py): "
        "BUYERS buyers at once for UNITS units of one configuration, then each for a configuration of its own",
    )
    parser.add_argument(
        "--opening",
        action="store_true",
        help="instead of the sample events, a fair opening through HTTP on `python -m local serve` and its "
        "SaleAdmission controller (tools/opening_bench.py): ENTRIES verified people register, poll status.json, "
        "order when admitted and pay, a fifth never pay",
    )

    def count(raw: str) -> int:
        """A whole number of at least 1 (argparse names a wrong one)."""
        value = int(raw)
        if value < 1:
            raise ValueError(raw)
        return value

    parser.add_argument(
        "--buyers", type=count, default=DEFAULT_BUYERS, help=f"--sale: buyers ordering at once ({DEFAULT_BUYERS})"
    )
    parser.add_argument(
        "--units",
        type=count,
        help=f"--sale: units of the rush's configuration ({DEFAULT_UNITS}); --opening: units on sale "
        f"({opening_bench.DEFAULT_UNITS})",
    )
    parser.add_argument(
        "--workers",
        type=count,
        default=DEFAULT_WORKERS,
        help=f"--sale, --opening: worker processes serving ({DEFAULT_WORKERS})",
    )
    parser.add_argument(
        "--entries",
        type=count,
        default=opening_bench.DEFAULT_ENTRIES,
        help=f"--opening: verified people registered ({opening_bench.DEFAULT_ENTRIES:,})",
    )
    parser.add_argument(
        "--buckets",
        type=count,
        default=opening_bench.DEFAULT_BUCKETS,
        help=f"--opening: stock documents the units are split into ({opening_bench.DEFAULT_BUCKETS})",
    )
    parser.add_argument(
        "--admission-per-second",
        type=count,
        default=opening_bench.DEFAULT_ADMISSION_PER_SECOND,
        help=f"--opening: the queue's admissionPerSecond ({opening_bench.DEFAULT_ADMISSION_PER_SECOND})",
    )
    from tools.opening_model import DEFAULT_PEOPLE
    from tools.opening_model import DEFAULT_UNITS as MODEL_UNITS

    parser.add_argument(
        "--opening-model",
        action="store_true",
        help="instead of the sample events, a fair opening modelled in virtual time with the deployed limits "
        "(tools/opening_model.py): origin requests/s, concurrent functions, MongoDB connections, time to sell out",
    )
    parser.add_argument(
        "--people",
        type=count,
        default=DEFAULT_PEOPLE,
        help=f"--opening-model: people in the queue ({DEFAULT_PEOPLE:,})",
    )
    parser.add_argument(
        "--opening-units", type=count, default=MODEL_UNITS, help=f"--opening-model: units on sale ({MODEL_UNITS:,})"
    )
    from tools.draw_bench import DEFAULT_ENTRIES as DRAW_ENTRIES

    parser.add_argument(
        "--draw",
        action="store_true",
        help="instead of the sample events, a fair opening's draw at many entries registered directly "
        "(tools/draw_bench.py): its parts timed, the runs of SaleAdmission it takes, taken to 1,000,000 entries",
    )
    parser.add_argument(
        "--draw-entries",
        type=lambda raw: [count(part) for part in raw.split(",")],
        default=list(DRAW_ENTRIES),
        help=f"--draw: entry counts, comma-separated ({','.join(str(n) for n in DRAW_ENTRIES)})",
    )


def sale_opening(args: argparse.Namespace) -> list[str]:
    from local.runtime import LOCAL_DEFAULTS
    from tools import sale_bench

    os.environ.update({**LOCAL_DEFAULTS, **WARM_ENV})
    with bench_database() as database, contextlib.redirect_stdout(io.StringIO()):
        return sale_bench.opening(
            os.environ["MONGODB_URI"],
            database,
            buyers=args.buyers,
            units=args.units or sale_bench.DEFAULT_UNITS,
            workers=args.workers,
        )


def fair_opening(args: argparse.Namespace) -> list[str]:
    """The fair opening through HTTP: its server and this process share the edge files' folder (status.json
    written by the operator's command and the controller, served by the workers)."""
    import tempfile

    from core.settings import reset_settings
    from local.runtime import LOCAL_DEFAULTS
    from tools import opening_bench

    with tempfile.TemporaryDirectory(prefix="opening-bench-") as edge_files:
        os.environ.update({**LOCAL_DEFAULTS, **WARM_ENV, **opening_bench.SERVER_ENV, "EDGE_FILES_DIR": edge_files})
        reset_settings()
        with bench_database() as database, contextlib.redirect_stdout(io.StringIO()):
            return opening_bench.opening(
                os.environ["MONGODB_URI"],
                database,
                entries=args.entries,
                units=args.units or opening_bench.DEFAULT_UNITS,
                workers=args.workers,
                buckets=args.buckets,
                pace=args.admission_per_second,
            )


def draw_at_scale(args: argparse.Namespace) -> list[str]:
    """The draw at many entries: its public files (draw.json of every count) to a folder of its own."""
    import tempfile

    from core.settings import reset_settings
    from local.runtime import LOCAL_DEFAULTS
    from tools import draw_bench

    with tempfile.TemporaryDirectory(prefix="draw-bench-") as edge_files:
        os.environ.update({**LOCAL_DEFAULTS, **WARM_ENV, "EDGE_FILES_DIR": edge_files})
        reset_settings()
        with bench_database() as database, contextlib.redirect_stdout(io.StringIO()):
            return draw_bench.run(os.environ["MONGODB_URI"], database, args.draw_entries)


def opening_model(args: argparse.Namespace) -> list[str]:
    from tools import opening_model as model

    return model.run(args.people, args.opening_units)


def build_parser() -> argparse.ArgumentParser:
    """`python -m tools bench`'s options (`make bench ARGS=...`)."""
    parser = argparse.ArgumentParser(prog="python -m tools bench", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=11, help="cold-init runs per function (default 11)")
    parser.add_argument("--calls", type=int, default=50, help="timed warm calls per sample event (default 50)")
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured calls before them (default 3)")
    parser.add_argument("--only", help="sample events whose path contains this, e.g. payments/")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-init runs")
    parser.add_argument("--no-warm", action="store_true", help="skip the warm requests")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="cold init as instructions executed (valgrind), instead of wall time: the same on every run",
    )
    parser.add_argument("--verbose", action="store_true", help="list the commands of each warm call")
    parser.add_argument(
        "--hostile",
        action="store_true",
        help="instead of the sample events, CPU and memory of 10 MB bodies of several shapes sent to the login",
    )
    parser.add_argument(
        "--scale",
        action="store_true",
        help="instead of the sample events, the list routes on the demo data and on a database grown to 10,000 "
        "cars, orders and saved cars (tools/scale.py): p50, commands, documents and keys examined per command",
    )
    add_sale_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    output: list[str] = []
    if args.sale or args.opening or args.opening_model or args.draw:
        run = (
            sale_opening
            if args.sale
            else fair_opening
            if args.opening
            else draw_at_scale
            if args.draw
            else opening_model
        )
        print("\n".join(run(args)))
        return 0
    if args.hostile:
        from local.runtime import LOCAL_DEFAULTS

        os.environ.update({**LOCAL_DEFAULTS, **WARM_ENV})
        with bench_database(), contextlib.redirect_stdout(io.StringIO()):
            output = hostile_bodies()
        print("\n".join(output))
        return 0
    if args.scale:
        from local.runtime import LOCAL_DEFAULTS

        os.environ.update({**LOCAL_DEFAULTS, **WARM_ENV})
        with bench_database(), contextlib.redirect_stdout(io.StringIO()):
            output = scale_requests(args.calls)
        print("\n".join(output))
        return 0
    if args.instructions and not args.no_cold:
        targets = functions()
        title = "Cold init: instructions executed importing the handler module (valgrind callgrind, start-up excluded)"
        output += [*cold_table(targets, cold_instructions(targets), title, INSTRUCTIONS), ""]
    elif not args.no_cold:
        targets = functions()
        title = f"Cold init: a fresh interpreter importing the handler module, median of {args.rounds} interleaved runs"
        output += [*cold_table(targets, cold_init(targets, args.rounds), title, SECONDS), ""]
    if not args.no_warm:
        from local.runtime import LOCAL_DEFAULTS

        os.environ.update({**LOCAL_DEFAULTS, **WARM_ENV})  # before any handler module creates its Logger
        # Handlers print what a Lambda would log (the cold-start metric line): not part of the table.
        with bench_database(), contextlib.redirect_stdout(io.StringIO()):
            if args.instructions:
                output += warm_instructions(sample_events(args.only))
            else:
                results = warm_requests(sample_events(args.only), args.calls, args.warmup)
        if not args.instructions:
            output += warm_table(results, args.calls, args.warmup)
        if args.verbose and not args.instructions:
            output += ["", *(f"{result.event}: {' '.join(result.names)}" for result in results)]
    print("\n".join(output))
    return 0
