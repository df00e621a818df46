//! The filtering pipeline: one stream's text in, its view out.
//!
//! This is the whole contract the runner relies on: [`view`] receives the decoded text of
//! one stream (already known to be valid UTF-8 without NUL bytes) and returns the text to
//! print in its place. It does no I/O and reads no clock or environment. The runner calls
//! it only when the raw output is safely in the store, so every marker it writes can name
//! a handle that resolves.
//!
//! The stages run in this order, each a plain call:
//!
//! ```text
//! parse → classify → dedupe → progress → cause → context → excerpt → rank → render
//! ```
//!
//! Stages only decide each line's fate; render alone writes text, so every removal is
//! announced in one place. Before a view is returned it is checked against the raw
//! stream (every line verbatim and in order, markers covering exactly what is missing);
//! a view that fails the check is replaced by the raw text: passthrough on doubt.
//! Configuration decides what is removed, never whether it is announced: settings reach
//! render only as the level-1 head length and how many places a marker lists, and none
//! can turn a marker off.

pub mod cause;
pub mod classify;
pub mod context;
pub mod dedupe;
pub mod excerpt;
pub mod locate;
pub mod parse;
pub mod progress;
pub mod rank;
pub mod render;
mod settings;
pub mod shapes;

pub use settings::{Overrides, Pattern, Settings};

use regex::RegexSet;

use crate::block::{Doc, Stream};
use crate::command::CommandLine;
use crate::level::Level;
use cause::Causes;
use classify::Family;

/// Everything the pipeline knows about the run besides the text itself.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub stream: Stream,
    /// [`Level::Raw`] is the raw output and never reaches the pipeline.
    pub level: Level,
    /// Ranking budget, in bytes per stream, beyond what is force-kept.
    pub budget: usize,
    /// The run's handle, eight lowercase hex digits, for markers.
    pub handle: &'a str,
    /// The exit status lens reports for the child (128 + N for a signal).
    pub exit_code: i32,
    /// The command as run, resolved: its program decides the family and the settings.
    pub command: &'a CommandLine,
    pub settings: &'a Settings,
}

/// Render the view of one stream; the raw text when the pipeline cannot vouch for one.
pub fn view(text: &str, request: &Request) -> String {
    try_view(text, request).unwrap_or_else(|_| text.to_owned())
}

/// Why a view fell back to the raw text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// The stream is too large for the line index (4 GiB).
    TooLarge,
    /// Level 0's counts would make the view longer than the stream itself.
    LongerThanRaw,
    /// The view does not account for every raw line exactly once, in order: a bug in a
    /// stage, caught before it reaches the reader.
    Unaccounted,
}

impl Fallback {
    pub fn reason(self) -> &'static str {
        match self {
            Fallback::TooLarge => "stream too large to index",
            Fallback::LongerThanRaw => "the view would be longer than the output",
            Fallback::Unaccounted => "the view did not account for every line",
        }
    }
}

/// Render the view of one stream, or say why it must be the raw text.
pub fn try_view(text: &str, request: &Request) -> Result<String, Fallback> {
    if text.is_empty() {
        return Ok(String::new());
    }
    if text.len() >= u32::MAX as usize {
        return Err(Fallback::TooLarge);
    }
    let plan = Plan::new(request, text);
    let mut run = Run::parse(text);
    for stage in Stage::ALL {
        run.apply(stage, &plan);
    }
    let out = run.render(&plan);
    if !render::accounts_for(&run.doc, &out, &plan.handle) {
        return Err(Fallback::Unaccounted);
    }
    // Level 0 carries its counts even on a short stream; no view outgrows the raw text.
    if out.len() > text.len() {
        return Err(Fallback::LongerThanRaw);
    }
    // A view that saves under a tenth of the stream costs the reader its markers and the
    // question what they hid, for almost nothing: the stream is shown as it is. (Level 0
    // is its counts, wanted even for a short stream.)
    if plan.level != Level::Counts && (text.len() - out.len()) * 10 < text.len() {
        return Ok(text.to_owned());
    }
    Ok(out)
}

