//! What cargo and a Rust test binary print: cargo's right-aligned status lines and
//! `cargo test`'s report (`running N tests`, `test x ... ok`, the `---- x stdout ----`
//! sections, the closing `failures:` list and `test result:` tally).
//!
//! rustc's diagnostics (`error[E0308]: x` with its `-->` and gutter) are the generic
//! severity and gutter shapes in `classify`, shared with clippy, ruff and gcc.
//!
//! A failing test is named three times: its status line, its section header (the panic
//! message under it names it once more) and the closing `failures:` list. The section is
//! where the reader looks, so the status lines and the list are marked restated when the
//! run printed sections for the same tests.
//!
//! A panic's backtrace (`RUST_BACKTRACE=1`) passes through frames of the standard library
//! and of registry crates on its way to the program's own: those are noise. So are the
//! frames of the failing test itself and its closure when the test is what panicked: the
//! panic line already says where (`panicked at src/a.rs:13:9`). A frame of another function
//! of the program's is the call chain, and stays.

use std::collections::HashSet;

use super::{Tool, sw};
use crate::block::{Doc, Marks, Role};

pub(crate) const TOOL: Tool = Tool {
    role,
    marks,
    restated,
    test_name: super::TestName::Line(section_name),
    payload: super::bare,
    tally_count: super::no_tally,
    cut_detail: super::no_detail,
};

fn role(t: &str) -> Option<Role> {
    if let Some(rest) = t.strip_prefix("test ") {
        if rest.ends_with(" ... ok") || rest.ends_with(" ... ignored") {
            return Some(Role::Pass);
        }
        if rest.contains(" ... FAILED") {
            return Some(Role::Fail);
        }
        if sw(rest, "result: ") {
            return Some(Role::Summary);
        }
    }
    if sw(t, "running ") && t.ends_with(" tests") || sw(t, "running 1 test") {
        return Some(Role::Header);
    }
    if t == "failures:" || sw(t, "---- ") && t.ends_with(" ----") {
        return Some(Role::Header);
    }
    if sw(t, "thread '") && t.contains("panicked") {
        return Some(Role::Error);
    }
    None
}

fn marks(t: &str, role: Role) -> Marks {
    match role {
        Role::Fail if sw(t, "test ") && t.contains(" ... FAILED") => Marks::TEST_FAILED,
        Role::Summary if sw(t, "test result: ") => Marks::TALLY,
        Role::Header if section_name(t).is_some() => Marks::TEST_SECTION,
        _ => Marks::NONE,
    }
}

/// Mark as noise the frames of each backtrace that a reader would not visit: library
/// frames, and those of the test whose section the backtrace is in. A frame is two lines,
/// its name and its `at` path.
fn backtrace_noise(doc: &mut Doc) {
    frame_noise(doc);
    // A backtrace none of whose frames stays goes whole, its `stack backtrace:` head
    // too: the marker over it says it was a backtrace.
    for i in 0..doc.lines.len() {
        if doc.clean(i).trim_start() != "stack backtrace:" {
            continue;
        }
        let frames = (i + 1..doc.lines.len()).take_while(|&j| {
            let t = doc.clean(j);
            frame_function(&t).is_some() || t.trim_start().starts_with("at ")
        });
        let (mut any, mut kept) = (false, false);
        for j in frames {
            any = true;
            kept |= doc.lines[j].role != Role::Noise;
        }
        if any && !kept {
            doc.lines[i].role = Role::Noise;
        }
    }
}

