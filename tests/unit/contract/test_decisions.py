"""docs/DECISIONS.md stays a record a newcomer can read: decisions and their reasons, under a thousand
lines, with no measurements in it (they live in docs/PERFORMANCE.md, where a new run replaces them); and
every pointer to it, from code, tests or the other documents, names a section or a decision it holds.

What counts as a measurement, and is refused in DECISIONS:
- an instruction count: a number followed by `instructions`, `instr`/`Minstr`, or the `M` shorthand the
  benches print (`0.38 M`, `1,054 M`);
- a time below a second: a number of `ms`, `µs`, `ns` or milli-/micro-/nanoseconds: no setting of this
  service is configured in milliseconds, so such a figure is always something a bench or a log read;
- a fraction of a second (`0.77 s`, `3.6 s`): the durations a decision names (timeouts, claims, windows,
  cache lifetimes) are whole seconds, minutes or hours; a sub-second setting, such as a backoff's first
  step, is named by its setting, not by its value;
- CPU or wall time (`317 ms CPU`, `2.5 s wall`);
- a ratio to a floor (`1.15x`, `0.96x`): only a bench measures one (a whole `2x` stays allowed, as a
  rule's bound such as "at most 2x the page's documents");
- a share of a cost (`40 % of a cold start`, `5 % slower`): percentages of money (`30 % down`, `10 %` of a
  deposit) are business rules and stay allowed.
Sizes are not refused: the limits a decision sets are sizes (10 MB bodies, 64 MiB files, Lambda's 6 MB
answers), and a measured size is caught by the wording around it far less reliably than by review."""

from __future__ import annotations

import re
import shutil
import subprocess

from local.template import ROOT

DECISIONS = ROOT / "docs" / "DECISIONS.md"
THIS_FILE = "tests/unit/contract/test_decisions.py"  # it spells pointers out as examples
MAX_LINES = 1000

NUMBER = r"(?<![\w.])\d[\d,]*(?:\.\d+)?"
MEASUREMENTS = {
    "an instruction count": re.compile(rf"{NUMBER}\s*(?:[kMG]\s*)?(?:instructions?|instr)\b|{NUMBER}\s*M(?:instr)?\b"),
    "a time below a second": re.compile(
        rf"{NUMBER}\s*(?:ms|µs|us|ns|milliseconds?|microseconds?|nanoseconds?)\b", re.IGNORECASE
    ),
    "a fraction of a second": re.compile(r"(?<![\w.])\d+\.\d+\s*(?:s|sec|seconds?)\b"),
    "CPU or wall time": re.compile(rf"{NUMBER}\s*(?:s|ms|seconds?)\s+(?:of\s+)?(?:CPU|wall)\b", re.IGNORECASE),
    "a ratio to a floor": re.compile(r"(?<![\w.])\d+\.\d+x\b"),
    "a share of a cost": re.compile(
        rf"{NUMBER}\s*%\s+(?:of\s+(?:a|an|the|its|every)?\s*(?:cold|init|request|route|call|import|work)"
        r"|(?:more|less|fewer|slower|faster|cheaper|dearer)\b)",
        re.IGNORECASE,
    ),
}

# A pointer to a decision: `DECISIONS.md, "A heading"`, `DECISIONS.md, Orders, "A decision"`, or a link to
# `DECISIONS.md#a-heading`.
AFTER_MENTION = re.compile(r"DECISIONS\.md(#[\w-]+)?")
QUOTED_NAMES = re.compile(r'\s*,\s*(?:([A-Z][A-Za-z ]*?)\s*(?:,|\)))?\s*("[^"]+"(?:\s*(?:,|and)\s*"[^"]+")*)?')


