#!/usr/bin/env python3
"""Replay recorded outputs through the built lens and check every view against the raw bytes.

A case is either a fixture folder holding stdout, stderr and meta.toml (tests/fixtures/<tool>/
<case>/, found anywhere under a directory given), or an entry of a manifest.toml naming one
recorded output file and the argv it was recorded from:

    [[case]]
    name = "cargo-build-errors"
    file = "cargo_build_errors.txt"   # relative to the manifest
    command = ["cargo", "build"]
    stream = "stderr"                 # which stream printed it; default "stdout"
    exit = 101                        # default 0

Each case runs through lens at levels 2, 1 and 0, alone and under `2>&1`, with a stub named
as the command's argv[0] first on PATH that prints the recorded bytes and exits with the
recorded code. Every view must hold only raw lines, verbatim and in order, and markers; every
raw line must be shown or inside exactly one marker (or cut in its line by the in-line
marker); `lens show H --lines A-B` must return exactly the lines each marker stands for; and
the exit code must come back unchanged. One line is printed per violation, then a summary.
A marker that costs more bytes than the lines it stands for is printed as a note: it breaks
no promise, but the reader paid for it.

    python3 tools/replay_check.py tests/fixtures
    python3 tools/replay_check.py /tmp/corpus/manifest.toml

The decision this makes is to check a view against the raw stream alone, never against an
expected view: a line is accounted for by position, so a view that drops lines without a
marker, repeats one, or reorders two fails wherever it happens, whatever lens meant to do.
Under `2>&1` the two views interleave, so each line of the merged output may belong to
either stream; every assignment is kept until one of them accounts for every raw line.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_LENS = REPO / "out" / "release" / platform.machine() / "lens"
LEVELS = (2, 1, 0)
STREAMS = ("stdout", "stderr")

MARKER = re.compile(rb"^\[lens: (\d+) lines? elided, (\d+)-(\d+), ([0-9a-f]{8})(?:: (.*))?\]$")
CUT = re.compile(rb"\[lens: (\d+) bytes elided, line (\d+), ([0-9a-f]{8})\]")

# Ambiguous merged views (blank lines in both streams) could make the assignments grow
# without bound; no recorded output has come near this, and a cap that is hit is reported.
MAX_STATES = 20_000


@dataclass
class Case:
    name: str
    command: list[str]
    exit: int
    raw: dict[str, bytes]


@dataclass
class Marker:
    stream: int
    first: int
    last: int
    handle: str
    text: bytes
    is_cut: bool = False


@dataclass
class Match:
    """What accounting a view's lines against the raw streams found."""

    problems: list[str] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)


def split_lines(data: bytes) -> list[bytes]:
    """Lines with their terminators, as lens numbers them: a final unterminated line counts."""
    return data.splitlines(keepends=True) if b"\n" in data else ([data] if data else [])


def body(line: bytes) -> bytes:
    return line[:-1] if line.endswith(b"\n") else line


def cut_of(shown: bytes, raw: bytes, number: int, stream: int) -> Marker | None:
    """The in-line marker when `shown` is raw line `number` with its middle cut out."""
    found = CUT.search(shown)
    if not found or int(found[2]) != number:
        return None
    head, tail = shown[: found.start()], shown[found.end() :]
    if not (raw.startswith(head) and raw.endswith(tail)):
        return None
    if len(raw) != len(head) + len(tail) + int(found[1]):
        return None
    return Marker(stream, number, number, found[3].decode(), found[0], is_cut=True)


def step(line: bytes, raw: list[bytes], pos: int, stream: int) -> tuple[int, Marker | None] | None:
    """Where raw stream `raw`, `pos` lines accounted for, stands after showing `line`."""
    marker = MARKER.match(body(line))
    if marker:
        count, first, last = int(marker[1]), int(marker[2]), int(marker[3])
        if first != pos + 1 or last < first or last > len(raw) or count != last - first + 1:
            return None
        return last, Marker(stream, first, last, marker[4].decode(), body(line))
    if pos >= len(raw):
        return None
    if line == raw[pos]:
        return pos + 1, None
    cut = cut_of(line, raw[pos], pos + 1, stream)
    if cut:
        return pos + 1, cut
    # A final line without a newline is shown with one when another line follows it.
    if pos == len(raw) - 1 and not raw[pos].endswith(b"\n") and line == raw[pos] + b"\n":
        return pos + 1, None
    return None


def explain(line: bytes, raw: list[bytes], pos: int) -> str:
    """Why `line` cannot come next in a view of `raw` with `pos` lines accounted for."""
    shown = body(line)[:80].decode(errors="replace")
    marker = MARKER.match(body(line))
    if marker:
        return f"marker {shown!r} does not start at line {pos + 1} or names lines it cannot"
    later = [i for i in range(pos, len(raw)) if raw[i] == line]
    if later:
        return f"lines {pos + 1}-{later[0]} removed with no marker before {shown!r}"
    return f"line {shown!r} is not raw line {pos + 1} nor any later raw line (invented)"


