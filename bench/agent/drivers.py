"""Drivers: how each agent CLI is started, checked before any money is spent, and read.

A driver names the agent's binary and the credential it needs, builds the argv for one
session, and parses the agent's own machine-readable output (bench/agent/transcript.py).

The preflight exists because an agent that cannot start looks, from the results file,
exactly like one that was rate limited: zero tokens, every cell. So before the first paid
cell it checks, in this order and failing on the first problem with a message that names
it: the binary is on PATH and answers --version, the credential is set, and one trivial
call comes back finished with a non-zero token count. Missing binary or credential fails
in well under a second and spends nothing; only the trivial call costs anything.

Credentials are read from the environment and only checked for presence; a value is never
printed, logged or written to a results file. A static API key is required rather than a
subscription login: it is the one kind of credential a sandbox broker can bind to a host
(see the design notes' decision on brokered credentials).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.agent import scripted
from bench.agent.transcript import Transcript, parse_claude, parse_cursor

TRIVIAL_PROMPT = "Reply with the single word: ready"


class PreflightError(Exception):
    """The agent cannot run a cell; the message says why and what to do."""


@dataclass
class Driver:
    name: str
    binary: str  # program name or path
    credential: str | None  # environment variable holding the API key
    install_hint: str
    est_tokens_per_cell: int  # for the plan's spend estimate
    instrument: str | None = None  # set for test instruments: labels every result
    reads_policy: bool = False  # the stand-in reads the task's scripted policy; no agent may

    def resolve(self) -> str | None:
        return shutil.which(self.binary)

    def command(self, prompt: str, policy: Path, model: str | None) -> list[str]:
        raise NotImplementedError

    def trivial_command(self, model: str | None) -> list[str]:
        raise NotImplementedError

    def parse(self, stdout: str) -> Transcript:
        raise NotImplementedError

    def status(self) -> str:
        """One line for the plan: what is present, without starting anything."""
        where = self.resolve()
        parts = [f"binary {where}" if where else f"binary `{self.binary}` NOT FOUND"]
        if self.credential:
            have = bool(os.environ.get(self.credential))
            parts.append(f"{self.credential} {'set' if have else 'NOT SET'}")
        return ", ".join(parts)

    def preflight(self, model: str | None, timeout: float = 120) -> None:
        """Raise PreflightError unless this agent can run a cell here and now."""
        self.check_local()
        self.trivial_call(model, timeout)

    def check_local(self) -> None:
        """The checks that cost nothing and take well under a second: the binary answers
        --version and the credential is set."""
        where = self.resolve()
        if where is None:
            raise PreflightError(
                f"preflight: {self.name}: agent binary `{self.binary}` not found on PATH "
                f"({self.install_hint}, or pass --agent-bin). Nothing was spent."
            )
        try:
            version = subprocess.run(
                [where, "--version"], capture_output=True, text=True, timeout=15
            )
        except (OSError, subprocess.TimeoutExpired) as err:
            raise PreflightError(
                f"preflight: {self.name}: `{where} --version` did not answer ({err}). "
                "Nothing was spent."
            ) from err
        if version.returncode != 0:
            raise PreflightError(
                f"preflight: {self.name}: `{where} --version` exited {version.returncode}. "
                "Nothing was spent."
            )
        if self.credential and not os.environ.get(self.credential):
            raise PreflightError(
                f"preflight: {self.name}: credential {self.credential} is not set. Without "
                "it every cell would be an agent that never started, which reads like a "
                "rate limit. Nothing was spent."
            )

    def trivial_call(self, model: str | None, timeout: float) -> None:
        argv = self.trivial_command(model)
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as err:
            raise PreflightError(
                f"preflight: {self.name}: a trivial call did not finish in {timeout:.0f}s"
            ) from err
        t = self.parse(done.stdout)
        if done.returncode == 0 and t.finished and not t.is_error and t.tokens is None:
            raise PreflightError(
                f"preflight: {self.name}: the agent answered but reported no token usage; "
                "cells are costed from the agent's own usage report, so this version of "
                "the agent cannot be measured"
            )
        if done.returncode != 0 or not t.finished or t.is_error or not t.tokens:
            tail = (done.stderr.strip().splitlines() or ["(no stderr)"])[-1][:300]
            raise PreflightError(
                f"preflight: {self.name}: a trivial call did not complete (exit "
                f"{done.returncode}, {t.tokens or 0} tokens, finished={t.finished}, "
                f"error={t.is_error}); the agent is not able to run. Last stderr line: {tail}"
            )


class Claude(Driver):
    """Claude Code: `claude -p PROMPT --output-format stream-json --verbose`."""

    def __init__(self, binary: str | None = None) -> None:
        super().__init__(
            name="claude",
            binary=binary or "claude",
            credential="ANTHROPIC_API_KEY",
            install_hint="npm install -g @anthropic-ai/claude-code",
            est_tokens_per_cell=80_000,
        )

    def command(self, prompt: str, policy: Path, model: str | None) -> list[str]:
        argv = [self.resolve() or self.binary, "-p", prompt]
        argv += ["--output-format", "stream-json", "--verbose"]
        # Unattended: edits accepted and the tools a task needs allowed, without the
        # blanket permission skip (which refuses to run as root).
        argv += ["--permission-mode", "acceptEdits"]
        argv += ["--allowedTools", "Bash,Read,Edit,Write,Glob,Grep"]
        argv += ["--max-turns", "60"]
        return argv + (["--model", model] if model else [])

    def trivial_command(self, model: str | None) -> list[str]:
        argv = [self.resolve() or self.binary, "-p", TRIVIAL_PROMPT]
        argv += ["--output-format", "json", "--max-turns", "1"]
        return argv + (["--model", model] if model else [])

    def parse(self, stdout: str) -> Transcript:
        return parse_claude(stdout)


class Cursor(Driver):
    """Cursor's agent CLI: `cursor-agent -p --output-format stream-json --force PROMPT`."""

    def __init__(self, binary: str | None = None) -> None:
        super().__init__(
            name="cursor",
            binary=binary or "cursor-agent",
            credential="CURSOR_API_KEY",
            install_hint="install Cursor's agent CLI",
            est_tokens_per_cell=80_000,
        )

    def command(self, prompt: str, policy: Path, model: str | None) -> list[str]:
        argv = [self.resolve() or self.binary, "-p", "--output-format", "stream-json", "--force"]
        return argv + (["--model", model] if model else []) + [prompt]

    def trivial_command(self, model: str | None) -> list[str]:
        argv = [self.resolve() or self.binary, "-p", "--output-format", "json"]
        return argv + (["--model", model] if model else []) + [TRIVIAL_PROMPT]

    def parse(self, stdout: str) -> Transcript:
        return parse_cursor(stdout)


class Scripted(Driver):
    """The deterministic stand-in agent (bench/agent/scripted.py). A test instrument."""

    def __init__(self, binary: str | None = None) -> None:
        super().__init__(
            name="scripted",
            binary=binary or sys.executable,
            credential=None,
            install_hint="python3",
            est_tokens_per_cell=0,
            instrument=scripted.INSTRUMENT,
            reads_policy=True,
        )

    def command(self, prompt: str, policy: Path, model: str | None) -> list[str]:
        return [self.resolve() or self.binary, scripted.__file__, str(policy)]

    def trivial_command(self, model: str | None) -> list[str]:
        return [self.resolve() or self.binary, "--version"]

    def trivial_call(self, model: str | None, timeout: float) -> None:
        # No model to call: the binary answering --version above is the whole check.
        return None

    def parse(self, stdout: str) -> Transcript:
        return parse_claude(stdout)


DRIVERS = {"claude": Claude, "cursor": Cursor, "scripted": Scripted}


def make(name: str, binary: str | None = None) -> Driver:
    return DRIVERS[name](binary)
