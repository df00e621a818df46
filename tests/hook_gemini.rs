//! `lens hook gemini [--post]` as Gemini CLI runs it: the built binary, a payload shaped
//! as the hooks reference and the `run_shell_command` parameters in gemini-cli's source
//! describe it (no Gemini CLI session was recorded), the answer on stdout.

mod util;

use serde_json::{Value, json};
use util::TestDir;

fn hook(dir: &TestDir, post: bool, payload: &[u8]) -> Option<Value> {
    let mut args = vec!["hook", "gemini"];
    if post {
        args.push("--post");
    }
    let output = TestDir::feed(&mut dir.lens(&args), payload);
    assert!(output.status.success(), "exit {:?}", output.status);
    assert!(
        output.stderr.is_empty(),
        "stderr is read by Gemini CLI: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(!text.contains("decision"), "{text}");
    (!text.is_empty()).then(|| serde_json::from_str(&text).unwrap())
}

fn payload(command: &str) -> Value {
    json!({
        "session_id": "s1",
        "transcript_path": "/home/u/.gemini/tmp/chats/s1.json",
        "cwd": "/work/p",
        "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-01T12:00:00.000Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": command, "description": "Run the tests", "dir_path": "/work/p"}
    })
}

#[test]
fn before_tool_rewrites_only_the_command() {
    let dir = TestDir::new("gemini-before");
    let answer = hook(
        &dir,
        false,
        payload("cargo fmt && cargo test").to_string().as_bytes(),
    )
    .expect("a rewrite");
    assert_eq!(
        answer,
        json!({"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"command": "lens cargo fmt && lens cargo test"}}})
    );
}

#[test]
fn everything_else_gets_no_opinion() {
    let dir = TestDir::new("gemini-alone");
    for command in [
        "cargo test 2>&1 | tail",
        "ls | grep -v keep | xargs rm",
        "echo hi",
        "lens make",
    ] {
        assert_eq!(
            hook(&dir, false, payload(command).to_string().as_bytes()),
            None,
            "{command}"
        );
    }
    let mut after = payload("cargo test");
    after["hook_event_name"] = json!("AfterTool");
    after["tool_response"] = json!({"llmContent": "Output: ok", "returnDisplay": "ok"});
    assert_eq!(hook(&dir, true, after.to_string().as_bytes()), None);
    for bad in [
        "",
        "{",
        "[]",
        r#"{"tool_name":"run_shell_command","tool_input":{"command":7}}"#,
    ] {
        assert_eq!(hook(&dir, false, bad.as_bytes()), None, "{bad}");
        assert_eq!(hook(&dir, true, bad.as_bytes()), None, "{bad}");
    }
}
