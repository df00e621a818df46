"""Bench cases: what bench/cases/<case>/case.toml declares, and how a case is built and run.

A case is one command run against one small input that the case builds itself: its folder
holds a setup script (setup.sh or setup.py, given the target directory as its only argument)
and a case.toml that declares, before anything is measured, the command, the needle (the
line the command was run for), the items a reader must still see, and the invocation every
other filter's own documentation gives for that command.

Both tools/record_fixtures.py and bench/compare.py build cases through this module, so a
fixture and a benchmark row come from the same input run the same way.

The decision this module makes is where and with what environment a case runs. Every case
runs in a fixed directory, /tmp/lens-bench/<case> unless LENS_BENCH_WORK says otherwise,
because tools print their working directory (cargo's `Compiling x v0.1.0 (/path)`, pytest's
rootdir) and a random temp path would make two recordings of the same input differ. The
environment is a short list of the caller's variables (see INHERITED), a fixed locale and
time zone, git isolated from the user's configuration, and the pinned case tools from
`make case-tools` first on PATH.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CASES_DIR = REPO / "bench" / "cases"
TOOLS_DIR = REPO / "out" / "bench-tools"
DEFAULT_WORK = Path("/tmp/lens-bench")

# The only variables a case inherits: where programs and the toolchains live, and the
# certificate bundles a package client needs. Everything else (this repository's
# CARGO_TARGET_DIR, RUST_BACKTRACE, a virtualenv, pip's find-links, colour switches, lens's
# own variables) would change what a tool prints or where it writes.
INHERITED = (
    "PATH",
    "HOME",
    "TMPDIR",
    "RUSTUP_HOME",
    "CARGO_HOME",
    "PYENV_ROOT",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    "PIP_CERT",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
    "GIT_SSL_CAINFO",
)


class CaseError(Exception):
    """A case.toml that does not say what a case must say."""


@dataclass(frozen=True)
class Needle:
    """The line the command was run for: a literal whole line, or a regex searched per line."""

    line: str | None = None
    regex: str | None = None


@dataclass(frozen=True)
class Items:
    """What a reader must still see: literal strings, or a pattern whose first group, over
    the raw output's lines, names them (every distinct match is one item)."""

    names: tuple[str, ...] = ()
    pattern: str | None = None
    expect: int | None = None
    kind: str = "files"


@dataclass(frozen=True)
class Case:
    name: str
    folder: Path
    tool: str
    command: tuple[str, ...]
    version: tuple[str, ...]
    setup: Path
    needle: Needle
    items: Items
    filters: dict[str, tuple[str, ...]] = field(default_factory=dict)
    notes: str = ""
    fixture: bool = True
    compare: bool = True

    @property
    def fixture_dir(self) -> Path:
        return REPO / "tests" / "fixtures" / self.tool / self.name


def load_case(folder: Path) -> Case:
    """Read one case folder; raise CaseError naming the file on anything missing."""
    path = folder / "case.toml"
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise CaseError(f"{path}: {err}") from err
    return parse_case(folder, data)


def parse_case(folder: Path, data: dict) -> Case:
    path = folder / "case.toml"
    known = {
        "tool",
        "command",
        "version",
        "setup",
        "needle",
        "items",
        "filters",
        "notes",
        "fixture",
        "compare",
    }
    unknown = set(data) - known
    if unknown:
        raise CaseError(f"{path}: unknown keys {sorted(unknown)}")
    for key in ("tool", "command", "version", "setup", "needle"):
        if key not in data:
            raise CaseError(f"{path}: missing `{key}`")
    needle = data["needle"]
    if not isinstance(needle, dict) or len(set(needle) & {"line", "regex"}) != 1:
        raise CaseError(f"{path}: [needle] needs exactly one of `line` or `regex`")
    raw_items = data.get("items", {})
    items = Items(
        names=tuple(raw_items.get("names", ())),
        pattern=raw_items.get("pattern"),
        expect=raw_items.get("expect"),
        kind=raw_items.get("kind", "files"),
    )
    filters = {}
    for tool, spec in data.get("filters", {}).items():
        if "command" not in spec:
            raise CaseError(f"{path}: [filters.{tool}] needs `command`")
        filters[tool] = tuple(spec["command"])
    return Case(
        name=folder.name,
        folder=folder,
        tool=data["tool"],
        command=tuple(data["command"]),
        version=tuple(data["version"]),
        setup=folder / data["setup"],
        needle=Needle(line=needle.get("line"), regex=needle.get("regex")),
        items=items,
        filters=filters,
        notes=data.get("notes", ""),
        fixture=data.get("fixture", True),
        compare=data.get("compare", True),
    )


