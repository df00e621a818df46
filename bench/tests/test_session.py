"""bench/session.py: completeness, dropping, the paired comparison, and a whole run of
paired sessions through the scripted stand-in agent with the fake lens in front."""

import json
import math
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from bench import session
from bench.agent import stats, tasks, variants

REPO = Path(__file__).resolve().parents[2]
FAKE_LENS = REPO / "bench" / "agent" / "fake_lens.py"


class Sequence(unittest.TestCase):
    def test_in_order_with_prefixes(self):
        ran = ["ls", "cd . && lens rustc x.rs", "lens python3 t", "lens show 1 --level 3"]
        self.assertTrue(session.ran_in_order(ran, ["lens rustc x.rs", "lens python3 t"]))

    def test_missing_or_out_of_order(self):
        ran = ["lens python3 t", "lens rustc x.rs"]
        self.assertFalse(session.ran_in_order(ran, ["lens rustc x.rs", "lens python3 t"]))
        self.assertFalse(session.ran_in_order(ran, ["a", "a"]))

    def test_incomplete_session_is_dropped(self):
        task = tasks.load_tasks("session", ["session-sequence"])[0]
        raw = variants.lens_variants(None)[0]
        record = {"status": "complete", "success": True, "reason": "", "verifier": ""}
        record["tool_results"] = [{"command": "rustc --edition 2021 --crate-type lib ledger.rs"}]
        out = session.session_record(record, task, raw)
        self.assertFalse(out["usable"])
        self.assertIn("whole command sequence", out["drop_reason"])


class Compare(unittest.TestCase):
    def test_fixed_pairs(self):
        control = [100, 200, 300]
        filtered = [90, 150, 310]
        pairs = [({"t": f}, {"t": c}) for f, c in zip(filtered, control, strict=True)]
        r = session.compare(pairs, "t", seed=1)
        self.assertEqual(r["diffs"], [-10, -50, 10])
        self.assertAlmostEqual(r["mean_diff"], -50 / 3)
        self.assertAlmostEqual(r["ratio_of_means"], 550 / 600)
        # The signed sums of 10, 50, 10 are +-70, +-50, +-50 and +-30: six of the eight
        # reach the observed |-50|.
        self.assertAlmostEqual(r["p"], 6 / 8)
        self.assertEqual(r["smallest_possible_p"], 0.25)
        lo, hi = r["bootstrap_ci95_mean_diff"]
        self.assertTrue(-50 <= lo <= r["mean_diff"] <= hi <= 10)

    def test_no_pairs(self):
        self.assertEqual(session.compare([], "t", 1)["n"], 0)


class ScriptedSessions(unittest.TestCase):
    """python3 bench/session.py --driver scripted --pairs 2, with the fake lens."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        out = Path(cls.tmp.name) / "session.json"
        cls.done = subprocess.run(
            [
                sys.executable,
                str(REPO / "bench" / "session.py"),
                "--driver",
                "scripted",
                "--pairs",
                "2",
                "--out",
                str(out),
            ],
            capture_output=True,
            text=True,
            env=dict(os.environ, LENS_BIN=str(FAKE_LENS)),
            timeout=300,
        )
        cls.result = json.loads(out.read_text()) if out.exists() else None

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_completes_and_labels_itself(self):
        self.assertEqual(self.done.returncode, 0, self.done.stderr)
        self.assertIn("test instrument", self.result["instrument"])
        self.assertEqual(self.result["pairs_kept"], 2)
        self.assertEqual(self.result["dropped"], [])
        self.assertIn("smallest p this test can produce is 0.5", self.done.stdout)

    def test_arms_alternate(self):
        order = [(s["pair"], s["variant"]) for s in self.result["sessions"]]
        self.assertEqual(order, [(1, "lens-2"), (1, "raw"), (2, "raw"), (2, "lens-2")])

    def test_bytes_are_per_tool_result(self):
        for s in self.result["sessions"]:
            self.assertEqual(s["bytes_read"], sum(r["bytes"] for r in s["tool_results"]))
        raw = next(s for s in self.result["sessions"] if s["variant"] == "raw")
        migrate = next(r for r in raw["tool_results"] if r["command"] == "sh ./migrate.sh")
        self.assertEqual(migrate["bytes"], 158_497)

    def test_bytes_per_command(self):
        # The fake lens's level 2 keeps 20 lines and a marker of each long stream.
        b = self.result["bytes_per_command"]
        self.assertEqual(b["migrate"]["control"], 158_497)
        self.assertLess(b["migrate"]["filtered"], 1_000)
        self.assertEqual(b["check"]["control"], 20_284)

    def test_numbers_follow_from_the_policy(self):
        task = tasks.load_tasks("session", ["session-sequence"])[0]
        for s in self.result["sessions"]:
            prompt = task.prompt(s["commands"])
            want = math.ceil(len(prompt.encode()) / 4)
            want += sum(math.ceil(r["bytes"] / 4) for r in s["tool_results"])
            want += 100 * (s["tool_calls"] + 1)
            self.assertEqual(s["tokens"], want)
        # Under the fake lens: check (3 steps' run + edit), with the mid-stream token
        # elided: one `lens show`; then two confirms. Raw: 3 x (run + edit) + 2.
        calls = {s["variant"]: s["tool_calls"] for s in self.result["sessions"]}
        self.assertEqual(calls, {"raw": 8, "lens-2": 9})
        t = self.result["tokens"]
        self.assertEqual(t["diffs"], [f - c for f, c in self.pairs("tokens")])
        self.assertEqual(t["p"], stats.permutation_test(t["diffs"])[0])

    def pairs(self, metric):
        by = {(s["pair"], s["variant"]): s[metric] for s in self.result["sessions"]}
        return [(by[(i, "lens-2")], by[(i, "raw")]) for i in (1, 2)]


class PaidDriverPlansOnly(unittest.TestCase):
    def test_without_run_nothing_is_spent(self):
        done = subprocess.run(
            [sys.executable, str(REPO / "bench" / "session.py"), "--driver", "cursor"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("smallest p  0.007812 (2/2^8)", done.stdout)
        self.assertIn("add --run", done.stdout)


if __name__ == "__main__":
    unittest.main()
