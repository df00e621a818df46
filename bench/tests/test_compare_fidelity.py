"""Tests for bench/compare_fidelity.py on small literal views."""

import unittest

from bench import compare_fidelity as fid

MARK = "[lens: 3 lines elided, 4-6, 1a2b3c4d]"

CARGO_RAW = [
    "failures:",
    "",
    "---- tests::a stdout ----",
    "thread 'tests::a' panicked at src/lib.rs:5:9:",
    "assertion `left == right` failed",
    "  left: 1",
    " right: 2",
    "",
    "---- tests::b stdout ----",
    "thread 'tests::b' panicked at src/lib.rs:9:9:",
    "assertion `left == right` failed",
    "  left: 3",
    " right: 4",
]

GIT_LOG_RAW = [
    "commit 1111111111111111111111111111111111111111",
    "Author: Ada <ada@example.com>",
    "Date:   Mon Nov 30 10:00:00 2026 +0000",
    "",
    "    first",
    "",
    "commit 2222222222222222222222222222222222222222",
    "Author: Bob <bob@example.com>",
    "Date:   Mon Nov 30 11:00:00 2026 +0000",
    "",
    "    second",
]

DIFF_RAW = [
    "diff --git a/x.rs b/x.rs",
    "--- a/x.rs",
    "+++ b/x.rs",
    "@@ -1,2 +1,2 @@",
    "-old x",
    "+new x",
    "@@ -10,2 +10,2 @@",
    "-old x2",
    "+new x2",
    "diff --git a/y.rs b/y.rs",
    "--- a/y.rs",
    "+++ b/y.rs",
    "@@ -1,2 +1,2 @@",
    "-old y",
    "+new y",
]


class BrokenUnitsTest(unittest.TestCase):
    def test_the_raw_output_itself_has_none(self):
        for raw in (CARGO_RAW, GIT_LOG_RAW, DIFF_RAW):
            self.assertEqual(fid.broken_units(raw, raw), 0)

    def test_an_assertion_body_under_another_tests_header(self):
        # b's header is elided, so its left/right lines read as a's; its `assertion` line
        # is word for word a's own and cannot be told apart.
        view = [*CARGO_RAW[:8], MARK, *CARGO_RAW[10:]]
        self.assertEqual(fid.broken_units(view, CARGO_RAW), 2)

    def test_either_cargo_header_keeps_the_unit(self):
        # Dropping the `----` line but keeping `thread 'tests::b'` leaves b's body under b.
        view = [*CARGO_RAW[:8], MARK, *CARGO_RAW[9:]]
        self.assertEqual(fid.broken_units(view, CARGO_RAW), 0)

    def test_a_whole_unit_removed_breaks_nothing(self):
        view = [*CARGO_RAW[:8], MARK]
        self.assertEqual(fid.broken_units(view, CARGO_RAW), 0)

    def test_author_under_the_wrong_commit(self):
        view = [GIT_LOG_RAW[0], MARK, *GIT_LOG_RAW[7:]]
        self.assertEqual(fid.broken_units(view, GIT_LOG_RAW), 2)

    def test_a_body_line_with_no_header_of_its_family_above_is_not_counted(self):
        view = [MARK, *GIT_LOG_RAW[7:]]
        self.assertEqual(fid.broken_units(view, GIT_LOG_RAW), 0)

    def test_a_change_under_another_hunk(self):
        view = [*DIFF_RAW[:6], MARK, *DIFF_RAW[7:9]]
        self.assertEqual(fid.broken_units(view, DIFF_RAW), 2)

    def test_a_change_under_another_file(self):
        view = [*DIFF_RAW[:6], MARK, *DIFF_RAW[13:]]
        self.assertEqual(fid.broken_units(view, DIFF_RAW), 2)

    def test_a_change_whose_hunk_header_went_under_its_own_file(self):
        # The file header is right but the hunk's line numbers are gone: the reader takes
        # the change for the file's first lines.
        view = [DIFF_RAW[0], MARK, "-old x2", "+new x2"]
        self.assertEqual(fid.broken_units(view, DIFF_RAW), 2)

    def test_a_commit_header_closes_the_previous_commits_files(self):
        raw = [GIT_LOG_RAW[0], *GIT_LOG_RAW[1:6], *DIFF_RAW[:6], *GIT_LOG_RAW[6:]]
        view = [raw[0], MARK, *GIT_LOG_RAW[6:]]
        self.assertEqual(fid.broken_units(view, raw), 0)

    def test_a_level_the_view_rewrote_is_not_judged(self):
        raw = [GIT_LOG_RAW[0], *GIT_LOG_RAW[1:6], *DIFF_RAW[:6]]
        view = ["1111111 first", *DIFF_RAW[:6]]
        self.assertEqual(fid.broken_units(view, raw), 0)

    def test_units_printed_in_another_order_are_not_broken(self):
        third = ["", "---- tests::c stdout ----", "assertion `left == right` failed", "  left: 5"]
        raw = [*CARGO_RAW, *third]
        view = [*CARGO_RAW[8:], "", *CARGO_RAW[2:7]]
        self.assertEqual(fid.broken_units(view, raw), 0)

    def test_digits_that_differ_between_runs_still_match(self):
        raw = ["---- t stdout ----", "thread 't' panicked at a.rs:1:1:", "  left: 10"]
        view = ["---- t stdout ----", "  left: 12"]
        self.assertEqual(fid.broken_units(view, raw), 0)


