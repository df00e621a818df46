//! `lens init claude` on settings files as a user has them: the built binary, HOME in the
//! test's own directory. The settings shape is Claude Code's documented one (hooks
//! reference, "Configuration"); `claude_code_accepts_what_init_writes` also has a real
//! `@anthropic-ai/claude-code` check the file offline when LENS_CLAUDE_BIN names its binary.

mod util;

use std::process::{Command, Output};
use util::TestDir;

const EXISTING: &str = r#"{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(npm run lint)"],
    "deny": ["Bash(curl:*)"]
  },
  "hooks": {
    "PostToolUse": [
      {
        "matcher": "Write|Edit",
        "hooks": [
          { "type": "command", "command": "prettier --write \"$CLAUDE_FILE_PATHS\"" }
        ]
      }
    ]
  },
  "env": { "BIG": 12345678901234567890123 }
}
"#;

fn init(dir: &TestDir, args: &[&str]) -> Output {
    let mut all = vec!["init"];
    all.extend_from_slice(args);
    let output = dir
        .lens(&all)
        .env("HOME", dir.path("home"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .current_dir(dir.path("project"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "lens {all:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn setup(name: &str, existing: Option<&str>) -> (TestDir, std::path::PathBuf) {
    let dir = TestDir::new(name);
    std::fs::create_dir_all(dir.path("project")).unwrap();
    let settings = dir.path("home/.claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    if let Some(text) = existing {
        std::fs::write(&settings, text).unwrap();
    }
    (dir, settings)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn dry_run_prints_the_change_and_writes_nothing() {
    let (dir, settings) = setup("init-dry", Some(EXISTING));
    let shown = stdout(&init(&dir, &["claude", "--dry-run"]));
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), EXISTING);
    assert!(!dir.path("home/.claude/settings.json.lens-backup").exists());
    let added: Vec<&str> = shown.lines().filter(|l| l.starts_with("+ ")).collect();
    assert!(
        added.iter().any(|l| l.ends_with(" hook claude\"")),
        "{shown}"
    );
    assert!(
        added.iter().any(|l| l.ends_with(" hook claude --post\"")),
        "{shown}"
    );
    assert!(
        !shown.lines().any(|l| l.starts_with("- ")),
        "nothing of the user's is removed:\n{shown}"
    );
    // The dry run shows exactly what the install then writes.
    init(&dir, &["claude"]);
    let written = std::fs::read_to_string(&settings).unwrap();
    let after_lines: Vec<String> = shown
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("- "))
        .map(|l| l[2..].to_owned())
        .collect();
    assert_eq!(after_lines.join("\n") + "\n", written);
}

#[test]
fn install_keeps_every_unrelated_setting_and_hook_and_is_idempotent() {
    let (dir, settings) = setup("init-keep", Some(EXISTING));
    init(&dir, &["claude"]);
    let once = std::fs::read_to_string(&settings).unwrap();
    let value = json(&settings);
    assert_eq!(value["model"], "opus");
    assert_eq!(value["permissions"]["deny"][0], "Bash(curl:*)");
    assert!(
        once.contains("12345678901234567890123"),
        "a big number survives as written"
    );
    let post = value["hooks"]["PostToolUse"].as_array().unwrap();
    assert_eq!(post.len(), 2);
    assert_eq!(post[0]["matcher"], "Write|Edit");
    assert_eq!(post[1]["matcher"], "Bash");
    assert!(
        post[1]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with("/lens hook claude --post")
    );
    let pre = value["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 1);
    assert_eq!(pre[0]["hooks"][0]["type"], "command");
    assert!(
        pre[0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with("/lens hook claude")
    );
    assert_eq!(
        std::fs::read_to_string(dir.path("home/.claude/settings.json.lens-backup")).unwrap(),
        EXISTING
    );
    let again = stdout(&init(&dir, &["claude"]));
    assert!(again.contains("already installed"), "{again}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), once);
}

#[test]
fn the_backup_and_the_state_are_as_private_as_the_settings() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, settings) = setup("init-private", Some(EXISTING));
    std::fs::set_permissions(&settings, std::fs::Permissions::from_mode(0o600)).unwrap();
    init(&dir, &["claude"]);
    for side in ["settings.json.lens-backup", "settings.json.lens-init"] {
        let mode = std::fs::metadata(settings.with_file_name(side))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{side}");
    }
}

#[test]
fn uninstall_restores_the_file_byte_for_byte() {
    let (dir, settings) = setup("init-restore", Some(EXISTING));
    init(&dir, &["claude"]);
    init(&dir, &["claude", "--uninstall"]);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), EXISTING);
    let left: Vec<_> = std::fs::read_dir(settings.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["settings.json"], "backup and state are gone");
}

#[test]
fn uninstall_after_other_edits_removes_exactly_what_init_added() {
    let (dir, settings) = setup("init-edited", Some(EXISTING));
    init(&dir, &["claude"]);
    let mut value = json(&settings);
    value["theme"] = serde_json::json!("dark");
    std::fs::write(&settings, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    init(&dir, &["claude", "--uninstall"]);
    let after = json(&settings);
    let mut expected: serde_json::Value = serde_json::from_str(EXISTING).unwrap();
    expected["theme"] = serde_json::json!("dark");
    assert_eq!(after, expected);
}

#[test]
fn project_scope_without_a_file_is_undone_completely() {
    let (dir, _) = setup("init-project", None);
    let shown = stdout(&init(&dir, &["claude", "--project"]));
    let settings = dir.path("project/.claude/settings.json");
    assert!(shown.contains("--uninstall --project"), "{shown}");
    assert!(json(&settings)["hooks"]["PreToolUse"].is_array());
    let listed = stdout(&init(&dir, &["--list"]));
    assert!(
        listed.lines().any(|l| l.starts_with("claude\tproject\t")
            && l.ends_with("installed (PreToolUse, PostToolUse)")),
        "{listed}"
    );
    assert!(
        listed
            .lines()
            .any(|l| l.starts_with("claude\tuser\t") && l.contains("not installed")),
        "{listed}"
    );
    init(&dir, &["claude", "--project", "--uninstall"]);
    assert!(
        !dir.path("project/.claude").exists(),
        "the directory init created is gone"
    );
}

#[test]
fn a_file_lens_cannot_read_is_left_alone_with_an_error() {
    let (dir, settings) = setup("init-broken", Some("{ \"model\": "));
    let output = dir
        .lens(["init", "claude"])
        .env("HOME", dir.path("home"))
        .current_dir(dir.path("project"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("is not a JSON object lens can edit"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), "{ \"model\": ");
}

#[test]
fn a_compact_file_stays_compact() {
    let compact = r#"{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}"#;
    let (dir, settings) = setup("init-compact", Some(compact));
    init(&dir, &["claude"]);
    let text = std::fs::read_to_string(&settings).unwrap();
    assert_eq!(text.trim_end().lines().count(), 1, "{text}");
    assert_eq!(
        json(&settings)["hooks"]["Stop"][0]["hooks"][0]["command"],
        "say done"
    );
    init(&dir, &["claude", "--uninstall"]);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), compact);
}

/// `claude doctor` reads every settings file and lists the ones that fail Claude Code's
/// schema under "Invalid settings", without a network connection. It draws with a
/// terminal UI, so it runs under `script` for a pseudo-terminal.
fn doctor_complaints(claude: &str, home: &std::path::Path) -> String {
    let log = home.join("doctor.txt");
    let _ = Command::new("timeout")
        .args([
            "120",
            "script",
            "-qc",
            &format!("{claude} doctor"),
            &log.display().to_string(),
        ])
        .env("HOME", home)
        .env("ANTHROPIC_API_KEY", "sk-offline")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .current_dir(home)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script runs");
    let raw = String::from_utf8_lossy(&std::fs::read(&log).unwrap_or_default()).into_owned();
    // Drop terminal control sequences (ESC [ ... final byte), then all blanks: the UI
    // moves the cursor instead of printing spaces.
    let mut squeezed = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            if chars.next() == Some('[') {
                for n in chars.by_ref() {
                    if ('@'..='~').contains(&n) {
                        break;
                    }
                }
            }
        } else if !c.is_whitespace() {
            squeezed.push(c);
        }
    }
    assert!(
        squeezed.contains("Diagnostics"),
        "claude doctor did not run:\n{raw}"
    );
    squeezed
}

