//! What a line says by itself: the prefixes and marks each tool starts its lines with,
//! one module per family of tools, and the marks they record for the stages after
//! classify.
//!
//! classify reads a line in the light of its block and the passage around it; these
//! checks need nothing but the line. They are prefix tests refused on the first byte
//! (`sw`), because classify asks dozens of them on every line of a build log, and almost
//! all of them fail there.
//!
//! A family module (`cargo`, `nextest`, `go`, `gojson`, `jest`, `mocha`, `pytest`, `unittest`,
//! `terraform`, `git`) owns what its tools print: the role of a line by itself, the
//! [`Marks`] a line of that role carries (the one line per failing test, a test's
//! section, the closing tally, a commit, a hunk), and the marks only the whole stream
//! can tell (a status line the closing list restates). The stages
//! after classify read those marks and never match a tool's text again. Adding a tool is
//! adding its module and its entry in [`TOOLS`]; shapes every tool shares (rustc-style
//! severities and gutters, located `file:line:` findings) stay in classify.

pub(crate) mod cargo;
pub(crate) mod git;
pub(crate) mod go;
pub(crate) mod gojson;
pub(crate) mod jest;
pub(crate) mod log;
pub(crate) mod mocha;
pub(crate) mod nextest;
pub(crate) mod pytest;
pub(crate) mod terraform;
pub(crate) mod unittest;

use std::borrow::Cow;

use crate::block::{Doc, Marks, Role};

/// One family of tools, as the classifier consults it.
pub(crate) struct Tool {
    /// The role of a line by itself, when it is one of this family's shapes.
    pub role: fn(&str) -> Option<Role>,
    /// The marks a line carries, given the role classify settled on.
    pub marks: fn(&str, Role) -> Marks,
    /// Marks that take the whole stream to tell, added after every line has its own (and
    /// roles that take two lines to tell, as unittest's docstring results do).
    pub restated: fn(&mut Doc),
    /// The test a section head (a line marked [`Marks::TEST_SECTION`]) is for.
    pub test_name: TestName,
    /// What a line says inside the envelope this family wraps its lines in (go test
    /// -json's `"Output":"..."`, decoded), for the stages that quote or compare it.
    pub payload: fn(&str) -> Option<Cow<'_, str>>,
    /// The count a tally line of this family gives `word` (`error`, `warning` or `failed`,
    /// as level 0 names them), for a family that names its counts its own way
    /// (unittest's `FAILED (failures=5)`, mocha's `28 failing`).
    pub tally_count: fn(&str, &str) -> Option<usize>,
    /// What a cut of this family's lines held, said in its own terms (terraform's changed
    /// attributes), for a cut the generic details say nothing of.
    pub cut_detail: fn(&Doc, std::ops::Range<usize>) -> Option<String>,
}

/// Where a family's runner names the test a section is for.
pub(crate) enum TestName {
    /// On the section's head line: `--- FAIL: TestA`, `● suite › test`.
    Line(fn(&str) -> Option<&str>),
    /// Over the head and the lines under it (mocha's titles, one describe block a line).
    Lines(fn(&Doc, usize) -> Option<String>),
}

/// For a family whose tallies read as `3 errors, 2 failed`.
pub(crate) fn no_tally(_: &str, _: &str) -> Option<usize> {
    None
}

/// For a family whose cut lines the generic details describe.
pub(crate) fn no_detail(_: &Doc, _: std::ops::Range<usize>) -> Option<String> {
    None
}

/// What a cut of `region` held, as the family whose lines they are says it.
pub(crate) fn cut_detail(doc: &Doc, region: std::ops::Range<usize>) -> Option<String> {
    TOOLS
        .iter()
        .find_map(|tool| (tool.cut_detail)(doc, region.clone()))
}

/// For a family whose lines are their own text.
pub(crate) fn bare(_: &str) -> Option<Cow<'_, str>> {
    None
}

/// What `t` says, out of the envelope its family wrapped it in, if any.
pub(crate) fn payload(t: &str) -> Cow<'_, str> {
    TOOLS
        .iter()
        .find_map(|tool| (tool.payload)(t))
        .unwrap_or(Cow::Borrowed(t))
}

/// The name of the test whose section line `head` opens, as its runner's module reads it.
pub(crate) fn test_name(doc: &Doc, head: usize) -> Option<String> {
    let text = doc.clean(head);
    TOOLS.iter().find_map(|tool| match tool.test_name {
        TestName::Line(name) => name(&text).map(str::to_owned),
        TestName::Lines(name) => name(doc, head),
    })
}

