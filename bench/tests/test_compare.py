"""Tests for the parts of bench/compare.py that do no I/O."""

import json
import shutil
import tempfile
import unittest
from pathlib import Path

from bench import compare

REPORT = {
    "date": "2026-11-30 01:00 UTC",
    "command": "python3 bench/compare.py",
    "machine": {"system": "Linux 6.1 x86_64"},
    "arms": ["raw"],
    "cases": [{"name": "ls", "items_kind": "files", "arms": {"raw": {"bytes": 1098}}}],
}


class ReadmeTest(unittest.TestCase):
    def test_replaces_only_the_text_between_the_markers(self):
        readme = f"intro\n{compare.README_BEGIN}\nold table\n{compare.README_END}\nafter\n"
        self.assertEqual(
            compare.quote_in_readme(readme, REPORT),
            f"intro\n{compare.README_BEGIN}\n"
            "Measured 2026-11-30 01:00 UTC on Linux 6.1 x86_64 with `python3 bench/compare.py` "
            "(details: bench/results/compare.md).\n\n"
            "| case | raw |\n|---|---|\n| ls | 1,098 |\n"
            f"{compare.README_END}\nafter\n",
        )

    def test_a_readme_without_markers_is_left_alone(self):
        self.assertEqual(compare.quote_in_readme("no markers\n", REPORT), "no markers\n")


class HandleTest(unittest.TestCase):
    def write_log(self, records):
        folder = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, folder)
        log = folder / "lens.log"
        log.write_text("".join(json.dumps(r) + "\n" for r in records) + "not json\n")
        return log

    def test_takes_the_capture_record_handle(self):
        log = self.write_log(
            [
                {"v": 1, "mode": "exec", "argv": ["vim"]},
                {"v": 1, "mode": "capture", "handle": "1a2b3c4d", "exit": 1},
            ]
        )
        self.assertEqual(compare.read_handle(log), ("1a2b3c4d", ""))

    def test_a_missing_log_is_reported_not_raised(self):
        self.assertEqual(
            compare.read_handle(Path("/nonexistent/lens.log")),
            (None, "lens wrote no log record"),
        )

    def test_a_log_without_capture_records_says_so(self):
        log = self.write_log([{"v": 1, "mode": "exec"}])
        self.assertEqual(
            compare.read_handle(log), (None, "the log has no capture record with a handle")
        )


ROOT_HELP = """Usage: rtk [OPTIONS] <COMMAND>

Commands:
  ls             List directory contents
  git            Git commands with compact output
  help           Print this message

Options:
  -h, --help
"""

GIT_HELP = """Commands:
  diff      Condensed diff output
  log       One-line commit history

Options:
  -h, --help
"""


class RtkTest(unittest.TestCase):
    def fake_rtk(self) -> Path:
        """A stand-in that prints rtk 0.16.0's help shapes: root, `git`, and leaves."""
        folder = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, folder)
        (folder / "root.txt").write_text(ROOT_HELP)
        (folder / "git.txt").write_text(GIT_HELP)
        script = folder / "rtk"
        script.write_text(
            "#!/bin/sh\n"
            f'd="{folder}"\n'
            'case "$*" in\n'
            '  "--help") cat "$d/root.txt" ;;\n'
            '  "git --help") cat "$d/git.txt" ;;\n'
            '  *) echo "Usage: rtk leaf [ARGS]..." ;;\n'
            "esac\n"
        )
        script.chmod(0o755)
        return script

    def test_help_commands_lists_subcommands_without_help(self):
        self.assertEqual(compare.help_commands(ROOT_HELP), {"ls", "git"})
        self.assertIsNone(compare.help_commands("Usage: rtk ls [ARGS]...\n"))

    def test_claims_walk_the_subcommands(self):
        rtk = self.fake_rtk()
        self.assertTrue(compare.rtk_claims(rtk, ["git", "log", "-n", "30"], {}))
        self.assertTrue(compare.rtk_claims(rtk, ["ls", "-la"], {}))
        self.assertFalse(compare.rtk_claims(rtk, ["git", "blame", "x"], {}))
        self.assertFalse(compare.rtk_claims(rtk, ["cat", "x"], {}))

    def test_a_missing_rtk_is_reported_as_skipped(self):
        scratch = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, scratch)
        missing = Path("/nonexistent/rtk")
        bench = compare.Bench(Path("/nonexistent/lens"), scratch, missing)
        self.assertEqual(
            bench.tools["rtk"], {"skipped": "rtk not found (looked for /nonexistent/rtk)"}
        )
        self.assertNotIn("rtk", bench.arms)


class FidelityFieldsTest(unittest.TestCase):
    def test_fields_are_counted_per_stream(self):
        raw_out = b"commit " + b"a" * 40 + b"\nAuthor: A\ncommit " + b"b" * 40 + b"\nAuthor: B\n"
        view = b"commit " + b"a" * 40 + b"\n[lens: 2 lines elided, 2-3, 1a2b3c4d]\nAuthor: B\n"
        fields = compare.fidelity_fields(view, b"", raw_out, b"")
        self.assertEqual(fields["broken_units"], 1)
        self.assertEqual((fields["folded_ids"], fields["ids_total"]), (1, 2))
        self.assertEqual(fields["folded_examples"], ["b" * 40])
        self.assertEqual((fields["islands"], fields["marker_lines"]), (2, 1))
        self.assertEqual(fields["saved_per_elision"], len(raw_out) - len(view))


if __name__ == "__main__":
    unittest.main()