#[test]
#[ignore = "needs Claude Code: set LENS_CLAUDE_BIN to the claude binary from @anthropic-ai/claude-code"]
fn claude_code_accepts_what_init_writes() {
    let claude = std::env::var("LENS_CLAUDE_BIN").expect("LENS_CLAUDE_BIN is set");
    let (dir, settings) = setup("init-doctor", Some(r#"{"permissions": {"deny": 5}}"#));
    // The check can fail: a file Claude Code rejects is reported.
    assert!(doctor_complaints(&claude, &dir.path("home")).contains("Invalidsettings"));
    std::fs::write(&settings, EXISTING).unwrap();
    init(&dir, &["claude"]);
    let report = doctor_complaints(&claude, &dir.path("home"));
    assert!(
        !report.contains("Invalidsettings"),
        "Claude Code rejects the file:\n{report}"
    );
}

#[test]
fn gemini_gets_one_before_tool_entry_and_gives_it_back() {
    let dir = TestDir::new("init-gemini");
    std::fs::create_dir_all(dir.path("project")).unwrap();
    let settings = dir.path("home/.gemini/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let existing = "{\n  \"theme\": \"GitHub\",\n  \"selectedAuthType\": \"oauth-personal\"\n}\n";
    std::fs::write(&settings, existing).unwrap();
    let shown = stdout(&init(&dir, &["gemini"]));
    assert!(
        shown.contains("added BeforeTool hooks for run_shell_command"),
        "{shown}"
    );
    let value = json(&settings);
    assert_eq!(value["theme"], "GitHub");
    let groups = value["hooks"]["BeforeTool"].as_array().unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0]["matcher"], "run_shell_command");
    assert!(
        groups[0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with("/lens hook gemini")
    );
    assert!(value["hooks"].get("AfterTool").is_none());
    assert!(stdout(&init(&dir, &["gemini"])).contains("already installed"));
    let listed = stdout(&init(&dir, &["--list"]));
    assert!(
        listed
            .lines()
            .any(|l| l.starts_with("gemini\tuser\t") && l.ends_with("installed (BeforeTool)")),
        "{listed}"
    );
    init(&dir, &["gemini", "--uninstall"]);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), existing);
    assert!(
        !dir.path("home/.claude/settings.json").exists(),
        "Claude's file is not touched"
    );
}