/// Is `t`, a passing test's line, one for a test that was skipped rather than run:
/// pytest's `SKIPPED [ 5%]`, unittest's `... skipped 'reason'`, go's `--- SKIP: X`?
pub(crate) fn skipped(t: &str) -> bool {
    pytest::skipped(t) || unittest::skipped(t) || go::skipped(t)
}

/// The count a family's own tally line gives `word`, when it names its counts its own way.
pub(crate) fn tally_count(t: &str, word: &str) -> Option<usize> {
    TOOLS.iter().find_map(|tool| (tool.tally_count)(t, word))
}

/// The families, in the order their line shapes are tried.
pub(crate) const TOOLS: &[Tool] = &[
    // Before cargo, whose backtraces are read in the light of nextest's heads too.
    nextest::TOOL,
    cargo::TOOL,
    go::TOOL,
    gojson::TOOL,
    // Before jest, whose passing suites are read once mocha's failing tests are.
    mocha::TOOL,
    jest::TOOL,
    // Before pytest, whose `FAILED ` prefix would take unittest's `FAILED (errors=1)`.
    unittest::TOOL,
    pytest::TOOL,
    terraform::TOOL,
];

/// Record every family's marks on the lines of a classified diagnostics stream.
pub(crate) fn mark(doc: &mut Doc) {
    for i in 0..doc.lines.len() {
        let role = doc.lines[i].role;
        if !matches!(
            role,
            Role::Fail | Role::Summary | Role::Header | Role::Noise
        ) {
            continue;
        }
        let t = doc.clean(i);
        let mut marks = tally_marks(&t, role);
        for tool in TOOLS {
            marks.add((tool.marks)(&t, role));
        }
        doc.lines[i].marks = marks;
    }
    for tool in TOOLS {
        (tool.restated)(doc);
    }
}

/// The tallies of linters and type checkers: `Found 3 errors in 2 files`, `✖ 4 problems`.
fn tally_marks(t: &str, role: Role) -> Marks {
    let tally = role == Role::Summary
        && (sw(t, "Found ") && (t.contains(" error") || t.contains(" problem"))
            || sw(t, "✖ ") && t.contains(" problem"));
    if tally { Marks::TALLY } else { Marks::NONE }
}

/// `error: x`, `error[E0308]: x`, `warning: x`, `note: x`, `help: x`, and tsc's
/// `error TS2322: x`, at the start of `t`.
pub(crate) fn severity_role(t: &str) -> Option<Role> {
    let (word, rest) = if let Some(rest) = t.strip_prefix("error") {
        ("error", rest)
    } else if let Some(rest) = t.strip_prefix("fatal error") {
        ("error", rest)
    } else if let Some(rest) = t.strip_prefix("warning") {
        ("warning", rest)
    } else if let Some(rest) = t.strip_prefix("note") {
        ("note", rest)
    } else if let Some(rest) = t.strip_prefix("help") {
        ("help", rest)
    } else {
        return None;
    };
    let shaped = rest.starts_with(':')
        || rest.starts_with('[') && rest.contains("]:")
        || sw(rest, " TS") && rest.contains(':');
    if !shaped {
        return None;
    }
    Some(match word {
        "error" if sw(t, "error: aborting due to") || sw(t, "error: could not compile") => {
            Role::Summary
        }
        "error" => Role::Error,
        "warning" if is_warning_tally(t) => Role::Summary,
        "warning" => Role::Warning,
        "note" => Role::Note,
        _ => Role::Help,
    })
}

/// `warning: 3 warnings emitted`, ``warning: `x` (lib) generated 3 warnings``.
fn is_warning_tally(t: &str) -> bool {
    (t.ends_with(" emitted") || t.contains(" generated "))
        && (t.contains(" warning") || t.contains(" error"))
}

/// A test runner's line for one test's result, passed or failed, read by itself.
pub(crate) fn test_result_role(t: &str) -> Option<Role> {
    TOOLS
        .iter()
        .find_map(|tool| (tool.role)(t))
        .filter(|role| matches!(role, Role::Pass | Role::Fail))
}

