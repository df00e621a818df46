"""Tests for tools/record_fixtures.py: the meta.toml it writes reads back as written."""

import tomllib
import unittest
from pathlib import Path

from tools import record_fixtures

REPO = Path(__file__).resolve().parents[2]


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


class CommittedFixturesTest(unittest.TestCase):
    def test_every_fixture_says_how_it_was_made(self):
        metas = sorted((REPO / "tests" / "fixtures").glob("*/*/meta.toml"))
        self.assertGreaterEqual(len(metas), 30)
        for path in metas:
            meta = tomllib.loads(path.read_text())
            folder = path.parent
            with self.subTest(fixture=str(folder.relative_to(REPO))):
                self.assertTrue(
                    {"command", "exit", "tool_version", "recorded", "setup"} <= set(meta)
                )
                self.assertTrue((REPO / meta["setup"]).exists())
                self.assertTrue((folder / "stdout").exists() and (folder / "stderr").exists())
                size = (folder / "stdout").stat().st_size + (folder / "stderr").stat().st_size
                self.assertLess(size, record_fixtures.MAX_FIXTURE_BYTES)


if __name__ == "__main__":
    unittest.main()
