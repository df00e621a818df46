#!/usr/bin/env python3
"""The retention curve: does an agent handed the view still finish the task, and what
does the session cost?

For every (task, variant, repeat) it starts from a clean directory, runs a real agent
against a real command, and asks the task's verify.sh whether the work was done; no model
judges another model's work. Without --run it prints the plan (cells, driver, what it
would spend) and spends nothing: a benchmark that can charge you by accident is one nobody
runs twice. With --run a preflight checks the agent binary, the credential and one
trivial call before the first paid cell.

The number it exists to produce is the knee: the first step along raw, level 2, level 1,
level 0 where task success falls below the raw control's. A run reporting 90% fewer
tokens and 60% success is a worse tool than one reporting 70% fewer and 100%.

    python3 bench/runner.py                          # the plan, for Claude Code
    python3 bench/runner.py --run --driver cursor    # spend: every cell through cursor-agent
    python3 bench/runner.py --run --driver scripted  # the test instrument, no network
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.agent import cell as cells
from bench.agent import drivers, stats, sweep, tasks, variants
from bench.agent.drivers import PreflightError

ABORT_AFTER_NOT_STARTED = 3


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="runner.py", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    p.add_argument("--run", action="store_true", help="run the cells (spends money)")
    sweep.add_agent_args(p)
    p.add_argument("--tasks", help="comma-separated task names (default: every retention task)")
    p.add_argument("--variants", help="comma-separated variants (default: all available)")
    p.add_argument("--repeats", type=int, default=3, help="runs per (task, variant)")
    p.add_argument("--timeout", type=float, default=900, help="seconds per cell")
    p.add_argument(
        "--out", type=Path, help="results file (default bench/results/retention-<driver>.json)"
    )
    return p.parse_args(argv)


def plan_cells(
    task_list: list[tasks.Task], variant_list: list[variants.Variant], repeats: int
) -> list[tuple[tasks.Task, variants.Variant, int]]:
    """Every (task, variant, repeat), a variant only on tasks whose commands it claims."""
    return [
        (task, variant, r)
        for task in task_list
        for variant in variant_list
        if variant.claims(task.commands)
        for r in range(1, repeats + 1)
    ]


def print_plan(args, driver, task_list, variant_list, plan, lens, out) -> None:
    per_cell = args.est_tokens if args.est_tokens is not None else driver.est_tokens_per_cell
    total = per_cell * len(plan)
    print("retention plan: nothing is run without --run")
    print(f"driver      {driver.name}: {driver.status()}")
    if driver.instrument:
        print(f"            {driver.instrument}")
    others = [drivers.make(n) for n in sorted(drivers.DRIVERS) if n != driver.name]
    print("others      " + "; ".join(f"{d.name}: {d.status()}" for d in others))
    print(f"model       {args.model or '(agent default)'}")
    print(f"lens        {lens or 'NOT FOUND (make build, or set LENS_BIN)'}")
    print(f"isolation   {args.isolation}")
    print(f"repeats     {args.repeats}")
    print("cells")
    for task in task_list:
        names = [v.name for v in variant_list if v.claims(task.commands)]
        missing = task.missing_tools()
        note = f"  (needs {', '.join(missing)}: not on PATH)" if missing else ""
        count = len(names) * args.repeats
        print(f"  {task.name:<18} {', '.join(names)} x {args.repeats} = {count}{note}")
    print(f"total       {len(plan)} cells")
    dollars = total / 1e6 * args.usd_per_mtok
    print(
        f"estimate    about {total:,} tokens ({per_cell:,} per cell), about ${dollars:,.2f} "
        f"at ${args.usd_per_mtok:.2f} per million tokens"
    )
    print(f"results     {out}")
    print("run         add --run to preflight the agent and spend it")


def summarize(records: list[dict], variant_list: list[variants.Variant]) -> dict:
    """Per task and variant: median tokens of complete cells against raw, success rate,
    median tool calls and bytes read; then the knee, pooled and per task."""
    names = [v.name for v in variant_list]
    task_names = list(dict.fromkeys(r["task"] for r in records))
    rows = []
    for task in task_names:
        counted = {
            name: [
                r
                for r in records
                if r["task"] == task and r["variant"] == name and r["status"] == cells.COMPLETE
            ]
            for name in names
        }
        raw = stats.median([r["tokens"] for r in counted.get("raw", [])])
        for name in names:
            if not any(r["task"] == task and r["variant"] == name for r in records):
                continue
            got = counted[name]
            tokens = stats.median([r["tokens"] for r in got])
            wins = sum(1 for r in got if r["success"])
            rows.append(
                {
                    "task": task,
                    "variant": name,
                    "counted": len(got),
                    "excluded": sum(
                        1
                        for r in records
                        if r["task"] == task
                        and r["variant"] == name
                        and r["status"] != cells.COMPLETE
                    ),
                    "median_tokens": tokens,
                    "vs_raw": round(tokens / raw, 3) if tokens is not None and raw else None,
                    "success": round(wins / len(got), 3) if got else None,
                    "median_tool_calls": stats.median([r["tool_calls"] for r in got]),
                    "median_bytes_read": stats.median([r["bytes_read"] for r in got]),
                }
            )
    pooled = {}
    for name in names:
        got = [r for r in records if r["variant"] == name and r["status"] == cells.COMPLETE]
        pooled[name] = round(sum(1 for r in got if r["success"]) / len(got), 3) if got else None
    ladder = [n for n in variants.LADDER if n in names]
    by_task = {}
    for task in task_names:
        rates = {r["variant"]: r["success"] for r in rows if r["task"] == task}
        by_task[task] = stats.knee([(n, rates.get(n)) for n in ladder])
    return {
        "rows": rows,
        "success_by_variant": pooled,
        "knee": stats.knee([(n, pooled[n]) for n in ladder]),
        "knee_by_task": by_task,
        "knee_rule": "first variant along raw, lens-2, lens-1, lens-0 whose success rate "
        "over counted cells is below raw's; variants with no counted cells are skipped",
    }


def format_table(summary: dict, variant_list: list[variants.Variant]) -> str:
    names = [v.name for v in variant_list]
    labels = {v.name: v.label for v in variant_list}
    width = 16
    lines = ["median tokens against raw (success rate, counted cells)"]
    lines.append(f"{'task':<18}" + "".join(f"{labels[n]:>{width}}" for n in names))
    for task in dict.fromkeys(r["task"] for r in summary["rows"]):
        cells_text = []
        for name in names:
            row = next(
                (r for r in summary["rows"] if r["task"] == task and r["variant"] == name), None
            )
            if row is None:
                cells_text.append(f"{'-':>{width}}")
            elif row["vs_raw"] is None:
                cells_text.append(f"{'n/a (' + str(row['counted']) + ')':>{width}}")
            else:
                text = f"{row['vs_raw']:.2f} ({row['success']:.2f}, {row['counted']})"
                cells_text.append(f"{text:>{width}}")
        lines.append(f"{task:<18}" + "".join(cells_text))
    pooled = summary["success_by_variant"]
    lines.append(
        f"{'success, pooled':<18}"
        + "".join(f"{('n/a' if pooled[n] is None else f'{pooled[n]:.2f}'):>{width}}" for n in names)
    )
    lines.append("medians per cell: tokens, tool calls, bytes of tool results read")
    for row in summary["rows"]:
        if row["counted"]:
            lines.append(
                f"  {row['task']:<18}{labels[row['variant']]:<10}{row['median_tokens']:>10,.0f}"
                f"{row['median_tool_calls']:>6.1f}{row['median_bytes_read']:>12,.0f}"
            )
    knee = summary["knee"]
    lines.append(
        f"knee: {variants.LABELS.get(knee, knee)}" if knee else "knee: none (success never falls)"
    )
    for task, k in summary["knee_by_task"].items():
        if k:
            lines.append(f"  {task}: success falls at {variants.LABELS.get(k, k)}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    driver = drivers.make(args.driver, args.agent_bin)
    names = args.tasks.split(",") if args.tasks else None
    task_list = tasks.load_tasks("retention", names)
    wanted = args.variants.split(",") if args.variants else None
    if args.run:
        try:
            sweep.early_checks(driver, args.isolation)
        except PreflightError as err:
            print(err, file=sys.stderr)
            return 2
    lens = variants.lens_binary(build=args.run and variants.needs_lens(wanted))
    variant_list = variants.select(wanted, lens)
    plan = plan_cells(task_list, variant_list, args.repeats)
    out = args.out or sweep.RESULTS / f"retention-{driver.name}.json"
    print_plan(args, driver, task_list, variant_list, plan, lens, out)
    if not args.run:
        return 0
    try:
        sweep.preflight(driver, task_list, variant_list, model=args.model, isolation=args.isolation)
    except PreflightError as err:
        print(err, file=sys.stderr)
        return 2
    print("preflight   ok", flush=True)

    records: list[dict] = []
    streak = 0
    aborted = ""
    for i, (task, variant, repeat) in enumerate(plan, 1):
        record = cells.run_cell(
            task,
            variant,
            driver,
            repeat=repeat,
            model=args.model,
            timeout=args.timeout,
            keep=args.keep_transcripts,
        )
        records.append(record)
        verdict = (
            ("success" if record["success"] else f"FAILED ({record['verifier']})")
            if record["status"] == cells.COMPLETE
            else f"EXCLUDED: {record['reason']}"
        )
        print(
            f"[{i}/{len(plan)}] {task.name} {variant.name} #{repeat}: {verdict}; "
            f"{record['tokens'] or 0:,} tokens, {record['tool_calls']} tool calls, "
            f"{record['bytes_read']:,} bytes read",
            flush=True,
        )
        streak = streak + 1 if record["status"] == cells.NOT_STARTED else 0
        if streak >= ABORT_AFTER_NOT_STARTED:
            aborted = (
                f"stopped after {streak} cells in a row never started: the agent is not "
                "running (check the credential and the preflight), which is not a result"
            )
            print(aborted, file=sys.stderr)
            break

    summary = summarize(records, variant_list)
    result = sweep.header("retention", driver, args.model, args.isolation)
    result.update(
        {
            "repeats": args.repeats,
            "tasks": [t.name for t in task_list],
            "variants": [v.name for v in variant_list],
            "planned_cells": len(plan),
            "aborted": aborted or None,
            "cells": records,
            "excluded": [
                {k: r[k] for k in ("task", "variant", "repeat", "status", "reason")}
                for r in records
                if r["status"] != cells.COMPLETE
            ],
            "summary": summary,
        }
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print()
    print(format_table(summary, variant_list))
    if result["excluded"]:
        print(f"excluded ({len(result['excluded'])}, not counted as failures):")
        for r in result["excluded"]:
            print(f"  {r['task']} {r['variant']} #{r['repeat']}: {r['status']}: {r['reason']}")
    if driver.instrument:
        print(driver.instrument)
    print(f"wrote {out}")
    return 1 if aborted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
