"""The scripted driver's agent: a deterministic stand-in with a fixed policy.

THIS IS A TEST INSTRUMENT. It runs no model and its token counts are not a measurement of
any model; they are a documented function of the bytes it read, so that both harnesses can
run end to end with no network and no credentials, and every number they report can be
derived by hand from the policy below.

Policy, for each step of the task's [scripted] table, in order:
  1. run the step's command as the variant renders it, and read stdout then stderr;
  2. if the step's needle (a regular expression) is not in what it read: if the view holds
     a lens marker, ask the store for the raw output (`lens show <handle> --level 3`, then
     with --stderr); otherwise, or if that did not have it either, rerun the command
     without the filter in front;
  3. if the needle was found, make the step's edit (replace a string in a file, or write
     the needle's capture group to a file); if it was not, skip the edit;
then rerun each `confirm` command once, or read back each written file when there is none.

Tokens, reported in Claude Code's stream-json schema so the same parser reads them:
    input_tokens  = ceil(prompt bytes / 4) + sum over tool results of ceil(bytes / 4)
    output_tokens = 100 * (tool calls + 1)          (one turn per call, plus the last)
    num_turns     = tool calls + 1

Usage: scripted.py POLICY.json  (run in the task's working directory; see cell.py)
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from pathlib import Path

INSTRUMENT = (
    "test instrument: deterministic scripted stand-in agent; tokens = ceil(prompt/4) "
    "+ sum(ceil(tool result bytes/4)) + 100 per turn; not a measurement of any model"
)
TURN_TOKENS = 100
MARKER = re.compile(r"^\[lens: (\d+) lines? elided, (\d+)-(\d+), ([0-9a-f]{8})(?:: (.*))?\]$")


def quarter(n: int) -> int:
    return math.ceil(n / 4)


class Agent:
    def __init__(self, policy: dict) -> None:
        self.policy = policy
        self.calls = 0
        self.input_tokens = quarter(len(policy["prompt"].encode()))
        self.emit({"type": "system", "subtype": "init", "model": "scripted", "tools": ["Bash"]})

    @staticmethod
    def emit(obj: dict) -> None:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    def tool(self, name: str, args: dict, run) -> str:
        """Announce a tool call, perform it, hand its result back; return the result."""
        self.calls += 1
        ident = f"toolu_{self.calls:02d}"
        block = {"type": "tool_use", "id": ident, "name": name, "input": args}
        self.emit(
            {
                "type": "assistant",
                "message": {
                    "id": f"msg_{self.calls:02d}",
                    "role": "assistant",
                    "content": [block],
                    "usage": {"input_tokens": 0, "output_tokens": TURN_TOKENS},
                },
            }
        )
        text, failed = run()
        self.input_tokens += quarter(len(text.encode()))
        result = {"type": "tool_result", "tool_use_id": ident, "content": text}
        if failed:
            result["is_error"] = True
        self.emit({"type": "user", "message": {"role": "user", "content": [result]}})
        return text

    def bash(self, command: str) -> str:
        def run():
            done = subprocess.run(
                ["sh", "-c", command], capture_output=True, text=True, timeout=600
            )
            return done.stdout + done.stderr, done.returncode != 0

        return self.tool("Bash", {"command": command}, run)

    def find(self, step: dict) -> re.Match | None:
        needle = re.compile(step["needle"], re.MULTILINE)
        view = self.bash(self.policy["commands"][step["command"]])
        found = needle.search(view)
        if found:
            return found
        handles = []
        for line in view.splitlines():
            marker = MARKER.match(line)
            if marker and marker.group(4) not in handles:
                handles.append(marker.group(4))
        for handle in handles[:1]:
            for extra in ("", " --stderr"):
                found = needle.search(self.bash(f"lens show {handle} --level 3{extra}"))
                if found:
                    return found
        return needle.search(self.bash(self.policy["plain"][step["command"]]))

    def edit(self, step: dict, found: re.Match) -> str:
        if "replace" in step:
            spec = step["replace"]

            def run():
                path = Path(spec["path"])
                text = path.read_text()
                if spec["old"] not in text:
                    return f"String to replace not found in {spec['path']}", True
                path.write_text(text.replace(spec["old"], spec["new"], 1))
                return f"The file {spec['path']} has been updated.", False

            self.tool("Edit", {"file_path": spec["path"], "old_string": spec["old"]}, run)
            return spec["path"]
        spec = step["write"]
        content = found.group(spec.get("group", 0)) + "\n"

        def run():
            Path(spec["path"]).write_text(content)
            return f"File created successfully at: {spec['path']}", False

        self.tool("Write", {"file_path": spec["path"], "content": content}, run)
        return spec["path"]

    def run(self) -> None:
        edited, missed = [], []
        for step in self.policy["steps"]:
            found = self.find(step)
            if found:
                edited.append(self.edit(step, found))
            else:
                missed.append(step["command"])
        for key in self.policy.get("confirm", []):
            self.bash(self.policy["commands"][key])
        if not self.policy.get("confirm"):
            for path in edited:

                def read(path=path):
                    return Path(path).read_text(), False

                self.tool("Read", {"file_path": path}, read)
        summary = "done" if not missed else f"needle not found for: {', '.join(missed)}"
        self.emit(
            {
                "type": "result",
                "subtype": "success",
                "is_error": False,
                "num_turns": self.calls + 1,
                "result": f"{summary} ({INSTRUMENT})",
                "usage": {
                    "input_tokens": self.input_tokens,
                    "output_tokens": TURN_TOKENS * (self.calls + 1),
                    "cache_read_input_tokens": 0,
                    "cache_creation_input_tokens": 0,
                },
            }
        )


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: scripted.py POLICY.json", file=sys.stderr)
        return 2
    Agent(json.loads(Path(argv[0]).read_text())).run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
