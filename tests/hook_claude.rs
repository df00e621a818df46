//! `lens hook claude [--post]` as Claude Code runs it: the built binary, a payload on
//! stdin, the answer on stdout. Payloads follow the shapes in Claude Code's hooks
//! reference (https://code.claude.com/docs/en/hooks, "PreToolUse input" and "PostToolUse
//! input") and the Bash tool's input and output schemas in `@anthropic-ai/claude-code`
//! 2.1.197; no Claude Code session was recorded for them. HOME points into the test's own
//! directory, so no real settings file is read.

mod util;

use serde_json::{Value, json};
use std::process::Output;
use util::TestDir;

fn hook(dir: &TestDir, args: &[&str], payload: &[u8]) -> Output {
    TestDir::feed(
        dir.lens(args)
            .env("HOME", dir.path("home"))
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CLAUDE_PROJECT_DIR"),
        payload,
    )
}

fn pre_payload(command: &str, cwd: &str) -> Value {
    json!({
        "session_id": "abc123",
        "transcript_path": "/home/u/.claude/projects/p/abc123.jsonl",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {
            "command": command,
            "description": "Run the test suite",
            "timeout": 120000,
            "run_in_background": false
        },
        "tool_use_id": "toolu_01ABC123"
    })
}

fn answer(output: &Output) -> Option<Value> {
    assert!(
        output.status.success(),
        "exit {:?}, stderr {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stderr.is_empty(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    assert!(
        !text.contains("permissionDecision"),
        "a permission decision: {text}"
    );
    (!text.is_empty()).then(|| serde_json::from_str(&text).expect("the answer is JSON"))
}

fn before(dir: &TestDir, payload: &Value) -> Option<Value> {
    answer(&hook(
        dir,
        &["hook", "claude"],
        payload.to_string().as_bytes(),
    ))
}

#[test]
fn a_helped_command_comes_back_with_lens_and_every_other_field() {
    let dir = TestDir::new("claude-pre");
    let payload = pre_payload("cd sub && cargo test", "/work/p");
    let answer = before(&dir, &payload).expect("a rewrite");
    let specific = &answer["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "PreToolUse");
    let mut expected = payload["tool_input"].clone();
    expected["command"] = json!("cd sub && lens cargo test");
    assert_eq!(specific["updatedInput"], expected);
    assert_eq!(answer.as_object().unwrap().len(), 1, "{answer}");
}

#[test]
fn commands_the_rewrite_leaves_alone_get_no_opinion() {
    let dir = TestDir::new("claude-alone");
    for command in [
        "ls | grep -v keep | xargs rm",
        "cargo test 2>&1 | tail",
        "echo hi",
        "lens cargo test",
        "cat <<EOF\nx\nEOF",
        "FOO=1 make",
    ] {
        assert_eq!(
            before(&dir, &pre_payload(command, "/")),
            None,
            "for `{command}`"
        );
    }
}

#[test]
fn malformed_payloads_get_no_opinion_quickly() {
    let dir = TestDir::new("claude-malformed");
    let mut payloads: Vec<Vec<u8>> = [
        "", "{", "null", "[]", "42", "\"Bash\"", "{}", r#"{"tool_name":"Bash"}"#,
        r#"{"tool_name":"Bash","tool_input":{}}"#,
        r#"{"tool_name":"Bash","tool_input":{"command":42}}"#,
        r#"{"tool_name":"Bash","tool_input":"cargo test"}"#,
        r#"{"tool_name":"Bash","tool_input":{"command":"cargo test","command":"rm -rf /"}}"#,
        r#"{"tool_name":"Bash","tool_name":"Bash","tool_input":{"command":"cargo test"}}"#,
        r#"{"tool_name":"Edit","tool_input":{"command":"cargo test"}}"#,
        r#"{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"cargo test"}}"#,
        r#"{"tool_name":"Bash","tool_input":{"command":"cargo test"}} trailing"#,
        r#"{"tool_name":"Bash","tool_input":{"command":"cargo test\ud800"}}"#,
    ]
    .iter()
    .map(|p| p.as_bytes().to_vec())
    .collect();
    payloads.push(b"{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"cargo \xff\"}}".to_vec());
    payloads.push(vec![b'['; 100_000]);
    for payload in &payloads {
        for args in [&["hook", "claude"][..], &["hook", "claude", "--post"][..]] {
            let started = std::time::Instant::now();
            let output = hook(&dir, args, payload);
            assert_eq!(
                answer(&output),
                None,
                "for {:?}",
                String::from_utf8_lossy(&payload[..payload.len().min(80)])
            );
            assert!(started.elapsed().as_millis() < 2000);
        }
    }
}

#[test]
fn a_minimal_documented_payload_is_enough() {
    let dir = TestDir::new("claude-minimal");
    let payload = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "make"}});
    let answer = before(&dir, &payload).expect("a rewrite");
    assert_eq!(
        answer["hookSpecificOutput"]["updatedInput"],
        json!({"command": "lens make"})
    );
}

