//! `[hook] exclude` and the hook's log records, through the built binary as an agent runs
//! it: `lens hook claude [--post]` (and `lens hook gemini`) with LENS_CONFIG pointing at
//! the test's own config. Payloads have the shapes tests/hook_claude.rs documents.

mod util;

use serde_json::{Value, json};
use util::TestDir;

fn hook(dir: &TestDir, args: &[&str], payload: &Value) -> Option<Value> {
    let output = TestDir::feed(
        dir.lens(args)
            .env("HOME", dir.path("home"))
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CLAUDE_PROJECT_DIR"),
        payload.to_string().as_bytes(),
    );
    assert!(output.status.success(), "exit {:?}", output.status);
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    (!text.is_empty()).then(|| serde_json::from_str(&text).expect("JSON"))
}

fn pre(command: &str) -> Value {
    json!({
        "session_id": "abc123",
        "cwd": "/work/p",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run it"},
        "tool_use_id": "toolu_01ABC123"
    })
}

fn post(command: &str, stderr: &str) -> Value {
    json!({
        "session_id": "abc123",
        "cwd": "/work/p",
        "hook_event_name": "PostToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command, "description": "Run it"},
        "tool_response": {"stdout": "", "stderr": stderr, "interrupted": false, "isImage": false},
        "tool_use_id": "toolu_01ABC123"
    })
}

fn rewritten(dir: &TestDir, command: &str) -> Option<String> {
    hook(dir, &["hook", "claude"], &pre(command)).map(|answer| {
        answer["hookSpecificOutput"]["updatedInput"]["command"]
            .as_str()
            .unwrap()
            .to_owned()
    })
}

fn noisy() -> String {
    let mut text: String = (1..=300)
        .map(|i| format!("   Compiling crate-{i} v0.1.{i}\n"))
        .collect();
    text.push_str("error[E0308]: mismatched types\n --> src/main.rs:2:5\n");
    text
}

#[test]
fn excluded_commands_are_never_rewritten_and_their_output_never_replaced() {
    let dir = TestDir::new("hook-exclude");
    // Without the key, both are rewritten: the control for what follows.
    assert_eq!(
        rewritten(&dir, "cargo test").as_deref(),
        Some("lens cargo test")
    );
    assert!(
        hook(
            &dir,
            &["hook", "claude", "--post"],
            &post("terraform plan | tee p", &noisy())
        )
        .is_some()
    );
    std::fs::write(
        dir.config(),
        "[hook]\nexclude = [\"cargo test\", \"terraform\"]\n",
    )
    .unwrap();
    for command in [
        "cargo test",
        "cargo test --lib",
        "cd x && cargo test",
        "make && cargo test",
    ] {
        assert_eq!(rewritten(&dir, command), None, "{command}");
    }
    assert_eq!(
        rewritten(&dir, "cargo build").as_deref(),
        Some("lens cargo build"),
        "only what the list names"
    );
    for command in [
        "terraform plan | tee p",
        "cd infra && terraform plan 2>&1",
        "timeout 600 terraform apply",
        "out=$(terraform output -json)",
    ] {
        let answer = hook(
            &dir,
            &["hook", "claude", "--post"],
            &post(command, &noisy()),
        );
        assert_eq!(answer, None, "{command}");
    }
    assert!(
        hook(
            &dir,
            &["hook", "claude", "--post"],
            &post("cargo build | tee b", &noisy())
        )
        .is_some()
    );
    let gemini = json!({
        "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "cargo test"}
    });
    assert_eq!(hook(&dir, &["hook", "gemini"], &gemini), None);
}

#[test]
fn a_config_that_cannot_be_read_means_no_rewrite() {
    let dir = TestDir::new("hook-exclude-broken");
    std::fs::write(dir.config(), "[hook]\nexclude = \"terraform\"\n").unwrap();
    assert_eq!(rewritten(&dir, "cargo test"), None);
}

#[test]
fn replacements_and_rewrites_are_logged_and_counted_by_stats() {
    let dir = TestDir::new("hook-log");
    let stderr = noisy();
    let answer = hook(
        &dir,
        &["hook", "claude", "--post"],
        &post("cargo build 2>&1 | cat >&2", &stderr),
    )
    .expect("a replacement");
    let view = answer["hookSpecificOutput"]["updatedToolOutput"]["stderr"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        rewritten(&dir, "cd x && make").as_deref(),
        Some("cd x && lens make")
    );
    let log = dir.log();
    assert_eq!(log.len(), 2, "{log:?}");
    let replaced = &log[0];
    assert_eq!(replaced["mode"], "hook");
    assert_eq!(
        replaced["argv"],
        json!(["sh", "-c", "cargo build 2>&1 | cat >&2"])
    );
    assert_eq!(replaced["cwd"], "/work/p");
    assert_eq!(replaced["exit"], 0);
    assert_eq!(
        replaced["raw"],
        json!({"stdout": 0, "stderr": stderr.len()})
    );
    assert_eq!(
        replaced["shown"],
        json!({"stdout": 0, "stderr": view.len()})
    );
    let handle = replaced["handle"].as_str().unwrap();
    assert!(
        view.contains(handle),
        "the logged handle is the one in the view"
    );
    let line = std::fs::read_to_string(dir.log_dir().join("lens.log")).unwrap();
    assert!(
        !line.contains("Compiling crate-"),
        "never the output: {line}"
    );
    assert_eq!(log[1]["mode"], "rewrite");
    assert_eq!(log[1]["argv"], json!(["sh", "-c", "cd x && lens make"]));

    let stats = dir.run(["stats", "--json"]);
    let report: Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(report["hooks"]["rewrites"], 1);
    assert_eq!(report["hooks"]["replaced"], 1);
    assert_eq!(
        report["hooks"]["saved"],
        (stderr.len() - view.len()) as i64,
        "{report}"
    );
    assert_eq!(report["runs"]["captured"], 0);
    let human = String::from_utf8(dir.run(["stats"]).stdout).unwrap();
    assert!(
        human.contains(
            "lens hook: 1 commands rewritten (their runs are counted above); 1 outputs replaced"
        ),
        "{human}"
    );
}

#[test]
fn a_log_that_cannot_be_written_changes_no_answer() {
    let good = TestDir::new("hook-log-good");
    let blocked = TestDir::new("hook-log-blocked");
    std::fs::write(
        blocked.log_dir(),
        "a file where the log directory should be",
    )
    .unwrap();
    let payload = post("cargo build 2>&1 | cat >&2", &noisy());
    let strip = |mut answer: Value| {
        // The handle differs between the two runs; everything else must not.
        let view = answer["hookSpecificOutput"]["updatedToolOutput"]["stderr"]
            .as_str()
            .unwrap()
            .to_owned();
        let handle = view.rsplit(", ").next().unwrap()[..8].to_owned();
        answer["hookSpecificOutput"]["updatedToolOutput"]["stderr"] =
            json!(view.replace(&handle, "HANDLE"));
        answer
    };
    let with_log = hook(&good, &["hook", "claude", "--post"], &payload).map(strip);
    let without = hook(&blocked, &["hook", "claude", "--post"], &payload).map(strip);
    assert!(with_log.is_some());
    assert_eq!(with_log, without);
    assert_eq!(
        rewritten(&blocked, "cargo build").as_deref(),
        Some("lens cargo build")
    );
}