class FoldedIdsTest(unittest.TestCase):
    def test_ids_of_each_kind_are_found(self):
        raw = [
            "commit 1111111111111111111111111111111111111111 abc1234",
            "test tests::slow ... FAILED",
            "FAILED tests/test_x.py::test_y - assert 1",
            "--- FAIL: TestZ (0.00s)",
            "error: src/main.rs:3:1 and 1234567 and added",
            "diff --git a/src/main.rs b/src/main.rs",
        ]
        self.assertEqual(
            fid.raw_ids(raw),
            [
                "1111111111111111111111111111111111111111",
                "abc1234",
                "tests::slow",
                "tests/test_x.py::test_y",
                "tests/test_x.py",
                "TestZ",
                "src/main.rs",
            ],
        )

    def test_an_id_named_in_a_marker_detail_is_not_folded(self):
        raw = ["src/a.rs:1: warning", "src/b.rs:2: warning", "src/c.rs:3: warning"]
        view = ["src/a.rs:1: warning", "[lens: 2 lines elided, 2-3, 1a2b3c4d: src/b.rs]"]
        self.assertEqual(fid.folded_ids(view, raw), ["src/c.rs"])

    def test_a_full_sha_is_named_by_its_abbreviation(self):
        raw = ["commit 0123456789abcdef0123456789abcdef01234567", "commit " + "ab" * 20]
        view = ["0123456 Fix the parser", "abab999 Other"]
        self.assertEqual(fid.folded_ids(view, raw), ["ab" * 20])


class CountsTest(unittest.TestCase):
    def test_islands_markers_and_inline_elisions(self):
        view = [
            "a",
            "b",
            MARK,
            "c [lens: 900 bytes elided, line 5, 1a2b3c4d]",
            MARK,
            MARK,
            "d",
        ]
        result = fid.fidelity([(view, [])])
        self.assertEqual((result.islands, result.markers, result.inline_elisions), (3, 3, 1))
        self.assertEqual(result.saved_per_elision(raw_bytes=1000, view_bytes=200), 200)

    def test_no_elision_has_no_saving_per_elision(self):
        result = fid.fidelity([(["a"], ["a"])])
        self.assertIsNone(result.saved_per_elision(raw_bytes=2, view_bytes=2))
        self.assertEqual(result.islands, 1)


if __name__ == "__main__":
    unittest.main()
