"""Tests for bench/compare_report.py and the arm selection in bench/compare_cases.py."""

import unittest
from pathlib import Path

from bench import compare_cases, compare_report


def arm(**fields):
    base = {
        "bytes": 100,
        "reduction": 0.0,
        "exit": 1,
        "raw_exit": 1,
        "exit_equal": True,
        "needle_kept": True,
        "items_kept": 3,
        "items_total": 3,
        "items_missing": [],
        "raw_bytes": 100,
    }
    base.update(fields)
    return base


def lens(**fields):
    base = {"handle": "1a2b3c4d", "round_trip": "exact", "stored_bytes": 100}
    base.update(fields)
    return arm(**base)


REPORT = {
    "arms": ["raw", "lens-2", "tokf"],
    "cases": [
        {
            "name": "ruff",
            "items_kind": "files",
            "arms": {
                "raw": arm(bytes=53214, reduction=None, items_total=50, items_kept=50),
                "lens-2": lens(
                    bytes=38224, stored_bytes=53214, reduction=0.2817, items_total=50, items_kept=50
                ),
                "tokf": arm(bytes=3686, reduction=0.9307, items_total=50, items_kept=17),
            },
        },
        {
            "name": "cargo-build",
            "items_kind": "files",
            "arms": {
                "raw": arm(bytes=2092, reduction=None),
                "lens-2": lens(bytes=872, stored_bytes=2092, reduction=0.583),
                "tokf": arm(bytes=1438, reduction=0.3126, exit=0, exit_equal=False),
            },
        },
        {"name": "go-vet", "error": "setup of go-vet failed (127):", "arms": {}},
        {
            "name": "find",
            "items_kind": "files",
            "arms": {
                "raw": arm(bytes=291, reduction=None),
                "lens-2": lens(bytes=291, stored_bytes=291, needle_kept=False),
            },
        },
    ],
}


class TableTest(unittest.TestCase):
    def test_renders_the_notes_shape(self):
        self.assertEqual(
            compare_report.markdown_table(REPORT),
            "| case | raw | lens 2 | tokf |\n"
            "|---|---|---|---|\n"
            "| ruff | 53,214 | 38,224 (28%) | 3,686 (93%, 17 of 50 files) |\n"
            "| cargo-build | 2,092 | 872 (58%) | 1,438 (31%, exit 0) |\n"
            "| go-vet | not measured: setup of go-vet failed (127): |  |  |\n"
            "| find | 291 | 291 (0%, needle lost) | — |\n",
        )

    def test_an_arm_error_is_shown_in_its_cell(self):
        self.assertEqual(
            compare_report.cell({"error": "tokf which: no filter"}, "files"),
            "error: tokf which: no filter",
        )

    def test_lens_table_lists_level_two_checks(self):
        table = compare_report.lens_table(REPORT)
        self.assertIn("| ruff | 1a2b3c4d | exact | 0 | 0 | 0 |", table)
        self.assertNotIn("go-vet", table)

    def test_fidelity_table_has_a_row_per_arm_that_ran(self):
        fields = {
            "broken_units": 2,
            "folded_ids": 3,
            "ids_total": 50,
            "islands": 4,
            "marker_lines": 3,
            "inline_elisions": 1,
            "saved_per_elision": 3747,
        }
        report = {"arms": REPORT["arms"], "cases": [dict(REPORT["cases"][0])]}
        report["cases"][0]["arms"] = {
            "raw": arm(reduction=None),
            "lens-2": lens(bytes=38224, items_total=50, items_kept=50, **fields),
            "tokf": {"error": "tokf which: no filter"},
        }
        self.assertEqual(
            compare_report.fidelity_table(report),
            "| case | arm | bytes | needle | items | broken units | folded ids | islands "
            "| markers | saved per marker |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n"
            "| ruff | lens 2 | 38,224 | kept | 50/50 | 2 | 3/50 | 4 | 3 + 1 in-line | 3,747 |\n",
        )


MINIMAL = {"tool": "x", "command": ["x"], "version": ["x"], "setup": "s"}


class SmallerElsewhereTest(unittest.TestCase):
    def test_only_a_smaller_view_that_keeps_needle_and_items_counts(self):
        report = {
            "cases": [
                {
                    "name": "git-log",
                    "items_kind": "commits",
                    "arms": {
                        "raw": arm(bytes=900, reduction=None),
                        "lens-2": lens(bytes=500),
                        "tokf": arm(bytes=400),
                        "rtk": arm(bytes=300, items_kept=2),
                    },
                },
                {
                    "name": "ls",
                    "arms": {"lens-2": lens(bytes=50), "rtk": arm(bytes=40, needle_kept=False)},
                },
                {"name": "go", "arms": {"lens-2": lens(bytes=50), "rtk": {"error": "x"}}},
            ]
        }
        self.assertEqual(
            compare_report.smaller_elsewhere(report),
            ["git-log: tokf 400 bytes against lens 2's 500, needle and all 3 commits kept"],
        )


