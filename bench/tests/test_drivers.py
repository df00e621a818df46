"""Transcript parsing and the preflight.

No real agent transcript is recorded here: none was run on this machine (that would spend
money) and none published in full was found. Claude Code's parser is tested on transcripts
the scripted agent writes in the same stream-json schema; Cursor's on events built from
the field names of Cursor's published output-format documentation, and say so.
"""

import json
import math
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from pathlib import Path

from bench.agent import drivers, scripted, tasks, variants
from bench.agent.transcript import parse_claude, parse_cursor

REPO = Path(__file__).resolve().parents[2]


def run_scripted(policy: dict, cwd: Path) -> str:
    path = cwd / "policy.json"
    path.write_text(json.dumps(policy))
    done = subprocess.run(
        [sys.executable, scripted.__file__, str(path)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


class ClaudeTranscript(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_counts_bytes_per_tool_result_and_tokens(self):
        policy = {
            "prompt": "write the word",  # 14 bytes -> 4 tokens
            "commands": {"say": "printf 'noise\\nword: w1\\n'"},
            "plain": {"say": "printf 'noise\\nword: w1\\n'"},
            "steps": [
                {"command": "say", "needle": "^word: (\\w+)$", "write": {"path": "A", "group": 1}}
            ],
            "confirm": [],
        }
        t = parse_claude(run_scripted(policy, self.dir))
        self.assertEqual((self.dir / "A").read_text(), "w1\n")
        # Bash (18 bytes), Write (the tool's acknowledgement), Read (3 bytes: "w1\n").
        self.assertEqual([r.tool for r in t.results], ["Bash", "Write", "Read"])
        self.assertEqual(t.results[0].bytes, len("noise\nword: w1\n"))
        self.assertEqual(t.results[0].command, "printf 'noise\\nword: w1\\n'")
        self.assertEqual(t.results[1].bytes, len("File created successfully at: A"))
        self.assertEqual(t.results[2].bytes, 3)
        self.assertEqual(t.tool_calls, 3)
        self.assertEqual(t.turns, 4)
        want_in = math.ceil(14 / 4) + sum(math.ceil(r.bytes / 4) for r in t.results)
        self.assertEqual(t.token_parts["input"], want_in)
        self.assertEqual(t.token_parts["output"], 100 * 4)
        self.assertEqual(t.tokens, want_in + 400)
        self.assertTrue(t.finished)
        self.assertFalse(t.is_error)

    def test_missing_needle_reruns_without_the_filter(self):
        policy = {
            "prompt": "p",
            "commands": {"say": "echo filtered-away"},
            "plain": {"say": "echo 'word: w2'"},
            "steps": [
                {"command": "say", "needle": "^word: (\\w+)$", "write": {"path": "A", "group": 1}}
            ],
            "confirm": [],
        }
        t = parse_claude(run_scripted(policy, self.dir))
        self.assertEqual(t.commands, ["echo filtered-away", "echo 'word: w2'"])
        self.assertEqual((self.dir / "A").read_text(), "w2\n")

    def test_missing_needle_asks_the_store_when_there_is_a_marker(self):
        store = self.dir / "store" / "0000abcd"
        store.mkdir(parents=True)
        (store / "stdout").write_text("")
        (store / "stderr").write_text("word: w3\n")
        fake = self.dir / "bin"
        fake.mkdir()
        (fake / "lens").symlink_to(REPO / "bench" / "agent" / "fake_lens.py")
        policy = {
            "prompt": "p",
            "commands": {"say": "echo '[lens: 5 lines elided, 1-5, 0000abcd]'"},
            "plain": {"say": "echo never-run"},
            "steps": [
                {"command": "say", "needle": "^word: (\\w+)$", "write": {"path": "A", "group": 1}}
            ],
            "confirm": [],
        }
        path = self.dir / "policy.json"
        path.write_text(json.dumps(policy))
        env = dict(
            os.environ, PATH=f"{fake}:{os.environ['PATH']}", LENS_STORE=str(self.dir / "store")
        )
        out = subprocess.run(
            [sys.executable, scripted.__file__, str(path)],
            cwd=self.dir,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        t = parse_claude(out)
        self.assertEqual(
            t.commands[1:],
            ["lens show 0000abcd --level 3", "lens show 0000abcd --level 3 --stderr"],
        )
        self.assertEqual((self.dir / "A").read_text(), "w3\n")

    def test_json_array_and_result_only_forms(self):
        result = {"type": "result", "subtype": "success", "is_error": False, "num_turns": 1}
        result["usage"] = {"input_tokens": 5, "output_tokens": 2, "cache_read_input_tokens": 10}
        t = parse_claude(json.dumps(result))
        self.assertEqual((t.tokens, t.turns, t.finished), (17, 1, True))
        t = parse_claude(json.dumps([{"type": "system", "subtype": "init"}, result]))
        self.assertEqual((t.tokens, t.events), (17, 2))

    def test_cut_off_session_counts_each_message_once(self):
        # stream-json repeats an assistant message once per content block; with no result
        # event the usage comes from the messages, each id counted once.
        msg = {"id": "m1", "content": [{"type": "text", "text": "x"}]}
        msg["usage"] = {"input_tokens": 30, "output_tokens": 4}
        lines = [json.dumps({"type": "assistant", "message": msg})] * 2
        t = parse_claude("\n".join(lines) + "\nnot json\n")
        self.assertEqual(t.tokens, 34)
        self.assertFalse(t.finished)

    def test_error_result(self):
        t = parse_claude(
            json.dumps({"type": "result", "subtype": "error_max_turns", "is_error": True})
        )
        self.assertTrue(t.is_error)
        self.assertIsNone(t.tokens)


class RecordedTranscript(unittest.TestCase):
    """data/scripted-cascading-errors-fake-level2.jsonl was recorded with
    `runner.py --run --driver scripted --tasks cascading-errors --variants lens-2
    --keep-transcripts DIR` and LENS_BIN=bench/agent/fake_lens.py: the scripted agent's
    output in Claude Code's stream-json schema, not a model's."""

    def test_byte_counting(self):
        path = Path(__file__).parent / "data" / "scripted-cascading-errors-fake-level2.jsonl"
        t = parse_claude(path.read_text())
        # The view: the first 10 lines of rustc's 20,284-byte stderr, a marker, the last 10.
        self.assertEqual([r.bytes for r in t.results], [601, 36, 0])
        self.assertEqual([r.tool for r in t.results], ["Bash", "Edit", "Bash"])
        self.assertEqual(t.bytes_read, 637)
        self.assertEqual((t.tool_calls, t.turns, t.events), (3, 4, 8))
        # 232 input tokens: ceil(288 / 4) for the prompt, ceil(601 / 4) + ceil(36 / 4) + 0.
        task = tasks.load_tasks("retention", ["cascading-errors"])[0]
        lens2 = variants.lens_variants(Path("lens"))[1]
        prompt = task.prompt({"check": lens2.render(task.commands["check"])})
        self.assertEqual(len(prompt.encode()), 288)
        self.assertEqual(t.token_parts["input"], 72 + 151 + 9)
        self.assertEqual(t.tokens, 232 + 400)


class CursorTranscript(unittest.TestCase):
    def test_shell_results_and_usage(self):
        # Built from the field names in Cursor's output-format documentation, not recorded.
        shell = {"args": {"command": "cargo build"}}
        done = dict(shell, result={"success": {"exitCode": 101, "stdout": "abc", "stderr": "de\n"}})
        events = [
            {"type": "system", "subtype": "init", "model": "m"},
            {"type": "assistant", "message": {"role": "assistant", "content": []}},
            {
                "type": "tool_call",
                "subtype": "started",
                "call_id": "c1",
                "tool_call": {"shellToolCall": shell},
            },
            {
                "type": "tool_call",
                "subtype": "completed",
                "call_id": "c1",
                "tool_call": {"shellToolCall": done},
            },
            {
                "type": "result",
                "subtype": "success",
                "is_error": False,
                "usage": {"inputTokens": 7, "outputTokens": 3},
            },
        ]
        t = parse_cursor("\n".join(json.dumps(e) for e in events))
        self.assertEqual(t.tool_calls, 1)
        self.assertEqual(
            [(r.tool, r.command, r.bytes) for r in t.results], [("shell", "cargo build", 6)]
        )
        self.assertEqual((t.tokens, t.turns, t.finished), (10, 1, True))

    def test_result_without_usage_reports_none(self):
        t = parse_cursor(json.dumps({"type": "result", "subtype": "success", "is_error": False}))
        self.assertIsNone(t.tokens)
        self.assertTrue(t.finished)


FAKE_AGENT = textwrap.dedent(
    """\
    #!/bin/sh
    # A stand-in agent binary for the preflight tests: answers --version, and answers a
    # call with whatever FAKE_REPLY holds (nothing by default), exiting FAKE_EXIT.
    case "$1" in --version) echo "fake 1.0"; exit 0;; esac
    [ -n "${FAKE_REPLY:-}" ] && printf '%s\\n' "$FAKE_REPLY"
    exit "${FAKE_EXIT:-0}"
    """
)


class Preflight(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.agent = Path(self.tmp.name) / "agent"
        self.agent.write_text(FAKE_AGENT)
        self.agent.chmod(0o755)
        self.saved = dict(os.environ)
        for key in ("ANTHROPIC_API_KEY", "CURSOR_API_KEY", "FAKE_REPLY", "FAKE_EXIT"):
            os.environ.pop(key, None)

    def tearDown(self):
        os.environ.clear()
        os.environ.update(self.saved)
        self.tmp.cleanup()

    def check(self, driver, fragment):
        started = time.monotonic()
        with self.assertRaises(drivers.PreflightError) as caught:
            driver.preflight(None, timeout=10)
        self.assertLess(time.monotonic() - started, 5)
        self.assertIn(fragment, str(caught.exception))
        return str(caught.exception)

    def test_missing_binary(self):
        for name in ("claude", "cursor"):
            msg = self.check(drivers.make(name, "/nonexistent/agent"), "not found on PATH")
            self.assertIn("Nothing was spent", msg)

    def test_missing_credential(self):
        self.check(drivers.make("claude", str(self.agent)), "ANTHROPIC_API_KEY is not set")
        self.check(drivers.make("cursor", str(self.agent)), "CURSOR_API_KEY is not set")

    def test_trivial_call_that_never_starts(self):
        os.environ["ANTHROPIC_API_KEY"] = "placeholder-for-test"
        os.environ["FAKE_EXIT"] = "1"
        msg = self.check(drivers.make("claude", str(self.agent)), "trivial call did not complete")
        self.assertIn("0 tokens", msg)
        self.assertNotIn("placeholder-for-test", msg)

    def test_trivial_call_that_answers_passes(self):
        os.environ["CURSOR_API_KEY"] = "placeholder-for-test"
        reply = {"type": "result", "subtype": "success", "is_error": False}
        reply["usage"] = {"inputTokens": 9, "outputTokens": 1}
        os.environ["FAKE_REPLY"] = json.dumps(reply)
        drivers.make("cursor", str(self.agent)).preflight(None, timeout=10)

    def test_trivial_call_without_usage_says_so(self):
        os.environ["CURSOR_API_KEY"] = "placeholder-for-test"
        os.environ["FAKE_REPLY"] = json.dumps({"type": "result", "subtype": "success"})
        self.check(drivers.make("cursor", str(self.agent)), "reported no token usage")

    def test_scripted_needs_nothing(self):
        drivers.make("scripted").preflight(None)

    def test_commands_carry_the_machine_readable_format(self):
        claude = drivers.make("claude", str(self.agent)).command("do it", Path("p"), "m")
        self.assertEqual(claude[:3], [str(self.agent), "-p", "do it"])
        self.assertIn("stream-json", claude)
        self.assertEqual(claude[-2:], ["--model", "m"])
        cursor = drivers.make("cursor", str(self.agent)).command("do it", Path("p"), None)
        self.assertEqual(cursor[-1], "do it")
        self.assertIn("stream-json", cursor)


if __name__ == "__main__":
    unittest.main()


class KeptTranscripts(unittest.TestCase):
    def test_identifiers_are_removed(self):
        from bench.agent.cell import sanitized

        line = json.dumps({"type": "result", "session_id": "abc", "uuid": "u", "num_turns": 2})
        kept = sanitized(line + "\nplain text\n")
        self.assertEqual(kept, json.dumps({"type": "result", "num_turns": 2}) + "\nplain text\n")
