//! `lens init codex|copilot|cursor|opencode`: the agents lens wires in through a file (an
//! instruction block, a Cursor rule, an OpenCode plugin), on a HOME and a project as a
//! user has them: installed beside what is there, idempotent, `--dry-run` writing nothing,
//! `--uninstall` giving back every byte, `--list` saying where.

mod util;

use std::path::Path;
use std::process::Output;
use util::TestDir;

fn init(dir: &TestDir, args: &[&str]) -> Output {
    let mut all = vec!["init"];
    all.extend_from_slice(args);
    let output = dir
        .lens(&all)
        .current_dir(dir.path("project"))
        .env("HOME", dir.path("home"))
        .env_remove("CODEX_HOME")
        .env_remove("COPILOT_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "lens {}\nstdout:\n{}\nstderr:\n{}",
        all.join(" "),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn text(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Every file under `root`, with its bytes, to compare a tree before and after.
fn tree(root: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.push((format!("{}/", path.display()), Vec::new()));
                stack.push(path);
            } else {
                out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// Install, install again, uninstall: the project and HOME come back as they were.
fn round_trip(agent: &str, scope: &[&str], file: &str, existing: Option<&str>) {
    let dir = TestDir::new(&format!("init-{agent}"));
    std::fs::create_dir_all(dir.path("home")).unwrap();
    std::fs::create_dir_all(dir.path("project")).unwrap();
    let path = dir.path(file);
    if let Some(existing) = existing {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, existing).unwrap();
    }
    let snapshot = || (tree(&dir.path("home")), tree(&dir.path("project")));
    let before = snapshot();
    let args = |extra: &[&'static str]| -> Vec<&str> {
        let mut a = vec![agent];
        a.extend_from_slice(scope);
        a.extend_from_slice(extra);
        a
    };

    let dry = text(&init(&dir, &args(&["--dry-run"])));
    assert!(dry.contains("would"), "{dry}");
    assert!(dry.lines().any(|l| l.starts_with("+ ")), "{dry}");
    assert_eq!(snapshot(), before, "--dry-run wrote something");

    init(&dir, &args(&[]));
    let installed = std::fs::read_to_string(&path).unwrap();
    assert!(
        installed.contains(&format!("lens init {agent}")),
        "{installed}"
    );
    if let Some(existing) = existing {
        assert!(installed.starts_with(existing), "{installed}");
    }
    let again = text(&init(&dir, &args(&[])));
    assert!(again.contains("already installed"), "{again}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), installed);

    let list = text(&init(&dir, &["--list"]));
    let line = format!("{agent}\t");
    assert!(
        list.lines()
            .any(|l| l.starts_with(&line) && l.contains(file) && l.ends_with("\tinstalled")),
        "{list}"
    );

    let undo = text(&init(&dir, &args(&["--uninstall", "--dry-run"])));
    assert!(undo.contains("would"), "{undo}");
    init(&dir, &args(&["--uninstall"]));
    assert_eq!(snapshot(), before, "--uninstall left a difference");
    let twice = text(&init(&dir, &args(&["--uninstall"])));
    assert!(twice.contains("nothing changed"), "{twice}");
}

#[test]
fn codex_gets_the_block_in_its_agents_md_at_both_scopes() {
    round_trip("codex", &[], "home/.codex/AGENTS.md", None);
    round_trip(
        "codex",
        &[],
        "home/.codex/AGENTS.md",
        Some("# Global rules\n\nno newline at the end"),
    );
}

#[test]
fn copilot_gets_the_block_in_its_instruction_files() {
    round_trip(
        "copilot",
        &[],
        "home/.copilot/copilot-instructions.md",
        Some("Prefer small commits.\n"),
    );
}

#[test]
fn cursor_gets_a_rule_of_its_own_and_opencode_a_plugin() {
    round_trip("cursor", &[], "project/.cursor/rules/lens.mdc", None);
    round_trip(
        "opencode",
        &[],
        "home/.config/opencode/plugins/lens.js",
        None,
    );
}

#[test]
fn project_scope_writes_under_the_current_directory() {
    let dir = TestDir::new("init-files-project");
    let project = |p: &str| dir.path("project").join(p);
    std::fs::create_dir_all(project(".cursor/rules")).unwrap();
    std::fs::write(project(".cursor/rules/style.mdc"), "---\n---\nTabs.\n").unwrap();
    init(&dir, &["codex", "--project"]);
    init(&dir, &["copilot", "--project"]);
    init(&dir, &["cursor"]);
    init(&dir, &["opencode", "--project"]);
    let agents = std::fs::read_to_string(project("AGENTS.md")).unwrap();
    assert!(
        agents.contains("remove with `lens init codex --project --uninstall`"),
        "{agents}"
    );
    assert!(project(".github/copilot-instructions.md").exists());
    assert!(project(".opencode/plugins/lens.js").exists());
    for agent in ["codex", "copilot", "opencode"] {
        init(&dir, &[agent, "--project", "--uninstall"]);
    }
    init(&dir, &["cursor", "--uninstall"]);
    for gone in [
        "AGENTS.md",
        ".github",
        ".opencode",
        ".cursor/rules/lens.mdc",
    ] {
        assert!(!project(gone).exists(), "{gone} is still there");
    }
    // A directory that was there before stays, with the user's rule in it.
    assert_eq!(
        std::fs::read_to_string(project(".cursor/rules/style.mdc")).unwrap(),
        "---\n---\nTabs.\n"
    );
}

#[test]
fn a_file_lens_did_not_write_is_never_replaced_or_removed() {
    let dir = TestDir::new("init-files-foreign");
    std::fs::create_dir_all(dir.path("project")).unwrap();
    let plugin = dir.path("home/.config/opencode/plugins/lens.js");
    std::fs::create_dir_all(plugin.parent().unwrap()).unwrap();
    std::fs::write(&plugin, "export const Mine = async () => ({})\n").unwrap();
    for args in [&["opencode"][..], &["opencode", "--uninstall"][..]] {
        let mut all = vec!["init"];
        all.extend_from_slice(args);
        let output = dir
            .lens(&all)
            .env("HOME", dir.path("home"))
            .env_remove("XDG_CONFIG_HOME")
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        assert_eq!(
            std::fs::read_to_string(&plugin).unwrap(),
            "export const Mine = async () => ({})\n"
        );
    }
}