/// The view of a stream given as bytes that hold a few stray bytes (invalid UTF-8): the
/// stages read a copy in which each stray byte is `?`, byte for byte the same length, so
/// every offset holds; the view's kept lines are then written from the raw bytes, so a
/// kept line is kept exactly. `raw` must already be known not to look binary.
pub fn try_view_bytes(raw: &[u8], request: &Request) -> Result<Vec<u8>, Fallback> {
    let text = String::from_utf8_lossy(raw);
    if let std::borrow::Cow::Borrowed(text) = text {
        return try_view(text, request).map(String::into_bytes);
    }
    let readable = readable_copy(raw);
    let out = try_view(&readable, request)?;
    Ok(render::restore(&readable, raw, &out, request.handle))
}

/// `raw` with each byte that is not part of valid UTF-8 replaced by `?`.
fn readable_copy(raw: &[u8]) -> String {
    let mut out = String::with_capacity(raw.len());
    for chunk in raw.utf8_chunks() {
        out.push_str(chunk.valid());
        out.extend(std::iter::repeat_n('?', chunk.invalid().len()));
    }
    out
}

/// The ranking budget of a content stream (a printed file, a diff, a log of commits)
/// when a command's messages get `budget`.
pub fn content_budget(budget: usize) -> usize {
    budget.saturating_add(budget / 2)
}

/// A request resolved against the settings: what every stage reads.
#[derive(Debug, Clone)]
pub struct Plan {
    pub stream: Stream,
    pub level: Level,
    pub budget: usize,
    pub handle: String,
    pub exit_code: i32,
    pub family: Family,
    /// The settings after the program's overrides.
    pub stages: Settings,
    pub noise: Option<RegexSet>,
}

impl Plan {
    pub fn new(request: &Request, text: &str) -> Plan {
        let stages = request.settings.for_command(request.command);
        let noise = (!stages.noise.is_empty())
            .then(|| RegexSet::new(stages.noise.iter().map(|p| p.as_str())).ok())
            .flatten();
        Plan {
            stream: request.stream,
            level: request.level.min(Level::Filtered),
            budget: request.budget,
            handle: request.handle.to_owned(),
            exit_code: request.exit_code,
            family: classify::family(request.command, text),
            stages,
            noise,
        }
    }
}

/// The stages after parse, in the order [`view`] runs them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Classify,
    Dedupe,
    Progress,
    Cause,
    Context,
    Excerpt,
    Rank,
}

impl Stage {
    pub const ALL: [Stage; 7] = [
        Stage::Classify,
        Stage::Dedupe,
        Stage::Progress,
        Stage::Cause,
        Stage::Context,
        Stage::Excerpt,
        Stage::Rank,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Stage::Classify => "classify",
            Stage::Dedupe => "dedupe",
            Stage::Progress => "progress",
            Stage::Cause => "cause",
            Stage::Context => "context",
            Stage::Excerpt => "excerpt",
            Stage::Rank => "rank",
        }
    }
}

/// One stream on its way through the pipeline, so a benchmark can time each stage:
/// `Run::parse`, then [`Run::apply`] for each of [`Stage::ALL`], then [`Run::render`].
#[derive(Debug, Clone)]
pub struct Run<'a> {
    pub doc: Doc<'a>,
    pub causes: Causes,
}

