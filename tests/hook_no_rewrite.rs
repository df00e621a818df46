//! `lens hook codex|copilot|cursor`: agents whose hooks can rewrite a command only by
//! approving it (see `init.rs`). A hook configured by hand gets "no opinion" in each
//! agent's terms: exit 0, nothing on stdout or stderr, whatever the payload. The payloads
//! follow each agent's documentation: Codex's PreToolUse input (openai/codex
//! `codex-rs/hooks` schema: `hook_event_name`, `tool_name: "Bash"`, `tool_input.command`),
//! Copilot CLI's `preToolUse` in both documented formats (camelCase with `toolArgs`, and
//! the VS Code compatible snake_case), and Cursor's `beforeShellExecution` (`command` and
//! `cwd` at the top level).

mod util;

use serde_json::json;
use util::TestDir;

fn answer(dir: &TestDir, args: &[&str], payload: &[u8]) -> std::process::Output {
    TestDir::feed(&mut dir.lens(args), payload)
}

#[test]
fn every_payload_is_no_opinion() {
    let dir = TestDir::new("hook-no-rewrite");
    let codex = json!({
        "session_id": "s", "transcript_path": null, "cwd": "/work/p",
        "hook_event_name": "PreToolUse", "model": "gpt-5", "permission_mode": "default",
        "tool_name": "Bash", "tool_use_id": "call_1",
        "tool_input": {"command": "cargo test"}
    });
    let copilot = json!({
        "sessionId": "s", "timestamp": 1764590400000u64, "cwd": "/work/p",
        "toolName": "bash", "toolArgs": "{\"command\":\"cargo test\",\"description\":\"tests\"}"
    });
    let copilot_vscode = json!({
        "hook_event_name": "PreToolUse", "session_id": "s",
        "timestamp": "2026-12-01T12:00:00.000Z", "cwd": "/work/p",
        "tool_name": "bash", "tool_input": {"command": "cargo test"}
    });
    let cursor = json!({
        "hook_event_name": "beforeShellExecution", "conversation_id": "c",
        "generation_id": "g", "workspace_roots": ["/work/p"],
        "command": "cargo test", "cwd": "/work/p"
    });
    for (agent, payload) in [
        ("codex", codex),
        ("copilot", copilot),
        ("copilot", copilot_vscode),
        ("cursor", cursor),
    ] {
        for post in [false, true] {
            let mut args = vec!["hook", agent];
            if post {
                args.push("--post");
            }
            for bytes in [payload.to_string().into_bytes(), b"{".to_vec(), Vec::new()] {
                let output = answer(&dir, &args, &bytes);
                assert_eq!(output.status.code(), Some(0), "{agent} {output:?}");
                assert!(
                    output.stdout.is_empty() && output.stderr.is_empty(),
                    "{agent}: {output:?}"
                );
            }
        }
    }
}
