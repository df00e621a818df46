//! Elide transient states: keep the last line of every run of progress.
//!
//! A run is consecutive lines classify called progress (`Compiling x`, `Downloading y`,
//! a percentage bar, a spinner, a `\r`-rewritten line, pytest's per-file dots). What the
//! terminal would have left is the last state, so that line stays and the rest of the
//! run goes. A lone progress line stays: it is the last state of its run, unless it is a
//! long bar redrawn in place with `\r`, whose last state cannot be shown without all the
//! others.
//!
//! Passing tests go the same way when `passing` is on (the tally line still says how
//! many passed; the failures are what the run is for), and so does every line a test
//! runner's family module marked restated: cargo test's `test x ... FAILED` once the
//! run's `failures:` list names the same tests, pytest -v's `path::test FAILED [ 6%]`
//! once its short summary does. A run of progress
//! continues through the passing tests between its lines (go's `=== RUN` / `--- PASS`
//! pairs), so only the run's last state stays. Noise lines go too: git's
//! `(use "git add" ...)` hints, rustc's backtrace hint, pytest's session header, library
//! frames of a traceback, and lines matching the configured `noise` patterns.

use regex::RegexSet;

use crate::block::{Doc, Fate, Marks, Role};

/// Mark superseded progress, passing tests (if `passing`) and noise as `Fate::Progress`.
pub fn progress(doc: &mut Doc, passing: bool, noise: Option<&RegexSet>) {
    // The last progress line of the current run; passing tests and noise between two
    // progress lines (go's `=== RUN` / `--- PASS` pairs) do not end a run.
    let mut last_progress: Option<usize> = None;
    for i in 0..doc.lines.len() {
        let role = doc.lines[i].role;
        // What the test runner says again elsewhere in the run (its family module marked
        // it): with passing tests going, the failing ones are named once, and a passing
        // test's start line is not a state worth keeping.
        let restated = passing && doc.lines[i].marks.has(Marks::RESTATED);
        if role == Role::Progress && !restated {
            if let Some(previous) = last_progress.replace(i) {
                // This line supersedes the one before it in the run.
                elide(doc, previous);
            }
            if is_long_redraw(doc, i) {
                // A bar redrawn in place holds every state it went through; its last one
                // cannot be shown without them all, and says `100%`.
                elide(doc, i);
            }
            continue;
        }
        let is_noise = role == Role::Noise
            || noise.is_some_and(|set| role == Role::Plain && set.is_match(&doc.clean(i)));
        if is_noise || passing && role == Role::Pass || restated {
            elide(doc, i);
            continue;
        }
        last_progress = None;
    }
}

/// Longer than this, a line redrawn with `\r` is not worth its last state.
const LONG_REDRAW: usize = 160;

fn is_long_redraw(doc: &Doc, i: usize) -> bool {
    let raw = doc.raw(i);
    doc.lines[i].redrawn() && raw.len() > LONG_REDRAW && raw.trim_end_matches('\r').contains('\r')
}

fn elide(doc: &mut Doc, i: usize) {
    if doc.lines[i].fate == Fate::Keep {
        doc.lines[i].fate = Fate::Progress;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Stream;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    fn fates(text: &str, passing: bool, noise: Option<&RegexSet>) -> Vec<Fate> {
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        progress(&mut doc, passing, noise);
        doc.lines.iter().map(|l| l.fate).collect()
    }

    use Fate::*;

    #[test]
    fn keeps_the_last_state_of_each_run() {
        let text = "   Compiling a v1\n   Compiling b v1\n   Compiling c v1\nwarning: x\n   Compiling d v1\n";
        assert_eq!(
            fates(text, true, None),
            [Progress, Progress, Keep, Keep, Keep]
        );
    }

    #[test]
    fn a_long_redrawn_bar_goes_even_as_the_last_state() {
        let bar: String = (0..=50)
            .map(|p| format!("\r{:3}% [{}]", p * 2, "#".repeat(p)))
            .collect();
        let text = format!("Downloading x{bar}\nInstalled x\n10%\r100%\n");
        assert_eq!(fates(&text, true, None), [Progress, Keep, Keep]);
    }

    #[test]
    fn passing_tests_go_only_when_asked() {
        let text = "test a ... ok\ntest b ... FAILED\ntest c ... ok\n";
        assert_eq!(fates(text, true, None), [Progress, Keep, Progress]);
        assert_eq!(fates(text, false, None), [Keep, Keep, Keep]);
    }

    #[test]
    fn failed_status_lines_go_when_the_failures_list_names_them() {
        let text = "test a ... FAILED\ntest b ... ok\n\nfailures:\n    a\n";
        assert_eq!(
            fates(text, true, None),
            [Progress, Progress, Keep, Keep, Keep]
        );
        assert_eq!(fates("test a ... FAILED\n", true, None), [Keep]);
    }

    #[test]
    fn cargo_test_names_each_failure_once() {
        let text = "failures:\n\n---- t::a stdout ----\n\nthread 't::a' panicked at src/lib.rs:3:5:\nboom\n\nfailures:\n    t::a\n\ntest result: FAILED. 0 passed; 1 failed\n";
        let fates = fates(text, true, None);
        assert_eq!(fates[2], Keep, "the section header bounds its unit");
        assert_eq!(&fates[7..9], [Progress, Progress], "the closing list");
        assert_eq!(fates[4], Keep, "the panic line");
    }

    #[test]
    fn a_run_continues_through_passing_tests() {
        let text = "=== RUN   A\n--- PASS: A (0.00s)\n=== RUN   B\n--- PASS: B (0.00s)\n=== RUN   C\n    c_test.go:3: bad\n--- FAIL: C (0.00s)\n";
        assert_eq!(
            fates(text, true, None),
            [Progress, Progress, Progress, Progress, Keep, Keep, Keep]
        );
    }

    #[test]
    fn pytest_verbose_status_goes_when_the_summary_names_the_test() {
        let text = "tests/a.py::test_a PASSED   [ 50%]\ntests/a.py::test_b FAILED   [100%]\nFAILED tests/a.py::test_b - assert 1 == 2\n";
        assert_eq!(fates(text, true, None), [Progress, Progress, Keep]);
    }

    #[test]
    fn configured_noise_goes() {
        let set = RegexSet::new(["^DEBUG "]).unwrap();
        assert_eq!(
            fates("DEBUG a\nINFO b\n", true, Some(&set)),
            [Progress, Keep]
        );
    }
}
