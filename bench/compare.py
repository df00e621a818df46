#!/usr/bin/env python3
"""Compression benchmark: every bench case raw, under lens at levels 2, 1 and 0, and under
every other installed filter that claims the command, in one invocation on one machine.

    python3 bench/compare.py               # all cases; writes bench/results/compare.{json,md}
    python3 bench/compare.py grep ls       # named cases; prints only
    LENS_BIN=path/to/lens python3 bench/compare.py

Per case and arm it reports the bytes the caller sees, the reduction against raw, whether
the needle and the declared items are still in the view, whether the exit code equals
raw's, and for lens whether `lens show <handle> --level 3` returns the raw bytes. It exits
1 when bench/compare_report.py calls a result a regression, 2 when it cannot run at all.

Every arm gets its own freshly built copy of the case, because a second run of the same
command in the same directory prints something else (cargo does not recompile, pytest and
mypy read their caches). lens runs with LENS_STORE, LENS_LOG_DIR and LENS_CONFIG in a private
temp directory, one log directory per run, so the run's handle is the one log record there.
Other filters get the invocation case.toml gives (taken from their own documentation) and
only on the cases that declare them; tokf is also asked (`tokf which`) whether it has a
filter for the command, rtk's `--help` must list the subcommands of its invocation, and a
declaration either denies is reported instead of run. rtk is the binary RTK_BIN or --rtk
names, by default ../shared/peers/rtk-0.16.0/rtk beside this repository; without it the arm
is reported as skipped.

Every view also gets the fidelity columns of bench/compare_fidelity.py: body lines shown
under another unit's header, ids of the raw output named nowhere in the view, islands of
kept lines, markers, and the bytes saved per marker.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import compare_cases, compare_fidelity, compare_measure, compare_report

REPO = compare_cases.REPO
RESULTS = REPO / "bench" / "results"
TIMEOUT = 600
LEVELS = (2, 1, 0)
# rtk 0.16.0, the last MIT release, built from its public source beside this repository;
# RTK_BIN or --rtk point elsewhere.
DEFAULT_RTK = REPO.parent / "shared" / "peers" / "rtk-0.16.0" / "rtk"


def find_lens() -> Path | None:
    if os.environ.get("LENS_BIN"):
        return Path(os.environ["LENS_BIN"]).resolve()
    built = REPO / "out" / "release" / platform.machine() / "lens"
    return built if built.exists() else None


def find_tokf() -> Path | None:
    local = REPO / "out" / "tools" / "bin" / "tokf"
    if local.exists():
        return local
    found = shutil.which("tokf")
    return Path(found) if found else None


def find_rtk(path: Path) -> Path | None:
    return path if path.is_file() and os.access(path, os.X_OK) else None


def help_commands(text: str) -> set[str] | None:
    """The subcommand names a clap `--help` lists under `Commands:`, or None when it lists
    none (the command takes the rest of the line as its own arguments)."""
    names: set[str] = set()
    inside = False
    for line in text.splitlines():
        if line.strip() == "Commands:":
            inside = True
        elif inside and line.startswith("  ") and line.strip():
            names.add(line.split()[0])
        elif inside:
            break
    return names - {"help"} if inside else None


def rtk_claims(rtk: Path, words: list[str], env: dict[str, str]) -> bool:
    """Whether rtk's own `--help`, walked one subcommand at a time, offers a filter for
    `rtk <words>`: each word must be a listed subcommand until a level lists none."""
    prefix: list[str] = []
    for word in words:
        try:
            done = subprocess.run(
                [str(rtk), *prefix, "--help"], capture_output=True, env=env, timeout=60
            )
        except (OSError, subprocess.TimeoutExpired):
            return False
        listed = help_commands(done.stdout.decode(errors="replace"))
        if listed is None:
            return True
        if word not in listed:
            return False
        prefix.append(word)
    return bool(prefix)


def first_line(argv: list[str], env: dict[str, str]) -> str | None:
    try:
        done = subprocess.run(argv, capture_output=True, env=env, timeout=60)
    except OSError:
        return None
    text = (done.stdout or done.stderr).decode(errors="replace").strip()
    return text.splitlines()[0] if done.returncode == 0 and text else None


class Bench:
    """One invocation: the arms available on this machine and a private scratch directory."""

    def __init__(self, lens: Path, scratch: Path, rtk_path: Path = DEFAULT_RTK):
        self.lens = lens
        self.scratch = scratch
        base = compare_cases.case_env()
        # Every arm, raw included, gets private XDG directories so no tool reads the user's
        # configuration and no filter writes its caches or history into the user's home.
        for var in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
            path = scratch / var.lower()
            path.mkdir()
            base[var] = str(path)
        self.env = base
        self.tools: dict[str, dict] = {
            "lens": {"path": str(lens), "version": first_line([str(lens), "--version"], base)}
        }
        self.filters: dict[str, Path] = {}
        tokf = find_tokf()
        version = first_line([str(tokf), "--version"], base) if tokf else None
        if tokf and version:
            self.filters["tokf"] = tokf
            self.tools["tokf"] = {"path": str(tokf), "version": version}
        else:
            self.tools["tokf"] = {"skipped": "not installed (make tokf builds it into out/tools)"}
        rtk = find_rtk(rtk_path)
        version = first_line([str(rtk), "--version"], base) if rtk else None
        if rtk and version:
            self.filters["rtk"] = rtk
            self.tools["rtk"] = {"path": str(rtk), "version": version}
        else:
            self.tools["rtk"] = {"skipped": f"rtk not found (looked for {rtk_path})"}
        self.runs = 0

    @property
    def arms(self) -> list[str]:
        return ["raw", *(f"lens-{level}" for level in LEVELS), *self.filters]

    def filter_env(self, tool: str) -> dict[str, str]:
        env = dict(self.env)
        env["PATH"] = os.pathsep.join([str(self.filters[tool].parent), env["PATH"]])
        return env

    def run_arm(self, case: compare_cases.Case, argv: list[str], env: dict[str, str]):
        workdir = compare_cases.build(case, env)
        return compare_cases.run(argv, workdir, env, timeout=TIMEOUT), workdir

    def measure_case(self, case: compare_cases.Case) -> dict:
        result: dict = {
            "name": case.name,
            "command": list(case.command),
            "notes": case.notes,
            "items_kind": case.items.kind,
            "arms": {},
        }
        try:
            raw, workdir = self.run_arm(case, list(case.command), self.env)
            result["tool_version"] = compare_cases.tool_version(case, workdir, self.env)
        except (compare_cases.CaseError, OSError, subprocess.TimeoutExpired) as err:
            result["error"] = str(err).splitlines()[0]
            return result
        raw_lines = compare_measure.lines_of(raw.stdout) + compare_measure.lines_of(raw.stderr)
        items = compare_measure.declared_items(raw_lines, case.items.names, case.items.pattern)
        result["items_total"] = len(items)
        if case.items.expect is not None and len(items) != case.items.expect:
            result["case_warning"] = (
                f"raw output names {len(items)} {case.items.kind}, case expects {case.items.expect}"
            )
        raw_needle = self.score(case, raw, raw, items)
        raw_needle["reduction"] = None
        result["arms"]["raw"] = raw_needle
        if not raw_needle["needle_kept"]:
            result["case_warning"] = "the needle is not in the raw output"
        for level in LEVELS:
            result["arms"][f"lens-{level}"] = self.lens_arm(case, level, raw, items)
        for tool in compare_cases.claimed_filters(case, list(self.filters)):
            result["arms"][tool] = self.filter_arm(case, tool, raw, items)
        return result

    def score(self, case, view, raw, items) -> dict:
        view_lines = compare_measure.lines_of(view.stdout) + compare_measure.lines_of(view.stderr)
        view_text = "\n".join(view_lines)
        size = len(view.stdout) + len(view.stderr)
        raw_size = len(raw.stdout) + len(raw.stderr)
        missing = compare_measure.items_missing(view_text, items)
        return {
            "bytes": size,
            "stdout_bytes": len(view.stdout),
            "stderr_bytes": len(view.stderr),
            "raw_bytes": raw_size,
            "reduction": compare_measure.reduction(raw_size, size),
            "exit": view.exit,
            "raw_exit": raw.exit,
            "exit_equal": view.exit == raw.exit,
            "needle_kept": compare_measure.needle_kept(
                view_lines, line=case.needle.line, regex=case.needle.regex
            ),
            "items_kept": len(items) - len(missing),
            "items_total": len(items),
            "items_missing": missing,
            **fidelity_fields(view.stdout, view.stderr, raw.stdout, raw.stderr),
        }

    def filter_arm(self, case, tool: str, raw, items) -> dict:
        argv = list(case.filters[tool])
        argv[0] = str(self.filters[tool])
        env = self.filter_env(tool)
        if tool == "tokf":
            claimed = first_line([argv[0], "which", shlex.join(argv[2:])], env)
            if claimed is None:
                return {"command": list(case.filters[tool]), "error": "tokf which: no filter"}
        if tool == "rtk" and not rtk_claims(self.filters[tool], argv[1:], env):
            return {"command": list(case.filters[tool]), "error": "rtk --help: no filter"}
        try:
            view, _ = self.run_arm(case, argv, env)
        except (compare_cases.CaseError, OSError, subprocess.TimeoutExpired) as err:
            return {"command": list(case.filters[tool]), "error": str(err).splitlines()[0]}
        scored = self.score(case, view, raw, items)
        scored["command"] = list(case.filters[tool])
        return scored

    def lens_arm(self, case, level: int, raw, items) -> dict:
        self.runs += 1
        private = self.scratch / f"lens-{self.runs:03}"
        env = dict(self.env)
        env["LENS_STORE"] = str(private / "store")
        env["LENS_LOG_DIR"] = str(private / "log")
        env["LENS_CONFIG"] = str(private / "config.toml")
        argv = [str(self.lens), "--level", str(level), *case.command]
        try:
            view, workdir = self.run_arm(case, argv, env)
        except (compare_cases.CaseError, OSError, subprocess.TimeoutExpired) as err:
            return {"command": argv[1:], "error": str(err).splitlines()[0]}
        scored = self.score(case, view, raw, items)
        scored["command"] = ["lens", *argv[1:]]
        handle, note = read_handle(private / "log" / "lens.log")
        scored["handle"] = handle
        if handle is None:
            scored["handle_note"] = note
            stored_out, stored_err = raw.stdout, raw.stderr
            masked = True
        else:
            stored_out = self.show(handle, env, workdir, [])
            stored_err = self.show(handle, env, workdir, ["--stderr"])
            masked = False
            if stored_out is None or stored_err is None:
                scored["round_trip"] = "differs"
                scored["handle_note"] = f"`lens show {handle} --level 3` failed"
                stored_out, stored_err, masked = raw.stdout, raw.stderr, True
            else:
                trips = {
                    compare_measure.round_trip(stored_out, raw.stdout),
                    compare_measure.round_trip(stored_err, raw.stderr),
                }
                # The weakest of the two streams' verdicts, in the order round_trip
                # returns them from strongest to weakest.
                order = ["exact", "exact up to digits", "same lines, other order", "differs"]
                scored["round_trip"] = max(trips, key=order.index)
                scored["stored_bytes"] = len(stored_out) + len(stored_err)
                # Judge the view against the run it was made from, not the raw arm's.
                scored.update(fidelity_fields(view.stdout, view.stderr, stored_out, stored_err))
        checks = [
            self.check_stream(view.stdout, stored_out, handle, masked),
            self.check_stream(view.stderr, stored_err, handle, masked),
        ]
        for field in ("markers", "elided", "bad_markers", "invented", "foreign_handles"):
            scored[field] = sum(getattr(c, field) for c in checks)
        return scored

    @staticmethod
    def check_stream(view: bytes, stored: bytes, handle, masked: bool):
        if masked:
            # Without lens's own copy of the output, compare against the raw arm's run of
            # the same command with digits masked, since timings differ between the runs.
            view = compare_measure.DIGITS.sub(b"0", view)
            stored = compare_measure.DIGITS.sub(b"0", stored)
        return compare_measure.check_view(
            compare_measure.lines_of(view), compare_measure.lines_of(stored), handle
        )

    def show(self, handle: str, env, workdir: Path, extra: list[str]) -> bytes | None:
        argv = [str(self.lens), "show", handle, "--level", "3", *extra]
        try:
            done = subprocess.run(argv, capture_output=True, env=env, cwd=workdir, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout if done.returncode == 0 else None


def fidelity_fields(out: bytes, err: bytes, raw_out: bytes, raw_err: bytes) -> dict:
    """compare_fidelity's columns for one view, stream by stream."""
    lines = compare_measure.lines_of
    found = compare_fidelity.fidelity([(lines(out), lines(raw_out)), (lines(err), lines(raw_err))])
    raw_bytes, view_bytes = len(raw_out) + len(raw_err), len(out) + len(err)
    return {
        "broken_units": found.broken_units,
        "folded_ids": len(found.folded_ids),
        "folded_examples": list(found.folded_ids[:5]),
        "ids_total": found.ids_total,
        "islands": found.islands,
        "marker_lines": found.markers,
        "inline_elisions": found.inline_elisions,
        "saved_per_elision": found.saved_per_elision(raw_bytes, view_bytes),
    }


