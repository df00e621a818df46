"""Shared machinery of the agent-in-the-loop benchmarks (bench/runner.py, bench/session.py).

tasks       load bench/tasks/<task>/, build a working directory, verify a copy of it
variants    what stands in front of a task's command: raw, a lens level, another filter
transcript  read tokens, tool calls and tool-result bytes from an agent's stream-json
drivers     how each agent CLI is started, preflighted and parsed
scripted    the deterministic stand-in agent (a test instrument, never a measurement)
cell        run one (task, variant) session from a clean directory and classify it
stats       medians, the knee, the paired permutation test and the bootstrap interval
"""
