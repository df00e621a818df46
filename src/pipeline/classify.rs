//! Give every line a [`Role`]: what real tools print, recognised by shape.
//!
//! One pass over the blocks. A block's head is matched against the shapes of rustc and
//! cargo (diagnostics, status lines, `cargo test`), clippy, gcc/clang, tsc, eslint's
//! stylish format, ruff (full and concise), mypy, pytest, Python tracebacks, go
//! build/vet/test, jest and vitest; its continuation lines are read in the light of the
//! head (a gutter under a diagnostic is quoted source, an indented line under a traceback
//! is code, `1:7  error ...` under a bare path is an eslint finding). A small state
//! carries what only order tells: the line after `thread 'x' panicked at` is the panic
//! message, and inside pytest's FAILURES section code lines are quoted source.
//!
//! What is not recognised stays [`Role::Plain`]: an unknown shape is ordinary text, never
//! an error. The checks are cheap prefix tests; the few regexes run only on lines a
//! prefix test already picked out, because this runs on every line of a build log.
//!
//! When argv says the command prints content rather than diagnostics (`git diff`, `grep`,
//! `ls`, `find`, ...), stdout lines are not read as diagnostics: a diff that adds the
//! text `error: x` has not failed.

use crate::block::{Doc, Role, Stream};
use crate::command::CommandLine;
use crate::pipeline::locate;
use crate::pipeline::parse::is_cargo_status;
use crate::pipeline::shapes::cargo::status_role as cargo_status_role;
use crate::pipeline::shapes::git::{content_marks, content_role};
use crate::pipeline::shapes::jest::{indented_tally, mark_role as test_mark_role};
use crate::pipeline::shapes::pytest::is_tally as is_pytest_tally;
use crate::pipeline::shapes::{self, prefix_role, severity_role, sw};

/// What argv says the command prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Builds, tests, linters, scripts: read for diagnostics.
    Diagnostics,
    /// Every line is content the command was run for (a diff, matches, a listing).
    Content,
}

/// Decide the family from the resolved command (its program, and git's subcommand) and
/// the start of what it printed: a file printer's output is content unless it is a log
/// (`shapes::log`), and any other program's is content when it opens as a log of commits
/// or a diff.
pub fn family(command: &CommandLine, text: &str) -> Family {
    let content = match command.program.as_str() {
        "cat" | "head" | "tail" | "nl" | "sed" | "bat" => !shapes::log::looks_like_log(text),
        "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "ls" | "find" | "fd" | "tree"
        | "diff" | "du" | "wc" => true,
        "git" => matches!(
            command.subcommand.as_deref(),
            Some("diff" | "show" | "log" | "status" | "grep" | "blame" | "ls-files")
        ),
        // A script or program that printed a log of commits or a diff (`bash log.sh`,
        // `python3 -c "print(open('x.patch').read())"`).
        _ => shapes::git::opens_as_content(text),
    };
    if content {
        Family::Content
    } else {
        Family::Diagnostics
    }
}

/// What a passage of the stream is, as far as order tells.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Other,
    /// pytest's `=== FAILURES ===` / `=== ERRORS ===`: code lines are quoted source.
    PytestFailures,
    /// pytest's `--- Captured stdout call ---`: the test's own output.
    Captured,
}

