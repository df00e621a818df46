//! A command wrapped in `bash -c` gets the view the bare command gets, whatever quoting
//! the string uses (issue 8, defect 1).
//!
//! The search runs over a copy of this repository's `src/`, taken once, so every run
//! reads the same tree in the same directory order and prints the same bytes.

mod util;

use std::path::Path;
use util::TestDir;

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// The run's stdout view with its handle masked, and its raw stdout from the store.
fn view_and_raw(dir: &TestDir, args: &[&str]) -> (String, Vec<u8>) {
    let output = dir.run(args);
    assert!(output.status.success(), "`lens {}` failed", args.join(" "));
    let handle = dir.last_handle();
    let view = String::from_utf8(output.stdout)
        .unwrap()
        .replace(&handle, "<handle>");
    (view, dir.show_raw(&handle, false))
}

#[test]
fn issue_8_a_grep_wrapped_in_bash_gets_the_bare_greps_view() {
    let dir = TestDir::new("shell-wrapped-grep");
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &dir.path("src"),
    );
    // A budget well under the search's size, so the view is a cut, not the raw output.
    let lens = ["--budget", "3000"];
    let bare: Vec<&str> = lens
        .iter()
        .copied()
        .chain(["grep", "-rn", "unwrap()", "src"])
        .collect();
    let (expected, raw) = view_and_raw(&dir, &bare);
    assert!(
        expected.len() < raw.len() && expected.contains("[lens: "),
        "the bare view should be a cut of the {} raw bytes:\n{expected}",
        raw.len()
    );
    for script in [
        "grep -rn 'unwrap()' src",
        "grep -rn unwrap\\(\\) src",
        "grep -rn \"unwrap()\" src",
        "cd . && grep -rn 'unwrap()' src 2>&1",
        "timeout 30 env A=1 grep -rn 'unwrap()' src",
    ] {
        let wrapped: Vec<&str> = lens.iter().copied().chain(["bash", "-c", script]).collect();
        let (view, wrapped_raw) = view_and_raw(&dir, &wrapped);
        assert_eq!(wrapped_raw, raw, "`{script}` printed other output");
        assert!(
            view == expected,
            "`bash -c \"{script}\"` got another view\n--- bare ---\n{expected}\n--- wrapped ---\n{view}"
        );
    }
}
