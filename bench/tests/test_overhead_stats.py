"""Tests for bench/overhead_stats.py on literal samples."""

import unittest

from bench import overhead_stats


def runs(*pairs, exit_code=0):
    return [{"wall_s": w, "peak_rss_kib": r, "exit": exit_code} for w, r in pairs]


class SummariseTest(unittest.TestCase):
    def test_ratios_are_of_medians_so_one_outlier_does_not_move_them(self):
        summary = overhead_stats.summarise(
            {
                "bare": runs((0.010, 1000), (0.011, 1000), (0.950, 1000)),
                "lens": runs((0.012, 3000), (0.013, 3000), (0.012, 3000)),
            }
        )
        self.assertEqual(summary["median"]["bare"], {"wall_s": 0.011, "peak_rss_kib": 1000})
        self.assertAlmostEqual(summary["ratio"]["wall"], 0.012 / 0.011)
        self.assertAlmostEqual(summary["ratio"]["peak_rss"], 3.0)
        self.assertFalse(summary["exit_mismatch"])

    def test_a_different_exit_is_flagged(self):
        summary = overhead_stats.summarise(
            {"bare": runs((1, 1)), "lens": runs((1, 1), exit_code=127)}
        )
        self.assertTrue(summary["exit_mismatch"])

    def test_zero_baseline_gives_no_ratio(self):
        summary = overhead_stats.summarise({"bare": runs((0.0, 0)), "lens": runs((0.1, 5))})
        self.assertEqual(summary["ratio"], {"wall": None, "peak_rss": None})


class TableTest(unittest.TestCase):
    def test_renders_milliseconds_mebibytes_and_ratios(self):
        results = {
            "trivial": {
                "runs": 3,
                "median": {
                    "bare": {"wall_s": 0.001, "peak_rss_kib": 1024},
                    "lens": {"wall_s": 0.0025, "peak_rss_kib": 4096},
                },
                "ratio": {"wall": 2.5, "peak_rss": 4.0},
            }
        }
        self.assertEqual(
            overhead_stats.table(results).splitlines()[2],
            "| trivial | 3 | 1.0 ms | 2.5 ms | 2.50x | 1.0 MiB | 4.0 MiB | 4.00x |",
        )


if __name__ == "__main__":
    unittest.main()
