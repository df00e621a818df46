//! `lens init aider|cline|roo|windsurf`: the instruction text where each agent reads its
//! rules, at user and project scope, beside files already there, and taken back out so the
//! tree is byte for byte what it was.

mod util;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use util::TestDir;

fn init(dir: &TestDir, args: &[&str]) -> Output {
    let mut all = vec!["init"];
    all.extend_from_slice(args);
    dir.lens(&all)
        .env("HOME", dir.path("home"))
        .current_dir(dir.path("project"))
        .output()
        .unwrap()
}

fn ok(dir: &TestDir, args: &[&str]) -> String {
    let output = init(dir, args);
    assert!(
        output.status.success(),
        "lens init {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Every file under `root` and its bytes, and every directory (as `None`), but for the
/// state directory `log/`, which holds the backups.
fn tree(root: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![root.to_owned()];
    let state = root.join("log");
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path == state {
                continue;
            }
            if path.is_dir() {
                out.insert(path.clone(), None);
                todo.push(path);
            } else {
                out.insert(path.clone(), Some(std::fs::read(&path).unwrap()));
            }
        }
    }
    out
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A home and a project that already hold rules of their own for every agent.
fn setup(name: &str) -> TestDir {
    let dir = TestDir::new(name);
    let (home, project) = (dir.path("home"), dir.path("project"));
    write(
        &project.join(".clinerules/01-style.md"),
        "# Style\n\nTabs.\n",
    );
    write(&project.join(".roo/rules/team.md"), "Use pnpm.");
    write(
        &project.join(".windsurf/rules/style.md"),
        "---\ntrigger: always_on\n---\nx\n",
    );
    write(
        &project.join(".aider.conf.yml"),
        "model: sonnet\nread:\n  - CONVENTIONS.md\nauto-commits: false\n",
    );
    write(&home.join(".aider.conf.yml"), "dark-mode: true");
    write(
        &home.join(".codeium/windsurf/memories/global_rules.md"),
        "Answer in English.",
    );
    std::fs::create_dir_all(home.join("Documents")).unwrap();
    dir
}

/// Where each agent's text lands, at each scope, relative to the test directory.
const PLACES: &[(&str, &str, &str)] = &[
    ("aider", "project/.aider.lens.md", "home/.aider.lens.md"),
    (
        "cline",
        "project/.clinerules/lens.md",
        "home/Documents/Cline/Rules/lens.md",
    ),
    (
        "roo",
        "project/.roo/rules/lens.md",
        "home/.roo/rules/lens.md",
    ),
    (
        "windsurf",
        "project/.windsurf/rules/lens.md",
        "home/.codeium/windsurf/memories/global_rules.md",
    ),
];

#[test]
fn each_agent_installs_at_both_scopes_and_uninstalls_to_the_same_bytes() {
    for &(agent, project_file, user_file) in PLACES {
        let dir = setup(&format!("instr-{agent}"));
        let before = tree(&dir.root);
        for scope in [&["--project"][..], &[][..]] {
            let args = |extra: &[&'static str]| {
                let mut a = vec![agent];
                a.extend_from_slice(scope);
                a.extend_from_slice(extra);
                a
            };
            let dry = ok(&dir, &args(&["--dry-run"]));
            assert!(
                dry.contains("+ ") && dry.contains("--lines"),
                "{agent}: {dry}"
            );
            assert_eq!(
                tree(&dir.root),
                before,
                "{agent} {scope:?}: --dry-run wrote"
            );
            let first = ok(&dir, &args(&[]));
            assert!(first.contains("undo with"), "{agent}: {first}");
            let installed = tree(&dir.root);
            let again = ok(&dir, &args(&[]));
            assert!(again.contains("already installed"), "{agent}: {again}");
            assert_eq!(tree(&dir.root), installed, "{agent}: idempotent");
            let file = if scope.is_empty() {
                user_file
            } else {
                project_file
            };
            let text = std::fs::read_to_string(dir.path(file)).unwrap();
            assert!(
                text.contains("lens show 1a2b3c4d --lines 10-51") && text.contains("--grep"),
                "{agent}: {text}"
            );
            let listed = ok(&dir, &["--list"]);
            let scope_word = if scope.is_empty() { "user" } else { "project" };
            assert!(
                listed
                    .lines()
                    .any(|l| l.starts_with(&format!("{agent}\t{scope_word}\t"))
                        && l.ends_with("\tinstalled")),
                "{agent}: {listed}"
            );
            ok(&dir, &args(&["--uninstall"]));
            assert_eq!(
                tree(&dir.root),
                before,
                "{agent} {scope:?}: uninstall left a trace"
            );
            let gone = ok(&dir, &args(&["--uninstall"]));
            assert!(gone.contains("not installed"), "{agent}: {gone}");
        }
    }
}

#[test]
fn a_file_someone_else_edits_is_backed_up_before_the_change() {
    let dir = setup("instr-backup");
    ok(&dir, &["windsurf"]);
    let backups: Vec<String> = std::fs::read_dir(dir.log_dir().join("backups"))
        .unwrap()
        .flatten()
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    assert!(
        backups.contains(&"Answer in English.".to_owned()),
        "{backups:?}"
    );
    let rules = dir.path("home/.codeium/windsurf/memories/global_rules.md");
    let edited = std::fs::read_to_string(&rules)
        .unwrap()
        .replace("Answer in English.", "Answer in French.");
    std::fs::write(&rules, edited).unwrap();
    ok(&dir, &["windsurf", "--uninstall"]);
    assert_eq!(
        std::fs::read_to_string(&rules).unwrap(),
        "Answer in French."
    );
}

#[test]
fn an_edited_file_of_lens_s_own_is_left_with_an_error() {
    let dir = setup("instr-edited");
    ok(&dir, &["roo", "--project"]);
    let path = dir.path("project/.roo/rules/lens.md");
    let edited = std::fs::read_to_string(&path).unwrap() + "\nAlso: be brief.\n";
    std::fs::write(&path, &edited).unwrap();
    let output = init(&dir, &["roo", "--project", "--uninstall"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("was edited since lens wrote it"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    let output = init(&dir, &["roo", "--project"]);
    assert_eq!(output.status.code(), Some(1), "no second copy beside it");
}

#[test]
fn a_legacy_rules_file_the_new_one_would_silence_is_refused() {
    let dir = TestDir::new("instr-roorules");
    write(&dir.path("project/.roorules"), "Use pnpm.\n");
    let before = tree(&dir.root);
    let output = init(&dir, &["roo", "--project"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(".roorules` would stop being read"),
        "{stderr}"
    );
    assert_eq!(tree(&dir.root), before);
    // Once `.roo/rules/` holds a file, `.roorules` is not read anyway: nothing to protect.
    write(&dir.path("project/.roo/rules/a.md"), "x\n");
    ok(&dir, &["roo", "--project"]);
}

#[test]
fn a_clinerules_file_is_not_turned_into_a_directory() {
    let dir = TestDir::new("instr-clinerules-file");
    write(&dir.path("project/.clinerules"), "Old single-file rules.\n");
    let output = init(&dir, &["cline", "--project"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("is a file, not a directory"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(dir.path("project/.clinerules")).unwrap(),
        "Old single-file rules.\n"
    );
}

#[test]
fn an_aider_read_value_lens_cannot_extend_is_left_alone() {
    let dir = TestDir::new("instr-aider-scalar");
    write(
        &dir.path("project/.aider.conf.yml"),
        "read: CONVENTIONS.md\n",
    );
    let before = tree(&dir.root);
    let output = init(&dir, &["aider", "--project"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("add `.aider.lens.md` to it yourself"),
        "{stderr}"
    );
    assert_eq!(tree(&dir.root), before, "nothing half-installed");
}

#[test]
fn a_user_install_aider_would_not_read_in_this_project_says_so() {
    let dir = setup("instr-aider-note");
    let out = ok(&dir, &["aider"]);
    assert!(
        out.contains("has a `read:` list of its own") && out.contains("--project"),
        "{out}"
    );
    let out = ok(&dir, &["aider", "--project"]);
    assert!(!out.contains("note:"), "{out}");
}
