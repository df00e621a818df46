//! `lens hook opencode --post` and the plugin `lens init opencode` writes. The payload is
//! what the plugin forwards: `input.tool`, `input.args`, `output.output` and
//! `output.metadata` of OpenCode's `tool.execute.after` hook, in the shape the bash tool of
//! the `opencode-linux-x64` 1.18.33 binary (npm registry) produces (`exit`, `truncated`,
//! `timeout` in the metadata), not recorded from a running OpenCode. The plugin itself is
//! loaded with Node, which runs the same ES module OpenCode's Bun runtime does; without
//! `node` on PATH those tests say they were skipped.

mod util;

use serde_json::{Value, json};
use std::process::Command;
use util::TestDir;

fn hook(dir: &TestDir, args: &[&str], payload: &[u8]) -> (bool, String) {
    let output = TestDir::feed(&mut dir.lens(args), payload);
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

fn progress() -> String {
    (0..400)
        .map(|i| format!("Downloading crate {i} of 400\n"))
        .collect::<String>()
        + "error: build failed\n"
}

fn payload(command: &str, output: &str, metadata: Value) -> Vec<u8> {
    json!({
        "tool": "bash",
        "args": {"command": command, "timeout": 120000},
        "output": output,
        "metadata": metadata,
        "cwd": "/work/p",
    })
    .to_string()
    .into_bytes()
}

#[test]
fn long_output_becomes_the_view_and_the_raw_output_is_stored() {
    let dir = TestDir::new("opencode-post");
    let raw = progress();
    let (ok, answer) = hook(
        &dir,
        &["hook", "opencode", "--post"],
        &payload(
            "sh ./build.sh",
            &raw,
            json!({"exit": 1, "truncated": false}),
        ),
    );
    assert!(ok);
    let answer: Value = serde_json::from_str(&answer).expect("an answer");
    let view = answer["output"].as_str().unwrap();
    assert_eq!(answer.as_object().unwrap().len(), 1, "{answer}");
    assert!(view.len() < raw.len() / 4, "{view}");
    assert!(view.contains("error: build failed"), "{view}");
    let marker = regex::Regex::new(r"\[lens: \d+ lines elided, (\d+-\d+), ([0-9a-f]{8})\]")
        .unwrap()
        .captures(view)
        .unwrap_or_else(|| panic!("no marker in\n{view}"));
    let shown = dir.run(["show", &marker[2], "--lines", &marker[1]]);
    assert!(shown.status.success());
    let lines: Vec<&str> = raw.lines().collect();
    let (a, b) = marker[1].split_once('-').unwrap();
    let (a, b): (usize, usize) = (a.parse().unwrap(), b.parse().unwrap());
    assert_eq!(
        String::from_utf8(shown.stdout).unwrap(),
        lines[a - 1..b].join("\n") + "\n"
    );
}

#[test]
fn anything_lens_cannot_vouch_for_is_no_opinion() {
    let dir = TestDir::new("opencode-none");
    let raw = progress();
    for bytes in [
        payload("sh ./b.sh", &raw, json!({"exit": 0, "truncated": true})),
        payload(
            "sh ./b.sh",
            &raw,
            json!({"exit": 0, "truncated": false, "timeout": true}),
        ),
        payload("sh ./b.sh", &raw, json!({"truncated": false})),
        // Cut by OpenCode, said only in the text: older releases, and the 1.18.33 note.
        payload(
            "sh ./b.sh",
            &format!("{raw}\n\n(Output was truncated due to length limit)"),
            json!({"exit": 0}),
        ),
        payload(
            "sh ./b.sh",
            &format!("{raw}\n...output truncated...\n\nFull output saved to: /tmp/t\n"),
            json!({"exit": 0, "truncated": false}),
        ),
        payload(
            "lens sh ./b.sh",
            &raw,
            json!({"exit": 0, "truncated": false}),
        ),
        payload(
            "sh ./b.sh",
            "a\nb\n",
            json!({"exit": 0, "truncated": false}),
        ),
        b"{\"tool\":\"bash\"".to_vec(),
        b"not json".to_vec(),
        Vec::new(),
    ] {
        let (ok, answer) = hook(&dir, &["hook", "opencode", "--post"], &bytes);
        assert!(ok && answer.is_empty(), "{answer}");
    }
    // Before the command there is nothing to say: OpenCode would check its permission rules
    // on a rewritten command.
    let (ok, answer) = hook(
        &dir,
        &["hook", "opencode"],
        &payload("cargo test", &raw, json!({"exit": 0})),
    );
    assert!(ok && answer.is_empty(), "{answer}");
}

/// Run the installed plugin's `tool.execute.after` under Node on `output`; returns the
/// output the model would be shown, or `None` when Node is missing.
fn through_plugin(plugin: &std::path::Path, dir: &TestDir, output: &str) -> Option<String> {
    let script = r#"
const [plugin, text] = process.argv.slice(1)
const { LensPlugin } = await import(plugin)
const hooks = await LensPlugin({ directory: process.cwd() })
const output = { title: "sh ./build.sh", output: text, metadata: { exit: 1, truncated: false } }
await hooks["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: "c", args: { command: "sh ./build.sh" } }, output)
process.stdout.write(output.output)
"#;
    let run = Command::new("node")
        .args(["--input-type=module", "-e", script, "--"])
        .arg(plugin)
        .arg(output)
        .current_dir(&dir.root)
        .env("LENS_STORE", dir.store())
        .env("LENS_LOG_DIR", dir.log_dir())
        .env("LENS_CONFIG", dir.config())
        .output();
    let run = match run {
        Ok(run) => run,
        Err(_) => {
            eprintln!("skipped: `node` is not on PATH, the plugin was not loaded");
            return None;
        }
    };
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    Some(String::from_utf8(run.stdout).unwrap())
}

#[test]
fn the_installed_plugin_replaces_the_output_and_fails_open() {
    let dir = TestDir::new("opencode-plugin");
    let init = dir
        .lens(["init", "opencode"])
        .env("HOME", dir.path("home"))
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap();
    assert!(init.status.success(), "{init:?}");
    let plugin = dir.path("home/.config/opencode/plugins/lens.js");
    let raw = progress();
    let Some(shown) = through_plugin(&plugin, &dir, &raw) else {
        return;
    };
    assert!(
        shown.contains("[lens: ") && shown.len() < raw.len() / 4,
        "{shown}"
    );

    // The same plugin pointing at a lens that is not there leaves the output alone.
    let text = std::fs::read_to_string(&plugin).unwrap();
    let missing = dir.path("missing.js");
    let line = text
        .lines()
        .find(|l| l.starts_with("const LENS = "))
        .unwrap();
    std::fs::write(
        &missing,
        text.replace(line, "const LENS = \"/nonexistent/lens\""),
    )
    .unwrap();
    assert_eq!(through_plugin(&missing, &dir, &raw).unwrap(), raw);
}