class RegressionTest(unittest.TestCase):
    def test_other_filters_are_never_judged(self):
        found = compare_report.regressions(REPORT)
        self.assertEqual(found, ["find lens-2: needle lost"])

    def test_lens_invariants_are_judged_at_every_level(self):
        report = {
            "cases": [
                {
                    "name": "c",
                    "arms": {
                        "lens-0": lens(exit=0, exit_equal=False),
                        "lens-1": lens(bytes=0, handle=None, handle_note="lens wrote no log"),
                        "lens-2": lens(invented=2, bad_markers=1, round_trip="differs"),
                    },
                }
            ]
        }
        self.assertEqual(
            compare_report.regressions(report),
            [
                "c lens-2: `lens show --level 3` does not return the raw output",
                "c lens-2: 2 view lines are not in the raw output",
                "c lens-2: 1 markers do not add up",
                "c lens-1: no handle: lens wrote no log",
                "c lens-1: level 1 is empty",
                "c lens-0: exit 0 where raw exited 1",
            ],
        )

    def test_losing_needle_or_items_only_fails_level_two(self):
        lost = {"needle_kept": False, "items_kept": 1, "items_missing": ["a.py", "b.py"]}
        report = {
            "cases": [{"name": "c", "arms": {"lens-1": lens(**lost), "lens-2": lens(**lost)}}]
        }
        self.assertEqual(
            compare_report.regressions(report),
            ["c lens-2: needle lost", "c lens-2: 1 of 3 items kept (missing a.py, b.py)"],
        )

    def test_a_view_larger_than_its_output_fails(self):
        report = {"cases": [{"name": "c", "arms": {"lens-0": lens(bytes=140)}}]}
        self.assertEqual(
            compare_report.regressions(report),
            ["c lens-0: view is 140 bytes, larger than the 100 it was made from"],
        )

    def test_growth_past_the_baseline_needs_both_ratio_and_bytes(self):
        def report(size):
            return {
                "cases": [{"name": "c", "arms": {"lens-2": lens(bytes=size, stored_bytes=9999)}}]
            }

        baseline = report(1000)
        self.assertEqual(compare_report.regressions(report(1250), baseline), [])
        self.assertEqual(
            compare_report.regressions(report(1300), baseline),
            ["c lens-2: 1,300 bytes against 1,000 in the baseline"],
        )
        small = report(100)
        self.assertEqual(compare_report.regressions(report(300), small), [])

    def test_a_baseline_run_without_a_handle_is_not_a_baseline(self):
        broken = {"cases": [{"name": "c", "arms": {"lens-2": lens(bytes=54, handle=None)}}]}
        now = {"cases": [{"name": "c", "arms": {"lens-2": lens(bytes=900, stored_bytes=2000)}}]}
        self.assertEqual(compare_report.regressions(now, broken), [])


class ArmSelectionTest(unittest.TestCase):
    def case(self, filters):
        return compare_cases.parse_case(
            Path("bench/cases/x"),
            {
                "tool": "x",
                "command": ["x"],
                "version": ["x", "--version"],
                "setup": "setup.sh",
                "needle": {"line": "done"},
                "filters": {tool: {"command": [tool, "x"]} for tool in filters},
            },
        )

    def test_a_filter_runs_only_where_declared_and_installed(self):
        case = self.case(["tokf", "rtk"])
        self.assertEqual(compare_cases.claimed_filters(case, ["tokf"]), ["tokf"])
        self.assertEqual(compare_cases.claimed_filters(self.case([]), ["tokf", "rtk"]), [])
        self.assertEqual(compare_cases.claimed_filters(case, ["rtk", "tokf"]), ["rtk", "tokf"])

    def test_a_case_needs_exactly_one_kind_of_needle(self):
        for needle in ({"line": "a", "regex": "b"}, {}):
            with self.assertRaises(compare_cases.CaseError):
                compare_cases.parse_case(Path("x"), {**MINIMAL, "needle": needle})

    def test_unknown_keys_are_rejected(self):
        data = {**MINIMAL, "needle": {"line": "a"}, "neddle": {}}
        with self.assertRaises(compare_cases.CaseError):
            compare_cases.parse_case(Path("x"), data)

    def test_every_committed_case_parses_and_declares_a_needle(self):
        cases = compare_cases.all_cases()
        self.assertGreaterEqual(len(cases), 16)
        for case in cases:
            self.assertTrue(case.setup.exists(), case.name)
            self.assertTrue(case.needle.line or case.needle.regex, case.name)


if __name__ == "__main__":
    unittest.main()
