//! What git prints as content: a log's `commit <sha>` lines, a diff's `diff --git` file
//! headers and `@@` hunk headers, and status's `(use "git add" ...)` hints. Also the diff
//! `rustfmt --check` (and `cargo fmt --check`) prints, one `Diff in src/a.rs:96:` line over
//! each hunk: that line heads a file and a hunk at once.
//!
//! These are read only on the stdout of a command whose family is content (`git log`,
//! `git diff`, `git show`, and a diff or log printed by anything else): there every line is
//! the answer, and a line that says `error:` inside a diff is text, not a failure.

use super::sw;
use crate::block::{Doc, Marks, Role};

/// The role of a content line.
pub(crate) fn content_role(t: &str) -> Role {
    let trimmed = t.trim_start();
    if sw(trimmed, "(use \"git ") || sw(trimmed, "(commit or discard") {
        Role::Noise
    } else if sw(t, "diff --git ")
        || is_commit_line(t)
        || is_listing_header(t)
        || rustfmt_file(t).is_some()
    {
        Role::Header
    } else {
        Role::Plain
    }
}

/// The marks of a content line: where a commit, a file of a diff or a hunk starts, and
/// the tally closing a `--stat` (` 25 files changed, 1170 insertions(+), 488 deletions(-)`).
pub(crate) fn content_marks(t: &str) -> Marks {
    if is_commit_line(t) {
        Marks::COMMIT
    } else if sw(t, "diff --git ") {
        Marks::DIFF_FILE
    } else if rustfmt_file(t).is_some() {
        Marks::DIFF_FILE | Marks::HUNK
    } else if sw(t, "@@ ") && t[3..].contains(" @@") {
        Marks::HUNK
    } else if is_stat_tally(t) {
        Marks::TALLY
    } else {
        Marks::NONE
    }
}

/// `Diff in /src/a.rs:96:`, or before rustfmt 1.5 `Diff in /src/a.rs at line 96:`: the
/// file a hunk of rustfmt's check is in.
pub(crate) fn rustfmt_file(t: &str) -> Option<&str> {
    let place = t.strip_prefix("Diff in ")?.strip_suffix(':')?;
    let (path, line) = place
        .rsplit_once(" at line ")
        .or_else(|| place.rsplit_once(':'))?;
    (!path.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()))
        .then_some(path)
}

/// ` 3 files changed, 12 insertions(+), 4 deletions(-)`, ` 1 file changed, 2 deletions(-)`.
fn is_stat_tally(t: &str) -> bool {
    let Some(rest) = t.strip_prefix(' ') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && (sw(&rest[digits..], " files changed") || sw(&rest[digits..], " file changed"))
}

/// The path a `--stat` line counts the changes of: ` src/cli.rs      |  49 ++--` or
/// ` logo.png | Bin 0 -> 1520 bytes`. git shortens a long path from the left (`.../a.rs`).
/// Only a path with a directory or an extension: ` total | 12 +` in a table names no file.
pub(crate) fn stat_path(t: &str) -> Option<&str> {
    let rest = t.strip_prefix(' ')?;
    let (path, count) = rest.split_once(" | ")?;
    let path = path.trim_end();
    let count = count.trim_start();
    let changes = count.bytes().take_while(u8::is_ascii_digit).count();
    let counted = changes > 0
        && count[changes..]
            .trim_start()
            .bytes()
            .all(|b| b == b'+' || b == b'-');
    let binary = sw(count, "Bin ");
    let pathlike = path.contains(['/', '.']) && !path.contains(char::is_whitespace);
    (pathlike && (counted || binary)).then_some(path)
}