def read_handle(log: Path) -> tuple[str | None, str]:
    """The handle of the one capture record in a private log, or why there is none."""
    try:
        text = log.read_text()
    except OSError:
        return None, "lens wrote no log record"
    handles = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and record.get("mode") == "capture" and record.get("handle"):
            handles.append(record["handle"])
    if not handles:
        return None, "the log has no capture record with a handle"
    return handles[-1], ""


def machine() -> dict:
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = line.split(":", 1)[1].strip()
    except OSError:
        pass
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "system": f"{platform.system()} {platform.release()} {platform.machine()}",
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory": mem,
        "python": platform.python_version(),
    }


def git_head() -> str | None:
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def render_markdown(report: dict) -> str:
    tools = report["tools"]
    lines = [
        "# Compression benchmark",
        "",
        f"Reproduce with `{report['command']}` after `make build case-tools tokf`.",
        f"Recorded {report['date']} on {report['machine']['system']}, "
        f"{report['machine']['cores']} cores ({report['machine']['cpu']}), "
        f"at commit {report['commit']}.",
        "",
        "Cells are the bytes the caller sees, then the reduction against raw and anything the "
        "view lost. A dash means the filter does not claim that command.",
        "",
    ]
    for name, info in tools.items():
        if "skipped" in info:
            lines.append(f"- {name}: skipped, {info['skipped']}")
        else:
            lines.append(f"- {name}: {info.get('version') or 'version unknown'}")
    lens_runs = [
        arm
        for case in report["cases"]
        for name, arm in case.get("arms", {}).items()
        if name.startswith("lens-")
    ]
    if lens_runs and not any(arm.get("handle") for arm in lens_runs):
        lines.append(
            "- No lens run left a capture record in its log, so nothing below could be "
            "checked against the store: the lens measured does not keep the store and log "
            "contract yet."
        )
    lines += ["", compare_report.markdown_table(report), "## lens at level 2", ""]
    lines.append(compare_report.lens_table(report))
    lines += ["## Fidelity", "", FIDELITY_NOTE, ""]
    lines.append(compare_report.fidelity_table(report))
    smaller = compare_report.smaller_elsewhere(report)
    lines += ["## Where another filter is smaller and keeps the needle and items", ""]
    lines += [f"- {s}" for s in smaller] if smaller else ["none"]
    lines.append("")
    warnings = [c for c in report["cases"] if c.get("case_warning")]
    if warnings:
        lines += ["## Case warnings", ""]
        lines += [f"- {c['name']}: {c['case_warning']}" for c in warnings]
        lines.append("")
    found = report.get("regressions", [])
    lines += ["## Regressions", ""]
    lines += [f"- {r}" for r in found] if found else ["none"]
    return "\n".join(lines).rstrip() + "\n"