/// Shapes recognised by how a line starts, for lines no location shape claimed.
pub(crate) fn prefix_role(t: &str) -> Role {
    for tool in TOOLS {
        if let Some(role) = (tool.role)(t) {
            return role;
        }
    }
    // Python and JavaScript exceptions, tracebacks.
    let has_colon = t.contains(':');
    if sw(t, "Traceback (most recent call last)") || is_exception_line(t) {
        return Role::Error;
    }
    // Python's warnings module: `setuptools/dist.py:765: SetuptoolsDeprecationWarning: x`.
    if let Some((_, _, rest)) = crate::pipeline::locate::prefix(t)
        && rest.split_once(": ").is_some_and(|(category, _)| {
            category.ends_with("Warning")
                && category.starts_with(|c: char| c.is_ascii_uppercase())
                && category.bytes().all(|b| b.is_ascii_alphanumeric())
        })
    {
        return Role::Warning;
    }
    // Tallies of linters and type checkers.
    if sw(t, "Found ") && (t.contains(" error") || t.contains(" problem"))
        || sw(t, "✖ ") && t.contains(" problem")
        || t == "All checks passed!"
        || sw(t, "Success: no issues found")
        || sw(t, "compilation terminated")
    {
        return Role::Summary;
    }
    if sw(t, "[*] ") && t.contains("fixable") {
        return Role::Help;
    }
    // ninja's failed step and its stop (`FAILED: CMakeFiles/a.dir/b.c.o`, `ninja: build
    // stopped: subcommand failed.`): a step failed, as make's `***` says; the compiler's
    // own errors above or below are what it counts.
    if sw(t, "FAILED: ") || sw(t, "ninja: build stopped") {
        return Role::Fail;
    }
    // make, npm, ld and generic severities.
    if sw(t, "make") && t.contains(": *** ")
        || sw(t, "npm ERR!")
        || sw(t, "npm error")
        || has_colon && (t.contains("undefined reference to") || t.contains("ld returned "))
        || starts_with_any(
            t,
            &[
                "Error:",
                "ERROR:",
                "ERROR ",
                "FATAL",
                "Fatal:",
                "fatal:",
                // maven and gradle
                "[ERROR]",
                "BUILD FAILURE",
                "BUILD FAILED",
                "FAILURE: Build failed",
            ],
        )
    {
        return Role::Error;
    }
    if starts_with_any(
        t,
        &[
            "npm WARN",
            "npm warn",
            "WARNING:",
            "Warning:",
            "WARN ",
            "[WARNING]",
        ],
    ) {
        return Role::Warning;
    }
    if sw(t, "make") && (t.contains(": Entering directory") || t.contains(": Leaving directory")) {
        return Role::Noise;
    }
    if sw(t, "Caused by:") || has_colon && t.contains(": In function ") || sw(t, "goroutine ") {
        return Role::Note;
    }
    if is_progress_text(t) {
        return Role::Progress;
    }
    if sw(t, "Successfully installed") || sw(t, "added ") && t.contains(" package") {
        return Role::Summary;
    }
    Role::Plain
}

/// The lines gcc and clang print above a diagnostic to say where it is: `In file included
/// from deflate.h:16,` (and, when `after_context`, the `                 from deflate.c:52:`
/// under it), `inflate.c: In function ‘inflateInit2_’:`, `a.c: At top level:`, g++'s
/// `a.cc: In member function ...`, and the chain of an inlined call: `In function
/// ‘new_expr’,` and `    inlined from ‘base’ at tinyexpr.c:325:19:` under it.
pub(crate) fn is_gcc_context(t: &str, after_context: bool) -> bool {
    let t = t.trim_end();
    if t.starts_with(' ') {
        let t = t.trim_start();
        return after_context
            && (sw(t, "from ") || sw(t, "inlined from "))
            && t.ends_with([':', ',']);
    }
    sw(t, "In file included from ")
        || sw(t, "In function ") && t.ends_with([',', ':'])
        || t.ends_with(':')
            && [
                ": In function ",
                ": In member function ",
                ": In constructor ",
                ": In destructor ",
                ": In instantiation of ",
                ": At top level:",
                ": At global scope:",
            ]
            .iter()
            .any(|p| t.contains(p))
}

pub(crate) fn starts_with_any(t: &str, prefixes: &[&str]) -> bool {
    prefixes.iter().any(|p| sw(t, p))
}