def match_view(view: bytes, raws: list[list[bytes]]) -> Match:
    """Account every line of `view` against one raw stream, or two when they were merged."""
    states: dict[tuple[int, ...], list[Marker]] = {(0,) * len(raws): []}
    for number, line in enumerate(split_lines(view), 1):
        advanced: dict[tuple[int, ...], list[Marker]] = {}
        for state, markers in states.items():
            for stream, raw in enumerate(raws):
                moved = step(line, raw, state[stream], stream)
                if moved is None:
                    continue
                pos, marker = moved
                key = (*state[:stream], pos, *state[stream + 1 :])
                if key not in advanced:
                    advanced[key] = [*markers, marker] if marker else markers
        if not advanced:
            pos = max(states)
            reasons = dict.fromkeys(explain(line, raw, p) for raw, p in zip(raws, pos, strict=True))
            return Match([f"view line {number}: {'; '.join(reasons)}"])
        if len(advanced) > MAX_STATES:
            return Match([f"view line {number}: more than {MAX_STATES} ways to read the view"])
        states = advanced
    ends = tuple(len(raw) for raw in raws)
    if ends in states:
        return Match([], states[ends])
    pos = max(states)
    gaps = [
        f"{STREAMS[i] if len(raws) > 1 else 'raw'} lines {p + 1}-{end} removed with no marker"
        for i, (p, end) in enumerate(zip(pos, ends, strict=True))
        if p < end
    ]
    return Match(["view ends early: " + "; ".join(gaps)])


class Lens:
    """The built binary, run with its store, log and config inside one temp dir."""

    def __init__(self, binary: Path, home: Path):
        self.binary = str(binary)
        self.cwd = home / "work"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("LENS_")}
        self.env |= {
            "LENS_STORE": str(home / "store"),
            "LENS_LOG_DIR": str(home / "log"),
            "LENS_CONFIG": str(home / "no-such-config.toml"),
            "PATH": f"{home / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        }

    def run(self, args: list[str], merged: bool = False) -> subprocess.CompletedProcess:
        return subprocess.run(
            [self.binary, *args],
            env=self.env,
            cwd=self.cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT if merged else subprocess.PIPE,
            timeout=60,
            check=False,
        )


def write_stub(home: Path, case: Case) -> None:
    """A program named as the recorded argv[0] that prints the recording and exits as it did.

    A bare name is found on PATH; a relative path (`venv/bin/pip`) is made under the working
    directory lens runs in, so the argv lens sees is the recorded one either way.
    """
    for stream in STREAMS:
        (home / stream).write_bytes(case.raw[stream])
    program = Path(case.command[0])
    if program.is_absolute():
        raise ValueError(f"{case.name}: argv[0] {program} is absolute; no stub can stand in")
    stub = home / "work" / program if len(program.parts) > 1 else home / "bin" / program
    stub.parent.mkdir(parents=True, exist_ok=True)
    stub.write_text(
        "#!/bin/sh\n"
        f"/bin/cat '{home / 'stdout'}'\n"
        f"/bin/cat '{home / 'stderr'}' >&2\n"
        f"exit {case.exit}\n"
    )
    stub.chmod(0o755)


@dataclass
class Totals:
    cases: int = 0
    views: int = 0
    violations: int = 0
    notes: int = 0
    raw: dict[int, int] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0))
    shown: dict[int, int] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0))


def check_markers(
    lens: Lens, markers: list[Marker], raws: list[list[bytes]], names: tuple[str, ...]
) -> list[str]:
    """Every marker names this run's handle, and `lens show` returns the lines it stands for."""
    problems = []
    handles = {m.handle for m in markers}
    if len(handles) > 1:
        problems.append(f"markers name {len(handles)} handles: {', '.join(sorted(handles))}")
    for m in markers:
        span = f"{m.first}-{m.last}"
        got = lens.run(["show", m.handle, "--lines", span, f"--{names[m.stream]}"]).stdout
        if got != b"".join(raws[m.stream][m.first - 1 : m.last]):
            problems.append(
                f"`lens show {m.handle} --lines {span} --{names[m.stream]}` is not the lines "
                f"{m.text[:60].decode(errors='replace')!r} stands for"
            )
    return problems


def costly(markers: list[Marker], raws: list[list[bytes]]) -> list[str]:
    """Markers that cost more bytes than the lines they stand for: kept, yet worth noting."""
    notes = []
    for m in markers:
        stands = sum(len(line) for line in raws[m.stream][m.first - 1 : m.last])
        if not m.is_cut and len(m.text) + 1 >= stands:
            notes.append(
                f"note: marker of {len(m.text) + 1} bytes stands for {stands} "
                f"({m.text[:60].decode(errors='replace')!r})"
            )
    return notes


