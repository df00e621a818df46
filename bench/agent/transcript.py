"""Read an agent's own machine-readable output: tokens, tool calls, and the bytes of every
tool result, which is what the agent was actually handed.

Bytes are counted per tool result from the transcript, never from the command: a harness
that truncates a long output before the model sees it has already done most of the
filtering, and counting the command would credit the filter with a saving the control
never paid.

Two schemas. Claude Code's `--output-format stream-json` (one JSON object per line: a
system init, assistant messages whose content holds tool_use blocks, user messages whose
content holds tool_result blocks, and a final result carrying cumulative `usage` and
`num_turns`); its `--output-format json` is the same objects as one array, or only the
result. Cursor's agent CLI `--output-format stream-json` (tool_call events with subtype
started/completed, the call nested under a `<name>ToolCall` key, a shell call's result
under result.success.{stdout,stderr}, and a final result event). Field names follow the
vendors' published output-format documentation; anything unrecognised is skipped, not
fatal, so a new event type cannot turn a finished session into a crash.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass
class ToolResult:
    tool: str
    command: str  # the shell command for a shell tool, else ""
    bytes: int


@dataclass
class Transcript:
    tokens: int | None = None  # total tokens processed; None when none were reported
    token_parts: dict[str, int] = field(default_factory=dict)
    tool_calls: int = 0
    turns: int = 0
    results: list[ToolResult] = field(default_factory=list)
    finished: bool = False  # the final result event was seen
    is_error: bool = False
    events: int = 0

    @property
    def bytes_read(self) -> int:
        return sum(r.bytes for r in self.results)

    @property
    def commands(self) -> list[str]:
        return [r.command for r in self.results if r.command]


def _objects(text: str) -> list[dict]:
    """JSON objects from NDJSON, a single object, or an array of objects."""
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            whole = json.loads(stripped)
            return [o for o in whole if isinstance(o, dict)]
        except json.JSONDecodeError:
            pass
    out = []
    for line in stripped.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            out.append(obj)
    return out


def _text_bytes(content) -> int:
    """Bytes of a tool_result's content: a string, or a list of text blocks."""
    if isinstance(content, str):
        return len(content.encode())
    if isinstance(content, list):
        total = 0
        for block in content:
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                total += len(block["text"].encode())
            elif isinstance(block, str):
                total += len(block.encode())
        return total
    return 0


USAGE_KEYS = {
    "input": ("input_tokens", "inputTokens"),
    "output": ("output_tokens", "outputTokens"),
    "cache_read": ("cache_read_input_tokens", "cacheReadTokens"),
    "cache_write": ("cache_creation_input_tokens", "cacheWriteTokens"),
}


def _usage(usage) -> dict[str, int]:
    parts: dict[str, int] = {}
    if not isinstance(usage, dict):
        return parts
    for part, keys in USAGE_KEYS.items():
        for key in keys:
            if isinstance(usage.get(key), int):
                parts[part] = usage[key]
                break
    return parts


def parse_claude(text: str) -> Transcript:
    t = Transcript()
    calls: dict[str, tuple[str, str]] = {}
    per_message: dict[str, dict[str, int]] = {}  # assistant usage, for a cut-off session
    for obj in _objects(text):
        t.events += 1
        kind = obj.get("type")
        message = obj.get("message") if isinstance(obj.get("message"), dict) else {}
        content = message.get("content") if isinstance(message.get("content"), list) else []
        if kind == "assistant":
            # stream-json repeats one message per content block; count its usage once.
            key = str(message.get("id", f"#{t.events}"))
            usage = _usage(message.get("usage"))
            if usage:
                per_message[key] = usage
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    t.tool_calls += 1
                    args = block.get("input") if isinstance(block.get("input"), dict) else {}
                    command = args.get("command", "") if isinstance(args, dict) else ""
                    calls[str(block.get("id"))] = (str(block.get("name", "")), str(command))
        elif kind == "user":
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    tool, command = calls.get(str(block.get("tool_use_id")), ("", ""))
                    t.results.append(ToolResult(tool, command, _text_bytes(block.get("content"))))
        elif kind == "result":
            t.finished = True
            t.is_error = bool(obj.get("is_error")) or obj.get("subtype", "success") != "success"
            if isinstance(obj.get("num_turns"), int):
                t.turns = obj["num_turns"]
            parts = _usage(obj.get("usage"))
            if parts:
                t.token_parts = parts
    if not t.token_parts and per_message:
        for usage in per_message.values():
            for part, n in usage.items():
                t.token_parts[part] = t.token_parts.get(part, 0) + n
    if t.token_parts:
        t.tokens = sum(t.token_parts.values())
    if not t.turns:
        t.turns = len(per_message)
    return t


def _cursor_call(event: dict) -> tuple[str, dict]:
    call = event.get("tool_call") if isinstance(event.get("tool_call"), dict) else {}
    for key, body in call.items():
        if key.endswith("ToolCall") and isinstance(body, dict):
            return key[: -len("ToolCall")], body
    return "", {}


def parse_cursor(text: str) -> Transcript:
    t = Transcript()
    for obj in _objects(text):
        t.events += 1
        kind = obj.get("type")
        if kind == "assistant":
            t.turns += 1
        elif kind == "tool_call":
            tool, body = _cursor_call(obj)
            if obj.get("subtype") == "started":
                t.tool_calls += 1
            elif obj.get("subtype") == "completed":
                args = body.get("args") if isinstance(body.get("args"), dict) else {}
                result = body.get("result") if isinstance(body.get("result"), dict) else {}
                success = result.get("success")
                if tool == "shell" and isinstance(success, dict):
                    size = len(str(success.get("stdout", "")).encode()) + len(
                        str(success.get("stderr", "")).encode()
                    )
                else:
                    # Other tools' results are structured; their serialized size is the
                    # closest stand-in for what the model was handed.
                    size = len(json.dumps(result, separators=(",", ":")).encode())
                t.results.append(ToolResult(tool, str(args.get("command", "")), size))
        elif kind == "result":
            t.finished = True
            t.is_error = bool(obj.get("is_error")) or obj.get("subtype", "success") != "success"
            t.token_parts = _usage(obj.get("usage"))
            if t.token_parts:
                t.tokens = sum(t.token_parts.values())
    return t