/// Assign a role to every line of `doc`.
pub fn classify(doc: &mut Doc, family: Family, stream: Stream) {
    let content = family == Family::Content && stream == Stream::Stdout;
    let mut section = Section::Other;
    let mut panic_message_next = false;
    for b in 0..doc.block_count() {
        let block = doc.block(b);
        let first = block.first as usize;
        let head_text = doc.clean(first);
        if head_text.trim().is_empty() {
            for i in block.lines() {
                doc.lines[i].role = Role::Blank;
            }
            continue;
        }
        let rewritten = doc.lines[first].redrawn() && is_rewritten(doc.raw(first));
        let mut head = if content {
            content_role(&head_text)
        } else if rewritten {
            Role::Progress
        } else {
            match head_role(&head_text, section) {
                // A compiler's error inside a log record (pip's `--log`): read past the
                // record's stamp for a finding, and only for one.
                Role::Plain => shapes::log::after_stamp(&head_text)
                    .map(|rest| head_role(rest, section))
                    .filter(|role| role.is_finding())
                    .unwrap_or(Role::Plain),
                role => role,
            }
        };
        if panic_message_next && head == Role::Plain {
            head = Role::Error;
        }
        panic_message_next =
            head_text.trim_start().starts_with("thread '") && head_text.contains("panicked");
        section = next_section(&head_text, section);
        if !content
            && head == Role::Plain
            && is_ruff_head(&head_text, doc, first, block.end as usize)
        {
            head = Role::Error;
        }
        doc.lines[first].role = head;
        // A test's `✔ name` is one line: what follows it at the top of a stream that
        // opens indented (mocha's tests outside any describe block) is not its output, as
        // a log under go's `--- PASS: TestA` is.
        let owner = if head == Role::Pass && test_mark_role(head_text.trim_start()).is_some() {
            Role::Plain
        } else {
            head
        };
        let traceback = head_text.starts_with("Traceback (most recent call last)");
        let mut eslint_file = false;
        let mut previous = head;
        for i in first + 1..block.end as usize {
            let t = doc.clean(i);
            let role = if t.trim().is_empty() {
                Role::Blank
            } else if !content
                && (traceback || section != Section::Other)
                && previous == Role::Noise
                && t.starts_with([' ', '\t'])
                && !t.trim_start().starts_with("File \"")
            {
                // The code and carets under a library frame go with it.
                Role::Noise
            } else if content {
                content_role(&t)
            } else if doc.lines[i].redrawn() && is_rewritten(doc.raw(i)) {
                Role::Progress
            } else {
                let role = continuation_role(&t, owner, traceback, section);
                if let Some(found) = eslint_finding(&t) {
                    eslint_file = true;
                    found
                } else {
                    role
                }
            };
            // A panic's message under it, where the runner indents both (nextest's
            // captured stderr) and they are one block: the message says why it failed.
            let under_panic = |j: usize| {
                let above = doc.clean(j);
                let above = above.trim_start();
                above.starts_with("thread '") && above.contains("panicked")
            };
            let role = if role == Role::Plain
                && !content
                && t.starts_with([' ', '\t'])
                && under_panic(i - 1)
            {
                Role::Error
            } else {
                role
            };
            doc.lines[i].role = role;
            if role != Role::Blank {
                previous = role;
            }
        }
        if traceback && !content {
            keep_last_frame(doc, first + 1..block.end as usize);
        }
        if eslint_file && head == Role::Plain {
            // The bare path above eslint's findings is where they are.
            doc.lines[first].role = Role::Location;
        }
        if !content && block.end as usize == first + 2 && is_go_library_frame(&doc.clean(first + 1))
        {
            // A goroutine frame in the Go toolchain or a dependency: the function line
            // and its path go together, like a Python library frame.
            doc.lines[first].role = Role::Noise;
            doc.lines[first + 1].role = Role::Noise;
        }
    }
    if content {
        for i in 0..doc.lines.len() {
            doc.lines[i].marks = content_marks(&doc.clean(i));
        }
        shapes::git::oneline_commits(doc);
    } else {
        shapes::mark(doc);
    }
}

/// A traceback that passed through library frames only (a server's socket, the
/// interpreter's own modules) says where it failed in its last frame: that one is read
/// as a frame of the program's, with its code, and the rest stay noise.
fn keep_last_frame(doc: &mut Doc, lines: std::ops::Range<usize>) {
    let frames: Vec<usize> = lines
        .clone()
        .filter(|&i| locate::python_file(&doc.clean(i)).is_some())
        .collect();
    let Some(&last) = frames.last() else {
        return;
    };
    if frames.iter().any(|&i| doc.lines[i].role != Role::Noise) {
        return;
    }
    doc.lines[last].role = Role::Location;
    for i in last + 1..lines.end {
        if doc.lines[i].role != Role::Noise {
            break;
        }
        doc.lines[i].role = Role::Source;
    }
}

