#!/usr/bin/env python3
"""Paired sessions: what does a whole session cost with the filter and without it?

N pairs (default 8) of one filtered and one unfiltered session with identical prompt,
model and flags, on a task whose prompt fixes the command sequence, so both arms do the
same work. Within a pair the order alternates, so drift over the run (a warming cache, a
busier API) does not land on one arm.

Bytes are counted per tool result from the transcript, which is what the agent was
actually handed, not from the command. Sessions are verified: the task's verify.sh must
pass and every command of the task's [session] sequence must appear, in order, among the
session's tool calls; a pair with an arm that fails either is dropped, because a session
that ran nine of twelve commands is cheaper for the wrong reason.

The test is a paired permutation test on the per-pair differences (exact enumeration of
all 2^n sign assignments up to 20 pairs, seeded Monte Carlo beyond) with a seeded
percentile bootstrap interval for the mean difference. With n pairs the smallest p it can
produce is 2/2^n, stated with every result.

A paid driver spends nothing without --run (it prints the plan); the scripted driver costs
nothing and runs either way.

    python3 bench/session.py --driver scripted          # the test instrument, no network
    python3 bench/session.py --run --driver claude      # 8 pairs through Claude Code
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


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="session.py", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    p.add_argument("--run", action="store_true", help="run a paid driver (spends money)")
    sweep.add_agent_args(p)
    p.add_argument("--task", default="session-sequence", help="the session task")
    p.add_argument("--pairs", type=int, default=8, help="number of pairs (default 8)")
    p.add_argument("--filtered", default="lens-2", help="the filtered arm's variant")
    p.add_argument("--control", default="raw", help="the unfiltered arm's variant")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per session")
    p.add_argument("--seed", type=int, default=1, help="seed of the bootstrap and Monte Carlo")
    p.add_argument(
        "--out", type=Path, help="results file (default bench/results/session-<driver>.json)"
    )
    return p.parse_args(argv)


def ran_in_order(commands: list[str], wanted: list[str]) -> bool:
    """Whether every wanted command line appears, in order, within the commands the
    session ran (an agent may prefix `cd dir &&` or append a pipe)."""
    i = 0
    for ran in commands:
        if i < len(wanted) and wanted[i] in ran:
            i += 1
    return i == len(wanted)


def session_record(record: dict, task: tasks.Task, variant: variants.Variant) -> dict:
    wanted = [variant.render(task.commands[k]) for k in task.session.get("sequence", [])]
    ran = [r["command"] for r in record["tool_results"] if r["command"]]
    record["sequence_complete"] = ran_in_order(ran, wanted)
    reasons = []
    if record["status"] != cells.COMPLETE:
        reasons.append(f"{record['status']}: {record['reason']}")
    elif not record["success"]:
        reasons.append(f"not verified: {record['verifier']}")
    if not record["sequence_complete"]:
        reasons.append("did not run the whole command sequence")
    record["usable"] = not reasons
    record["drop_reason"] = "; ".join(reasons)
    return record


def first_result_bytes(record: dict, command: str) -> int | None:
    """Bytes of the first tool result of a command: what the agent was handed for it."""
    for r in record["tool_results"]:
        if command in r["command"]:
            return r["bytes"]
    return None


def bytes_per_command(
    pairs: list[tuple[dict, dict]],
    task: tasks.Task,
    filtered: variants.Variant,
    control: variants.Variant,
) -> dict:
    """Per command of the task, the median bytes each arm was handed the first time it
    ran it, over the kept pairs."""
    out = {}
    for key, argv in task.commands.items():
        f = [first_result_bytes(p[0], filtered.render(argv)) for p in pairs]
        c = [first_result_bytes(p[1], control.render(argv)) for p in pairs]
        out[key] = {
            "filtered": stats.median([b for b in f if b is not None]),
            "control": stats.median([b for b in c if b is not None]),
        }
    return out


def compare(pairs: list[tuple[dict, dict]], metric: str, seed: int) -> dict:
    """Paired comparison of one metric: filtered minus control, per kept pair."""
    diffs = [f[metric] - c[metric] for f, c in pairs]
    out = {
        "n": len(diffs),
        "diffs": diffs,
        "smallest_possible_p": stats.smallest_p(len(diffs)),
    }
    if not diffs:
        return out
    control = [c[metric] for _, c in pairs]
    filtered = [f[metric] for f, _ in pairs]
    p, method = stats.permutation_test(diffs, seed=seed)
    lo, hi = stats.bootstrap_mean_ci(diffs, seed=seed)
    mean_control = sum(control) / len(control)
    out.update(
        {
            "mean_control": mean_control,
            "mean_filtered": sum(filtered) / len(filtered),
            "mean_diff": sum(diffs) / len(diffs),
            "ratio_of_means": (sum(filtered) / sum(control)) if sum(control) else None,
            "bootstrap_ci95_mean_diff": [lo, hi],
            "bootstrap": f"percentile, 10000 resamples of the pairs, seed {seed}",
            "p": p,
            "test": f"paired permutation (sign flip), two-sided, {method}",
        }
    )
    return out


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    driver = drivers.make(args.driver, args.agent_bin)
    (task,) = tasks.load_tasks("session", [args.task])
    runs = args.run or not driver.est_tokens_per_cell
    if runs:
        try:
            sweep.early_checks(driver, args.isolation)
        except PreflightError as err:
            print(err, file=sys.stderr)
            return 2
    lens = variants.lens_binary(build=runs and variants.needs_lens([args.filtered, args.control]))
    filtered, control = variants.select([args.filtered, args.control], lens), None
    by_name = {v.name: v for v in filtered}
    filtered, control = by_name[args.filtered], by_name[args.control]
    out = args.out or sweep.RESULTS / f"session-{driver.name}.json"
    per = args.est_tokens if args.est_tokens is not None else driver.est_tokens_per_cell
    sessions = 2 * args.pairs
    print(f"paired sessions: {args.pairs} pairs of {filtered.name} against {control.name}")
    print(f"task        {task.name}")
    print(f"driver      {driver.name}: {driver.status()}")
    if driver.instrument:
        print(f"            {driver.instrument}")
    print(f"model       {args.model or '(agent default)'}")
    print(
        f"smallest p  {stats.smallest_p(args.pairs):.4g} (2/2^{args.pairs}) if no pair is dropped"
    )
    print(
        f"estimate    about {per * sessions:,} tokens, about "
        f"${per * sessions / 1e6 * args.usd_per_mtok:,.2f} at ${args.usd_per_mtok:.2f}/Mtok"
    )
    print(f"results     {out}")
    if driver.est_tokens_per_cell and not args.run:
        print("run         add --run to preflight the agent and spend it")
        return 0
    try:
        sweep.preflight(
            driver, [task], [filtered, control], model=args.model, isolation=args.isolation
        )
    except PreflightError as err:
        print(err, file=sys.stderr)
        return 2
    print("preflight   ok", flush=True)

    records, kept, dropped = [], [], []
    for i in range(1, args.pairs + 1):
        arms = (filtered, control) if i % 2 else (control, filtered)
        pair = {}
        for variant in arms:
            record = cells.run_cell(
                task,
                variant,
                driver,
                repeat=i,
                model=args.model,
                timeout=args.timeout,
                keep=args.keep_transcripts,
            )
            record = session_record(record, task, variant)
            record["pair"] = i
            records.append(record)
            pair[variant.name] = record
            print(
                f"pair {i} {variant.name}: "
                f"{'usable' if record['usable'] else 'DROPPED: ' + record['drop_reason']}; "
                f"{record['tokens'] or 0:,} tokens, {record['tool_calls']} tool calls, "
                f"{record['bytes_read']:,} bytes handed",
                flush=True,
            )
        f, c = pair[filtered.name], pair[control.name]
        if f["usable"] and c["usable"]:
            kept.append((f, c))
        else:
            dropped.append({"pair": i, "reason": f["drop_reason"] or c["drop_reason"]})

    result = sweep.header("session", driver, args.model, args.isolation)
    result.update(
        {
            "task": task.name,
            "filtered": filtered.name,
            "control": control.name,
            "pairs_requested": args.pairs,
            "pairs_kept": len(kept),
            "dropped": dropped,
            "sessions": records,
            "tokens": compare(kept, "tokens", args.seed),
            "bytes_handed": compare(kept, "bytes_read", args.seed),
            "tool_calls": compare(kept, "tool_calls", args.seed),
            "bytes_per_command": bytes_per_command(kept, task, filtered, control),
        }
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print()
    print(
        f"pairs kept {len(kept)} of {args.pairs}"
        + (f" ({len(dropped)} dropped)" if dropped else "")
    )
    for metric in ("tokens", "bytes_handed", "tool_calls"):
        r = result[metric]
        if not r["n"]:
            print(f"{metric}: no usable pairs")
            continue
        lo, hi = r["bootstrap_ci95_mean_diff"]
        print(
            f"{metric}: control mean {r['mean_control']:,.1f}, filtered mean "
            f"{r['mean_filtered']:,.1f}, difference {r['mean_diff']:+,.1f} "
            f"(95% CI {lo:+,.1f} to {hi:+,.1f}), p = {r['p']:.4g}"
        )
    for key, b in result["bytes_per_command"].items():
        if b["control"] is not None:
            print(
                f"  {key}: handed {b['filtered']:,.0f} bytes filtered, "
                f"{b['control']:,.0f} unfiltered (median, first run)"
            )
    print(
        f"with {len(kept)} pairs the smallest p this test can produce is "
        f"{stats.smallest_p(len(kept)):.4g}"
    )
    if driver.instrument:
        print(driver.instrument)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
