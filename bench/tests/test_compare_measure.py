"""Tests for bench/compare_measure.py on literal output."""

import unittest

from bench import compare_measure as m

RUFF_RAW = b"""F401 [*] `os` imported but unused
 --> service/api/part_00.py:3:8
E711 Comparison to `None` should be `cond is None`
 --> service/api/part_01.py:4:17
F841 Local variable `scratch` is assigned to but never used
 --> service/api/part_02.py:4:5
E711 Comparison to `None` should be `cond is None`
 --> service/api/part_01.py:9:17
Found 4 errors.
"""


class LinesTest(unittest.TestCase):
    def test_trailing_newline_adds_no_empty_line(self):
        self.assertEqual(m.lines_of(b"a\nb\n"), ["a", "b"])

    def test_last_line_without_newline_is_kept(self):
        self.assertEqual(m.lines_of(b"a\r\nb"), ["a", "b"])

    def test_empty_stream_has_no_lines(self):
        self.assertEqual(m.lines_of(b""), [])

    def test_invalid_utf8_is_searchable_not_fatal(self):
        self.assertEqual(m.lines_of(b"ok \xff\n"), ["ok \ufffd"])


class NeedleTest(unittest.TestCase):
    def test_literal_needle_must_be_a_whole_line(self):
        lines = m.lines_of(RUFF_RAW)
        self.assertTrue(m.needle_kept(lines, line="Found 4 errors."))
        self.assertFalse(m.needle_kept(lines, line="Found 4 errors"))
        self.assertFalse(m.needle_kept(lines, line="4 errors."))

    def test_regex_needle_is_searched_in_each_line(self):
        lines = ["   Compiling shop v0.1.0", "error: could not compile `shop` (bin)"]
        self.assertTrue(m.needle_kept(lines, regex=r"^error: could not compile `shop`"))
        self.assertFalse(m.needle_kept(lines, regex=r"^Compiling"))

    def test_regex_anchors_apply_per_line_not_per_stream(self):
        lines = ["first", "Found 4 errors.", "last"]
        self.assertTrue(m.needle_kept(lines, regex=r"^Found \d+ errors\.$"))

    def test_a_needle_needs_a_line_or_a_regex(self):
        with self.assertRaises(ValueError):
            m.needle_kept(["x"])


class ItemsTest(unittest.TestCase):
    def test_pattern_items_are_distinct_in_first_appearance_order(self):
        items = m.declared_items(m.lines_of(RUFF_RAW), (), r"(service/\w+/part_\d+\.py):\d+")
        self.assertEqual(
            items,
            ["service/api/part_00.py", "service/api/part_01.py", "service/api/part_02.py"],
        )

    def test_literal_names_come_first_and_are_not_repeated(self):
        items = m.declared_items(["x.py:1: bad"], ("x.py", "y.py", "x.py"), r"(\w+\.py):")
        self.assertEqual(items, ["x.py", "y.py"])

    def test_an_item_is_kept_when_its_text_appears_anywhere(self):
        view = "service/api/part_01.py:4:17: E711\n[lens: 3 lines elided, 2-4, 0a1b2c3d]"
        missing = m.items_missing(view, ["service/api/part_00.py", "service/api/part_01.py"])
        self.assertEqual(missing, ["service/api/part_00.py"])


class MarkerTest(unittest.TestCase):
    def test_parses_the_contract_shape(self):
        marker = m.parse_marker("[lens: 42 lines elided, 10-51, 1a2b3c4d]")
        self.assertEqual(marker, m.Marker(42, 10, 51, "1a2b3c4d", None))
        self.assertTrue(marker.consistent)

    def test_parses_a_detail_and_the_singular(self):
        marker = m.parse_marker("[lens: 1 line elided, 7-7, 00ff00ff: progress]")
        self.assertEqual(marker, m.Marker(1, 7, 7, "00ff00ff", "progress"))

    def test_rejects_what_is_not_a_marker(self):
        for line in [
            "[lens: 42 lines elided, 10-51, 1A2B3C4D]",
            "[lens: 42 lines elided, 10-51]",
            " [lens: 1 line elided, 7-7, 00ff00ff]",
            "lens: 1 line elided, 7-7, 00ff00ff",
        ]:
            self.assertIsNone(m.parse_marker(line), line)

    def test_a_count_that_disagrees_with_its_range_is_inconsistent(self):
        self.assertFalse(m.parse_marker("[lens: 5 lines elided, 10-51, 1a2b3c4d]").consistent)


