"""Fidelity of one view against the raw output it was made from: pure functions, no I/O.

bench/compare.py's byte and needle columns say how small a view is and whether it still
answers the question; these say whether it misleads. Everything is decided mechanically from
the two lists of lines, with no model and no knowledge of which filter made the view:

- broken units: a kept body line shown under another unit's header than in the raw output.
  Each family of output declares, in FAMILIES below and nowhere else, its unit headers as
  nested levels (a commit holds files, a file holds hunks) and the body lines that belong to
  the unit above them. For every kept body line we take, level by level, the key of the
  nearest kept header above it in the view, and the key of the nearest header above the
  same line in the raw output; a header of an outer level clears the inner levels. The line
  is broken when the two chains differ (in a view holding lines that are not in raw, only
  on the levels it shows a header of: it may have rewritten the others), including when its
  header was removed while another header of the family is still above it: a reader takes
  the nearest header as the line's own. A body line under no header of the family in the
  view is not counted (nothing in the view claims it), and a view line that is not in the
  raw output is not judged here (the
  invented-line check in compare_measure owns that).
- folded ids: the ids of the raw output (shas: 40 hex digits, or 7 to 39 holding both a digit
  and a letter, so that neither a number nor a word spelled in hex such as `added` counts; the
  test names of `test x ... FAILED`, `FAILED x` and `--- FAIL: x` lines; paths with a known
  extension, without git diff's `a/` and `b/`) that appear nowhere in the view, neither in a
  kept line nor in a marker's detail. An id that is only in an elided stretch and not named
  by its marker is folded.
- islands: maximal runs of kept lines, markers being the only separators; markers: lines
  matching the marker grammar (compare_measure.MARKER); in-line elisions: overlong lines cut
  with `[lens: N bytes elided, line L, HANDLE]`; saved bytes per marker: what the view saves
  against raw, divided by its markers and in-line elisions, the figure rule 4 of issue 8
  ("every elision earns its marker") is about.

Lines are matched to the raw output in order, with digits masked, because another filter's
view comes from a second run whose timings differ; keys are compared unmasked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bench import compare_measure

INLINE_ELISION = re.compile(r"\[lens: \d+ bytes? elided, line \d+, [0-9a-f]{8}\]")
MASK = re.compile(r"\d+")


@dataclass(frozen=True)
class Family:
    """One kind of output's units: header levels from outermost to innermost, each a regex
    whose first group (or whole match, without groups) is the unit's key, and the regex of
    body lines that belong to the innermost unit open above them."""

    name: str
    levels: tuple[tuple[re.Pattern[str], ...], ...]
    body: re.Pattern[str]


# The one place unit headers are defined. A level may have several header shapes that name
# the same unit: cargo test prints `---- name stdout ----` and then `thread 'name' panicked`,
# and both key on the test name, so keeping either keeps the unit's header.
FAMILIES = (
    Family(
        "cargo test",
        ((re.compile(r"^---- (\S+) stdout ----$"), re.compile(r"^thread '([^']+)' panicked")),),
        re.compile(r"^\s*(?:left|right)\s*:|^assertion|^\s*(?:expected|actual|got)\s*:"),
    ),
    Family(
        "git",
        (
            (re.compile(r"^commit ([0-9a-f]{40})\b"),),
            (re.compile(r"^diff --git (.*)$"),),
            (re.compile(r"^(@@ .* @@)"),),
        ),
        re.compile(r"^(?:Author|Date|Merge):|^[+-](?!\+\+ |-- )"),
    ),
    Family(
        "pytest",
        ((re.compile(r"^_{3,} (\S.*?) _{3,}$"),),),
        re.compile(r"^E\s"),
    ),
    Family(
        "go test",
        ((re.compile(r"^\s*--- FAIL: (\S+)"),),),
        re.compile(r"^\s+\S+_test\.go:\d+:"),
    ),
)

SHA = re.compile(r"\b(?:[0-9a-f]{40}|(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,39})\b")
HEX_WORD = re.compile(r"\b[0-9a-f]{7,40}\b")
TEST_NAME = (
    re.compile(r"^test (\S+) \.\.\. FAILED"),
    re.compile(r"^FAILED (\S+)"),
    re.compile(r"^\s*--- FAIL: (\S+)"),
)
EXTENSIONS = (
    "rs|py|pyi|ts|tsx|js|jsx|mjs|cjs|go|c|h|cc|cpp|hpp|java|rb|toml|json|lock|md|txt|yml|yaml"
    "|cfg|ini|sh|html|css"
)
# git diff's `a/` and `b/` name one file twice; the path without them is the id.
DIFF_SIDE = re.compile(r"^[ab]/(?=.*/|[^/]+$)")
PATH = re.compile(rf"(?<![\w./-])(?:[\w.-]+/)*[\w.-]*\w\.(?:{EXTENSIONS})(?![\w/])")


def header_key(family: Family, line: str) -> tuple[int, str] | None:
    """(level, key) when the line is one of the family's unit headers."""
    for level, shapes in enumerate(family.levels):
        for shape in shapes:
            found = shape.search(line)
            if found:
                return level, found.group(1) if found.groups() else found.group(0)
    return None


