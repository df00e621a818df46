"""bench/runner.py: the plan, the exclusion rules, the summary and the knee, and a whole
sweep through the scripted stand-in agent (no network, no credentials).

The end-to-end sweeps put bench/agent/fake_lens.py in front of the commands, a test double
whose views are fixed by its docstring, so the number of tool calls in each cell follows
from the scripted policy alone, whatever state the real pipeline is in."""

import json
import math
import os
import shlex
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from pathlib import Path

from bench import runner
from bench.agent import cell, drivers, tasks, variants

REPO = Path(__file__).resolve().parents[2]
FAKE_LENS = REPO / "bench" / "agent" / "fake_lens.py"


def run(args, **env):
    full = {k: v for k, v in os.environ.items() if k not in ("ANTHROPIC_API_KEY", "CURSOR_API_KEY")}
    full.update(env)
    return subprocess.run(
        [sys.executable, str(REPO / "bench" / "runner.py"), *args],
        capture_output=True,
        text=True,
        env=full,
        timeout=300,
    )


def record(task, variant, status="complete", success=True, tokens=100, repeat=1):
    return {
        "task": task,
        "variant": variant,
        "repeat": repeat,
        "status": status,
        "reason": "",
        "success": success if status == "complete" else None,
        "tokens": tokens,
        "tool_calls": 3,
        "bytes_read": 10,
    }


