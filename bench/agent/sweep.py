"""What both harnesses share around the cells: the preflight for everything that is not
the agent (lens, the tasks' tools, the isolation), and the results file's header."""

from __future__ import annotations

import argparse
import datetime
import os
import subprocess
from pathlib import Path

from bench.agent import drivers
from bench.agent.drivers import Driver, PreflightError
from bench.agent.tasks import Task
from bench.agent.variants import REPO, Variant

RESULTS = REPO / "bench" / "results"


def add_agent_args(p: argparse.ArgumentParser) -> None:
    """The options both harnesses take: which agent, how it is isolated, what to keep,
    and what the plan's spend estimate assumes."""
    p.add_argument("--driver", choices=sorted(drivers.DRIVERS), default="claude")
    p.add_argument("--agent-bin", help="the agent's binary, if not the default on PATH")
    p.add_argument("--model", help="model to ask the agent for (default: the agent's own)")
    p.add_argument("--isolation", choices=("tmp", "vm"), default="tmp")
    p.add_argument("--keep-transcripts", type=Path, help="directory to keep transcripts in")
    p.add_argument("--est-tokens", type=int, help="tokens per session assumed by the estimate")
    p.add_argument("--usd-per-mtok", type=float, default=3.0, help="price the estimate assumes")


def check_isolation(isolation: str) -> None:
    """--isolation vm wants a sandbox CLI and a kernel; say which is missing."""
    if isolation != "vm":
        return
    sandbox = os.environ.get("LENS_SANDBOX")
    kernel = os.environ.get("LENS_SANDBOX_KERNEL")
    if not sandbox:
        raise PreflightError("preflight: --isolation vm: LENS_SANDBOX (the sandbox CLI) is not set")
    if not (Path(sandbox).is_file() and os.access(sandbox, os.X_OK)):
        raise PreflightError(f"preflight: --isolation vm: LENS_SANDBOX={sandbox} is not executable")
    if not kernel:
        raise PreflightError("preflight: --isolation vm: LENS_SANDBOX_KERNEL is not set")
    if not Path(kernel).is_file():
        raise PreflightError(f"preflight: --isolation vm: LENS_SANDBOX_KERNEL={kernel} not found")
    raise PreflightError(
        "preflight: --isolation vm: booting cells in the sandbox is not implemented by this "
        "harness yet; use --isolation tmp. Nothing was spent."
    )


def early_checks(driver: Driver, isolation: str) -> None:
    """The preflight's instant part, run before anything slow (such as building lens), so
    a missing binary, credential or sandbox fails in seconds."""
    check_isolation(isolation)
    driver.check_local()


def preflight(
    driver: Driver,
    tasks: list[Task],
    variants: list[Variant],
    *,
    model: str | None,
    isolation: str,
) -> None:
    """Everything that must hold before the first paid cell, cheapest checks first."""
    check_isolation(isolation)
    for variant in variants:
        if variant.prefix and not variant.tool:
            raise PreflightError(
                f"preflight: variant {variant.name} needs the lens binary: run `make build` "
                "or set LENS_BIN. Nothing was spent."
            )
    for task in tasks:
        missing = task.missing_tools()
        if missing:
            raise PreflightError(
                f"preflight: task {task.name} needs {', '.join(missing)} on PATH. "
                "Nothing was spent."
            )
    driver.preflight(model)


def header(benchmark: str, driver: Driver, model: str | None, isolation: str) -> dict:
    head = {
        "benchmark": benchmark,
        "driver": driver.name,
        "model": model or "(agent default)",
        "isolation": isolation,
        "recorded": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "commit": git_commit(),
    }
    if driver.instrument:
        head["instrument"] = driver.instrument
    return head


def git_commit() -> str:
    try:
        done = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return done.stdout.strip() or "unknown"
