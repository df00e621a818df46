"""What bench/compare.py reports: the table, and which results count as regressions.

Results arrive as plain dicts (the shape written to bench/results/compare.json), so the
rendering and the judgement can be tested on literal data without running anything.

A cell reads like the notes' table: bytes the caller sees, then the reduction against raw,
then whatever the view lost (`needle lost`, `17 of 50 files`, `exit differs`). An arm that
does not claim a command shows a dash: reporting 0% for a command a tool never offered to
filter would read as a loss rather than as coverage.

The benchmark fails only on what is a defect of lens whatever the machine: a changed exit
code, a stored output that does not round-trip, a line in a view that is not in the output,
a marker whose numbers do not add up, a view larger than the output, an empty level 1, the
needle or an item lost at level 2, no log record to find the stored output by, and level-2
bytes grown well past a committed baseline. Other filters are reported, never judged, and
timings never gate.
"""

from __future__ import annotations

LENS_ARMS = ("lens-2", "lens-1", "lens-0")
# Growth of level-2 bytes over the committed baseline that counts as a regression: both a
# ratio and an absolute floor, because timing lines make small outputs wobble by a few bytes.
GROWTH_RATIO = 1.2
GROWTH_BYTES = 256


def arm_title(arm: str) -> str:
    return {"raw": "raw", "lens-2": "lens 2", "lens-1": "lens 1", "lens-0": "lens 0"}.get(arm, arm)


def cell(result: dict | None, kind: str) -> str:
    """One table cell: `1,453 (97%)`, with what was lost appended inside the parentheses."""
    if result is None:
        return "—"
    if "error" in result:
        return f"error: {result['error']}"
    parts = []
    if result.get("reduction") is not None:
        parts.append(f"{round(result['reduction'] * 100)}%")
    if result.get("needle_kept") is False:
        parts.append("needle lost")
    total = result.get("items_total", 0)
    if total and result.get("items_kept", total) < total:
        parts.append(f"{result['items_kept']} of {total} {kind}")
    if result.get("exit_equal") is False:
        parts.append(f"exit {result['exit']}")
    text = f"{result['bytes']:,}"
    return f"{text} ({', '.join(parts)})" if parts else text


def markdown_table(report: dict) -> str:
    """The comparison table: one row per case, one column per arm that ran."""
    arms = report["arms"]
    header = ["case", *(arm_title(a) for a in arms)]
    rows = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for case in report["cases"]:
        if "error" in case:
            cells = [case["name"], f"not measured: {case['error']}"] + [""] * (len(arms) - 1)
        else:
            kind = case.get("items_kind", "items")
            cells = [case["name"], *(cell(case["arms"].get(a), kind) for a in arms)]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def lens_table(report: dict) -> str:
    """Per case, what the lens arms say about the store and markers at level 2."""
    rows = [
        "| case | handle | level 3 round trip | markers | lines elided | invented lines |",
        "|---|---|---|---|---|---|",
    ]
    for case in report["cases"]:
        lens = case.get("arms", {}).get("lens-2")
        if not lens or "error" in lens:
            continue
        rows.append(
            "| "
            + " | ".join(
                [
                    case["name"],
                    lens.get("handle") or "none",
                    lens.get("round_trip", "not checked"),
                    str(lens.get("markers", 0)),
                    str(lens.get("elided", 0)),
                    str(lens.get("invented", 0)),
                ]
            )
            + " |"
        )
    return "\n".join(rows) + "\n"


