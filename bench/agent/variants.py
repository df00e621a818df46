"""Variants: what stands in front of a task's command.

raw runs the command as written; lens-2, lens-1 and lens-0 run it under lens at that level
(level 2 is lens's default, so it is invoked the way a user types it, with no flag); each
other installed filter is one more arm. A variant changes only the command line the agent
is told to run: same task, same prompt text around it, same verifier.

Another filter is offered only the tasks whose every command it claims. Reporting an arm
on a command a tool never offered to filter measures its coverage, not its quality, which
is why cargo-cascade exists: cargo build is on every tool's list. The claim lists below
are the commands each tool's own documentation names a filter for, restricted to the
programs our tasks run (sh, python3, rustc and cargo).
"""

from __future__ import annotations

import os
import platform
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# The ladder the knee is read along, most information first.
LADDER = ("raw", "lens-2", "lens-1", "lens-0")
LABELS = {"raw": "raw", "lens-2": "level 2", "lens-1": "level 1", "lens-0": "level 0"}

CLAIMS: dict[str, tuple[tuple[str, ...], ...]] = {
    "rtk": (("cargo", "build"), ("cargo", "test"), ("cargo", "clippy"), ("cargo", "check")),
    "tokf": (("cargo", "build"), ("cargo", "test"), ("cargo", "clippy"), ("cargo", "check")),
}


@dataclass(frozen=True)
class Variant:
    name: str
    prefix: tuple[str, ...]  # argv placed before the task's command
    tool: str | None = None  # the filter's program, linked into the cell's bin dir

    @property
    def label(self) -> str:
        return LABELS.get(self.name, self.name)

    def wrap(self, argv: list[str]) -> list[str]:
        return [*self.prefix, *argv]

    def render(self, argv: list[str]) -> str:
        return shlex.join(self.wrap(argv))

    def claims(self, commands: dict[str, list[str]]) -> bool:
        """Whether this variant applies to a task running these commands."""
        if self.name in LADDER:
            return True
        patterns = CLAIMS.get(self.name, ())
        return all(any(tuple(argv[: len(p)]) == p for p in patterns) for argv in commands.values())


def lens_binary(build: bool = False) -> Path | None:
    """LENS_BIN, else what `make build` produced; None when neither exists. With `build`,
    a missing binary (and no LENS_BIN) is built first with `make build`."""
    env = os.environ.get("LENS_BIN")
    if env:
        return Path(env) if Path(env).is_file() else None
    built = REPO / "out" / "release" / platform.machine() / "lens"
    if build and not built.is_file():
        print("lens        not built yet: running `make build`", flush=True)
        subprocess.run(["make", "-C", str(REPO), "build"], check=False)
    return built if built.is_file() else None


def needs_lens(names: list[str] | None) -> bool:
    """Whether a selection of variants (None: all) includes a lens level."""
    return names is None or any(n.startswith("lens-") for n in names)


def lens_variants(lens: Path | None) -> list[Variant]:
    tool = str(lens) if lens else None
    return [
        Variant("raw", ()),
        Variant("lens-2", ("lens",), tool),
        Variant("lens-1", ("lens", "--level", "1"), tool),
        Variant("lens-0", ("lens", "--level", "0"), tool),
    ]


def other_filters() -> list[Variant]:
    """The other filters installed here: tokf if out/tools/bin/tokf exists, rtk if it is
    on PATH and `rtk gain` answers."""
    found = []
    tokf = REPO / "out" / "tools" / "bin" / "tokf"
    if tokf.is_file() and os.access(tokf, os.X_OK):
        found.append(Variant("tokf", ("tokf", "run"), str(tokf)))
    rtk = shutil.which("rtk")
    if rtk:
        try:
            ok = subprocess.run(
                [rtk, "gain"], capture_output=True, timeout=10, check=False
            ).returncode
        except (OSError, subprocess.TimeoutExpired):
            ok = 1
        if ok == 0:
            found.append(Variant("rtk", ("rtk",), rtk))
    return found


def select(names: list[str] | None, lens: Path | None) -> list[Variant]:
    """The variants named (all available when None), in ladder order then the others."""
    available = lens_variants(lens) + other_filters()
    if not names:
        return available
    by_name = {v.name: v for v in available}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise SystemExit(
            f"variant(s) not available here: {', '.join(unknown)} (available: {', '.join(by_name)})"
        )
    return [v for v in available if v.name in names]