class Plan(unittest.TestCase):
    def test_plan_spends_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "r.json"
            done = run(
                [
                    "--variants",
                    "raw,lens-2",
                    "--out",
                    str(out),
                    "--agent-bin",
                    "/nonexistent/claude",
                ],
                LENS_BIN=str(FAKE_LENS),
            )
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("nothing is run without --run", done.stdout)
            self.assertIn("total       30 cells", done.stdout)
            self.assertIn("about 2,400,000 tokens (80,000 per cell), about $7.20", done.stdout)
            self.assertIn("binary `/nonexistent/claude` NOT FOUND", done.stdout)
            self.assertIn("ANTHROPIC_API_KEY NOT SET", done.stdout)
            self.assertFalse(out.exists())

    def test_make_retention_is_the_plan_and_passes_args(self):
        env = {k: v for k, v in os.environ.items() if k != "MAKEFLAGS"}
        done = subprocess.run(
            ["make", "-s", "-C", str(REPO), "retention", "ARGS=--driver scripted --repeats 1"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("nothing is run without --run", done.stdout)
        self.assertIn("driver      scripted", done.stdout)
        self.assertIn("repeats     1", done.stdout)

    def test_other_filters_only_on_tasks_they_claim(self):
        rtk = variants.Variant("rtk", ("rtk",), "/bin/true")
        plan = runner.plan_cells(tasks.load_tasks("retention"), [rtk], 2)
        self.assertEqual({t.name for t, _, _ in plan}, {"cargo-cascade"})
        self.assertEqual(len(plan), 2)
        lens = variants.lens_variants(Path("/x/lens"))
        self.assertEqual(len(runner.plan_cells(tasks.load_tasks("retention"), lens, 3)), 60)

    def test_vm_isolation_says_what_is_missing(self):
        args = ["--run", "--driver", "scripted", "--isolation", "vm"]
        done = run(args, LENS_SANDBOX="", LENS_BIN=str(FAKE_LENS))
        self.assertEqual(done.returncode, 2)
        self.assertIn("LENS_SANDBOX (the sandbox CLI) is not set", done.stderr)

    def test_missing_binary_fails_the_preflight_fast(self):
        done = run(["--run", "--variants", "raw", "--agent-bin", "/nonexistent/claude"])
        self.assertEqual(done.returncode, 2)
        self.assertIn("agent binary `/nonexistent/claude` not found", done.stderr)


class Exclusion(unittest.TestCase):
    def test_rules(self):
        c = cell.classify
        self.assertEqual(c(5000, 0, False, True, False)[0], cell.COMPLETE)
        self.assertEqual(c(0, 1, False, False, False)[0], cell.NOT_STARTED)
        self.assertEqual(c(None, 1, False, False, False)[0], cell.NOT_STARTED)
        self.assertEqual(c(0, 0, False, True, False)[0], cell.NOT_STARTED)
        self.assertEqual(c(13493, 1, False, False, False)[0], cell.CUT_OFF)
        self.assertEqual(c(13493, 0, True, True, False)[0], cell.CUT_OFF)
        self.assertEqual(c(13493, None, False, False, True)[0], cell.CUT_OFF)
        self.assertEqual(c(None, None, False, False, True)[0], cell.NOT_STARTED)
        self.assertEqual(c(None, 0, False, True, False)[0], cell.NO_USAGE)

    def test_timeout_ends_the_agent_and_what_it_started(self):
        with tempfile.TemporaryDirectory() as tmp:
            started = time.monotonic()
            out, code, timed_out = cell.run_agent(
                ["sh", "-c", "echo begun; sleep 30 & sleep 30"], Path(tmp), dict(os.environ), 0.5
            )
            self.assertLess(time.monotonic() - started, 10)
        self.assertEqual((out, code, timed_out), ("begun\n", None, True))

    def test_excluded_cells_are_not_failures(self):
        vs = variants.lens_variants(Path("/x/lens"))
        records = [
            record("t", "raw", tokens=100),
            record("t", "raw", tokens=300, repeat=2),
            record("t", "lens-2", tokens=50),
            record("t", "lens-2", status="cut-off", tokens=13493, repeat=2),
            record("t", "lens-1", status="not-started", tokens=0),
        ]
        s = runner.summarize(records, vs)
        rows = {r["variant"]: r for r in s["rows"]}
        self.assertEqual(rows["raw"]["median_tokens"], 200)
        self.assertEqual(rows["lens-2"]["median_tokens"], 50)
        self.assertEqual(rows["lens-2"]["vs_raw"], 0.25)
        self.assertEqual((rows["lens-2"]["counted"], rows["lens-2"]["excluded"]), (1, 1))
        self.assertEqual(rows["lens-2"]["success"], 1.0)
        self.assertIsNone(rows["lens-1"]["success"])
        self.assertNotIn("lens-0", rows)
        self.assertIsNone(s["knee"])

    def test_knee_from_records(self):
        vs = variants.lens_variants(Path("/x/lens"))
        records = [record(t, "raw") for t in ("a", "b")]
        records += [record(t, "lens-2") for t in ("a", "b")]
        records += [record("a", "lens-1"), record("b", "lens-1", success=False)]
        records += [record(t, "lens-0", success=False) for t in ("a", "b")]
        s = runner.summarize(records, vs)
        self.assertEqual(
            s["success_by_variant"], {"raw": 1.0, "lens-2": 1.0, "lens-1": 0.5, "lens-0": 0.0}
        )
        self.assertEqual(s["knee"], "lens-1")
        self.assertEqual(s["knee_by_task"], {"a": "lens-0", "b": "lens-1"})
        table = runner.format_table(s, vs)
        self.assertIn("knee: level 1", table)
        self.assertIn("b: success falls at level 1", table)


def expected_tokens(r):
    """The scripted agent's documented token function, recomputed from a cell record."""
    task = tasks.load_tasks("retention", [r["task"]])[0]
    prompt = task.prompt(r["commands"])
    results = sum(math.ceil(t["bytes"] / 4) for t in r["tool_results"])
    return math.ceil(len(prompt.encode()) / 4) + results + 100 * (r["tool_calls"] + 1)


class ScriptedSweep(unittest.TestCase):
    """python3 bench/runner.py --run --driver scripted, with the fake lens in front."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        out = Path(cls.tmp.name) / "retention.json"
        cls.done = run(
            [
                "--run",
                "--driver",
                "scripted",
                "--tasks",
                "last-line-trap,mid-stream-trap,cascading-errors",
                "--variants",
                "raw,lens-2,lens-1,lens-0",
                "--repeats",
                "1",
                "--out",
                str(out),
            ],
            LENS_BIN=str(FAKE_LENS),
        )
        cls.result = json.loads(out.read_text()) if out.exists() else None

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def cell(self, task, variant):
        return next(
            c for c in self.result["cells"] if c["task"] == task and c["variant"] == variant
        )

    def test_completes_and_labels_itself(self):
        self.assertEqual(self.done.returncode, 0, self.done.stderr)
        self.assertIn("test instrument", self.result["instrument"])
        self.assertIn("test instrument", self.done.stdout)
        for c in self.result["cells"]:
            self.assertIn("test instrument", c["instrument"])
        self.assertEqual(len(self.result["cells"]), 12)
        self.assertEqual(self.result["excluded"], [])

    def test_every_cell_succeeds_because_the_policy_recovers(self):
        for c in self.result["cells"]:
            self.assertEqual((c["status"], c["success"]), ("complete", True), c["task"])
        self.assertIsNone(self.result["summary"]["knee"])

    def test_tool_calls_follow_from_the_policy(self):
        # run, [recover...], edit, confirm-or-read: 3 calls when the view holds the needle.
        want = {
            ("last-line-trap", "raw"): 3,
            ("last-line-trap", "lens-2"): 3,  # the tail is kept
            ("last-line-trap", "lens-1"): 4,  # head only: one `lens show`
            ("last-line-trap", "lens-0"): 3,  # the last line is kept
            ("mid-stream-trap", "raw"): 3,
            ("mid-stream-trap", "lens-2"): 4,  # line 2400 elided: one `lens show`
            ("mid-stream-trap", "lens-1"): 4,
            ("mid-stream-trap", "lens-0"): 4,
            ("cascading-errors", "raw"): 3,
            ("cascading-errors", "lens-2"): 3,  # the first error is in the head
            ("cascading-errors", "lens-1"): 3,
            ("cascading-errors", "lens-0"): 5,  # show stdout (empty), then show --stderr
        }
        got = {(c["task"], c["variant"]): c["tool_calls"] for c in self.result["cells"]}
        self.assertEqual(got, want)

    def test_tokens_are_the_documented_function_of_bytes(self):
        for c in self.result["cells"]:
            self.assertEqual(c["tokens"], expected_tokens(c), (c["task"], c["variant"]))

    def test_raw_view_is_the_whole_output(self):
        # 4,803 lines of fixed width; the token is 16 hex digits whatever the blob.
        self.assertEqual(self.cell("mid-stream-trap", "raw")["tool_results"][0]["bytes"], 158_497)
        self.assertEqual(self.cell("last-line-trap", "raw")["tool_results"][0]["bytes"], 165_056)

    def test_table_is_against_raw(self):
        rows = {(r["task"], r["variant"]): r for r in self.result["summary"]["rows"]}
        self.assertEqual(rows[("mid-stream-trap", "raw")]["vs_raw"], 1.0)
        self.assertLess(rows[("last-line-trap", "lens-2")]["vs_raw"], 0.05)


FAKE_CLAUDE = textwrap.dedent(
    """\
    #!/bin/sh
    # A stand-in `claude` that passes the preflight, then behaves as FAKE_MODE says.
    case "$1" in --version) echo "fake 1.0"; exit 0;; esac
    case "$2" in
      "Reply with the single word: ready")
        echo READY
        exit 0;;
    esac
    if [ "$FAKE_MODE" = cutoff ]; then
      echo PARTIAL
    fi
    exit 1
    """
)
READY = {"type": "result", "subtype": "success", "is_error": False, "num_turns": 1}
READY["usage"] = {"input_tokens": 9, "output_tokens": 1}
PARTIAL = {"type": "assistant", "message": {"id": "m1", "content": []}}
PARTIAL["message"]["usage"] = {"input_tokens": 13000, "output_tokens": 493}
FAKE_CLAUDE = FAKE_CLAUDE.replace("READY", shlex.quote(json.dumps(READY))).replace(
    "PARTIAL", shlex.quote(json.dumps(PARTIAL))
)


class ExcludedSweep(unittest.TestCase):
    def sweep(self, mode):
        with tempfile.TemporaryDirectory() as tmp:
            agent = Path(tmp) / "claude"
            agent.write_text(FAKE_CLAUDE)
            agent.chmod(0o755)
            out = Path(tmp) / "r.json"
            done = run(
                [
                    "--run",
                    "--agent-bin",
                    str(agent),
                    "--tasks",
                    "last-line-trap",
                    "--variants",
                    "raw,lens-2",
                    "--repeats",
                    "2",
                    "--out",
                    str(out),
                ],
                ANTHROPIC_API_KEY="placeholder-for-test",
                FAKE_MODE=mode,
                LENS_BIN=str(FAKE_LENS),
            )
            return done, json.loads(out.read_text())

    def test_cut_off_cells_are_excluded_and_listed(self):
        done, result = self.sweep("cutoff")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(result["excluded"]), 4)
        self.assertEqual({e["status"] for e in result["excluded"]}, {"cut-off"})
        self.assertTrue(all(c["success"] is None for c in result["cells"]))
        self.assertEqual(result["summary"]["success_by_variant"], {"raw": None, "lens-2": None})
        self.assertIn("not counted as failures", done.stdout)

    def test_a_real_agent_never_gets_the_scripted_policy(self):
        with tempfile.TemporaryDirectory() as tmp:
            agent = Path(tmp) / "claude"
            # Reports whether anything beside its working directory names the fix.
            agent.write_text('#!/bin/sh\nls .. > "$OUT"\nexit 1\n')
            agent.chmod(0o755)
            listing = Path(tmp) / "listing"
            task = tasks.load_tasks("retention", ["last-line-trap"])[0]
            driver = drivers.make("claude", str(agent))
            os.environ["OUT"] = str(listing)
            try:
                cell.run_cell(task, variants.lens_variants(None)[0], driver, repeat=1)
            finally:
                del os.environ["OUT"]
            self.assertNotIn("policy.json", listing.read_text().split())
            self.assertIn("work", listing.read_text().split())

    def test_agent_that_never_starts_stops_the_sweep(self):
        done, result = self.sweep("silent")
        self.assertEqual(done.returncode, 1)
        self.assertEqual(len(result["cells"]), runner.ABORT_AFTER_NOT_STARTED)
        self.assertIn("never started", result["aborted"])
        self.assertEqual({e["status"] for e in result["excluded"]}, {"not-started"})


if __name__ == "__main__":
    unittest.main()


BUILT_LENS = variants.lens_binary()


@unittest.skipUnless(BUILT_LENS and "LENS_BIN" not in os.environ, "lens is not built")
class ScriptedSweepThroughTheBuiltLens(unittest.TestCase):
    """Whatever the built lens's views are, the policy ends every cell in success: a view
    that keeps the line is read, one that drops it is recovered from."""

    def test_every_cell_succeeds(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "r.json"
            args = ["--run", "--driver", "scripted", "--tasks", "last-line-trap"]
            done = run([*args, "--repeats", "1", "--out", str(out)])
            self.assertEqual(done.returncode, 0, done.stderr)
            result = json.loads(out.read_text())
        self.assertTrue(set(variants.LADDER) <= {c["variant"] for c in result["cells"]})
        for c in result["cells"]:
            self.assertEqual((c["status"], c["success"]), ("complete", True), c["variant"])
            self.assertEqual(c["tokens"], expected_tokens(c))
