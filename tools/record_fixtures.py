#!/usr/bin/env python3
"""Record tests/fixtures/<tool>/<case>/ from the bench cases, by running the real tools.

For each case under bench/cases (or the ones named on the command line) this builds the
case's input with its setup script, runs its command once, and writes the raw stdout and
stderr bytes exactly as the tool printed them, plus meta.toml with the argv, the exit status,
the tool's version, the date and the setup script that made the input. Fixtures are never
edited by hand: change the case and record it again.

    python3 tools/record_fixtures.py              # every case
    python3 tools/record_fixtures.py cargo-build  # one case

The case tools must be installed first (`make case-tools`).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import compare_cases

# A fixture is test input for the pipeline, not a stress test: keep each one small so the
# whole tree stays cheap to clone.
MAX_FIXTURE_BYTES = 1_000_000


def toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes (\\n, \\", \\\\, \\uXXXX) are all valid TOML."""
    return json.dumps(text, ensure_ascii=False)


def meta_toml(
    command: tuple[str, ...], exit_code: int, version: str, recorded: str, setup: str, notes: str
) -> str:
    lines = [
        "command = [" + ", ".join(toml_string(a) for a in command) + "]",
        f"exit = {exit_code}",
        f"tool_version = {toml_string(version)}",
        f"recorded = {toml_string(recorded)}",
        f"setup = {toml_string(setup)}",
    ]
    if notes:
        lines.append(f"notes = {toml_string(notes)}")
    return "\n".join(lines) + "\n"


def record(case: compare_cases.Case, today: str) -> str:
    env = compare_cases.case_env()
    workdir = compare_cases.build(case, env)
    outcome = compare_cases.run(case.command, workdir, env)
    version = compare_cases.tool_version(case, workdir, env)
    size = len(outcome.stdout) + len(outcome.stderr)
    if size > MAX_FIXTURE_BYTES:
        raise compare_cases.CaseError(f"{case.name}: {size} bytes is too large for a fixture")
    dest = case.fixture_dir
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "stdout").write_bytes(outcome.stdout)
    (dest / "stderr").write_bytes(outcome.stderr)
    setup = case.setup.relative_to(compare_cases.REPO).as_posix()
    meta = meta_toml(case.command, outcome.exit, version, today, setup, case.notes)
    (dest / "meta.toml").write_text(meta)
    return (
        f"{dest.relative_to(compare_cases.REPO)}: exit {outcome.exit}, "
        f"{len(outcome.stdout)} + {len(outcome.stderr)} bytes"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", help="case names under bench/cases (default: all)")
    args = parser.parse_args(argv)
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    try:
        cases = [c for c in compare_cases.all_cases(args.cases) if c.fixture]
    except compare_cases.CaseError as err:
        print(f"record_fixtures: {err}", file=sys.stderr)
        return 2
    failed = 0
    for case in cases:
        try:
            print(record(case, today), flush=True)
        except compare_cases.CaseError as err:
            failed += 1
            print(f"record_fixtures: {err}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
