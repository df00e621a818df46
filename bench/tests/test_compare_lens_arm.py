"""The lens arm of bench/compare.py, end to end against a stand-in that keeps the contract.

The stand-in is a short Python script written by the test: it runs the command, stores
both streams under a handle in LENS_STORE, appends a capture record to LENS_LOG_DIR/lens.log,
prints the first and last line of stdout with a marker for the rest, and answers
`show <handle> --level 3 [--stderr]`. With a flag file present it misbehaves in one chosen
way, so the test can see compare.py notice it.
"""

import os
import shutil
import stat
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from bench import compare, compare_cases, compare_report

STAND_IN = textwrap.dedent(
    """\
    #!{python}
    import json, os, subprocess, sys
    from pathlib import Path
    args = sys.argv[1:]
    store = Path(os.environ["LENS_STORE"])
    broken = os.environ.get("STAND_IN_BREAK", "")
    if args[0] == "show":
        handle, stream = args[1], "stderr" if "--stderr" in args else "stdout"
        data = (store / handle / stream).read_bytes()
        sys.stdout.buffer.write(data[:-2] if broken == "store" else data)
        sys.exit(0)
    level = int(args[1])
    done = subprocess.run(args[2:], capture_output=True)
    handle = "0a1b2c3d"
    (store / handle).mkdir(parents=True)
    (store / handle / "stdout").write_bytes(done.stdout)
    (store / handle / "stderr").write_bytes(done.stderr)
    lines = done.stdout.decode().splitlines()
    if level == 2 and len(lines) > 2:
        marker = f"[lens: {{len(lines) - 2}} lines elided, 2-{{len(lines) - 1}}, {{handle}}]"
        if broken == "invent":
            marker = "and some more lines"
        view = [lines[0], marker, lines[-1]]
    else:
        view = lines
    sys.stdout.write("".join(line + "\\n" for line in view))
    sys.stderr.buffer.write(done.stderr)
    log = Path(os.environ["LENS_LOG_DIR"])
    log.mkdir(parents=True, exist_ok=True)
    record = {{"v": 1, "mode": "capture", "handle": handle, "exit": done.returncode}}
    with open(log / "lens.log", "a") as f:
        f.write(json.dumps(record) + "\\n")
    sys.exit(done.returncode)
    """
)


class LensArmTest(unittest.TestCase):
    def setUp(self):
        self.scratch = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.scratch)
        lens = self.scratch / "lens"
        lens.write_text(STAND_IN.format(python=sys.executable))
        lens.chmod(lens.stat().st_mode | stat.S_IEXEC)
        case_dir = self.scratch / "case"
        case_dir.mkdir()
        (case_dir / "setup.sh").write_text("true\n")
        script = "import sys; print('\\n'.join(f'line {i}' for i in range(10))); sys.exit(3)"
        self.case = compare_cases.parse_case(
            case_dir,
            {
                "tool": "x",
                "command": [sys.executable, "-c", script],
                "version": [sys.executable, "--version"],
                "setup": "setup.sh",
                "needle": {"line": "line 9"},
                "items": {"names": ["line 0", "line 5"]},
            },
        )
        os.environ["LENS_BENCH_WORK"] = str(self.scratch / "work")
        self.addCleanup(os.environ.pop, "LENS_BENCH_WORK")
        (self.scratch / "bench").mkdir()
        self.bench = compare.Bench(lens, self.scratch / "bench")

    def measure(self):
        return self.bench.measure_case(self.case)

    def test_a_contract_keeping_lens_is_measured_and_passes(self):
        result = self.measure()
        level2 = result["arms"]["lens-2"]
        self.assertEqual(level2["handle"], "0a1b2c3d")
        self.assertEqual(level2["round_trip"], "exact")
        self.assertEqual((level2["markers"], level2["elided"], level2["invented"]), (1, 8, 0))
        self.assertTrue(level2["exit_equal"])
        self.assertTrue(level2["needle_kept"])
        self.assertEqual(level2["items_missing"], ["line 5"])
        self.assertEqual(result["arms"]["lens-1"]["items_kept"], 2)
        self.assertEqual(
            (level2["islands"], level2["marker_lines"], level2["broken_units"]), (2, 1, 0)
        )
        self.assertEqual(level2["saved_per_elision"], level2["stored_bytes"] - level2["bytes"])
        self.assertEqual(
            compare_report.regressions({"cases": [result]}),
            ["case lens-2: 1 of 2 items kept (missing line 5)"],
        )

    def test_a_store_that_loses_bytes_is_caught(self):
        self.bench.env["STAND_IN_BREAK"] = "store"
        result = self.measure()
        self.assertEqual(result["arms"]["lens-0"]["round_trip"], "differs")

    def test_an_invented_line_is_caught(self):
        self.bench.env["STAND_IN_BREAK"] = "invent"
        result = self.measure()
        self.assertEqual(result["arms"]["lens-2"]["invented"], 1)
        self.assertEqual(result["arms"]["lens-2"]["markers"], 0)


if __name__ == "__main__":
    unittest.main()
