"""Tasks: bench/tasks/<name>/ holds task.toml, setup.sh, prompt.md and verify.sh.

setup.sh <dir> builds the working directory from nothing; prompt.md is the prompt, with a
`{key}` placeholder for each entry of task.toml's [commands], rendered per variant as the
command line the agent is told to run; verify.sh <dir> decides success by its exit status.

The verifier runs on the host against a copy of the agent's directory, never inside it:
copying first means nothing the verifier writes (build products, caches) can leak back,
and nothing of the verifier's (the expected answer) is ever where the agent could read it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

TASKS_DIR = Path(__file__).resolve().parent.parent / "tasks"

# Variables a caller's environment may carry that would make a task's command build or
# store somewhere other than the cell: the Makefile exports CARGO_TARGET_DIR, and a
# developer's own LENS_* would point a cell at their real store.
PLACEHOLDER = re.compile(r"\{(\w+)\}")
SCRUBBED_ENV = ("CARGO_TARGET_DIR", "LENS_STORE", "LENS_LOG_DIR", "LENS_CONFIG")


@dataclass(frozen=True)
class Task:
    name: str
    root: Path
    kind: str
    commands: dict[str, list[str]]
    needs: list[str]
    prompt_template: str
    scripted: dict = field(default_factory=dict)
    session: dict = field(default_factory=dict)

    def prompt(self, rendered: dict[str, str]) -> str:
        """The prompt with each `{key}` of [commands] replaced by that command as this
        variant runs it; any other brace (code in a prompt) is left alone."""
        return PLACEHOLDER.sub(lambda m: rendered.get(m.group(1), m.group(0)), self.prompt_template)

    def missing_tools(self) -> list[str]:
        return [tool for tool in self.needs if shutil.which(tool) is None]


def load_task(root: Path) -> Task:
    meta = tomllib.loads((root / "task.toml").read_text())
    return Task(
        name=root.name,
        root=root,
        kind=meta.get("kind", "retention"),
        commands={key: list(argv) for key, argv in meta["commands"].items()},
        needs=list(meta.get("needs", [])),
        prompt_template=(root / "prompt.md").read_text(),
        scripted=meta.get("scripted", {}),
        session=meta.get("session", {}),
    )


def load_tasks(kind: str, names: list[str] | None = None, root: Path = TASKS_DIR) -> list[Task]:
    """Tasks of one kind in name order; `names` picks and orders a subset, and an unknown
    name is an error rather than a silently smaller sweep."""
    found = {p.name: load_task(p) for p in sorted(root.iterdir()) if (p / "task.toml").is_file()}
    if names:
        unknown = [n for n in names if n not in found]
        if unknown:
            raise SystemExit(f"unknown task(s): {', '.join(unknown)} (have: {', '.join(found)})")
        return [found[n] for n in names]
    return [t for t in found.values() if t.kind == kind]


def clean_env(base: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    for key in SCRUBBED_ENV:
        env.pop(key, None)
    return env


def setup(task: Task, workdir: Path, timeout: float = 120) -> None:
    workdir.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["sh", str(task.root / "setup.sh"), str(workdir)],
        check=True,
        env=clean_env(),
        timeout=timeout,
        stdout=subprocess.DEVNULL,
    )


def verify(task: Task, workdir: Path, scratch: Path, timeout: float = 300) -> tuple[bool, str]:
    """Copy the agent's directory to `scratch` and run verify.sh there, on the host.

    Returns (success, the verifier's last line of output). A timeout is a failure."""
    copy = scratch / "verify-copy"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(workdir, copy, symlinks=True, ignore=shutil.ignore_patterns("target"))
    try:
        done = subprocess.run(
            ["sh", str(task.root / "verify.sh"), str(copy)],
            env=clean_env(),
            timeout=timeout,
            capture_output=True,
            text=True,
        )
    except subprocess.TimeoutExpired:
        return False, "verifier timed out"
    lines = (done.stdout + done.stderr).strip().splitlines()
    return done.returncode == 0, lines[-1] if lines else ""