#[test]
fn deny_and_ask_rules_keep_their_commands_untouched() {
    let dir = TestDir::new("claude-rules");
    std::fs::create_dir_all(dir.path("home/.claude")).unwrap();
    std::fs::write(
        dir.path("home/.claude/settings.json"),
        r#"{"permissions": {"deny": ["Bash(git push:*)", "Read(./.env)"], "allow": ["Bash(npm run lint)"]}, "model": "x"}"#,
    )
    .unwrap();
    let project = dir.path("project/sub");
    std::fs::create_dir_all(dir.path("project/.claude")).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        dir.path("project/.claude/settings.local.json"),
        r#"{"permissions": {"ask": ["Bash(npm publish:*)"]}}"#,
    )
    .unwrap();
    let cwd = project.display().to_string();
    assert_eq!(
        before(&dir, &pre_payload("git push origin main", &cwd)),
        None
    );
    assert_eq!(
        before(&dir, &pre_payload("cargo test && git push", &cwd)),
        None
    );
    assert_eq!(
        before(&dir, &pre_payload("npm publish --tag next", &cwd)),
        None
    );
    // Allowed without a prompt as typed; `lens npm run lint` would ask.
    assert_eq!(before(&dir, &pre_payload("npm run lint", &cwd)), None);
    let rewritten =
        before(&dir, &pre_payload("git status", &cwd)).expect("git status is not guarded");
    assert_eq!(
        rewritten["hookSpecificOutput"]["updatedInput"]["command"],
        "lens git status"
    );
}

#[test]
fn an_allow_rule_for_lens_itself_means_no_rewrite() {
    let dir = TestDir::new("claude-allow-lens");
    std::fs::create_dir_all(dir.path("home/.claude")).unwrap();
    std::fs::write(
        dir.path("home/.claude/settings.json"),
        r#"{"permissions": {"allow": ["Bash(lens:*)"]}}"#,
    )
    .unwrap();
    assert_eq!(before(&dir, &pre_payload("git push", "/")), None);
}

#[test]
fn an_unreadable_settings_file_means_no_rewrite() {
    let dir = TestDir::new("claude-bad-settings");
    std::fs::create_dir_all(dir.path("home/.claude")).unwrap();
    std::fs::write(dir.path("home/.claude/settings.json"), "{ not json").unwrap();
    assert_eq!(before(&dir, &pre_payload("cargo test", "/")), None);
}

fn post_payload(command: &str, stdout: &str, stderr: &str) -> Value {
    json!({
        "session_id": "abc123",
        "transcript_path": "/home/u/.claude/projects/p/abc123.jsonl",
        "cwd": "/work/p",
        "permission_mode": "default",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Build"},
        "tool_response": {"stdout": stdout, "stderr": stderr, "interrupted": false, "isImage": false},
        "tool_use_id": "toolu_01ABC123"
    })
}

fn after(dir: &TestDir, payload: &Value) -> Option<Value> {
    answer(&hook(
        dir,
        &["hook", "claude", "--post"],
        payload.to_string().as_bytes(),
    ))
}

fn noisy() -> String {
    let mut text: String = (1..=300)
        .map(|i| format!("   Compiling crate-{i} v0.1.{i}\n"))
        .collect();
    text.push_str("error[E0308]: mismatched types\n --> src/main.rs:2:5\n");
    text
}

#[test]
fn post_replaces_the_output_with_the_view_and_keeps_the_raw_by_handle() {
    let dir = TestDir::new("claude-post");
    let stderr = noisy();
    let payload = post_payload("cargo build 2>&1 | cat >&2", "", &stderr);
    let answer = after(&dir, &payload).expect("a replacement");
    let specific = &answer["hookSpecificOutput"];
    assert_eq!(specific["hookEventName"], "PostToolUse");
    let replaced = &specific["updatedToolOutput"];
    assert_eq!(replaced["interrupted"], false);
    assert_eq!(replaced["isImage"], false);
    assert_eq!(replaced["stdout"], "");
    let view = replaced["stderr"].as_str().unwrap();
    assert!(view.len() < stderr.len() / 4, "{view}");
    assert!(view.contains("error[E0308]: mismatched types"), "{view}");
    let marker = view
        .lines()
        .find(|l| l.starts_with("[lens: "))
        .expect("a marker");
    let handle = marker.trim_end_matches(']').rsplit(", ").next().unwrap()[..8].to_owned();
    assert_eq!(dir.show_raw(&handle, true), stderr.as_bytes());
}

#[test]
fn post_has_no_opinion_on_output_it_cannot_vouch_for() {
    let dir = TestDir::new("claude-post-alone");
    let big = noisy();
    assert_eq!(
        after(&dir, &post_payload("lens cargo build", &big, "")),
        None
    );
    assert_eq!(
        after(&dir, &post_payload("cargo build", "small\n", "")),
        None
    );
    let mut interrupted = post_payload("cargo build", &big, "");
    interrupted["tool_response"]["interrupted"] = json!(true);
    assert_eq!(after(&dir, &interrupted), None);
    let mut persisted = post_payload("cargo build", &big, "");
    persisted["tool_response"]["persistedOutputPath"] = json!("/tmp/out.txt");
    assert_eq!(after(&dir, &persisted), None);
    let mut image = post_payload("cat x.png", &big, "");
    image["tool_response"]["isImage"] = json!(true);
    assert_eq!(after(&dir, &image), None);
    let marked = format!("{big}[lens: 2 lines elided, 1-2, 0badcafe]\n");
    assert_eq!(after(&dir, &post_payload("cat old.log", &marked, "")), None);
    let mut pre = post_payload("cargo build", &big, "");
    pre["hook_event_name"] = json!("PreToolUse");
    assert_eq!(after(&dir, &pre), None);
}

#[test]
fn agents_lens_has_no_format_for_yet_get_no_opinion() {
    let dir = TestDir::new("other-agents");
    let payload = json!({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": "cargo test"}});
    for agent in ["codex", "copilot", "cursor", "opencode"] {
        for post in [false, true] {
            let mut args = vec!["hook", agent];
            if post {
                args.push("--post");
            }
            let output = hook(&dir, &args, payload.to_string().as_bytes());
            assert_eq!(answer(&output), None, "lens {args:?}");
        }
    }
    let typo = hook(&dir, &["hook", "claud"], b"{}");
    assert_eq!(typo.status.code(), Some(2));
}