def fidelity_table(report: dict) -> str:
    """One row per case and arm that ran: size, needle, items, then compare_fidelity's
    columns. Folded ids read `folded of ids in raw`; saved per marker is what the view
    saves against raw divided by its markers and in-line elisions."""
    rows = [
        "| case | arm | bytes | needle | items | broken units | folded ids | islands "
        "| markers | saved per marker |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for case in report["cases"]:
        for name in report["arms"]:
            result = case.get("arms", {}).get(name)
            if name == "raw" or result is None or "error" in result:
                continue
            total = result.get("items_total", 0)
            markers = result.get("marker_lines", 0)
            inline = result.get("inline_elisions", 0)
            saved = result.get("saved_per_elision")
            cells = [
                case["name"],
                arm_title(name),
                f"{result['bytes']:,}",
                "kept" if result.get("needle_kept") else "lost",
                f"{result.get('items_kept', total)}/{total}",
                str(result.get("broken_units", "")),
                f"{result.get('folded_ids', '')}/{result.get('ids_total', '')}",
                str(result.get("islands", "")),
                f"{markers} + {inline} in-line" if inline else str(markers),
                "—" if saved is None else f"{saved:,}",
            ]
            rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def smaller_elsewhere(report: dict) -> list[str]:
    """Cases where another filter's view is smaller than lens at level 2 while keeping the
    needle and every item, one sentence each: the cases lens has to answer for."""
    found = []
    for case in report["cases"]:
        arms = case.get("arms", {})
        lens = arms.get("lens-2")
        if not lens or "bytes" not in lens:
            continue
        for name, other in arms.items():
            if name == "raw" or name in LENS_ARMS or "bytes" not in other:
                continue
            total = other.get("items_total", 0)
            keeps = other.get("needle_kept") and other.get("items_kept", total) == total
            if keeps and other["bytes"] < lens["bytes"]:
                found.append(
                    f"{case['name']}: {name} {other['bytes']:,} bytes against lens 2's "
                    f"{lens['bytes']:,}, needle and all {total} {case.get('items_kind', 'items')} "
                    "kept"
                )
    return found


def regressions(report: dict, baseline: dict | None = None) -> list[str]:
    """Every result that is a defect of lens, one sentence each (see the module comment)."""
    found = []
    base_cases = {c["name"]: c for c in (baseline or {}).get("cases", [])}
    for case in report["cases"]:
        name = case["name"]
        for arm in LENS_ARMS:
            result = case.get("arms", {}).get(arm)
            if result is None:
                continue
            if "error" in result:
                found.append(f"{name} {arm}: {result['error']}")
                continue
            found += [f"{name} {arm}: {problem}" for problem in arm_problems(arm, result)]
        base = base_cases.get(name, {}).get("arms", {}).get("lens-2")
        now = case.get("arms", {}).get("lens-2")
        if usable_baseline(base) and now and "bytes" in now:
            grown = now["bytes"] - base["bytes"]
            if grown > GROWTH_BYTES and now["bytes"] > base["bytes"] * GROWTH_RATIO:
                found.append(
                    f"{name} lens-2: {now['bytes']:,} bytes against {base['bytes']:,} "
                    "in the baseline"
                )
    return found


def usable_baseline(base: dict | None) -> bool:
    """A baseline cell counts only if it was itself a sound run: measured, with a handle
    and the raw exit code. A run that failed outright printed a few bytes, and growing
    from it is not a regression."""
    return bool(
        base and "bytes" in base and base.get("handle") and base.get("exit_equal") is not False
    )


def arm_problems(arm: str, result: dict) -> list[str]:
    problems = []
    if result.get("exit_equal") is False:
        problems.append(f"exit {result['exit']} where raw exited {result['raw_exit']}")
    if result.get("handle") is None:
        problems.append(f"no handle: {result.get('handle_note', 'no log record')}")
    elif result.get("round_trip") == "differs":
        problems.append("`lens show --level 3` does not return the raw output")
    if result.get("invented", 0):
        problems.append(f"{result['invented']} view lines are not in the raw output")
    if result.get("bad_markers", 0):
        problems.append(f"{result['bad_markers']} markers do not add up")
    if result.get("foreign_handles", 0):
        problems.append(f"{result['foreign_handles']} markers name another handle")
    if result.get("stored_bytes") is not None and result["bytes"] > result["stored_bytes"]:
        problems.append(
            f"view is {result['bytes']:,} bytes, larger than the {result['stored_bytes']:,} "
            "it was made from"
        )
    if arm == "lens-1" and result["bytes"] == 0 and result.get("raw_bytes", 0) > 0:
        problems.append("level 1 is empty")
    if arm == "lens-2":
        if result.get("needle_kept") is False:
            problems.append("needle lost")
        total = result.get("items_total", 0)
        if result.get("items_kept", total) < total:
            missing = ", ".join(result.get("items_missing", [])[:5])
            problems.append(f"{result['items_kept']} of {total} items kept (missing {missing})")
    return problems