/// `\t/usr/local/go/src/testing/testing.go:1446 +0x10b`: the path line of a goroutine
/// frame, in the Go toolchain (`/go/src/`, `/usr/lib/go-1.19/`) or the module cache.
fn is_go_library_frame(t: &str) -> bool {
    let Some(path) = t.strip_prefix('\t') else {
        return false;
    };
    let path = path.split(' ').next().unwrap_or(path);
    locate::path_line(path).is_some_and(|(file, _)| {
        file.ends_with(".go")
            && (file.contains("/go/src/") || file.contains("/lib/go") || file.contains("/pkg/mod/"))
    })
}

/// A `\r` inside the line (not the one of a `\r\n` ending): a terminal redrew it.
fn is_rewritten(raw: &str) -> bool {
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    raw.contains('\r')
}

fn next_section(t: &str, section: Section) -> Section {
    if is_rule_line(t, '=') {
        if t.contains(" FAILURES ") || t.contains(" ERRORS ") {
            return Section::PytestFailures;
        }
        return Section::Other;
    }
    if section != Section::Other && is_rule_line(t, '-') && t.contains(" Captured ") {
        return Section::Captured;
    }
    if section == Section::Captured && is_rule_line(t, '_') {
        return Section::PytestFailures;
    }
    section
}

/// `==== title ====`: a line framed by runs of `c`.
fn is_rule_line(t: &str, c: char) -> bool {
    let t = t.trim_end();
    let run = [c as u8; 3];
    let bytes = t.as_bytes();
    bytes.len() > 6 && bytes.starts_with(&run) && bytes.ends_with(&run) && t.contains(' ')
}

/// ruff's full format opens a finding with `F401 [*] message` and puts the location on
/// the next line (` --> a.py:1:8`).
fn is_ruff_head(t: &str, doc: &Doc, first: usize, block_end: usize) -> bool {
    let code = t.split(' ').next().unwrap_or("");
    is_rule_code(code) && first + 1 < block_end && locate::arrow(&doc.clean(first + 1)).is_some()
}

/// `F401`, `E501`, `PLR0913`, `RUF100`: letters then digits.
pub(crate) fn is_rule_code(s: &str) -> bool {
    let letters = s.bytes().take_while(u8::is_ascii_uppercase).count();
    let digits = s.len() - letters;
    (1..=5).contains(&letters)
        && (1..=5).contains(&digits)
        && s[letters..].bytes().all(|b| b.is_ascii_digit())
}

fn head_role(t: &str, section: Section) -> Role {
    let bytes = t.as_bytes();
    let first = bytes[0];
    if first == b' ' || first == b'\t' {
        if is_cargo_status(bytes) {
            return cargo_status_role(t);
        }
        return indented_role(t.trim_start(), section);
    }
    if section == Section::Captured && !is_rule_line(t, '_') && !is_rule_line(t, '=') {
        return Role::Plain;
    }
    if sw(t, "note: run with `RUST_BACKTRACE=") {
        return Role::Noise;
    }
    if let Some(role) = severity_role(t) {
        return role;
    }
    if let Some((path, _, rest)) = locate::prefix(t) {
        if let Some(role) = severity_role(rest) {
            return role;
        }
        let code = rest.split(' ').next().unwrap_or("");
        if is_rule_code(code) || is_go_file(t) {
            // ruff/flake8 concise (`a.py:1:8: F401 ...`), go build and vet.
            return Role::Error;
        }
        if section == Section::PytestFailures {
            // `tests/test_a.py:3: AssertionError`; a frame in the standard library is noise.
            return if is_library_path(path) {
                Role::Noise
            } else {
                Role::Location
            };
        }
    }
    // `expected = ['a', 'b']`: pytest prints the arguments of each frame it shows over the
    // frame's source; in the frame that failed they are what was compared.
    if section == Section::PytestFailures && is_frame_argument(t) {
        return Role::Note;
    }
    match first {
        b'E' if sw(t, "E  ") || t == "E" => return Role::Error,
        b'>' if section == Section::PytestFailures => return Role::Source,
        b'_' if is_rule_line(t, '_')
            || section == Section::PytestFailures && shapes::pytest::is_title(t) =>
        {
            return if t.contains(" ERROR ") || t.contains("ERROR collecting") {
                Role::Error
            } else {
                Role::Fail
            };
        }
        b'=' if is_rule_line(t, '=') => {
            return if is_pytest_tally(t) {
                Role::Summary
            } else if t.contains(" test session starts ") || t.contains(" short test summary info ")
            {
                // Eighty bytes of frame around what follows: the lines themselves say it.
                Role::Noise
            } else {
                Role::Header
            };
        }
        _ => {}
    }
    prefix_role(t)
}