impl<'a> Run<'a> {
    pub fn parse(text: &'a str) -> Run<'a> {
        Run {
            doc: parse::parse(text),
            causes: Causes::default(),
        }
    }

    pub fn apply(&mut self, stage: Stage, plan: &Plan) {
        let s = &plan.stages;
        let content = plan.family == Family::Content && plan.stream == Stream::Stdout;
        match stage {
            Stage::Classify => classify::classify(&mut self.doc, plan.family, plan.stream),
            // A diff or a listing repeats lines that are each content (`+}`, `@@ -1 +1 @@`):
            // only diagnostics are deduplicated.
            Stage::Dedupe if s.dedupe && !content => dedupe::dedupe(&mut self.doc),
            Stage::Progress if s.progress => {
                progress::progress(&mut self.doc, s.passing_tests, plan.noise.as_ref())
            }
            Stage::Cause if s.cause => self.causes = cause::cause(&mut self.doc),
            // A printed file, a diff or a listing says nothing of why the command exited
            // non-zero (`diff` and `rustfmt --check` do when they find differences, `grep`
            // when nothing matched): its end is not the failure's.
            Stage::Context => {
                context::context(
                    &mut self.doc,
                    s.context_lines,
                    s.failing_tail,
                    if content { 0 } else { plan.exit_code },
                    plan.stream,
                );
            }
            // Quoted source is bytes the reader has in the file, and also where rustc
            // puts what it expected and found: dropped only when the stream does not fit.
            Stage::Excerpt if s.excerpt && self.over_budget(plan.budget) => {
                excerpt::excerpt(&mut self.doc, s.excerpt_after);
            }
            // A printed file, a diff or a log of commits is itself the answer, and is
            // read whole more often than a build's messages: half as much again.
            Stage::Rank if content => rank::rank(&mut self.doc, content_budget(plan.budget), true),
            Stage::Rank => rank::rank(&mut self.doc, plan.budget, false),
            _ => {}
        }
    }

    /// Do the lines still kept cost more than `budget` bytes?
    fn over_budget(&self, budget: usize) -> bool {
        let mut spent = 0;
        for i in 0..self.doc.lines.len() {
            if self.doc.lines[i].fate == crate::block::Fate::Keep {
                spent += render::shown_len(&self.doc, i) + 1;
                if spent > budget {
                    return true;
                }
            }
        }
        false
    }

    pub fn render(&self, plan: &Plan) -> String {
        render::render(
            &self.doc,
            &self.causes,
            &render::Options {
                level: plan.level,
                handle: &plan.handle,
                exit_code: plan.exit_code,
                head_lines: plan.stages.level1_lines,
                max_locations: plan.stages.max_locations,
                content: plan.family == Family::Content && plan.stream == Stream::Stdout,
                stream: plan.stream,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request<'a>(
        command: &'a CommandLine,
        settings: &'a Settings,
        level: u8,
        exit: i32,
    ) -> Request<'a> {
        Request {
            stream: Stream::Stderr,
            level: Level::from_number(level.into()).unwrap(),
            budget: crate::cli::DEFAULT_BUDGET,
            handle: "0123abcd",
            exit_code: exit,
            command,
            settings,
        }
    }

    #[test]
    fn a_view_that_saves_under_a_tenth_is_the_stream() {
        let settings = Settings::default();
        let command = CommandLine::from_words(&["pytest".to_owned()]);
        // The tail of a run: the summary's rule line is noise, and the only cut.
        let rule = "=".repeat(27);
        let mut text = format!("{rule} short test summary info {rule}\n");
        for n in 0..30 {
            text.push_str(&format!(
                "FAILED tests/test_a.py::test_{n} - assert {n} == 0\n"
            ));
        }
        text.push_str("============ 30 failed in 0.52s ============\n");
        for level in [1, 2] {
            let mut request = request(&command, &settings, level, 1);
            request.stream = Stream::Stdout;
            assert_eq!(view(&text, &request), text, "level {level}");
        }
    }

    #[test]
    fn level1_counts_the_report_a_group_keeps_and_the_warnings_it_hides() {
        let settings = Settings::default();
        let command = CommandLine::from_words(&["cargo".to_owned(), "build".to_owned()]);
        let mut text = String::new();
        for name in ["f", "g"] {
            text.push_str(&format!(
                "warning: function `{name}` is never used\n --> src/c.rs:2:4\n  |\n2 | fn {name}() {{}}\n  |    ^\n\n"
            ));
        }
        for line in 1..=12 {
            text.push_str(&format!(
                "warning: unused variable: `x`\n --> src/a.rs:{line}:9\n   |\n{line:>2} |     let x = 1;\n   |         ^\n\n"
            ));
        }
        // The failing stream's last ten lines are kept at level 1: its tally, after the
        // warnings, and the error.
        let tail: String = (0..10)
            .map(|k| format!("error: could not compile `m{k}` due to 1 previous error\n"))
            .collect();
        let text = format!(
            "error[E0425]: cannot find value `y` in this scope\n --> src/b.rs:1:1\n\n{text}{tail}"
        );
        let out = view(&text, &request(&command, &settings, 1, 101));
        let marker = out.lines().find(|l| l.starts_with("[lens: ")).unwrap();
        assert!(
            marker.contains("; 12 \"unused variable: `x`\" at src/a.rs:1:9,")
                && marker.ends_with("; 2 other warnings]"),
            "{out}"
        );
    }

    #[test]
    fn stray_bytes_are_read_as_text_and_kept_exactly() {
        let settings = Settings::default();
        let command = CommandLine::from_words(&["make".to_owned()]);
        let mut raw: Vec<u8> = Vec::new();
        raw.extend_from_slice(b"blob \xff\xfe quoted\n");
        for n in 0..300 {
            raw.extend_from_slice(format!("step {n} done in {n}ms\n").as_bytes());
        }
        raw.extend_from_slice(b"error: bad byte \xc3 here\n");
        let out = try_view_bytes(&raw, &request(&command, &settings, 2, 1)).unwrap();
        assert!(
            out.len() < raw.len() / 4,
            "{}",
            String::from_utf8_lossy(&out)
        );
        assert!(out.starts_with(b"blob \xff\xfe quoted\n"));
        assert!(out.ends_with(b"error: bad byte \xc3 here\n"));
        assert_eq!(readable_copy(b"a\xffb\xc3"), "a?b?");
    }

    #[test]
    fn a_view_with_nothing_to_remove_is_the_raw_text() {
        let settings = Settings::default();
        let argv = CommandLine::from_words(&["true".to_owned()]);
        assert_eq!(view("a\nb\n", &request(&argv, &settings, 2, 0)), "a\nb\n");
        assert_eq!(view("a\nb", &request(&argv, &settings, 2, 0)), "a\nb");
        assert_eq!(view("", &request(&argv, &settings, 0, 0)), "");
    }

    #[test]
    fn lines_cut_for_the_budget_still_name_their_files() {
        let text: String = (1..=12)
            .map(|n| {
                format!(
                    "src/f{}.rs:{n}:pub fn op_{n}(input: &str) -> usize {{\n",
                    n / 4
                )
            })
            .collect();
        let settings = Settings::default();
        let argv = CommandLine::from_words(&["grep".to_owned(), "-rn".to_owned()]);
        let mut req = request(&argv, &settings, 2, 0);
        req.stream = Stream::Stdout;
        req.budget = 120;
        let out = view(&text, &req);
        for file in ["src/f0.rs", "src/f1.rs", "src/f2.rs", "src/f3.rs"] {
            assert!(out.contains(file), "{file} not named in\n{out}");
        }
        assert!(out.contains(", 0123abcd: in src/f"), "{out}");
    }

    #[test]
    fn a_diff_cut_names_its_files_not_the_paths_its_lines_hold() {
        let mut text = String::from(
            "diff --git a/src/a.rs b/src/a.rs\n--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1,1 +1,400 @@\n",
        );
        for n in 0..400 {
            text.push_str(&format!(
                "+src/listed_{n}.py:15: error: a line of the new file\n"
            ));
        }
        text.push_str("diff --git a/Cargo.lock b/Cargo.lock\n--- a/Cargo.lock\n+++ b/Cargo.lock\n@@ -1,1 +1,1 @@\n-x\n+y\n");
        let settings = Settings::default();
        let argv = CommandLine::from_words(&["git".to_owned(), "diff".to_owned()]);
        let mut req = request(&argv, &settings, 2, 0);
        req.stream = Stream::Stdout;
        req.budget = 2000;
        let out = view(&text, &req);
        let markers: Vec<&str> = out.lines().filter(|l| l.starts_with("[lens:")).collect();
        assert!(
            markers.iter().all(|m| !m.contains("listed_")),
            "{markers:?}"
        );
        assert!(!markers.is_empty());
    }

    #[test]
    fn a_printed_file_gets_half_as_much_again() {
        let text: String = (1..=400)
            .map(|n| format!("    let value_{n:03} = compute(input, {n}); // step {n:03}\n"))
            .collect();
        assert!(text.len() > crate::cli::DEFAULT_BUDGET + 2000);
        let settings = Settings::default();
        let argv = CommandLine::from_words(&["cat".to_owned(), "src/main.rs".to_owned()]);
        let mut req = request(&argv, &settings, 2, 0);
        req.stream = Stream::Stdout;
        assert_eq!(view(&text, &req), text);
        req.budget = 8000;
        assert_ne!(view(&text, &req), text);
    }

    #[test]
    fn quoted_source_stays_while_the_stream_fits_the_budget() {
        // Seven findings, each its own cause.
        let text: String = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"]
            .iter()
            .enumerate()
            .map(|(n, word)| {
                format!(
                    "error[E0308]: mismatched {word}\n --> src/m{n}.rs:{n}:22\n  |\n{n} |     let total: u32 = amount_{n};\n  |                      ^^^^^^^^ expected `u32`, found `&str`\n\n"
                )
            })
            .collect();
        let settings = Settings::default();
        let argv = CommandLine::from_words(&["cargo".to_owned(), "build".to_owned()]);
        assert_eq!(view(&text, &request(&argv, &settings, 2, 101)), text);
        let mut req = request(&argv, &settings, 2, 101);
        req.budget = 300;
        assert!(!view(&text, &req).contains("expected `u32`, found `&str`\n\nerror"));
    }

    #[test]
    fn a_cargo_cascade_becomes_one_report_and_its_places() {
        let mut text = String::from("   Compiling demo v0.1.0 (/tmp/demo)\n");
        for (file, line) in [("src/a.rs", 3), ("src/a.rs", 9), ("src/b.rs", 4)] {
            text.push_str(&format!(
                "error[E0308]: mismatched types\n --> {file}:{line}:18\n  |\n{line} |     let x: Field = y;\n  |                    ^ expected `Field`, found `u32`\n\n"
            ));
        }
        text.push_str("error: could not compile `demo` (bin \"demo\") due to 3 previous errors\n");
        let settings = Settings::default();
        let argv = CommandLine::from_words(&["cargo".to_owned(), "build".to_owned()]);
        let out = view(&text, &request(&argv, &settings, 2, 101));
        assert_eq!(
            out,
            "   Compiling demo v0.1.0 (/tmp/demo)\n\
             error[E0308]: mismatched types\n --> src/a.rs:3:18\n  |\n3 |     let x: Field = y;\n\
             \x20 |                    ^ expected `Field`, found `u32`\n\
             [lens: 13 lines elided, 7-19, 0123abcd: stderr; 2 more E0308 \"mismatched types\" at src/a.rs:9:18, src/b.rs:4:18]\n\
             error: could not compile `demo` (bin \"demo\") due to 3 previous errors\n"
        );
        let level0 = view(&text, &request(&argv, &settings, 0, 101));
        assert!(
            level0.contains("\nerror[E0308]: mismatched types\n"),
            "{level0}"
        );
        let level1 = view(&text, &request(&argv, &settings, 1, 101));
        assert!(level1.contains("error: could not compile"), "{level1}");
    }
}