/// How soon a diff's file goes when the diff must be cut: 0 for source and a build's
/// manifest, 1 for prose and configuration (a changelog, the docs, a CI workflow, a
/// dotfile such as `.gitignore`), 2 for
/// what a tool generated (a lockfile's checksums, a signature, a minified bundle, a
/// snapshot). The changed lines of source are what a diff is read for.
pub(crate) fn diff_file_rank(path: &str) -> u8 {
    let name = path.rsplit('/').next().unwrap_or(path);
    const GENERATED: &[&str] = &[
        "Cargo.lock",
        "package-lock.json",
        "npm-shrinkwrap.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "poetry.lock",
        "Pipfile.lock",
        "uv.lock",
        "go.sum",
        "composer.lock",
        "Gemfile.lock",
        "flake.lock",
    ];
    let generated = GENERATED.contains(&name)
        || [
            ".min.js", ".min.css", ".map", ".snap", ".pb.go", ".lock", ".asc", ".sig",
        ]
        .iter()
        .any(|e| name.ends_with(e));
    let lower = name.to_ascii_lowercase();
    // A build's manifest says which dependencies and features the code relies on.
    const MANIFESTS: &[&str] = &[
        "Cargo.toml",
        "package.json",
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "go.mod",
        "CMakeLists.txt",
        "Makefile",
    ];
    if MANIFESTS.contains(&name) {
        return 0;
    }
    let prose = [
        "changelog",
        "changes",
        "news",
        "authors",
        "readme",
        "license",
        "copying",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
        || [
            ".md", ".rst", ".txt", ".adoc", ".yml", ".yaml", ".toml", ".json", ".ini", ".cfg",
        ]
        .iter()
        .any(|e| lower.ends_with(e))
        || is_man_page(&lower)
        || name.starts_with('.')
        || path.starts_with(".github/")
        || path.split('/').any(|dir| dir == "doc" || dir == "docs");
    if generated {
        2
    } else if prose {
        1
    } else {
        0
    }
}

/// `hyperfine.1`, `rg.1`, `printf.3p`: a manual page, whose section is its extension (a
/// digit, maybe with letters after it). Not a version's digits (`v1.2`).
fn is_man_page(name: &str) -> bool {
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        let mut ext = ext.bytes();
        stem.ends_with(|c: char| c.is_ascii_alphabetic())
            && ext.next().is_some_and(|b| (b'1'..=b'9').contains(&b))
            && ext.all(|b| b.is_ascii_lowercase())
    })
}

/// Does `text` open as a log of commits or a diff (`commit 1a2b3c4...`, `diff --git a/x
/// b/x`), whatever printed it: a script that runs `git log`, a program printing a saved
/// patch. It is read as the content it is, commits and hunks and all.
pub(crate) fn opens_as_content(text: &str) -> bool {
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim_end_matches('\r');
    is_commit_line(first) || sw(first, "diff --git ") || rustfmt_file(first).is_some()
}

/// `./static/admin/js:` (or `.:`, `/etc/ssh:`, `lib/email/mime:`): the header `ls -R`
/// prints over each directory's entries. A bare `lib:` is not told from a line of code
/// (`else:`), so only a path with a `/` in it counts, or `.`.
pub(crate) fn is_listing_header(t: &str) -> bool {
    t.strip_suffix(':').is_some_and(|dir| {
        (dir == "." || dir.contains('/'))
            && !dir.starts_with(char::is_whitespace)
            && !dir.contains(':')
            && !dir.ends_with(' ')
    })
}

