//! `lens init agents-md`: the instruction block in a project's AGENTS.md, added beside
//! what is there and taken back out byte for byte.

mod util;

use std::process::Output;
use util::TestDir;

fn init(dir: &TestDir, args: &[&str]) -> Output {
    let mut all = vec!["init", "agents-md"];
    all.extend_from_slice(args);
    let output = dir
        .lens(&all)
        .env("HOME", dir.path("home"))
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

fn project(name: &str, agents: Option<&str>) -> (TestDir, std::path::PathBuf) {
    let dir = TestDir::new(name);
    std::fs::create_dir_all(dir.path("project")).unwrap();
    let path = dir.path("project/AGENTS.md");
    if let Some(text) = agents {
        std::fs::write(&path, text).unwrap();
    }
    (dir, path)
}

#[test]
fn the_block_is_added_once_and_removed_byte_for_byte() {
    let original = "# Project\n\nRun `make check` before committing.";
    let (dir, path) = project("agents-add", Some(original));
    let shown = String::from_utf8(init(&dir, &["--dry-run"]).stdout).unwrap();
    assert!(
        shown
            .lines()
            .any(|l| l.starts_with("+ ") && l.contains("lens show")),
        "{shown}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    init(&dir, &[]);
    let installed = std::fs::read_to_string(&path).unwrap();
    assert!(installed.starts_with(original));
    assert!(installed.contains("--lines"));
    init(&dir, &[]);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        installed,
        "idempotent"
    );
    let backups = std::fs::read_dir(dir.log_dir().join("backups"))
        .unwrap()
        .count();
    assert_eq!(
        backups, 1,
        "the file before the change is kept in the state directory"
    );
    let listed = String::from_utf8(
        dir.lens(["init", "--list"])
            .env("HOME", dir.path("home"))
            .current_dir(dir.path("project"))
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(
        listed
            .lines()
            .any(|l| l.starts_with("agents-md\tproject\t") && l.ends_with("\tinstalled")),
        "{listed}"
    );
    init(&dir, &["--uninstall"]);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
}

#[test]
fn a_file_lens_created_is_removed_again() {
    let (dir, path) = project("agents-new", None);
    init(&dir, &[]);
    assert!(path.exists());
    init(&dir, &["--uninstall"]);
    assert!(!path.exists());
}

#[test]
fn edits_elsewhere_in_the_file_survive_the_uninstall() {
    let (dir, path) = project("agents-edited", Some("# Top\n"));
    init(&dir, &[]);
    let edited = std::fs::read_to_string(&path)
        .unwrap()
        .replace("# Top\n", "# Top, renamed\n")
        + "\n## Later\n";
    std::fs::write(&path, edited).unwrap();
    init(&dir, &["--uninstall"]);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "# Top, renamed\n\n## Later\n"
    );
}