FIDELITY_NOTE = (
    "Computed from each view and the output it was made from (lens: its own stored run; "
    "other filters: the raw arm's run), as bench/compare_fidelity.py documents: broken units "
    "are kept body lines (assertion left/right, Author/Date, diff +/- lines) under another "
    "unit's header than in raw; folded ids are the raw output's shas, failing test names "
    "and paths that the view names nowhere, markers included; islands are runs of kept "
    "lines between markers."
)

README_BEGIN = "<!-- compare table: written by bench/compare.py -->"
README_END = "<!-- end of compare table -->"


def quote_in_readme(readme: str, report: dict) -> str:
    """The README with the text between the two markers replaced by the latest table; a
    README without both markers is returned unchanged."""
    start, end = readme.find(README_BEGIN), readme.find(README_END)
    if start < 0 or end < start:
        return readme
    block = (
        f"{README_BEGIN}\n"
        f"Measured {report['date']} on {report['machine']['system']} with "
        f"`{report['command']}` (details: bench/results/compare.md).\n\n"
        + compare_report.markdown_table(report)
    )
    return readme[:start] + block + readme[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", help="case names under bench/cases (default: all)")
    parser.add_argument("--no-write", action="store_true", help="print only, write no results")
    parser.add_argument(
        "--baseline",
        type=Path,
        default=RESULTS / "compare.json",
        help="results to compare level-2 bytes against (default: the committed ones)",
    )
    parser.add_argument(
        "--rtk",
        type=Path,
        default=Path(os.environ.get("RTK_BIN", DEFAULT_RTK)),
        help="the rtk binary to run as an arm (default: $RTK_BIN, else ../shared/peers)",
    )
    args = parser.parse_args(argv)
    lens = find_lens()
    if lens is None or not lens.exists():
        print("compare: no lens binary; run `make build` or set LENS_BIN", file=sys.stderr)
        return 2
    try:
        cases = [c for c in compare_cases.all_cases(args.cases) if c.compare or args.cases]
    except compare_cases.CaseError as err:
        print(f"compare: {err}", file=sys.stderr)
        return 2
    baseline = None
    if args.baseline.exists():
        baseline = json.loads(args.baseline.read_text())
    with tempfile.TemporaryDirectory(prefix="lens-compare-") as scratch:
        bench = Bench(lens, Path(scratch), args.rtk)
        report = {
            "version": 1,
            "command": "python3 bench/compare.py" + "".join(f" {c}" for c in args.cases),
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "commit": git_head(),
            "machine": machine(),
            "tools": bench.tools,
            "arms": bench.arms,
            "cases": [],
        }
        for case in cases:
            print(f"compare: {case.name}", file=sys.stderr, flush=True)
            report["cases"].append(bench.measure_case(case))
    report["regressions"] = compare_report.regressions(report, baseline)
    print(compare_report.markdown_table(report))
    if not args.no_write and not args.cases:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "compare.json").write_text(json.dumps(report, indent=1) + "\n")
        (RESULTS / "compare.md").write_text(render_markdown(report))
        readme = REPO / "README.md"
        if readme.exists():
            readme.write_text(quote_in_readme(readme.read_text(), report))
    for problem in report["regressions"]:
        print(f"regression: {problem}", file=sys.stderr)
    return 1 if report["regressions"] else 0


if __name__ == "__main__":
    sys.exit(main())