/// Mark the frames as noise, each of its two lines.
fn frame_noise(doc: &mut Doc) {
    let mut test: Option<String> = None;
    // Whether this backtrace has passed through a function of the program's that is not
    // the test: then the test's frame is where the chain was entered, and stays.
    let mut chain = false;
    for i in 0..doc.lines.len() {
        let t = doc.clean(i);
        if doc.lines[i].marks.has(Marks::TEST_SECTION) {
            // cargo's own section, or nextest's status line over a test's output.
            test = super::test_name(doc, i);
            chain = false;
            continue;
        }
        // nextest indents the output it captured.
        let t = t.trim_start();
        if t == "stack backtrace:" {
            chain = false;
            continue;
        }
        if sw(
            t,
            "note: Some details are omitted, run with `RUST_BACKTRACE=full`",
        ) {
            doc.lines[i].role = Role::Noise;
            continue;
        }
        let Some(path) = t.strip_prefix("at ") else {
            continue;
        };
        let library = path.starts_with("/rustc/")
            || path.contains("/.cargo/registry/")
            || path.contains("/.rustup/");
        // A stream that opens on a frame's `at` line (`cargo test 2>&1 | tail -20` cut
        // the frame in two) holds the rest of that frame.
        if i == 0 {
            if library {
                doc.lines[i].role = Role::Noise;
            }
            continue;
        }
        let name_line = doc.clean(i - 1);
        let Some(function) = frame_function(&name_line) else {
            continue;
        };
        let the_test = test
            .as_deref()
            .is_some_and(|name| is_test_itself(function, name));
        if library || the_test && !chain {
            doc.lines[i - 1].role = Role::Noise;
            doc.lines[i].role = Role::Noise;
        } else if !the_test {
            chain = true;
        }
    }
}

/// `   4: core::panicking::assert_failed`: the function a backtrace frame's name line is in.
fn frame_function(t: &str) -> Option<&str> {
    let (n, name) = t.trim_start().split_once(": ")?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !name.is_empty()).then_some(name)
}

/// How many frames of a Rust backtrace (`   4: a::b` over `at ./src/a.rs:3:9`) the lines
/// of `region`, which a marker hides, hold: for the marker to say it holds a backtrace.
pub(crate) fn noise_frames(doc: &Doc, region: std::ops::Range<usize>) -> usize {
    region
        .filter(|&i| frame_function(&doc.clean(i)).is_some())
        .filter(|&i| i + 1 < doc.lines.len() && doc.clean(i + 1).trim_start().starts_with("at "))
        .count()
}

/// Is `function` (`invoice::tax::tests::tax_of_tea`, or its `::{{closure}}`) the test
/// `test` (`tax::tests::tax_of_tea`, named from the crate's root)?
fn is_test_itself(function: &str, test: &str) -> bool {
    let function = function.strip_suffix("::{{closure}}").unwrap_or(function);
    function == test
        || function
            .strip_suffix(test)
            .is_some_and(|crate_path| crate_path.ends_with("::"))
}

/// `---- tests::b stdout ----`: the test a section is for.
fn section_name(t: &str) -> Option<&str> {
    t.strip_prefix("---- ")?.strip_suffix(" stdout ----")
}

/// The role of a cargo status line `t` (verb right-aligned to column 12).
pub(crate) fn status_role(t: &str) -> Role {
    // cargo-nextest aligns its verbs as cargo does; its module reads its own.
    if let Some(role) = (super::nextest::TOOL.role)(t) {
        return role;
    }
    match t[..12].trim_start() {
        "Finished" => Role::Summary,
        // `cargo build -v` runs each rustc invocation as `Running `rustc ...``: progress;
        // cargo test's `Running unittests src/lib.rs (...)` heads a test binary's output.
        "Running" if t[12..].trim_start().starts_with('`') => Role::Progress,
        "Running" | "Doc-tests" => Role::Header,
        _ => Role::Progress,
    }
}

