"""Tests for tools/record_fixtures.py: the meta.toml it writes reads back as written."""

import tomllib
import unittest

from tools import record_fixtures


class MetaTomlTest(unittest.TestCase):
    def test_round_trips_through_a_toml_parser(self):
        text = record_fixtures.meta_toml(
            ("grep", "-rn", 'pub "fn"\\', "src"),
            101,
            "cargo 1.95.0 (f2d3ce0bd 2026-03-21)",
            "2026-11-30",
            "bench/cases/grep/setup.py",
            "a note with\na newline and ✖",
        )
        self.assertEqual(
            tomllib.loads(text),
            {
                "command": ["grep", "-rn", 'pub "fn"\\', "src"],
                "exit": 101,
                "tool_version": "cargo 1.95.0 (f2d3ce0bd 2026-03-21)",
                "recorded": "2026-11-30",
                "setup": "bench/cases/grep/setup.py",
                "notes": "a note with\na newline and ✖",
            },
        )

    def test_omits_notes_when_there_are_none(self):
        text = record_fixtures.meta_toml(("ls",), 0, "ls 9.1", "2026-11-30", "s.sh", "")
        self.assertEqual(
            text,
            'command = ["ls"]\nexit = 0\ntool_version = "ls 9.1"\n'
            'recorded = "2026-11-30"\nsetup = "s.sh"\n',
        )


if __name__ == "__main__":
    unittest.main()
