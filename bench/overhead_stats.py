"""Medians and ratios for bench/overhead.py, and the table it prints: no I/O.

Medians rather than means because a run that lands on a busy moment of a shared machine is
an outlier of seconds, and one of those would move a mean of seven runs but not a median.
"""

from __future__ import annotations

import statistics


def summarise(samples: dict[str, list[dict]]) -> dict:
    """Medians per arm, lens's ratios to the bare command, and whether any exit differed."""
    medians = {
        arm: {
            "wall_s": statistics.median(s["wall_s"] for s in runs),
            "peak_rss_kib": statistics.median(s["peak_rss_kib"] for s in runs),
        }
        for arm, runs in samples.items()
    }
    bare, lens = medians["bare"], medians["lens"]
    return {
        "median": medians,
        "ratio": {
            "wall": lens["wall_s"] / bare["wall_s"] if bare["wall_s"] else None,
            "peak_rss": lens["peak_rss_kib"] / bare["peak_rss_kib"]
            if bare["peak_rss_kib"]
            else None,
        },
        "exit_mismatch": [s["exit"] for s in samples["bare"]]
        != [s["exit"] for s in samples["lens"]],
        "samples": samples,
    }


def ratio_text(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def table(results: dict) -> str:
    rows = [
        "| workload | runs | bare wall | lens wall | wall ratio | bare peak RSS | lens peak RSS "
        "| RSS ratio |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in results.items():
        bare, lens = r["median"]["bare"], r["median"]["lens"]
        rows.append(
            f"| {name} | {r['runs']} | {bare['wall_s'] * 1000:.1f} ms | "
            f"{lens['wall_s'] * 1000:.1f} ms | {ratio_text(r['ratio']['wall'])} | "
            f"{bare['peak_rss_kib'] / 1024:.1f} MiB | {lens['peak_rss_kib'] / 1024:.1f} MiB | "
            f"{ratio_text(r['ratio']['peak_rss'])} |"
        )
    return "\n".join(rows) + "\n"