/// `t.starts_with(p)`, refusing on the first byte before comparing the rest: classify
/// asks dozens of these per line, and almost all fail on the first byte.
#[inline]
pub(crate) fn sw(t: &str, p: &str) -> bool {
    let (t, p) = (t.as_bytes(), p.as_bytes());
    match p.first() {
        Some(first) => t.first() == Some(first) && t.starts_with(p),
        None => true,
    }
}

/// `ValueError: x`, `KeyError`, `TypeError: x`, `requests.exceptions.HTTPError: x`, and
/// node's error with its code, `AssertionError [ERR_ASSERTION]: x`.
pub(crate) fn is_exception_line(t: &str) -> bool {
    // The name is one word: refuse at the first byte that cannot be in it.
    let name_end = t
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'.'))
        .unwrap_or(t.len());
    let name = &t[..name_end];
    let coded = t[name_end..]
        .strip_prefix(" [")
        .and_then(|rest| rest.split_once("]: "))
        .is_some_and(|(code, _)| {
            !code.is_empty() && code.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
        });
    if coded {
        return name.ends_with("Error") && name.starts_with(|c: char| c.is_ascii_uppercase());
    }
    if name_end < t.len() && t.as_bytes()[name_end] != b':' {
        return false;
    }
    let last = name.rsplit('.').next().unwrap_or(name);
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
        && last.starts_with(|c: char| c.is_ascii_uppercase())
        && (last.ends_with("Error") || last.ends_with("Exception") || last == "KeyboardInterrupt")
        && (name_end == t.len() || t[name_end..].starts_with(": "))
}

/// Transient states of package managers and download tools.
pub(crate) fn is_progress_text(t: &str) -> bool {
    let first = t.as_bytes()[0];
    let may_be_named = matches!(
        first,
        b'B' | b'C' | b'D' | b'E' | b'F' | b'G' | b'H' | b'I' | b'P' | b'R' | b'S' | b'U' | b'n'
    );
    if !may_be_named && first.is_ascii_alphanumeric() {
        return is_percentage_bar(t);
    }
    const PREFIXES: &[&str] = &[
        "Downloading ",
        "Downloaded ",
        "Installing ",
        "Resolving ",
        "Compiling ",
        "Collecting ",
        "Fetching ",
        "Extracting ",
        "Unpacking ",
        "Preparing ",
        "Building wheel",
        "Using cached ",
        "Requirement already satisfied",
        "Get:",
        "Hit:",
        "Ign:",
        "Reading package lists",
        "Reading state information",
        "Building dependency tree",
        "Selecting previously unselected",
        "Setting up ",
        "Processing triggers",
        "Progress: ",
        "npm http ",
        "npm timing ",
    ];
    if starts_with_any(t, PREFIXES) || is_build_step(t) {
        return true;
    }
    let spinner = t
        .chars()
        .next()
        .is_some_and(|c| ('\u{2800}'..='\u{28ff}').contains(&c));
    spinner || is_percentage_bar(t)
}

/// A build tool's step counter before what it is doing: ninja's `[14/93] Building C
/// object x.o`, CMake's Makefile generator's `[ 45%] Building C object x.o`.
fn is_build_step(t: &str) -> bool {
    let Some(rest) = t.strip_prefix('[') else {
        return false;
    };
    let Some((counter, after)) = rest.split_once("] ") else {
        return false;
    };
    let counter = counter.trim_start();
    let shaped = match counter.split_once('/') {
        Some((done, total)) => {
            !done.is_empty()
                && !total.is_empty()
                && done.bytes().all(|b| b.is_ascii_digit())
                && total.bytes().all(|b| b.is_ascii_digit())
        }
        None => counter.strip_suffix('%').is_some_and(|n| {
            !n.is_empty() && n.len() <= 3 && n.bytes().all(|b| b.is_ascii_digit())
        }),
    };
    shaped && after.starts_with(|c: char| c.is_ascii_alphabetic())
}