def measurements_in(text: str) -> list[str]:
    """Each line of `text` that holds a measurement, with what kind it is."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        found += [f"{number}: {kind}: {line.strip()}" for kind, pattern in MEASUREMENTS.items() if pattern.search(line)]
    return found


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def names_in_decisions() -> tuple[set[str], list[str]]:
    """Its headings, and the bold leads of its decisions (`**Sale rules.**`)."""
    text = DECISIONS.read_text(encoding="utf-8")
    headings = {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")}
    leads = [bold.strip() for bold in re.findall(r"\*\*(.+?)\*\*", text)]
    return headings, leads


def names_a_decision(name: str, headings: set[str], leads: list[str]) -> bool:
    """A pointer names a heading, or the start of a bold lead (a decision is cited by its first words)."""
    return name in headings or any(lead.startswith(name) for lead in leads)


def tracked_text_files() -> list[tuple[str, str]]:
    git = shutil.which("git")
    assert git is not None, "git is needed to list the tracked files"
    # A fixed command, no input: nothing untrusted reaches the process.
    listed = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, text=True)  # noqa: S603
    files = []
    for name in filter(None, listed.stdout.split("\0")):
        path = ROOT / name
        if name in ("docs/DECISIONS.md", THIS_FILE) or not path.is_file():
            continue
        try:
            files.append((name, path.read_text(encoding="utf-8")))
        except UnicodeDecodeError:
            continue  # images and other binaries
    return files


def pointers_in(text: str) -> list[tuple[str, str]]:
    """What each mention of DECISIONS.md in `text` points at: ("#anchor", anchor) or ("name", a quoted or
    bare section name), read across line breaks, comment markers and JSON escapes."""
    flat = re.sub(r"\\n|\n[ \t]*(?:#[ \t]*)?", " ", text.replace('\\"', '"'))
    pointers: list[tuple[str, str]] = []
    for mention in AFTER_MENTION.finditer(flat):
        if mention.group(1):
            pointers.append(("#anchor", mention.group(1)[1:]))
            continue
        names = QUOTED_NAMES.match(flat, mention.end())
        if names is None:
            continue
        if names.group(1):
            pointers.append(("name", names.group(1)))
        pointers += [("name", quoted) for quoted in re.findall(r'"([^"]+)"', names.group(2) or "")]
    return pointers


def test_decisions_is_a_record_under_a_thousand_lines() -> None:
    # Given docs/DECISIONS.md
    lines = DECISIONS.read_text(encoding="utf-8").splitlines()
    # Then a newcomer can read it: fewer than a thousand lines
    assert len(lines) < MAX_LINES, f"docs/DECISIONS.md has {len(lines)} lines; state each decision once, briefly"


def test_decisions_holds_no_measurements() -> None:
    # Given docs/DECISIONS.md / When its lines are searched for measured figures
    found = measurements_in(DECISIONS.read_text(encoding="utf-8"))
    # Then there is none: figures go to docs/PERFORMANCE.md
    assert found == []


def test_the_measurement_check_refuses_figures_and_keeps_settings() -> None:
    # Given lines a bench would write, and lines that state decided settings
    measured = [
        "Auth 1,452 M instructions",
        "the edge floor 0.26 M -> 0.12 M over the bare route",
        "a 10,000-key count is about 5 ms",
        "997 ms CPU (2.5 s wall) from sources",
        "a login whose phone was 10 MB of spaces cost 3.6 s of validation",
        "Orders 1.26x -> 1.19x",
        "the X-Ray SDK was about 40 % of a cold start",
        "every route pays 5 % more",
        "about 25 microseconds a call",
    ]
    decided = [
        "server selection 3 s, every operation 5 s, well inside the Lambda's 10 s",
        "valid 5 minutes, a new one after 60 s, locked for 15 minutes",
        "at most 2x the page's documents",
        "300,000,000 sums, 30 % down, 24 % a year, 36 months",
        "`ORDER_DEPOSIT_PERCENT` (10 % by default) of what is due now",
        "up to the interface's 10 MB; a file of at most 64 MiB",
        "`MONGODB_TIMEOUT_MS` sits well inside the Lambda's timeout",
        "an M10's connection limit; `CR-2026-000042`",
    ]
    # When each is checked
    caught = [line for line in measured if measurements_in(line)]
    spared = [line for line in decided if not measurements_in(line)]
    # Then every measurement is refused and every setting kept
    assert caught == measured
    assert spared == decided


def test_every_pointer_to_a_decision_names_a_heading_or_a_decision() -> None:
    # Given the headings and bold leads of docs/DECISIONS.md, and every tracked file that mentions it
    headings, leads = names_in_decisions()
    anchors = {slug(heading) for heading in headings}
    # When each mention's anchor or quoted name is looked up
    broken = [
        f"{name}: {kind} {target!r}"
        for name, text in tracked_text_files()
        for kind, target in pointers_in(text)
        if (target not in anchors if kind == "#anchor" else not names_a_decision(target, headings, leads))
    ]
    # Then each is found: a renamed section is renamed where it is cited too
    assert broken == []


def test_the_pointer_check_reads_pointers_across_lines_and_finds_a_missing_one() -> None:
    # Given pointers written as code comments, docstrings, Markdown and JSON write them
    text = (
        '# rule (docs/DECISIONS.md, "Import-time\n# work")\n'
        '"""(docs/DECISIONS.md, Orders, "Sale\n    rules")"""\n'
        "[why](docs/DECISIONS.md#card-payments)\n"
        '"description": "(docs/DECISIONS.md,\\n\\"Gone section\\")"\n'
    )
    # When they are read
    pointers = pointers_in(text)
    # Then each is found whole
    assert pointers == [
        ("name", "Import-time work"),
        ("name", "Orders"),
        ("name", "Sale rules"),
        ("#anchor", "card-payments"),
        ("name", "Gone section"),
    ]
    # And the one DECISIONS does not hold is told apart
    headings, leads = names_in_decisions()
    assert [name for kind, name in pointers if kind == "name" and not names_a_decision(name, headings, leads)] == [
        "Gone section"
    ]
