"""What bench/compare.py measures in one view: pure functions over bytes, no I/O.

A view is what one arm printed (stdout and stderr); the raw output is what the command printed
with nothing in front of it. Everything here is decided from those bytes alone:

- the needle: a declared literal line (compared whole, without its line ending) or a regex
  searched in each line; kept when some line of the view matches;
- the items: literal names, or the distinct first groups of a pattern over the raw lines;
  an item is kept when its text appears anywhere in the view, because a reader who sees the
  path or the test name can go there;
- lens's markers, parsed with the regex the contract fixes, and whether every other line of a
  view appears in the raw output in order (a view may drop lines, never invent them).

Text is decoded as UTF-8 with replacement only to search it: the byte counts and the
round-trip comparison work on the bytes themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MARKER = re.compile(r"^\[lens: (\d+) lines? elided, (\d+)-(\d+), ([0-9a-f]{8})(?:: (.*))?\]$")
# A number, a decimal fraction with it: `"Elapsed":0` and `"Elapsed":0.01` are one timing.
# The spaces that pad it to a width go with it: nextest's `( 1/11)` is `(10/11)` in a run
# where that test finished tenth.
DIGITS = re.compile(rb" *\d+(?:\.\d+)?")
# A random id a tool mints on every run (terraform's resource ids, request ids): a UUID.
UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def lines_of(data: bytes) -> list[str]:
    """The lines of a stream without their endings (a trailing newline adds no empty line)."""
    text = data.decode("utf-8", errors="replace")
    if not text:
        return []
    lines = [line.rstrip("\r") for line in text.split("\n")]
    return lines[:-1] if text.endswith("\n") else lines


def needle_kept(view_lines: list[str], line: str | None = None, regex: str | None = None) -> bool:
    if line is not None:
        return any(v == line for v in view_lines)
    if regex is None:
        raise ValueError("a needle is a line or a regex")
    pattern = re.compile(regex)
    return any(pattern.search(v) for v in view_lines)


def declared_items(raw_lines: list[str], names: tuple[str, ...], pattern: str | None) -> list[str]:
    """The items a reader must see: the literal names, then every distinct first group of
    `pattern` over the raw lines, in order of first appearance."""
    items = list(dict.fromkeys(names))
    if pattern is not None:
        compiled = re.compile(pattern)
        for line in raw_lines:
            found = compiled.search(line)
            if found and found.group(1) not in items:
                items.append(found.group(1))
    return items


def items_missing(view_text: str, items: list[str]) -> list[str]:
    return [item for item in items if item not in view_text]


@dataclass(frozen=True)
class Marker:
    count: int
    first: int
    last: int
    handle: str
    detail: str | None

    @property
    def consistent(self) -> bool:
        return self.count == self.last - self.first + 1 and self.first >= 1


def parse_marker(line: str) -> Marker | None:
    found = MARKER.match(line)
    if not found:
        return None
    count, first, last, handle, detail = found.groups()
    return Marker(int(count), int(first), int(last), handle, detail)


@dataclass(frozen=True)
class ViewCheck:
    """How one stream's view relates to the raw stream it was made from."""

    markers: int
    elided: int
    bad_markers: int
    invented: int
    foreign_handles: int


def check_view(view_lines: list[str], raw_lines: list[str], handle: str | None) -> ViewCheck:
    """Count markers, the lines they claim to remove, markers whose numbers do not add up or
    run past the raw stream, markers naming another handle, and view lines that do not
    appear in the raw stream at or after the previous kept line (invented or reordered)."""
    markers = elided = bad = invented = foreign = 0
    at = 0
    for line in view_lines:
        marker = parse_marker(line)
        if marker is not None:
            markers += 1
            elided += marker.count
            if not marker.consistent or marker.last > len(raw_lines):
                bad += 1
            if handle is not None and marker.handle != handle:
                foreign += 1
            continue
        try:
            at = raw_lines.index(line, at) + 1
        except ValueError:
            invented += 1
    return ViewCheck(markers, elided, bad, invented, foreign)


def round_trip(shown: bytes, raw: bytes) -> str:
    """Compare what `lens show --level 3` returned with the bytes of the raw arm.

    Two runs of one command differ in timings and thread ids ("finished in 0.07s"), in the
    random ids a tool mints (a UUID), and a parallel test runner prints its results in the
    order they finish, so bytes that differ only in their digits and UUIDs, or hold the
    same lines in another order, are reported as such rather than as a loss. Only
    "differs" means the store lost or changed something.
    """
    if shown == raw:
        return "exact"

    def masked(data: bytes) -> bytes:
        return DIGITS.sub(b"0", UUID.sub(b"0", data))

    shown_masked, raw_masked = masked(shown), masked(raw)
    if shown_masked == raw_masked:
        return "exact up to digits"
    if sorted(shown_masked.splitlines()) == sorted(raw_masked.splitlines()):
        return "same lines, other order"
    return "differs"


def reduction(raw_bytes: int, view_bytes: int) -> float | None:
    """The fraction of the raw bytes the view saves; negative when the view is larger."""
    if raw_bytes == 0:
        return None
    return 1 - view_bytes / raw_bytes
