#!/usr/bin/env python3
"""Overhead benchmark: what running a command under lens costs against running it bare.

    python3 bench/overhead.py                 # writes bench/results/overhead.json
    python3 bench/overhead.py --runs 3 --no-write

Two workloads, each run bare and as `lens CMD`, alternating so drift in the machine hits
both arms alike:

- trivial: `true`, which prints nothing, so the figure is lens's own start-up, capture,
  store and log;
- 100 MB: `seq 12345678`, which prints 99,999,999 bytes of text lines, so the figure is
  what capturing, storing and filtering a very large output costs.

For each run it takes the whole-process wall time (fork to reap) and the peak resident set
size of the process tree (GNU time's %M, the largest of lens and its child: lens as soon
as it holds the output). Both workloads write to /dev/null, so neither arm pays
for a terminal. Reported: the median of each over the runs, and lens's median as a ratio of
the bare command's. lens runs with LENS_STORE, LENS_LOG_DIR and LENS_CONFIG in a temp
directory, emptied after every run so a hundred megabytes per run do not pile up.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import compare, overhead_stats

RESULTS = compare.RESULTS
WORKLOADS = {
    "trivial": ["true"],
    "100 MB": ["seq", "12345678"],
}


GNU_TIME = Path("/usr/bin/time")


def measure(argv: list[str], env: dict[str, str], scratch: Path) -> tuple[float, int, int]:
    """Run argv once; return wall seconds, peak RSS in KiB, and the exit status.

    The peak comes from GNU time when it is installed: a child forked from this Python
    process starts with the interpreter's pages resident, so wait4's figure for a command as
    small as `true` would be Python's size. GNU time forks from a process of a few hundred
    KiB. Without it the wait4 figure is reported and says as much in the results.
    """
    report = scratch / "time.out"
    command = [str(GNU_TIME), "-f", "%M", "-o", str(report), *argv] if GNU_TIME.exists() else argv
    start = time.perf_counter()
    child = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    peak = usage.ru_maxrss
    if GNU_TIME.exists():
        # GNU time prints "Command exited with non-zero status N" before the figure.
        peak = int(report.read_text().split()[-1])
    return wall, peak, child.returncode


def run_workload(lens: Path, argv: list[str], runs: int, scratch: Path) -> dict:
    bare_env = dict(os.environ)
    samples: dict[str, list] = {"bare": [], "lens": []}
    for _ in range(runs):
        for arm in ("bare", "lens"):
            env = dict(bare_env)
            command = argv
            if arm == "lens":
                private = scratch / "lens"
                env["LENS_STORE"] = str(private / "store")
                env["LENS_LOG_DIR"] = str(private / "log")
                env["LENS_CONFIG"] = str(private / "config.toml")
                command = [str(lens), *argv]
            wall, rss, code = measure(command, env, scratch)
            samples[arm].append({"wall_s": wall, "peak_rss_kib": rss, "exit": code})
            shutil.rmtree(scratch / "lens", ignore_errors=True)
    return overhead_stats.summarise(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=0, help="runs per arm (default 30 and 7)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    lens = compare.find_lens()
    if lens is None or not lens.exists():
        print("overhead: no lens binary; run `make build` or set LENS_BIN", file=sys.stderr)
        return 2
    default_runs = {"trivial": 30, "100 MB": 7}
    results = {}
    with tempfile.TemporaryDirectory(prefix="lens-overhead-") as scratch:
        for name, command in WORKLOADS.items():
            runs = args.runs or default_runs[name]
            print(f"overhead: {name} ({' '.join(command)}), {runs} runs", file=sys.stderr)
            results[name] = {"command": command, "runs": runs}
            results[name].update(run_workload(lens, command, runs, Path(scratch)))
    report = {
        "version": 1,
        "command": "python3 bench/overhead.py" + (f" --runs {args.runs}" if args.runs else ""),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": compare.git_head(),
        "machine": compare.machine(),
        "lens": {"path": str(lens), "version": compare.first_line([str(lens), "--version"], {})},
        "peak_rss_from": "GNU time %M" if GNU_TIME.exists() else "wait4 (includes Python's pages)",
        "workloads": results,
    }
    print(overhead_stats.table(results))
    if not args.no_write:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "overhead.json").write_text(json.dumps(report, indent=1) + "\n")
    bad = [n for n, r in results.items() if r["exit_mismatch"]]
    for name in bad:
        print(f"overhead: {name}: lens exited differently from the bare command", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