def all_cases(names: list[str] | None = None) -> list[Case]:
    """Every case under bench/cases, in name order, or the named ones (unknown names fail)."""
    folders = sorted(p.parent for p in CASES_DIR.glob("*/case.toml"))
    by_name = {f.name: f for f in folders}
    if names:
        missing = [n for n in names if n not in by_name]
        if missing:
            raise CaseError(f"no such case: {', '.join(missing)}")
        folders = [by_name[n] for n in names]
    return [load_case(f) for f in folders]


def claimed_filters(case: Case, available: list[str]) -> list[str]:
    """The other filters to run on a case: installed ones the case declares, in the order
    they were found. A filter is never run on a command it does not claim."""
    return [tool for tool in available if tool in case.filters]


def work_root() -> Path:
    return Path(os.environ.get("LENS_BENCH_WORK", DEFAULT_WORK))


def case_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment every case's setup and command run with (see the module comment)."""
    source = os.environ if base is None else base
    env = {key: source[key] for key in INHERITED if key in source}
    tool_path = [
        str(TOOLS_DIR / "venv" / "bin"),
        str(TOOLS_DIR / "node" / "node_modules" / ".bin"),
    ]
    env["PATH"] = os.pathsep.join([*tool_path, env.get("PATH", "/usr/bin:/bin")])
    env["LC_ALL"] = "C.UTF-8"
    env["LANG"] = "C.UTF-8"
    env["TZ"] = "UTC"
    env["TERM"] = "dumb"
    env["GIT_CONFIG_GLOBAL"] = "/dev/null"
    env["GIT_CONFIG_NOSYSTEM"] = "1"
    env["GIT_AUTHOR_NAME"] = "Ada Bench"
    env["GIT_AUTHOR_EMAIL"] = "ada@example.com"
    env["GIT_COMMITTER_NAME"] = "Ada Bench"
    env["GIT_COMMITTER_EMAIL"] = "ada@example.com"
    env["GOPROXY"] = "off"
    # go test replays a cached result as "(cached)"; every arm must see a first run.
    env["GOFLAGS"] = "-count=1"
    env["GOTOOLCHAIN"] = "local"
    env["GOTELEMETRY"] = "off"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def build(case: Case, env: dict[str, str]) -> Path:
    """Run the case's setup into a fresh fixed directory and return that directory."""
    target = work_root() / case.name
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    if case.setup.suffix == ".py":
        argv = [sys.executable, str(case.setup), str(target)]
    else:
        argv = ["bash", str(case.setup), str(target)]
    done = subprocess.run(argv, cwd=target, env=env, capture_output=True)
    if done.returncode != 0:
        raise CaseError(
            f"setup of {case.name} failed ({done.returncode}):\n"
            + done.stdout.decode(errors="replace")
            + done.stderr.decode(errors="replace")
        )
    return target


@dataclass(frozen=True)
class Outcome:
    stdout: bytes
    stderr: bytes
    exit: int


def run(
    argv: tuple[str, ...] | list[str], cwd: Path, env: dict[str, str], timeout: float | None = None
) -> Outcome:
    """Run argv with no stdin; exit is 128+N for a child killed by signal N."""
    done = subprocess.run(
        list(argv),
        cwd=cwd,
        env=env,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )
    code = done.returncode if done.returncode >= 0 else 128 - done.returncode
    return Outcome(done.stdout, done.stderr, code)


def tool_version(case: Case, cwd: Path, env: dict[str, str]) -> str:
    out = run(case.version, cwd, env)
    text = (out.stdout or out.stderr).decode(errors="replace").strip()
    return text.splitlines()[0] if text else "unknown"