def check_view(
    lens: Lens, case: Case, level: int, merged: bool, totals: Totals, save: Path | None
) -> list[str]:
    argv = ["--level", str(level), *case.command]
    done = lens.run(argv, merged)
    if save:
        save.mkdir(parents=True, exist_ok=True)
        if merged:
            (save / f"level-{level}.merged").write_bytes(done.stdout)
        else:
            for stream in STREAMS:
                (save / f"level-{level}.{stream}").write_bytes(getattr(done, stream))
    problems = []
    if done.returncode != case.exit:
        problems.append(f"exit {done.returncode}, recorded {case.exit}")
    lines = {s: split_lines(case.raw[s]) for s in STREAMS}
    if merged:
        views = [(done.stdout, STREAMS, "")]
    else:
        views = [(getattr(done, s), (s,), f"{s}: ") for s in STREAMS]
        totals.raw[level] += sum(len(b) for b in case.raw.values())
        totals.shown[level] += len(done.stdout) + len(done.stderr)
    for view, names, label in views:
        raws = [lines[s] for s in names]
        found = match_view(view, raws)
        problems += [label + p for p in found.problems]
        problems += [label + p for p in check_markers(lens, found.markers, raws, names)]
        problems += [label + p for p in costly(found.markers, raws)]
        if not found.markers and not merged and view != b"".join(raws[0]):
            problems.append(label + "nothing was elided, yet the view differs from the raw bytes")
    return problems


def check_case(binary: Path, case: Case, totals: Totals, save: Path | None = None) -> list[str]:
    totals.cases += 1
    out = []
    with tempfile.TemporaryDirectory(prefix="lens-replay-") as tmp:
        home = Path(tmp)
        (home / "work").mkdir()
        write_stub(home, case)
        lens = Lens(binary, home)
        for level in LEVELS:
            for merged in (False, True):
                totals.views += 1
                shown = " ".join(case.command) + (" 2>&1" if merged else "")
                where = f"{case.name}: level {level}: `lens --level {level} {shown}`"
                out += [
                    f"{where}: {p}"
                    for p in check_view(
                        lens, case, level, merged, totals, save and save / case.name
                    )
                ]
    totals.notes += sum(": note: " in p for p in out)
    totals.violations += sum(": note: " not in p for p in out)
    return out


def fixture_cases(root: Path) -> list[Case]:
    cases = []
    for meta_path in sorted(root.rglob("meta.toml")):
        folder = meta_path.parent
        meta = tomllib.loads(meta_path.read_text())
        raw = {s: (folder / s).read_bytes() for s in STREAMS}
        name = folder.relative_to(root).as_posix()
        cases.append(Case(name, list(meta["command"]), int(meta["exit"]), raw))
    return cases


def manifest_cases(path: Path) -> list[Case]:
    cases = []
    for entry in tomllib.loads(path.read_text())["case"]:
        stream = entry.get("stream", "stdout")
        if stream not in STREAMS:
            raise ValueError(f"{path}: case {entry['name']}: stream must be stdout or stderr")
        raw = dict.fromkeys(STREAMS, b"")
        raw[stream] = (path.parent / entry["file"]).read_bytes()
        cases.append(Case(entry["name"], list(entry["command"]), int(entry.get("exit", 0)), raw))
    return cases


def summary(totals: Totals) -> list[str]:
    lines = [
        f"{totals.cases} cases, {totals.views} views, {totals.violations} violations, "
        f"{totals.notes} notes (markers that cost more than the lines they stand for)"
    ]
    for level in LEVELS:
        raw, shown = totals.raw[level], totals.shown[level]
        share = f"{100 * shown / raw:.1f}%" if raw else "-"
        lines.append(f"level {level}: {raw} bytes raw, {shown} shown ({share}), without 2>&1")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="a fixtures directory or a manifest.toml")
    parser.add_argument("--lens", type=Path, default=DEFAULT_LENS, help="the lens binary")
    parser.add_argument("--case", action="append", help="replay only this case (repeatable)")
    parser.add_argument("--save", type=Path, help="write every view under SAVE/<case>/")
    args = parser.parse_args(argv)
    if not args.lens.is_file():
        print(f"replay_check: no lens binary at {args.lens} (make build)", file=sys.stderr)
        return 2
    load = manifest_cases if args.source.is_file() else fixture_cases
    cases = [c for c in load(args.source) if not args.case or c.name in args.case]
    if not cases:
        print(f"replay_check: no cases in {args.source}", file=sys.stderr)
        return 2
    totals = Totals()
    for case in cases:
        for problem in check_case(args.lens, case, totals, args.save):
            print(problem, flush=True)
    print("\n".join(summary(totals)))
    return 1 if totals.violations else 0


if __name__ == "__main__":
    sys.exit(main())