/// Mark what the sections already say: the status line of a test the closing list names,
/// and the list itself when every test in it had a section. A section's own header stays
/// even when its panic names the test again: it is where one test's output ends and the
/// next one's begins, and without it a body reads as the previous test's.
fn restated(doc: &mut Doc) {
    backtrace_noise(doc);
    let mut sections: HashSet<String> = HashSet::new();
    for i in 0..doc.lines.len() {
        if !doc.lines[i].marks.has(Marks::TEST_SECTION) {
            continue;
        }
        let t = doc.clean(i);
        let Some(name) = section_name(&t) else {
            continue;
        };
        sections.insert(name.to_owned());
    }
    let mut listed_any = false;
    for b in 0..doc.block_count() {
        let block = doc.block(b);
        if doc.clean(block.first as usize) != "failures:" {
            continue;
        }
        let listed: Vec<usize> = block
            .lines()
            .skip(1)
            .filter(|&i| doc.lines[i].role == Role::Fail)
            .collect();
        if listed.is_empty() {
            continue;
        }
        listed_any = true;
        if listed
            .iter()
            .all(|&i| sections.contains(doc.clean(i).trim()))
        {
            for i in block.lines() {
                doc.lines[i].marks.add(Marks::RESTATED);
            }
        }
    }
    if listed_any {
        for line in doc.lines.iter_mut() {
            if line.marks.has(Marks::TEST_FAILED) {
                line.marks.add(Marks::RESTATED);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Stream;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    #[test]
    fn status_verbs() {
        assert_eq!(status_role("   Compiling x v1"), Role::Progress);
        assert_eq!(status_role("    Finished `dev` profile"), Role::Summary);
        assert_eq!(
            status_role("     Running unittests src/lib.rs (t)"),
            Role::Header
        );
        assert_eq!(
            status_role("     Running `rustc --crate-name x`"),
            Role::Progress
        );
    }

    #[test]
    fn each_failing_test_is_named_once_and_the_rest_is_restated() {
        let text = "test t::a ... FAILED\ntest t::b ... ok\n\nfailures:\n\n---- t::a stdout ----\n\nthread 't::a' panicked at src/lib.rs:3:5:\nboom\n\nfailures:\n    t::a\n\ntest result: FAILED. 1 passed; 1 failed\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let marks: Vec<Marks> = doc.lines.iter().map(|l| l.marks).collect();
        assert_eq!(marks[0], Marks::TEST_FAILED | Marks::RESTATED);
        assert_eq!(
            marks[5],
            Marks::TEST_SECTION,
            "a section header is a unit's boundary"
        );
        assert!(marks[10].has(Marks::RESTATED) && marks[11].has(Marks::RESTATED));
        assert_eq!(marks[13], Marks::TALLY);
        assert_eq!(marks[7], Marks::NONE, "the panic line");
    }

    #[test]
    fn only_frames_a_reader_would_visit_stay() {
        let text = "---- tax::tests::tax_of_tea stdout ----\n\nthread 'tax::tests::tax_of_tea' (7) panicked at src/tax.rs:13:9:\nboom\nstack backtrace:\n   0: core::panicking::panic_fmt\n             at /rustc/abc/library/core/src/panicking.rs:80:14\n   1: invoice::tax::rate\n             at ./src/tax.rs:4:5\n   2: invoice::tax::tests::tax_of_tea\n             at ./src/tax.rs:13:9\n   3: invoice::tax::tests::tax_of_tea::{{closure}}\n             at ./src/tax.rs:12:26\n   4: serde::de::x\n             at /home/u/.cargo/registry/src/index/serde-1.0/src/de.rs:9:1\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let noise: Vec<bool> = doc.lines.iter().map(|l| l.role == Role::Noise).collect();
        assert_eq!(&noise[5..7], [true, true], "the standard library");
        assert_eq!(&noise[7..9], [false, false], "the program's own call chain");
        assert_eq!(
            &noise[9..13],
            [false; 4],
            "the test, where the chain was entered"
        );
        assert_eq!(&noise[13..15], [true, true], "a registry crate");
        let alone = text.replace(
            "   1: invoice::tax::rate\n             at ./src/tax.rs:4:5\n",
            "",
        );
        let mut doc = parse(&alone);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let noise: Vec<bool> = doc.lines.iter().map(|l| l.role == Role::Noise).collect();
        assert_eq!(&noise[7..11], [true; 4], "the test that panicked itself");
        assert!(is_test_itself("invoice::t::a", "t::a"));
        assert!(!is_test_itself("invoice::xt::a", "t::a"));
    }

    #[test]
    fn without_a_closing_list_the_status_line_is_the_only_name() {
        let mut doc = parse("test t::a ... FAILED\n");
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        assert_eq!(doc.lines[0].marks, Marks::TEST_FAILED);
    }
}