/// `45%|████▌     | 9/20`, `[=====>    ] 45%`, `### 45%`: a percentage with a bar.
fn is_percentage_bar(t: &str) -> bool {
    let Some(at) = t.find('%') else {
        return false;
    };
    let before = t[..at].trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    if before.len() == at {
        return false;
    }
    t.contains("█")
        || t.contains("━")
        || t.contains("##")
        || t.contains("==")
        || t.contains("▕")
        || t.contains("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcc_says_where_a_diagnostic_is_above_it() {
        assert!(is_gcc_context("In file included from deflate.h:16,", false));
        assert!(is_gcc_context("                 from deflate.c:52:", true));
        assert!(!is_gcc_context(
            "                 from deflate.c:52:",
            false
        ));
        assert!(!is_gcc_context("    from .x import (a,", false));
        assert!(is_gcc_context(
            "inflate.c: In function ‘inflateInit2_’:",
            false
        ));
        assert!(is_gcc_context("a.c: At top level:", false));
        assert!(is_gcc_context("In function ‘new_expr’,", false));
        assert!(is_gcc_context(
            "    inlined from ‘base’ at tinyexpr.c:325:19:",
            true
        ));
        assert!(!is_gcc_context(
            "In function calls, arguments are evaluated first.",
            false
        ));
        assert!(!is_gcc_context("a.c:3:1: warning: x [-Wall]", false));
    }
    use Role::*;

    #[test]
    fn severities_need_their_colon_or_code() {
        assert_eq!(severity_role("error[E0308]: x"), Some(Error));
        assert_eq!(severity_role("warning: 3 warnings emitted"), Some(Summary));
        assert_eq!(severity_role("error TS2322: x"), Some(Error));
        assert_eq!(severity_role("errors were found"), None);
        assert_eq!(severity_role("helpful"), None);
    }

    #[test]
    fn build_tools_of_the_jvm() {
        assert_eq!(
            prefix_role("[ERROR] /p/A.java:[10,5] cannot find symbol"),
            Error
        );
        assert_eq!(prefix_role("[WARNING] Using platform encoding"), Warning);
        assert_eq!(prefix_role("BUILD FAILED in 2s"), Error);
        assert_eq!(prefix_role("FAILED: CMakeFiles/j.dir/json_util.c.o "), Fail);
        assert_eq!(
            prefix_role("ninja: build stopped: subcommand failed."),
            Fail
        );
        assert_eq!(prefix_role("[INFO] Building x"), Plain);
    }

    #[test]
    fn exceptions_are_class_names() {
        assert!(is_exception_line("ValueError: bad"));
        assert!(is_exception_line("requests.exceptions.HTTPError: 404"));
        assert!(is_exception_line("KeyboardInterrupt"));
        assert!(!is_exception_line("error: x"));
        assert!(!is_exception_line("The Error: is here"));
        assert!(is_exception_line(
            "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:"
        ));
        assert!(is_exception_line(
            "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'x'"
        ));
        assert!(!is_exception_line("Error [see below]: x"));
    }

    #[test]
    fn skipped_tests_are_told_from_passed_ones() {
        assert!(skipped(
            "tests/a.py::test_b SKIPPED (needs x)              [ 40%]"
        ));
        assert!(!skipped(
            "tests/a.py::test_b PASSED                        [ 40%]"
        ));
        assert!(skipped(
            "test_x (a.B.test_x) ... skipped 'needs the C speedups'"
        ));
        assert!(!skipped("test_x (a.B.test_x) ... ok"));
        assert!(skipped("    --- SKIP: TestA/b (0.00s)"));
        assert!(!skipped("    --- PASS: TestA/b (0.00s)"));
    }

    #[test]
    fn percentages_need_a_bar() {
        assert!(is_progress_text(" 45%|████▌     | 9/20"));
        assert!(is_progress_text("[=====>    ] 45%"));
        assert!(!is_progress_text("coverage is 45% of lines"));
        assert!(is_progress_text("Downloading foo-1.0.tar.gz"));
        assert!(is_progress_text(
            "[14/93] Building C object CMakeFiles/j.dir/debug.c.o"
        ));
        assert!(is_progress_text(
            "[ 45%] Building C object CMakeFiles/j.dir/debug.c.o"
        ));
        assert!(is_progress_text(
            "[100%] Linking C shared library libjson-c.so"
        ));
        assert!(!is_progress_text("[x/93] Building"));
        assert!(!is_progress_text("[12345%] Building"));
        assert!(!is_progress_text("[2024-01-01] Building"));
    }

    #[test]
    fn first_byte_refusal_agrees_with_starts_with() {
        for (t, p) in [
            ("abc", "ab"),
            ("abc", "b"),
            ("", "a"),
            ("a", ""),
            ("é", "é"),
        ] {
            assert_eq!(sw(t, p), t.starts_with(p), "{t:?} {p:?}");
        }
    }
}
