"""Tests for tools/replay_check.py: views are accounted line by line against the raw stream."""

import tempfile
import unittest
from pathlib import Path

from tools import replay_check

RAW = [b"one\n", b"two\n", b"three\n", b"four\n", b"five\n"]
H = "1a2b3c4d"


def view(*lines: bytes) -> bytes:
    return b"".join(lines)


def marker(first: int, last: int, detail: bytes = b"") -> bytes:
    count = last - first + 1
    noun = b"line" if count == 1 else b"lines"
    return b"[lens: %d %s elided, %d-%d, %s%s]\n" % (
        count,
        noun,
        first,
        last,
        H.encode(),
        b": " + detail if detail else b"",
    )


class MatchViewTest(unittest.TestCase):
    def test_accepts_shown_lines_and_markers_that_cover_the_rest(self):
        found = replay_check.match_view(view(b"one\n", marker(2, 4), b"five\n"), [RAW])
        self.assertEqual(found.problems, [])
        self.assertEqual([(m.first, m.last, m.handle) for m in found.markers], [(2, 4, H)])

    def test_reports_an_invented_line(self):
        found = replay_check.match_view(view(b"one\n", b"zwei\n", marker(3, 5)), [RAW])
        self.assertEqual(
            found.problems,
            ["view line 2: line 'zwei' is not raw line 2 nor any later raw line (invented)"],
        )

    def test_reports_lines_removed_without_a_marker(self):
        found = replay_check.match_view(view(b"one\n", b"four\n", b"five\n"), [RAW])
        self.assertEqual(
            found.problems, ["view line 2: lines 2-3 removed with no marker before 'four'"]
        )

    def test_reports_a_view_that_ends_before_the_raw_stream(self):
        found = replay_check.match_view(view(b"one\n", marker(2, 3)), [RAW])
        self.assertEqual(found.problems, ["view ends early: raw lines 4-5 removed with no marker"])

    def test_reports_a_marker_whose_range_is_not_the_gap(self):
        found = replay_check.match_view(view(b"one\n", marker(3, 5)), [RAW])
        self.assertEqual(len(found.problems), 1)
        self.assertIn("does not start at line 2", found.problems[0])

    def test_reports_a_marker_whose_count_disagrees_with_its_range(self):
        bad = b"[lens: 2 lines elided, 2-5, " + H.encode() + b"]\n"
        found = replay_check.match_view(view(b"one\n", bad), [RAW])
        self.assertEqual(len(found.problems), 1)

    def test_accepts_an_in_line_cut_that_rebuilds_the_raw_line(self):
        raw = [b"a" * 10 + b"b" * 20 + b"c" * 5 + b"\n"]
        cut = b"a" * 10 + b"[lens: 20 bytes elided, line 1, " + H.encode() + b"]" + b"c" * 5 + b"\n"
        self.assertEqual(replay_check.match_view(cut, [raw]).problems, [])
        wrong = cut.replace(b"20 bytes", b"19 bytes")
        self.assertEqual(len(replay_check.match_view(wrong, [raw]).problems), 1)

    def test_accepts_any_interleaving_of_two_merged_streams(self):
        err = [b"warning: x\n", b"one\n"]
        merged = view(b"one\n", b"warning: x\n", b"one\n", marker(2, 5))
        self.assertEqual(replay_check.match_view(merged, [RAW, err]).problems, [])

    def test_reports_a_merged_view_that_drops_a_stderr_line(self):
        err = [b"warning: x\n", b"error: y\n"]
        merged = view(*RAW, b"error: y\n")
        found = replay_check.match_view(merged, [RAW, err])
        self.assertEqual(len(found.problems), 1)
        self.assertIn("removed with no marker", found.problems[0])

    def test_counts_a_final_line_without_newline(self):
        self.assertEqual(replay_check.split_lines(b"a\nb"), [b"a\n", b"b"])
        self.assertEqual(replay_check.match_view(b"a\nb", [[b"a\n", b"b"]]).problems, [])


class CostlyTest(unittest.TestCase):
    def test_notes_a_marker_longer_than_the_line_it_replaces(self):
        found = replay_check.match_view(view(marker(1, 1), *RAW[1:]), [RAW])
        (note,) = replay_check.costly(found.markers, [RAW])
        self.assertTrue(note.startswith("note: marker of 37 bytes stands for 4 "), note)

    def test_keeps_quiet_about_a_marker_that_saves(self):
        raw = [b"x" * 50 + b"\n"] * 3
        found = replay_check.match_view(marker(1, 3), [raw])
        self.assertEqual(replay_check.costly(found.markers, [raw]), [])


class ManifestTest(unittest.TestCase):
    def test_reads_one_output_file_onto_its_stream(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "out.txt").write_bytes(b"error: x\n")
            (root / "manifest.toml").write_text(
                '[[case]]\nname = "c"\nfile = "out.txt"\ncommand = ["cargo", "build"]\n'
                'stream = "stderr"\nexit = 101\n'
            )
            (case,) = replay_check.manifest_cases(root / "manifest.toml")
        self.assertEqual(
            (case.name, case.command, case.exit, case.raw),
            ("c", ["cargo", "build"], 101, {"stdout": b"", "stderr": b"error: x\n"}),
        )


@unittest.skipUnless(replay_check.DEFAULT_LENS.is_file(), "no built lens (make build)")
class BuiltLensTest(unittest.TestCase):
    def test_a_long_failing_run_replays_without_violations(self):
        lines = b"".join(b"   Compiling crate%d v0.1.0\n" % i for i in range(300))
        err = lines + b"error[E0425]: cannot find value `x`\nerror: could not compile\n"
        case = replay_check.Case("long", ["cargo", "build"], 101, {"stdout": b"", "stderr": err})
        totals = replay_check.Totals()
        self.assertEqual(replay_check.check_case(replay_check.DEFAULT_LENS, case, totals), [])
        self.assertEqual((totals.cases, totals.views), (1, 6))
        self.assertLess(totals.shown[2], totals.raw[2])


if __name__ == "__main__":
    unittest.main()