class CheckViewTest(unittest.TestCase):
    RAW = ("one", "two", "three", "four", "five")

    def test_a_view_that_drops_lines_behind_a_marker_is_clean(self):
        view = ["one", "[lens: 3 lines elided, 2-4, 1a2b3c4d]", "five"]
        self.assertEqual(m.check_view(view, list(self.RAW), "1a2b3c4d"), m.ViewCheck(1, 3, 0, 0, 0))

    def test_a_line_not_in_the_raw_output_is_invented(self):
        view = ["one", "2 lines hidden", "five"]
        self.assertEqual(m.check_view(view, list(self.RAW), None).invented, 1)

    def test_a_reordered_line_counts_as_invented(self):
        view = ["four", "two"]
        self.assertEqual(m.check_view(view, list(self.RAW), None).invented, 1)

    def test_a_repeated_raw_line_may_appear_as_often_as_it_occurs(self):
        self.assertEqual(m.check_view(["a", "a"], ["a", "b", "a"], None).invented, 0)
        self.assertEqual(m.check_view(["a", "a"], ["a", "b"], None).invented, 1)

    def test_markers_past_the_end_or_naming_another_run_are_counted(self):
        view = ["[lens: 3 lines elided, 4-6, 1a2b3c4d]", "[lens: 1 line elided, 1-1, ffffffff]"]
        check = m.check_view(view, list(self.RAW), "1a2b3c4d")
        self.assertEqual((check.bad_markers, check.foreign_handles), (1, 1))


class RoundTripTest(unittest.TestCase):
    def test_identical_bytes_are_exact(self):
        self.assertEqual(m.round_trip(b"a\xff\n", b"a\xff\n"), "exact")

    def test_timings_alone_differ_up_to_digits(self):
        shown = b"test result: ok. finished in 0.07s\n"
        raw = b"test result: ok. finished in 0.12s\n"
        self.assertEqual(m.round_trip(shown, raw), "exact up to digits")

    def test_a_whole_and_a_fractional_timing_differ_up_to_digits(self):
        shown = b'{"Action":"pass","Test":"TestA","Elapsed":0}\n'
        raw = b'{"Action":"pass","Test":"TestA","Elapsed":0.01}\n'
        self.assertEqual(m.round_trip(shown, raw), "exact up to digits")

    def test_minted_ids_alone_differ_up_to_digits(self):
        shown = b"x: Refreshing state... [id=2865fe22-0773-9069-4c38-3bfae4e1655b]\n"
        raw = b"x: Refreshing state... [id=fd63bb39-63a4-4d17-ab42-f22e9ea4ea06]\n"
        self.assertEqual(m.round_trip(shown, raw), "exact up to digits")

    def test_a_number_padded_to_its_width_differs_up_to_digits(self):
        shown = b"        FAIL [   0.005s] ( 1/11) itoa::test test_i128_min\n"
        raw = b"        FAIL [   0.014s] (10/11) itoa::test test_i128_min\n"
        self.assertEqual(m.round_trip(shown, raw), "exact up to digits")

    def test_parallel_test_output_in_another_order_is_not_a_loss(self):
        shown = b"test b ... ok\ntest a ... ok\n"
        raw = b"test a ... ok\ntest b ... ok\n"
        self.assertEqual(m.round_trip(shown, raw), "same lines, other order")

    def test_a_lost_line_differs(self):
        self.assertEqual(m.round_trip(b"a\n", b"a\nb\n"), "differs")


class ReductionTest(unittest.TestCase):
    def test_reduction_is_the_fraction_saved(self):
        self.assertAlmostEqual(m.reduction(1000, 250), 0.75)

    def test_a_larger_view_is_a_negative_reduction(self):
        self.assertAlmostEqual(m.reduction(100, 102), -0.02)

    def test_empty_raw_output_has_no_reduction(self):
        self.assertIsNone(m.reduction(0, 0))


if __name__ == "__main__":
    unittest.main()
