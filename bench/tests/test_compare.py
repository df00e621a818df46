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


if __name__ == "__main__":
    unittest.main()