def chains(family: Family, lines: list[str]) -> list[tuple[str | None, ...] | None]:
    """Per line: the keys of the headers open above it, one per level, or None for a
    header line itself (a header is never a body line of another unit)."""
    open_keys: list[str | None] = [None] * len(family.levels)
    out: list[tuple[str | None, ...] | None] = []
    for line in lines:
        header = header_key(family, line)
        if header is None:
            out.append(tuple(open_keys))
            continue
        level, key = header
        open_keys[level] = key
        for inner in range(level + 1, len(open_keys)):
            open_keys[inner] = None
        out.append(None)
    return out


def match_raw(view_lines: list[str], raw_lines: list[str]) -> list[int | None]:
    """The raw index of each kept view line, matched in order with digits masked; a line
    found only before the previous match is matched there (a filter may reorder), a line
    not in raw at all gets None."""
    masked = [MASK.sub("0", line) for line in raw_lines]
    first: dict[str, int] = {}
    for index, line in enumerate(masked):
        first.setdefault(line, index)
    found: list[int | None] = []
    at = 0
    for line in view_lines:
        key = MASK.sub("0", line)
        try:
            index = masked.index(key, at)
            at = index + 1
        except ValueError:
            index = first.get(key)
        found.append(index)
    return found


def broken_units(view_lines: list[str], raw_lines: list[str]) -> int:
    """Kept body lines shown under another unit's header than in raw (see the module
    comment), over every family that has a header in the raw output."""
    kept = [line for line in view_lines if compare_measure.parse_marker(line) is None]
    positions = match_raw(kept, raw_lines)
    exact: dict[str, list[int]] = {}
    masked: dict[str, list[int]] = {}
    for index, line in enumerate(raw_lines):
        exact.setdefault(line, []).append(index)
        masked.setdefault(MASK.sub("0", line), []).append(index)
    broken = 0
    for family in FAMILIES:
        if not any(header_key(family, line) for line in raw_lines):
            continue
        raw_chain = chains(family, raw_lines)
        view_chain = chains(family, kept)
        # A view that only removes lines cut whatever header it lacks. A view that rewrites
        # lines may have rewritten a level's headers into another form (rtk prints a commit
        # as `3fce3b5b subject` above its diff): there, only the levels it shows are judged.
        shown = list(range(len(family.levels)))
        if any(at is None for at in positions):
            shown = sorted({h[0] for h in (header_key(family, x) for x in kept) if h})
        for line, at, seen in zip(kept, positions, view_chain, strict=True):
            if at is None or seen is None or not family.body.search(line):
                continue
            ours = [seen[level] for level in shown]
            if all(key is None for key in ours):
                continue
            # A parallel runner prints units in another order each run, and a body line
            # such as `assertion failed` repeats in every unit: the line is broken only if
            # no copy of it in raw (exact, else with digits masked) sits under the same
            # headers.
            copies = exact.get(line) or masked.get(MASK.sub("0", line), [at])
            if all(ours != [raw_chain[i][level] for level in shown] for i in copies):
                broken += 1
    return broken


def raw_ids(raw_lines: list[str]) -> list[str]:
    """The ids a reader may act on, in order of first appearance."""
    ids: dict[str, None] = {}
    for line in raw_lines:
        for shape in TEST_NAME:
            found = shape.search(line)
            if found:
                ids[found.group(1)] = None
        for found in SHA.finditer(line):
            ids[found.group(0)] = None
        for found in PATH.finditer(line):
            ids[DIFF_SIDE.sub("", found.group(0))] = None
    return list(ids)


def folded_ids(view_lines: list[str], raw_lines: list[str]) -> list[str]:
    """The raw output's ids that the view names nowhere, kept lines and markers alike. A
    full sha counts as named by its first seven digits, the abbreviation git itself prints
    (`git log --oneline`), since a reader can act on that."""
    text = "\n".join(view_lines)
    named = set(HEX_WORD.findall(text))
    return [
        name
        for name in raw_ids(raw_lines)
        if name not in text
        and not (len(name) == 40 and any(short.startswith(name[:7]) for short in named))
    ]


def islands(view_lines: list[str]) -> int:
    runs, inside = 0, False
    for line in view_lines:
        is_kept = compare_measure.parse_marker(line) is None
        if is_kept and not inside:
            runs += 1
        inside = is_kept
    return runs


@dataclass(frozen=True)
class Fidelity:
    broken_units: int
    folded_ids: tuple[str, ...]
    ids_total: int
    islands: int
    markers: int
    inline_elisions: int

    def saved_per_elision(self, raw_bytes: int, view_bytes: int) -> int | None:
        """Bytes saved against raw per marker or in-line elision; None without either."""
        elisions = self.markers + self.inline_elisions
        return (raw_bytes - view_bytes) // elisions if elisions else None


def fidelity(streams: list[tuple[list[str], list[str]]]) -> Fidelity:
    """Fidelity over (view lines, raw lines) pairs, one per stream, summed; folded ids
    count the ids of all raw streams against all views, since a filter may move a line
    from one stream to the other."""
    broken = isles = markers = inline = 0
    all_view: list[str] = []
    all_raw: list[str] = []
    for view_lines, raw_lines in streams:
        broken += broken_units(view_lines, raw_lines)
        isles += islands(view_lines)
        markers += sum(compare_measure.parse_marker(line) is not None for line in view_lines)
        inline += sum(len(INLINE_ELISION.findall(line)) for line in view_lines)
        all_view += view_lines
        all_raw += raw_lines
    folded = folded_ids(all_view, all_raw)
    return Fidelity(broken, tuple(folded), len(raw_ids(all_raw)), isles, markers, inline)