/// `result = 7`, `expected = ['Planet  Radius', ...]`: a name, ` = `, a value.
fn is_frame_argument(t: &str) -> bool {
    t.split_once(" = ").is_some_and(|(name, value)| {
        !value.is_empty()
            && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

fn is_go_file(t: &str) -> bool {
    locate::prefix(t).is_some_and(|(path, _, _)| path.ends_with(".go"))
}

/// An indented head: vitest and jest indent their tallies and marks.
fn indented_role(trimmed: &str, section: Section) -> Role {
    if let Some(role) = test_mark_role(trimmed) {
        return role;
    }
    if indented_tally(trimmed) {
        return Role::Summary;
    }
    if section == Section::PytestFailures {
        return Role::Source;
    }
    prefix_role(trimmed)
}

/// A frame in the interpreter's own library or an installed package: where an error
/// passed through, rarely where it is fixed.
fn is_library_path(path: &str) -> bool {
    path.contains("/lib/python") || path.contains("site-packages") || path.starts_with("<frozen")
}

/// A line inside a block, read in the light of its head.
fn continuation_role(t: &str, head: Role, traceback: bool, section: Section) -> Role {
    let trimmed = t.trim_start();
    if traceback {
        if let Some((path, _)) = locate::python_file(trimmed) {
            return if is_library_path(path) {
                Role::Noise
            } else {
                Role::Location
            };
        }
        if crate::pipeline::parse::is_exception_name(t) {
            // The exception line that closes the traceback.
            return Role::Error;
        }
        return Role::Source;
    }
    if locate::arrow(trimmed).is_some() {
        return Role::Location;
    }
    if is_gutter_line(trimmed) {
        return Role::Source;
    }
    if let Some(rest) = trimmed.strip_prefix("= ") {
        if sw(rest, "help: for further information visit ") {
            // A link to the lint's page: reference, like quoted source, not advice.
            return Role::Source;
        }
        return if sw(rest, "help") {
            Role::Help
        } else {
            Role::Note
        };
    }
    if sw(trimmed, "note: run with `RUST_BACKTRACE=") {
        return Role::Noise;
    }
    if let Some(role) = severity_role(trimmed) {
        return match role {
            Role::Note | Role::Help => role,
            _ if head.is_finding() => Role::Note,
            _ => role,
        };
    }
    if let Some(role) = test_mark_role(trimmed) {
        return role;
    }
    if let Some(role) = shapes::test_result_role(trimmed) {
        // A subtest's result under its parent's (`    --- PASS: TestA/ok`): its own.
        return role;
    }
    if sw(trimmed, "at ") && trimmed.ends_with(')') {
        return Role::Location;
    }
    if let Some(frame) = trimmed.strip_prefix("❯ ")
        && frame
            .rsplit(' ')
            .next()
            .is_some_and(|p| locate::path_line(p).is_some())
    {
        // vitest's stack frame: `❯ parseAmount src/price.js:4:11`.
        return Role::Location;
    }
    if is_cargo_status(t.as_bytes()) {
        return cargo_status_role(t);
    }
    if section == Section::PytestFailures {
        return if sw(trimmed, "E  ") {
            Role::Error
        } else {
            Role::Source
        };
    }
    if head.is_finding() && (trimmed.starts_with("- ") || trimmed.starts_with("+ ")) {
        // A suggested edit's removed or added line (ruff, rustc): quoted source.
        return Role::Source;
    }
    if let Some((path, _, _)) = locate::prefix(trimmed)
        && path.ends_with(".go")
    {
        // go test -v prints a failing test's messages under its `=== RUN` line.
        return Role::Error;
    }
    match head {
        // `failures:` lists the failing tests, one per indented line.
        Role::Header if !trimmed.contains(' ') && !trimmed.is_empty() => Role::Fail,
        Role::Error | Role::Fail => Role::Error,
        Role::Warning => Role::Note,
        Role::Summary | Role::Progress | Role::Pass | Role::Noise => head,
        _ => indented_role(trimmed, section),
    }
}

/// rustc/ruff/gcc/jest code frames: `|`, `12 | code`, `> 4 | code`, `...`, and
/// rustc's suggestion diffs (`3 - old`, `3 + new`).
fn is_gutter_line(trimmed: &str) -> bool {
    let t = trimmed
        .strip_prefix('>')
        .map(str::trim_start)
        .unwrap_or(trimmed);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let rest = t[digits..].trim_start();
    rest.starts_with('|')
        || crate::pipeline::parse::is_elided_gutter(trimmed)
        || crate::pipeline::parse::is_gutter(t.as_bytes())
}

/// eslint stylish: `  1:7  error  'x' is assigned a value but never used  no-unused-vars`.
fn eslint_finding(t: &str) -> Option<Role> {
    let trimmed = t.trim_start();
    if trimmed.len() == t.len() {
        return None;
    }
    let (pos, rest) = trimmed.split_once(char::is_whitespace)?;
    let (line, col) = pos.split_once(':')?;
    if line.is_empty()
        || col.is_empty()
        || !line.bytes().all(|b| b.is_ascii_digit())
        || !col.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let rest = rest.trim_start();
    if sw(rest, "error ") {
        Some(Role::Error)
    } else if sw(rest, "warning ") {
        Some(Role::Warning)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::parse::parse;

    fn roles(text: &str) -> Vec<Role> {
        roles_as(text, Family::Diagnostics)
    }

    fn roles_as(text: &str, family: Family) -> Vec<Role> {
        let mut doc = parse(text);
        classify(&mut doc, family, Stream::Stdout);
        doc.lines.iter().map(|l| l.role).collect()
    }

    use Role::*;

    #[test]
    fn a_compilers_error_inside_a_log_record_is_an_error() {
        let text = "2026-12-01T20:12:47,946   Skipping link: No binaries permitted for wrapt\n2026-12-01T20:12:55,257   src/wrapt/_wrappers.c:1339:9: error: passing argument 4 discards const\n";
        assert_eq!(roles(text), [Plain, Error]);
    }

    #[test]
    fn rustc_diagnostic_and_cargo_lines() {
        let text = "   Compiling demo v0.1.0 (/tmp/demo)
error[E0308]: mismatched types
 --> src/main.rs:2:18
  |
2 |     let x: i32 = \"a\";
  |            ---   ^^^ expected `i32`, found `&str`
  |
  = note: expected type
help: try

error: could not compile `demo` (bin \"demo\") due to 1 previous error
warning: 2 warnings emitted
warning: unused variable: `y`
    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.1s\n";
        assert_eq!(
            roles(text),
            [
                Progress, Error, Location, Source, Source, Source, Source, Note, Help, Blank,
                Summary, Summary, Warning, Summary
            ]
        );
    }

    #[test]
    fn cargo_test_lines() {
        let text = "running 2 tests
test tests::a ... ok
test tests::b ... FAILED

failures:

---- tests::b stdout ----
thread 'tests::b' panicked at src/lib.rs:9:9:
assertion `left == right` failed
  left: 1
 right: 2
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

failures:
    tests::b

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
        assert_eq!(
            roles(text),
            [
                Header, Pass, Fail, Blank, Header, Blank, Header, Error, Error, Error, Error,
                Noise, Blank, Header, Fail, Blank, Summary
            ]
        );
    }

    #[test]
    fn pytest_failures_section() {
        let text = "tests/test_a.py .F                                                       [100%]

=================================== FAILURES ===================================
____________________________________ test_b ____________________________________

    def test_b():
>       assert 1 == 2
E       assert 1 == 2

tests/test_a.py:5: AssertionError
=========================== short test summary info ============================
FAILED tests/test_a.py::test_b - assert 1 == 2
========================= 1 failed, 1 passed in 0.01s ==========================\n";
        assert_eq!(
            roles(text),
            [
                Progress, Blank, Header, Fail, Blank, Source, Source, Error, Blank, Location,
                Noise, Fail, Summary
            ]
        );
    }

    #[test]
    fn library_frames_are_noise_with_their_code() {
        let text = "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    main()\n  File \"/usr/lib/python3.11/json/__init__.py\", line 346, in loads\n    return _default_decoder.decode(s)\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^\nValueError: bad\n";
        assert_eq!(
            roles(text),
            [Error, Location, Source, Noise, Noise, Noise, Error]
        );
    }

    #[test]
    fn a_user_frame_after_library_frames_is_its_own() {
        let text = "Traceback (most recent call last):\n  File \"/v/lib/python3.11/site-packages/flask/app.py\", line 902, in dispatch_request\n    return self.view_functions[rule.endpoint](**view_args)\n  File \"/tmp/app/app.py\", line 10, in item\n    return jsonify(price=PRICES[item_id])\nKeyError: 1337\n";
        assert_eq!(roles(text), [Error, Noise, Noise, Location, Source, Error]);
    }

    #[test]
    fn rust_library_frames_are_noise_and_the_tests_own_frame_is_not() {
        let text = "stack backtrace:\n   0: __rustc::rust_begin_unwind\n             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:689:5\n   4: invoice::discount::tests::discount_of_apples\n             at ./src/discount.rs:13:9\n";
        let r = roles(text);
        assert_eq!(&r[1..3], [Noise, Noise]);
        assert!(r[3] != Noise && r[4] != Noise, "{r:?}");
    }

    #[test]
    fn a_traceback_through_library_frames_only_keeps_its_last() {
        let text = "Traceback (most recent call last):\n  File \"/usr/lib/python3.11/socketserver.py\", line 691, in process_request_thread\n    self.finish_request(request, client_address)\n  File \"/usr/lib/python3.11/socket.py\", line 723, in write\n    return self._sock.send(b)\nConnectionResetError: [Errno 104] Connection reset by peer\n";
        assert_eq!(roles(text), [Error, Noise, Noise, Location, Source, Error]);
    }

    #[test]
    fn python_traceback() {
        let text = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n    f()\nNameError: name 'f' is not defined\n";
        assert_eq!(roles(text), [Error, Location, Source, Error]);
    }

    #[test]
    fn compilers_linters_and_type_checkers() {
        let text = "main.c: In function 'main':
main.c:3:5: error: 'x' undeclared (first use in this function)
    3 |     x = 1;
      |     ^
a.py:3: error: Incompatible types in assignment  [assignment]
a.py:1:8: F401 [*] `os` imported but unused
src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.
./main.go:5:2: undefined: foo
Found 2 errors in 1 file (checked 1 source file)\n";
        assert_eq!(
            roles(text),
            [
                Note, Error, Source, Source, Error, Error, Error, Error, Summary
            ]
        );
    }

    #[test]
    fn ruff_full_format() {
        let text = "F401 [*] `os` imported but unused\n --> a.py:1:8\n  |\n1 | import os\n  |        ^^\n  |\nhelp: Remove unused import: `os`\n\nFound 1 error.\n";
        assert_eq!(
            roles(text),
            [
                Error, Location, Source, Source, Source, Source, Help, Blank, Summary
            ]
        );
    }

    #[test]
    fn eslint_stylish() {
        let text = "\n/p/src/a.js\n  1:7  error  'x' is assigned a value but never used  no-unused-vars\n  2:1  warning  Unexpected console statement  no-console\n\n✖ 2 problems (1 error, 1 warning)\n";
        assert_eq!(
            roles(text),
            [Blank, Location, Error, Warning, Blank, Summary]
        );
    }

    #[test]
    fn go_test_and_jest() {
        let text = "=== RUN   TestA\n--- FAIL: TestA (0.00s)\n    a_test.go:5: got 1\nFAIL\nFAIL\tdemo\t0.002s\nFAIL src/a.test.js\n  ✓ adds (1 ms)\n  ✕ subtracts (2 ms)\nTests:       1 failed, 1 passed, 2 total\n";
        assert_eq!(
            roles(text),
            [
                Progress, Fail, Error, Summary, Summary, Fail, Pass, Fail, Summary
            ]
        );
    }

    #[test]
    fn go_test_verbose_messages_are_errors_under_their_run_line() {
        let text = "=== RUN   TestScale3\n    convert_test.go:25: Scale(175, 13) = 22, want 23\n--- FAIL: TestScale3 (0.00s)\n";
        assert_eq!(roles(text), [Progress, Error, Fail]);
    }

    #[test]
    fn goroutine_frames_in_the_toolchain_are_noise() {
        let text = "goroutine 7 [running]:\ntesting.tRunner.func1()\n\t/usr/lib/go-1.19/src/testing/testing.go:1399 +0x39f\nexample.com/ledger/book.Total(...)\n\t/tmp/x/book/book.go:13\n";
        assert_eq!(roles(text), [Note, Noise, Noise, Plain, Plain]);
    }

    #[test]
    fn progress_shapes() {
        let text = "Collecting requests\n 45%|████▌     | 9/20\n⠙ resolving\n10%\r50%\r100%\n";
        assert_eq!(roles(text), [Progress, Progress, Progress, Progress]);
    }

    #[test]
    fn unknown_text_is_plain_and_content_is_not_diagnosed() {
        assert_eq!(roles("hello world\n12:30 done\n"), [Plain, Plain]);
        let diff = "diff --git a/x b/x\n+error: not a failure\n";
        assert_eq!(roles_as(diff, Family::Content), [Header, Plain]);
        let status = "Changes not staged for commit:\n  (use \"git add <file>...\" to update)\n\tmodified:   a.rs\n";
        assert_eq!(roles_as(status, Family::Content), [Plain, Noise, Plain]);
    }

    #[test]
    fn family_reads_program_and_git_subcommand() {
        let family_of = |s: &str| {
            let words: Vec<String> = s.split(' ').map(String::from).collect();
            family(&CommandLine::from_words(&words), "")
        };
        assert_eq!(family_of("git -C x diff"), Family::Content);
        assert_eq!(family_of("/usr/bin/grep -rn x"), Family::Content);
        assert_eq!(family_of("git commit -m x"), Family::Diagnostics);
        assert_eq!(family_of("cargo build"), Family::Diagnostics);
        assert_eq!(family_of("nl -ba src/a.rs"), Family::Content);
        // A printed log is read as the log it is.
        let log: String = (0..30)
            .map(|n| format!("2026-03-14 09:20:{n:02},052 INFO  worker: order {n} handled\n"))
            .collect();
        let words: Vec<String> = ["cat", "service.log"].map(String::from).to_vec();
        assert_eq!(
            family(&CommandLine::from_words(&words), &log),
            Family::Diagnostics
        );
        assert_eq!(
            family(&CommandLine::from_words(&[]), ""),
            Family::Diagnostics
        );
    }

    #[test]
    fn wrapped_commands_have_the_family_of_what_they_wrap() {
        for wrapped in [
            vec!["sh", "-c", "git log -n 8"],
            vec!["bash", "-c", "cd repo && git log -n 8"],
            vec!["timeout", "30", "git", "log", "-n", "8"],
            vec!["env", "git", "log", "-n", "8"],
            vec!["nice", "git", "log", "-n", "8"],
        ] {
            let words: Vec<String> = wrapped.iter().map(|w| w.to_string()).collect();
            assert_eq!(
                family(&CommandLine::from_words(&words), ""),
                Family::Content,
                "{wrapped:?}"
            );
        }
    }
}
