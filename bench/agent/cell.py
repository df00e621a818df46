"""One cell: a (task, variant) session run from a clean directory, then classified.

Every cell gets a fresh temp directory holding the working directory the task's setup
builds, a bin/ directory that puts the variant's filter on PATH, and the store, log and
config lens is pointed at, so no cell can see another's output or the user's own store.
The agent is started in the working directory; its stdout is the transcript.

A cell the agent did not finish is excluded rather than counted. Zero tokens means it
never started; a non-zero exit (or a timeout, or an error result) means it started and was
cut off, and what it spent before that says nothing about whether the view was enough.
Neither is the filter losing, and counting one as a failure once produced a knee that was
not there. Only complete cells are verified, and only their verdicts enter success rates.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from bench.agent import tasks as tasks_mod
from bench.agent.drivers import Driver
from bench.agent.tasks import Task
from bench.agent.variants import Variant

COMPLETE, NOT_STARTED, CUT_OFF, NO_USAGE = "complete", "not-started", "cut-off", "no-usage"


def classify(
    tokens: int | None, exit_code: int | None, is_error: bool, finished: bool, timed_out: bool
) -> tuple[str, str]:
    """(status, reason) of a finished agent process. Only COMPLETE cells are counted."""
    if timed_out:
        if tokens:
            return CUT_OFF, "timed out"
        return NOT_STARTED, "timed out before reporting any tokens"
    if tokens is None and finished and exit_code == 0 and not is_error:
        return NO_USAGE, "finished but reported no token usage, so it cannot be costed"
    if not tokens:
        return NOT_STARTED, f"no tokens reported (exit {exit_code}): the agent never started"
    if exit_code != 0:
        return CUT_OFF, f"agent exited {exit_code} after {tokens} tokens"
    if is_error or not finished:
        return CUT_OFF, "the agent's result was an error or never arrived"
    return COMPLETE, ""


def policy(task: Task, variant: Variant, prompt: str) -> dict:
    """What the scripted agent is told: the prompt, each command as the variant renders it
    and as written, and the task's fixed policy."""
    return {
        "prompt": prompt,
        "commands": {k: variant.render(argv) for k, argv in task.commands.items()},
        "plain": {k: shlex.join(argv) for k, argv in task.commands.items()},
        "steps": task.scripted.get("step", []),
        "confirm": task.scripted.get("confirm", []),
    }


def cell_env(cell: Path, variant: Variant) -> dict[str, str]:
    bin_dir = cell / "bin"
    bin_dir.mkdir()
    if variant.tool:
        (bin_dir / variant.prefix[0]).symlink_to(variant.tool)
    (cell / "config.toml").write_text("")
    env = tasks_mod.clean_env()
    env["PATH"] = f"{bin_dir}:{env.get('PATH', '/usr/bin:/bin')}"
    env["LENS_STORE"] = str(cell / "store")
    env["LENS_LOG_DIR"] = str(cell / "log")
    env["LENS_CONFIG"] = str(cell / "config.toml")
    return env


def run_agent(
    argv: list[str], cwd: Path, env: dict[str, str], timeout: float
) -> tuple[str, int | None, bool]:
    """(stdout, exit code, timed out). The agent gets its own process group so a timeout
    also ends the builds and scripts it started, not just the agent itself."""
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        stdout, _ = proc.communicate(timeout=timeout)
        return stdout, proc.returncode, False
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        stdout, _ = proc.communicate()
        return stdout, None, True


def sanitized(transcript: str) -> str:
    """A transcript fit to keep: session and request identifiers removed, because they
    say nothing about the run and do not belong outside the account."""
    kept = []
    for line in transcript.splitlines():
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            kept.append(line)
            continue
        if isinstance(obj, dict):
            for key in ("session_id", "uuid", "request_id"):
                obj.pop(key, None)
        kept.append(json.dumps(obj))
    return "\n".join(kept) + "\n"


def run_cell(
    task: Task,
    variant: Variant,
    driver: Driver,
    *,
    repeat: int,
    model: str | None = None,
    timeout: float = 900,
    keep: Path | None = None,
) -> dict:
    """Run one session and return its record (see the results files' `cells`)."""
    # The name carries nothing of the variant: the working directory's path shows up in
    # what the agent reads (a traceback, a compiler's file names), and two arms must not
    # differ by the length of a path.
    cell = Path(tempfile.mkdtemp(prefix="lens-cell-"))
    try:
        work = cell / "work"
        tasks_mod.setup(task, work)
        env = cell_env(cell, variant)
        rendered = {k: variant.render(argv) for k, argv in task.commands.items()}
        prompt = task.prompt(rendered)
        policy_path = cell / "policy.json"
        if driver.reads_policy:
            # Only the stand-in gets its policy: it names the fix, and a real agent could
            # read a file one directory up from where it works.
            policy_path.write_text(json.dumps(policy(task, variant, prompt)))
        argv = driver.command(prompt, policy_path, model)
        started = time.monotonic()
        stdout, exit_code, timed_out = run_agent(argv, work, env, timeout)
        seconds = round(time.monotonic() - started, 2)
        t = driver.parse(stdout)
        status, reason = classify(t.tokens, exit_code, t.is_error, t.finished, timed_out)
        record = {
            "task": task.name,
            "variant": variant.name,
            "repeat": repeat,
            "status": status,
            "reason": reason,
            "success": None,
            "verifier": "",
            "tokens": t.tokens,
            "token_parts": t.token_parts,
            "tool_calls": t.tool_calls,
            "turns": t.turns,
            "bytes_read": t.bytes_read,
            "tool_results": [
                {"tool": r.tool, "command": r.command, "bytes": r.bytes} for r in t.results
            ],
            "exit": exit_code,
            "seconds": seconds,
            "commands": rendered,
        }
        if driver.instrument:
            record["instrument"] = driver.instrument
        if status == COMPLETE:
            record["success"], record["verifier"] = tasks_mod.verify(task, work, cell)
        if keep is not None:
            dest = keep / f"{task.name}-{variant.name}-{repeat}"
            dest.mkdir(parents=True, exist_ok=True)
            (dest / "transcript.jsonl").write_text(sanitized(stdout))
        return record
    finally:
        shutil.rmtree(cell, ignore_errors=True)