/// `819bd51d Some cleaning in the new table API`: a commit as `git log --oneline` (or a
/// `--format` that starts with `%h`) prints it, its abbreviated id then its subject.
fn is_oneline_commit(t: &str) -> bool {
    let hex = t
        .bytes()
        .take_while(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
        .count();
    (7..=40).contains(&hex) && t[hex..].starts_with(' ') && t.len() > hex + 1
}

/// Mark each commit of a log printed one commit a line: a stream that opens with one and
/// is such lines throughout (nine in ten of its lines, and at least three). Read by the
/// stream, as a line by itself could be a hex dump's.
pub(crate) fn oneline_commits(doc: &mut Doc) {
    let lines: Vec<usize> = (0..doc.lines.len())
        .filter(|&i| !doc.clean(i).trim().is_empty())
        .collect();
    let commits: Vec<usize> = lines
        .iter()
        .copied()
        .filter(|&i| is_oneline_commit(&doc.clean(i)))
        .collect();
    let opens = lines
        .first()
        .is_some_and(|first| commits.first() == Some(first));
    if !opens || commits.len() < 3 || commits.len() * 10 < lines.len() * 9 {
        return;
    }
    for i in commits {
        doc.lines[i].marks.add(Marks::COMMIT);
    }
}

/// The id of the commit a line marked [`Marks::COMMIT`] opens: `commit 1a2b3c4d...` or a
/// one-line log's `1a2b3c4d subject`.
pub(crate) fn commit_id(raw: &str) -> &str {
    let rest = raw.strip_prefix("commit ").unwrap_or(raw);
    rest.split(' ')
        .next()
        .unwrap_or(rest)
        .trim_end_matches('\r')
}

fn is_commit_line(t: &str) -> bool {
    t.strip_prefix("commit ").is_some_and(|rest| {
        let hex = rest.bytes().take_while(u8::is_ascii_hexdigit).count();
        hex >= 7
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_of_one_line_commits_is_read_by_the_stream() {
        use crate::pipeline::parse::parse;
        let log = "819bd51d Some cleaning\n65ac7895 detail (comment)\n1a2b3c4 (tag: v5) Bump\n";
        let mut doc = parse(log);
        oneline_commits(&mut doc);
        assert!(doc.lines.iter().all(|l| l.marks.has(Marks::COMMIT)));
        assert_eq!(commit_id(doc.raw(2)), "1a2b3c4");
        assert_eq!(commit_id("commit 1a2b3c4d5e (HEAD)"), "1a2b3c4d5e");
        // A file of source that happens to open with a hex word is not a log.
        let mut doc = parse("deadbeef is a word\nfn main() {}\n}\n\n");
        oneline_commits(&mut doc);
        assert!(doc.lines.iter().all(|l| !l.marks.has(Marks::COMMIT)));
    }

    #[test]
    fn commits_files_and_hunks() {
        assert_eq!(content_marks("commit 1a2b3c4d5e6f"), Marks::COMMIT);
        assert_eq!(content_marks("commit message"), Marks::NONE);
        assert_eq!(content_marks("diff --git a/x b/x"), Marks::DIFF_FILE);
        assert_eq!(content_marks("@@ -1,3 +1,4 @@ fn main"), Marks::HUNK);
        assert_eq!(content_marks("@@ not a hunk"), Marks::NONE);
        let rustfmt = "Diff in /tmp/itoa/src/lib.rs:96:";
        assert_eq!(content_marks(rustfmt), Marks::DIFF_FILE | Marks::HUNK);
        assert_eq!(rustfmt_file(rustfmt), Some("/tmp/itoa/src/lib.rs"));
        assert_eq!(
            rustfmt_file("Diff in src/a.rs at line 7:"),
            Some("src/a.rs")
        );
        assert_eq!(rustfmt_file("Diff in the docs:"), None);
        let tally = " 25 files changed, 1170 insertions(+), 488 deletions(-)";
        assert_eq!(content_marks(tally), Marks::TALLY);
        assert_eq!(
            content_marks(" 1 file changed, 2 deletions(-)"),
            Marks::TALLY
        );
        assert_eq!(
            content_marks("    25 files changed in this release"),
            Marks::NONE
        );
        assert_eq!(content_role("  (use \"git add <file>...\")"), Role::Noise);
        assert_eq!(content_role("./static/admin/js:"), Role::Header);
        assert_eq!(content_role(".:"), Role::Header);
        assert_eq!(content_role("else:"), Role::Plain);
        assert_eq!(content_role("lib/email/mime:"), Role::Header);
        assert_eq!(content_role("    x = {'a/b':"), Role::Plain);
        assert_eq!(content_role("./a.py:3: note: x:"), Role::Plain);
        // grep's hit on a line that ends with a colon.
        assert_eq!(
            content_role("httpx/_models.py:45:class Response:"),
            Role::Plain
        );
    }

    #[test]
    fn stat_lines_name_their_paths() {
        let line = " src/benchmark/relative_speed.rs   | 108 ++++++---";
        assert_eq!(stat_path(line), Some("src/benchmark/relative_speed.rs"));
        assert_eq!(
            stat_path(" .../flags/doc/template.rg.1 |   5 +"),
            Some(".../flags/doc/template.rg.1")
        );
        assert_eq!(
            stat_path(" logo.png | Bin 0 -> 1520 bytes"),
            Some("logo.png")
        );
        assert_eq!(stat_path(" a | b"), None);
        assert_eq!(stat_path("+x = a | 3"), None);
        assert_eq!(stat_path(" x = y | 3 or more"), None);
        assert_eq!(stat_path(" total | 12 +"), None);
    }

    #[test]
    fn a_log_or_diff_is_known_by_its_first_line() {
        assert!(opens_as_content(
            "commit 3fce3b5bb0236da2df6d99672afb8a719642eca7\nAuthor: a\n"
        ));
        assert!(opens_as_content("\ndiff --git a/x b/x\nindex 1..2\n"));
        assert!(!opens_as_content("running 3 tests\ncommit 3fce3b5bb02\n"));
        assert!(!opens_as_content("commit message: fix it\n"));
    }

    #[test]
    fn lockfiles_go_before_prose_before_source() {
        assert_eq!(diff_file_rank("crates/core/src/lib.rs"), 0);
        assert_eq!(diff_file_rank("CHANGELOG.md"), 1);
        assert_eq!(diff_file_rank(".github/workflows/ci.yml"), 1);
        assert_eq!(diff_file_rank("crates/core/Cargo.toml"), 0);
        assert_eq!(diff_file_rank("NEWS"), 1);
        assert_eq!(diff_file_rank("doc/hyperfine.1"), 1);
        assert_eq!(diff_file_rank("crates/core/flags/doc/template.rg.1"), 1);
        assert_eq!(diff_file_rank("docs/conf.py"), 1);
        assert_eq!(diff_file_rank("src/v1.2"), 0);
        assert_eq!(diff_file_rank("src/docstring.py"), 0);
        assert_eq!(diff_file_rank("tests/shtest"), 0);
        assert_eq!(diff_file_rank("sig/v1.8.2/jq-1.8.2.tar.gz.asc"), 2);
        assert_eq!(diff_file_rank("Cargo.lock"), 2);
        assert_eq!(diff_file_rank("web/package-lock.json"), 2);
    }
}
