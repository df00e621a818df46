//! Turn fates into text: the view at level 2, 1 or 0, with one marker per elided region.
//!
//! Level 2 shows every line the stages kept. Level 1 shows the failures (what context
//! forced) or, when nothing failed, the first `head_lines` kept lines; never nothing.
//! Level 0 shows one line, the failure or the last line, with the stream's counts in a
//! marker.
//!
//! Lines are written byte for byte and never renumbered. Each maximal run of hidden lines
//! becomes one marker in the contract's shape, `[lens: N lines elided, A-B, HANDLE]`,
//! whose detail (after `: `) says what the reader would otherwise lose:
//!
//! - grouped reports: `3 more E0308 "mismatched types" at src/a.rs:3, src/a.rs:9,
//!   src/b.rs:4`, every place a removed finding was, each once and in line order; and
//!   `the same lines as 245-483` for reports that repeat a hidden region byte for byte;
//! - lines cut for the budget: `in src/x.rs, src/y.rs`, the files they name that no shown
//!   line names;
//! - level 0's first marker: `1953 lines, 151 errors, 2 warnings, 6 failed`.
//!
//! A marker never tells the reader to fetch anything.
//!
//! Two rules keep markers from costing more than they save. A blank line next to a
//! hidden region is hidden with it, so a cascade of grouped reports separated by blank
//! lines is one marker, not fifty, and a marker needs no blank line around it. And a
//! region whose marker would be at least as long as its text is shown instead: showing
//! a line is always allowed, so no view is ever longer than the raw stream. A marker for
//! grouped reports must save a quarter of their bytes, since it trades each message for
//! a place: one mypy line replaced by a marker naming it is no gain.

use crate::block::{Doc, Fate, Marks, Role, Stream};
use crate::level::Level;
use std::collections::{HashMap, HashSet};

use crate::pipeline::cause::{Causes, Member};
use crate::pipeline::locate;

/// What render needs besides the document.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    pub level: Level,
    pub handle: &'a str,
    pub exit_code: i32,
    /// Lines level 1 shows when nothing failed.
    pub head_lines: usize,
    /// Line numbers a group's marker lists before it only counts the rest per file.
    pub max_locations: usize,
    /// The stream is content (a printed file, a diff): its lines are not of kinds.
    pub content: bool,
    /// The stream the view is of: a stderr marker says so first, since a reader often
    /// sees both views in one (`2>&1`, an agent's tool output), and its line numbers are
    /// stderr's.
    pub stream: Stream,
}

/// Render the view of `doc` at `options.level`.
pub fn render(doc: &Doc, causes: &Causes, options: &Options) -> String {
    let mut shown: Vec<bool> = match options.level {
        Level::Counts => level0(doc, causes, options.exit_code, options.content),
        Level::Failures => level1(doc, options.head_lines, options.content),
        Level::Filtered | Level::Raw => doc.lines.iter().map(|l| l.fate == Fate::Keep).collect(),
    };
    hide_stranded_context(doc, &mut shown);
    hide_stranded_blanks(doc, &mut shown);
    let counts = (options.level == Level::Counts).then(|| counts(doc));
    write(doc, causes, &shown, counts, options)
}

/// The failures, or the head of what level 2 keeps.
fn level1(doc: &Doc, head_lines: usize, content: bool) -> Vec<bool> {
    let kept = |l: &crate::block::Line| l.fate == Fate::Keep;
    let mut shown = failures_or_head(doc, head_lines);
    // gcc's `a.c: In function ‘main’:` over a shown diagnostic says where it is, though
    // warnings between them are hidden: level 1 shows it with it. (`In file included
    // from ...` and an inlining chain speak of the one diagnostic under them.)
    let context = |j: usize| {
        let t = doc.clean(j);
        crate::pipeline::shapes::is_gcc_context(&t, false)
            || crate::pipeline::shapes::is_gcc_context(&t, true)
    };
    let scope = |j: usize| context(j) && is_function_scope(&doc.clean(j));
    for i in 1..doc.lines.len() {
        if !shown[i]
            || !matches!(doc.lines[i].role, Role::Error | Role::Warning)
            || locate::prefix(&doc.clean(i)).is_none()
        {
            continue;
        }
        // Up through the hidden diagnostics of the same scope, to the line that opens it.
        let mut j = i;
        while j > 0 && !shown[j - 1] && !scope(j - 1) {
            let part = matches!(
                doc.lines[j - 1].role,
                Role::Warning
                    | Role::Error
                    | Role::Note
                    | Role::Source
                    | Role::Location
                    | Role::Help
                    | Role::Blank
            );
            if !part && !context(j - 1) {
                break;
            }
            j -= 1;
        }
        if j > 0 && kept(&doc.lines[j - 1]) && scope(j - 1) {
            shown[j - 1] = true;
        }
    }
    // A routine stream's few lines that say something went wrong are what level 1 is for
    // too (the WARNING among three thousand access records, besides the 500's traceback),
    // each with the line before it, which led to it. (Not in a printed file or a search's
    // hits: a line there that says `errors` is content like any other.)
    let anomalies = if content {
        Vec::new()
    } else {
        crate::pipeline::rank::anomalies(doc)
    };
    for at in anomalies {
        shown[at] = true;
        if at > 0 && kept(&doc.lines[at - 1]) {
            shown[at - 1] = true;
        }
    }
    shown
}

/// The failures (what context forced), or the head of what level 2 keeps.
fn failures_or_head(doc: &Doc, head_lines: usize) -> Vec<bool> {
    let kept = |l: &crate::block::Line| l.fate == Fate::Keep;
    if doc.lines.iter().any(|l| kept(l) && l.forced()) {
        let mut shown: Vec<bool> = doc.lines.iter().map(|l| kept(l) && l.forced()).collect();
        // A failing test is its whole section, not only its error's paragraph: vitest's
        // `Received:` and `❯ src/a.ts:3:5`, cargo's doc test header, a should_panic's
        // expected substring are each a paragraph of their own.
        for (head, end) in crate::pipeline::cause::test_sections(doc) {
            if kept(&doc.lines[head]) {
                for (show, line) in shown[head..end].iter_mut().zip(&doc.lines[head..end]) {
                    *show |= kept(line);
                }
            }
        }
        return shown;
    }
    head(doc, head_lines)
}

/// The first `head_lines` kept lines, and on to the end of the hunk, the stat or the commit
/// they stop in.
fn head(doc: &Doc, head_lines: usize) -> Vec<bool> {
    let kept = |l: &crate::block::Line| l.fate == Fate::Keep;
    let mut left = head_lines;
    let mut shown: Vec<bool> = doc
        .lines
        .iter()
        .map(|l| {
            let show = kept(l) && left > 0;
            left -= show as usize;
            show
        })
        .collect();
    // A head that stops inside a diff's hunk goes on to the hunk's end (twice as far again
    // as the head): a hunk's leading context without its change says nothing, and one cut
    // a few lines before its end hides the change that closes it. A longer hunk stays cut,
    // and its marker says so.
    let starts = |i: usize| {
        let marks = doc.lines[i].marks;
        marks.has(Marks::HUNK) || marks.has(Marks::DIFF_FILE) || marks.has(Marks::COMMIT)
    };
    let last = shown.iter().rposition(|&s| s);
    // A head that stops inside a diff's `--stat` goes on to its tally line (`25 files
    // changed, ...`), when that is near: the listing without its sum leaves the reader
    // counting.
    if let Some(last) = last
        && let Some(tally) = (last + 1..doc.lines.len())
            .take(head_lines)
            .take_while(|&i| !starts(i) && kept(&doc.lines[i]))
            .find(|&i| doc.lines[i].marks.has(Marks::TALLY))
    {
        shown[last + 1..=tally].fill(true);
        return shown;
    }
    if let Some(last) = last
        && (0..=last)
            .rev()
            .find(|&i| starts(i))
            .is_some_and(|i| doc.lines[i].marks.has(Marks::HUNK))
    {
        for i in (last + 1..doc.lines.len()).take(2 * head_lines) {
            if starts(i) || !kept(&doc.lines[i]) {
                break;
            }
            shown[i] = true;
        }
    }
    // A head that stops inside a commit's header and message goes on to its end, as far
    // again as the head; a longer commit after others goes whole: its `Author:` line
    // without its message reads as the commit's all.
    if let Some(last) = last
        && let Some(commit) = (0..=last).rev().find(|&i| starts(i))
        && doc.lines[commit].marks.has(Marks::COMMIT)
    {
        let end = (last + 1..doc.lines.len())
            .take(head_lines + 1)
            .find(|&i| starts(i) || !kept(&doc.lines[i]));
        match end {
            Some(end) => shown[last + 1..end].fill(true),
            None if (0..commit).any(|i| shown[i]) => shown[commit..=last].fill(false),
            None => {}
        }
    }
    shown
}

/// One line: the failure if there is one, else the last non-blank line. A finding whose
/// tool puts its place on the next line (rustc's `error[E0425]: ...` then `--> src/a.rs:3:9`)
/// keeps that line too: the failure without where it is sends the reader searching. So
/// does a message its tool wrapped (mypy's `--pretty`), down to its `[code]`.
fn level0(doc: &Doc, causes: &Causes, exit_code: i32, content: bool) -> Vec<bool> {
    let mut shown = vec![false; doc.lines.len()];
    if let Some(i) = level0_line(doc, causes, exit_code, content) {
        shown[i] = true;
        if crate::pipeline::parse::is_wrapped_head(&doc.clean(i)) {
            let rest = i + 1
                ..doc
                    .lines
                    .len()
                    .min(i + 1 + crate::pipeline::parse::WRAPPED as usize);
            for j in rest {
                let t = doc.clean(j);
                if t.starts_with([' ', '\t'])
                    || t.trim().is_empty()
                    || doc.lines[j].fate != Fate::Keep
                {
                    break;
                }
                shown[j] = true;
                if t.trim_end().ends_with(']') {
                    break;
                }
            }
        }
        let located = crate::pipeline::locate::prefix(&doc.clean(i)).is_some();
        if let Some(next) = (i + 1 < doc.lines.len()).then_some(i + 1)
            && !located
            && doc.lines[i].role.is_finding()
            && doc.lines[next].role == Role::Location
            && doc.lines[next].fate == Fate::Keep
        {
            shown[next] = true;
        }
        // A failing test named without its place (mocha's `1) parses a line`) is shown
        // with the first frame of the first failing test's section, which is its own
        // (`at Context.<anonymous> (test/a.mjs:33:46)`): the reader's first place to go.
        let marks = doc.lines[i].marks;
        let names_test = marks.has(Marks::TEST_FAILED) || marks.has(Marks::TEST_SECTION);
        if names_test && !located && !has_place(&doc.clean(i)) {
            let frame = crate::pipeline::cause::test_sections(doc)
                .into_iter()
                .next()
                .and_then(|(head, end)| {
                    (head + 1..end).find(|&j| {
                        let t = doc.clean(j);
                        let library =
                            ["node:internal", "node_modules/", "/rustc/", "site-packages"]
                                .iter()
                                .any(|l| t.contains(l));
                        doc.lines[j].role == Role::Location
                            && doc.lines[j].fate == Fate::Keep
                            && !library
                    })
                });
            if let Some(frame) = frame {
                shown[frame] = true;
            }
        }
    }
    shown
}

/// Does `t` name a place anywhere in it (`src/a.rs:3:5`, `(test/a.mjs:33:46)`)?
fn has_place(t: &str) -> bool {
    t.split([' ', '(', ')', '\''])
        .any(|word| locate::path_line(word).is_some())
}

fn level0_line(doc: &Doc, causes: &Causes, exit_code: i32, content: bool) -> Option<usize> {
    let kept = |i: &usize| doc.lines[*i].fate == Fate::Keep;
    let all = 0..doc.lines.len();
    let role = |i: usize| doc.lines[i].role;
    // A traceback says what went wrong on its last error line. (A logger indents it under
    // its record: twistd writes a tab first.)
    let traceback = |i: usize| doc.clean(i).trim_start().starts_with("Traceback");
    let traceback_error = |head: usize, end: usize| {
        (head + 1..end)
            .rev()
            .find(|&j| role(j) == Role::Error && kept(&j))
    };
    // A log of commits is named by its newest commit, a diff by its first file: its last
    // line is a line of the oldest change, which says nothing of the whole.
    for mark in [Marks::COMMIT, Marks::DIFF_FILE] {
        if let Some(i) = all.clone().find(|&i| doc.lines[i].marks.has(mark)) {
            return Some(i);
        }
    }
    // The line a test runner prints once per failing test names it (its family module
    // marked it): pytest's short summary also says why, go and jest name theirs.
    let named = |i: usize| doc.lines[i].marks.has(Marks::TEST_FAILED);
    all.clone()
        .filter(kept)
        .find(|&i| role(i) == Role::Fail && named(i))
        // Without one, the head of its section names it (`● suite › test`), or the error
        // right under it when that names the test too and says where it failed (cargo's
        // `thread 't::a' panicked at src/a.rs:3:5:`).
        .or_else(|| {
            let head = all
                .clone()
                .filter(kept)
                .find(|&i| doc.lines[i].marks.has(Marks::TEST_SECTION))?;
            let Some(name) = crate::pipeline::shapes::test_name(doc, head) else {
                return Some(head);
            };
            if !doc.clean(head).contains(name.as_str()) {
                // The head names only the outermost suite of a title that runs over
                // several lines (mocha's `1) mimeTypes`): the runner's line for the
                // test, though said again there, names it.
                if let Some(line) = all.clone().find(|&i| role(i) == Role::Fail && named(i)) {
                    return Some(line);
                }
            }
            // Under it, or under the `stderr ───` that nextest's captured output opens with,
            // before the next test's head.
            let quoted = format!("'{name}'");
            let next_head = (head + 1..doc.lines.len())
                .find(|&j| doc.lines[j].marks.has(Marks::TEST_SECTION))
                .unwrap_or(doc.lines.len());
            let under = (head + 1..next_head)
                .filter(|&j| role(j) != Role::Blank && !doc.lines[j].marks.has(Marks::RESTATED))
                .take(3)
                .find(|&j| role(j) == Role::Error);
            Some(
                under
                    .filter(|&j| kept(&j) && doc.clean(j).contains(&quoted))
                    .unwrap_or(head),
            )
        })
        // pytest's `E   ModuleNotFoundError: ...` says why a collection failed.
        .or_else(|| {
            all.clone()
                .filter(kept)
                .find(|&i| role(i) == Role::Error && doc.clean(i).starts_with("E  "))
        })
        .or_else(|| {
            // An error that stands alone says more than the first of a flood of one kind:
            // flake8's one `F821 undefined name` among a hundred `E501 line too long`, when
            // it says where (a linker's `tests.c:(.text+0x1133): undefined reference` after
            // a flood of compile errors is their echo, not news).
            let flood: HashSet<usize> = causes
                .groups
                .iter()
                .map(|g| g.first_line as usize - 1)
                .collect();
            let errors = || {
                doc.blocks().filter(|b| {
                    kept(&(b.first as usize)) && role(b.first as usize) == Role::Error
                })
            };
            let located = |b: &crate::block::Block| {
                locate::prefix(&doc.clean(b.first as usize)).is_some()
            };
            errors()
                .find(|b| !flood.contains(&(b.first as usize)) && located(b))
                .or_else(|| errors().next())
                .map(|b| {
                    // When one exception led to another the last traceback is the one
                    // that ended the program.
                    let first = b.first as usize;
                    if !traceback(first) {
                        return first;
                    }
                    doc.blocks()
                        .filter(|t| traceback(t.first as usize))
                        .filter_map(|t| traceback_error(t.first as usize, t.end as usize))
                        .last()
                        .unwrap_or(first)
                })
        })
        // So does a traceback a logger wrote under its record (twistd's `#critical`).
        .or_else(|| {
            let i = all.clone().filter(kept).find(|&i| role(i).is_failure())?;
            if !traceback(i) {
                return Some(i);
            }
            let block = doc.blocks().find(|b| b.lines().contains(&i))?;
            traceback_error(i, block.end as usize).or(Some(i))
        })
        .or_else(|| {
            let forced = all
                .clone()
                .rev()
                .filter(kept)
                .find(|&i| doc.lines[i].forced());
            forced.filter(|_| exit_code != 0)
        })
        // Nothing failed: the tool's own tally says how it ended (`Plan: 3 to add, ...`,
        // `=== 5 passed in 0.1s ===`), wherever it printed it.
        .or_else(|| {
            all.clone()
                .rev()
                .filter(kept)
                .find(|&i| doc.lines[i].marks.has(Marks::TALLY))
        })
        // Nor a tally: a routine stream is named by its one line that says something
        // went wrong, not by the line it stopped on. (Content's lines are all the answer.)
        .or_else(|| {
            (!content)
                .then(|| crate::pipeline::rank::anomaly(doc))
                .flatten()
        })
        .or_else(|| all.clone().rev().find(|&i| role(i) != Role::Blank))
        .or_else(|| doc.lines.len().checked_sub(1))
}

/// gcc's `In file included from a.h:16,` / `from a.c:52:` (and an inlining chain, `In
/// function ‘new_expr’,` / `inlined from ...`) say where the one diagnostic under them is;
/// `a.c: In function ‘f’:` says where every diagnostic up to the next such line is. Over
/// diagnostics that are all hidden (grouped, or cut) they introduce nothing in view, and
/// read as the context of whatever follows the marker: they go with what they introduce.
/// A function's line over one still shown stays, though the first under it went: without
/// it the warning reads as in the function named above it.
fn hide_stranded_context(doc: &Doc, shown: &mut [bool]) {
    let mut context = vec![false; shown.len()];
    for i in 0..shown.len() {
        let after = i > 0 && context[i - 1];
        context[i] = matches!(doc.lines[i].role, Role::Note | Role::Plain)
            && crate::pipeline::shapes::is_gcc_context(&doc.clean(i), after);
    }
    // Whether a located diagnostic is shown between the current line and the end of its
    // function's scope: the next function line, or a line that is not part of a located
    // diagnostic (make's own `make: *** [Makefile:40: x] Error 1`). And whether the first
    // line after the current run of context lines is hidden.
    let mut scope_shown = false;
    let mut next_hidden = false;
    for i in (0..shown.len()).rev() {
        if context[i] {
            if is_function_scope(&doc.clean(i)) {
                if !scope_shown {
                    shown[i] = false;
                }
                scope_shown = false;
            } else if next_hidden {
                shown[i] = false;
            }
            continue;
        }
        next_hidden = !shown[i];
        match doc.lines[i].role {
            Role::Warning | Role::Error if locate::prefix(&doc.clean(i)).is_some() => {
                scope_shown |= shown[i]
            }
            Role::Note | Role::Source | Role::Location | Role::Help | Role::Blank => {}
            _ => scope_shown = false,
        }
    }
}

/// `a.c: In function ‘f’:`, `a.c: At top level:`: a gcc context line that speaks of
/// every diagnostic after it up to the next one.
fn is_function_scope(t: &str) -> bool {
    t.contains(": In ") || t.contains(": At ")
}

/// A run of shown blank lines next to hidden lines separates the reader's lines from a
/// marker, which is a separator already: hide it with its neighbours. Not in a diff, where
/// ` ` is a hunk's context line for an empty line of the file: hiding it would cut the
/// hunk one line short.
fn hide_stranded_blanks(doc: &Doc, shown: &mut [bool]) {
    let n = shown.len();
    let diff = doc.lines.iter().any(|l| l.marks.has(Marks::HUNK));
    let blank = |i: usize| doc.lines[i].role == Role::Blank && (!diff || doc.raw(i).is_empty());
    let mut i = 0;
    while i < n {
        if !(shown[i] && blank(i)) {
            i += 1;
            continue;
        }
        let start = i;
        while i < n && shown[i] && blank(i) {
            i += 1;
        }
        let touches_hidden = start > 0 && !shown[start - 1] || i < n && !shown[i];
        if touches_hidden {
            shown[start..i].iter_mut().for_each(|s| *s = false);
        }
    }
}

/// What the raw stream reports, for level 0's marker: lines, errors, warnings, failed
/// tests. An error is a diagnostic head or an eslint finding; the lines that belong to one
/// (a panic's message, pytest's `E` lines, a traceback's exception) are not counted again.
fn counts(doc: &Doc) -> String {
    let (mut errors, mut warnings) = (0usize, 0usize);
    let mut after_panic = false;
    let marked = |mark| doc.lines.iter().filter(|l| l.marks.has(mark)).count();
    let mut failed = marked(Marks::TEST_FAILED);
    // A failing test's panic or assertion, and cargo's `error: test failed` after it, are
    // that test's failure, counted as failed: when tests are named failing, errors are
    // what came before the tests. A failing test's section is enough to say so: a `tail`
    // may have cut every `test x ... FAILED` line away.
    let tests_from = (0..doc.lines.len())
        .find(|&i| {
            let marks = doc.lines[i].marks;
            marks.has(Marks::TEST_SECTION) || marks.has(Marks::TEST_FAILED)
        })
        .unwrap_or(usize::MAX);
    // The block that ended just above, if it was an error: a traceback right under a
    // logged error (`ERROR [uvicorn.error] Exception in ASGI application`) is that
    // record's, not a second error.
    let mut error_ended_at = None;
    for block in doc.blocks() {
        let first = block.first as usize;
        if first >= tests_from {
            break;
        }
        let head = doc.lines[first].role;
        let text = doc.clean(first);
        if text.starts_with("Traceback") && error_ended_at == Some(first) {
            error_ended_at = None;
            continue;
        }
        error_ended_at = (head == Role::Error).then_some(block.end as usize);
        match head {
            Role::Location => {
                for i in block.lines().skip(1) {
                    errors += (doc.lines[i].role == Role::Error) as usize;
                    warnings += (doc.lines[i].role == Role::Warning) as usize;
                }
            }
            // make's `make: *** [all] Error 1` says a recipe failed, not a new error.
            Role::Error if !after_panic && !text.starts_with("E ") && !text.contains(": *** ") => {
                errors += 1
            }
            Role::Warning => warnings += 1,
            _ => {}
        }
        after_panic = text.contains("panicked at");
    }
    // The tool's own tally, where it printed one, is the count: pytest's `2 errors` are
    // two, whatever their tracebacks hold. Tallies of several test binaries add up.
    let tallied = |word: &str| -> Option<usize> {
        let counts: Vec<usize> = (0..doc.lines.len())
            .filter(|&i| doc.lines[i].marks.has(Marks::TALLY))
            .filter_map(|i| tally_count(&doc.clean(i), word))
            .collect();
        (!counts.is_empty()).then(|| counts.iter().sum())
    };
    if let Some(n) = tallied("error") {
        errors = n;
    }
    if let Some(n) = tallied("warning") {
        warnings = n;
    }
    if failed == 0 {
        // Sections with no line of their own per test (vitest's stderr, a tail that cut
        // the status lines): each failing test has one.
        failed = marked(Marks::TEST_SECTION);
    }
    if let Some(n) = tallied("failed") {
        failed = n;
    }
    let mut parts = vec![plural(doc.lines.len(), "line")];
    let commits = marked(Marks::COMMIT);
    // Files, each once: a log's commits may touch one file several times.
    let files = (0..doc.lines.len())
        .filter(|&i| doc.lines[i].marks.has(Marks::DIFF_FILE))
        .filter_map(|i| locate::file_of(doc.raw(i)))
        .collect::<HashSet<&str>>()
        .len();
    if commits > 0 {
        parts.push(plural(commits, "commit"));
    }
    if files > 0 {
        let (mut added, mut removed) = (0usize, 0usize);
        for i in 0..doc.lines.len() {
            let text = doc.clean(i);
            added += (text.starts_with('+') && !text.starts_with("+++ ")) as usize;
            removed += (text.starts_with('-') && !text.starts_with("--- ")) as usize;
        }
        parts.push(format!("{}, +{added} -{removed}", plural(files, "file")));
    }
    for (n, word) in [(errors, "error"), (warnings, "warning")] {
        if n > 0 {
            parts.push(plural(n, word));
        }
    }
    if failed > 0 {
        parts.push(format!("{failed} failed"));
    }
    parts.join(", ")
}

/// The number a tally gives `word` (`error` also reads `errors`): `Found 30 errors in 5
/// files`, `=== 1 failed, 2 errors in 0.1s ===`, `test result: FAILED. 42 passed; 6 failed`.
fn tally_count(tally: &str, word: &str) -> Option<usize> {
    if let Some(n) = crate::pipeline::shapes::tally_count(tally, word) {
        // `FAILED (failures=5, errors=8)`, `28 failing` name their counts their own way.
        return Some(n);
    }
    let words: Vec<&str> = tally
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == '.')
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).find_map(|pair| {
        let named = pair[1] == word || pair[1].strip_suffix('s') == Some(word);
        named.then(|| pair[0].parse().ok()).flatten()
    })
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn write(
    doc: &Doc,
    causes: &Causes,
    shown: &[bool],
    mut counts: Option<String>,
    options: &Options,
) -> String {
    let n = doc.lines.len();
    let mut out = String::new();
    let mut member = 0usize;
    let mut named: Option<HashSet<&str>> = None;
    // The last line that names a failing test once (pytest's short summary, cargo's
    // status lines): a failing test's line said again before it is named again below.
    let last_named = (0..n)
        .rev()
        .find(|&i| doc.lines[i].marks.has(Marks::TEST_FAILED));
    let last_section = (0..n)
        .rev()
        .find(|&i| doc.lines[i].marks.has(Marks::TEST_SECTION));
    // The report each group keeps: level 1 names it with its group.
    let kept_by_group: HashSet<usize> = causes
        .groups
        .iter()
        .map(|g| g.first_line as usize - 1)
        .collect();
    // Each hidden region of grouped reports, by its text: its first and last line.
    let mut regions: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut i = 0;
    while i < n {
        if shown[i] {
            push_line(&mut out, doc, i, options.handle);
            i += 1;
            continue;
        }
        let start = i;
        while i < n && !shown[i] {
            i += 1;
        }
        // Members of groups inside this region, in line order.
        while member < causes.members.len() && (causes.members[member].line as usize) < start {
            member += 1;
        }
        let first_member = member;
        while member < causes.members.len() && (causes.members[member].line as usize) < i {
            member += 1;
        }
        // Level 0 is counts and one line: its markers carry the counts, not places.
        let carried = counts.take();
        // Reports that repeat a region hidden before, byte for byte (a file compiled once
        // per program under `2>&1`, its warnings printed each time), are said to be that
        // region again rather than listed again.
        let region = &doc.text[doc.lines[start].start as usize..doc.line_end(i - 1)];
        let again = (first_member < member && carried.is_none())
            .then(|| {
                let (first, last) = *regions.entry(region).or_insert((start + 1, i));
                (first != start + 1).then(|| format!("the same lines as {first}-{last}"))
            })
            .flatten();
        let mut detail = match carried.clone() {
            Some(counts) => counts,
            None if options.level == Level::Counts => String::new(),
            None if again.is_some() => again.unwrap_or_default(),
            None => group_detail(
                causes,
                first_member..member,
                |line| (start..i).contains(&line),
                options.max_locations,
            ),
        };
        // Level 1 shows no warnings: a marker over some says how many it holds besides
        // the groups it names.
        if options.level == Level::Failures {
            let others = (start..i)
                .filter(|&j| doc.lines[j].role == Role::Warning)
                .filter(|&j| doc.lines[j].fate == Fate::Keep && !kept_by_group.contains(&j))
                .count();
            if others > 0 {
                let word = if detail.is_empty() {
                    "warning"
                } else {
                    "other warning"
                };
                let others = plural(others, word);
                detail = if detail.is_empty() {
                    others
                } else {
                    format!("{detail}; {others}")
                };
            }
        }
        // Folded repeats say what they were: their shape and the range of each field.
        // (Not where groups already say what the region held: a failing test's body folded
        // before its section was grouped is part of what the group names.)
        // (Not either where most of the region was cut for the budget: a few folds would
        // be described as if they were all it held.)
        let count = |fate| (start..i).filter(|&j| doc.lines[j].fate == fate).count();
        let (repeats, ranked) = (count(Fate::Repeat), count(Fate::Ranked));
        if options.level != Level::Counts && first_member == member && repeats > ranked {
            let folds = fold_detail(doc, start..i);
            detail = match (detail.is_empty(), folds.is_empty()) {
                (_, true) => detail,
                (true, false) => folds,
                (false, false) => format!("{detail}; {folds}"),
            };
        }
        // Lines cut for the budget may name files nothing else in the view names.
        // (Only level 2: level 1 is asked for as less than level 2, and a list of every
        // file and commit it hides would make it longer.)
        if options.level == Level::Filtered && ranked > 0 {
            let named = named.get_or_insert_with(|| shown_files(doc, shown));
            let mut files = unnamed_files(doc, start..i, named, options.max_locations);
            let commits = cut_commits(doc, start..i, options.max_locations);
            if !commits.is_empty() {
                files = if files.is_empty() {
                    commits
                } else {
                    format!("{commits}; {files}")
                };
            }
            if !files.is_empty() {
                detail = if detail.is_empty() {
                    files
                } else {
                    format!("{detail}; {files}")
                };
            }
            // Otherwise say what kinds of lines the cut held, so a reader knows whether a
            // warning is among them without opening the store; of a diff, what changes;
            // of a printed source file, what it defines.
            if detail.is_empty() && first_member == member && !options.content {
                detail = crate::pipeline::shapes::cut_detail(doc, start..i)
                    .unwrap_or_else(|| kinds_detail(doc, start..i));
            }
            if options.content {
                let what = content_detail(doc, start..i);
                if !what.is_empty() {
                    detail = if detail.is_empty() {
                        what
                    } else {
                        format!("{detail}; {what}")
                    };
                }
            }
        }
        // A log of commits at level 1 is its first lines: the marker after them names the
        // commits it hides, so a reader can ask for one.
        if options.level == Level::Failures && options.content && detail.is_empty() {
            let named = named.get_or_insert_with(|| shown_files(doc, shown));
            let parts = [
                cut_commits(doc, start..i, options.max_locations),
                unnamed_files(doc, start..i, named, options.max_locations),
                content_detail(doc, start..i),
            ];
            detail = parts
                .into_iter()
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
                .join("; ");
        }
        // Passing tests, and failing ones the closing list restates, say how many; a
        // traceback's library frames, which they were.
        if matches!(options.level, Level::Failures | Level::Filtered) && detail.is_empty() {
            detail = tests_tally(doc, start..i, last_named, last_section);
        }
        if options.level == Level::Filtered && detail.is_empty() {
            detail = frames_detail(doc, start..i, options.max_locations);
        }
        // Level 1 says what kinds of lines it hid around a routine stream's anomalies too
        // (`1723 INFO [api]`), in fewer bytes than level 2's lists of files.
        if options.level == Level::Failures
            && !options.content
            && detail.is_empty()
            && first_member == member
        {
            detail = kinds_detail(doc, start..i);
        }
        // A panic's backtrace, which cargo's module read as noise, is said to be there
        // (not the backtraces of tests a group names: they are those tests'), at level 1
        // too, where its `stack backtrace:` head goes with it.
        let grouped = (start..i).any(|j| doc.lines[j].fate == Fate::Grouped);
        if matches!(options.level, Level::Failures | Level::Filtered) && !grouped {
            let frames = crate::pipeline::shapes::cargo::noise_frames(doc, start..i);
            if frames > 0 {
                let frames = format!("a backtrace of {}", plural(frames, "frame"));
                detail = if detail.is_empty() {
                    frames
                } else {
                    format!("{detail}; {frames}")
                };
            }
        }
        let counts_here = detail_is_counts(options, &detail);
        if options.stream == Stream::Stderr {
            detail = if detail.is_empty() {
                "stderr".to_owned()
            } else {
                format!("stderr; {detail}")
            };
        }
        let marker = marker(i - start, start + 1, i, options.handle, &detail);
        let region_bytes = doc.line_end(i - 1) + 1 - doc.lines[start].start as usize;
        // A marker costs the reader a question: worth it only when it stands for at least
        // twice its bytes (a one-line marker in place of a line of the same length, or a
        // diff broken into islands by markers that save a byte each, is no gain). One
        // standing for grouped reports trades their messages for their places: worth it
        // only when it saves a quarter of the bytes.
        let worth = if first_member < member {
            (marker.len() + 1) * 4 <= region_bytes * 3
        } else {
            (marker.len() + 1) * 2 <= region_bytes
        };
        // Level 0's counts go on a later marker when this one would not be worth its
        // bytes: a line shown is cheaper than a marker standing for it.
        let defer = counts_here && !worth && (i..n).any(|j| !shown[j]);
        if defer {
            counts = carried;
        }
        // With nothing later to carry them, they still yield to lines no longer than the
        // marker: a four-line output is its own count.
        let dearer = marker.len() + 1 >= region_bytes;
        if !worth && (!counts_here || defer || dearer) {
            (start..i).for_each(|j| push_line(&mut out, doc, j, options.handle));
        } else {
            out.push_str(&marker);
            out.push('\n');
        }
    }
    out
}

/// Shapes a region's folds list before counting the rest.
const FOLD_SHAPES: usize = 3;
/// Fields of a fold whose ranges its marker lists.
const FOLD_FIELDS: usize = 3;
/// Characters of a fold's shape quoted in its marker.
const SHAPE_CHARS: usize = 72;

/// `598 like "DEBUG chunk=# latency_ms=#" (# 2-599, 3-19)`: each shape of the repeats in
/// `region`, how many lines it folded and the range of every varying field among them.
/// Repeated lines a fold's marker counts when it names no shape of them.
const FOLD_SAID: usize = 4;

fn fold_detail(doc: &Doc, region: std::ops::Range<usize>) -> String {
    struct Fold<'a> {
        count: usize,
        /// Each field's (low, high) over the fold.
        ranges: Vec<(f64, f64)>,
        /// What the fold's first line says (without a record's opening fields: `opened`),
        /// and its numbers, to quote the ones that never varied.
        first: std::borrow::Cow<'a, str>,
        opened: bool,
        fields: Vec<crate::pipeline::dedupe::Field>,
    }
    // The folds are described by what their lines say with every number written `#`:
    // dedupe folded `GET /page9.html` and `GET /page12.html` apart (a path is an id), and
    // forty shapes that read alike are one kind of line to the reader, with its ranges.
    let mut folds: Vec<Fold> = Vec::new();
    let mut at: HashMap<String, usize> = HashMap::new();
    for j in region.filter(|&j| doc.lines[j].fate == Fate::Repeat) {
        let text = doc.clean(j);
        let body = crate::pipeline::shapes::log::record_body(&text).map(str::to_owned);
        let opened = body.is_some();
        let first = match body {
            Some(body) => std::borrow::Cow::Owned(body),
            None => text,
        };
        let (shape, fields) = number_fields(&first);
        match at.get(&shape) {
            Some(&k) => {
                let fold = &mut folds[k];
                fold.count += 1;
                for (range, field) in fold.ranges.iter_mut().zip(&fields) {
                    range.0 = range.0.min(field.value);
                    range.1 = range.1.max(field.value);
                }
            }
            None => {
                at.insert(shape, folds.len());
                folds.push(Fold {
                    count: 1,
                    ranges: fields.iter().map(|f| (f.value, f.value)).collect(),
                    first,
                    opened,
                    fields,
                });
            }
        }
    }
    let repeats: usize = folds.iter().map(|fold| fold.count).sum();
    let opening = folds
        .iter()
        .map(|fold| fold.first.trim())
        .find(|t| t.contains(char::is_alphanumeric))
        // What a located line says is after its place (`dist.py:765: SetuptoolsDep...`).
        .map(|t| locate::prefix(t).map_or(t, |(_, _, rest)| rest.trim()).to_owned());
    // A shape folded once says less than the lines around it: name the shapes of folds
    // (but in a region of a line or two, which its marker would otherwise leave unsaid).
    // So does a line with nothing to read in it (a blank, a rule of `*`, a `!!`).
    folds.retain(|fold| {
        (fold.count > 1 || repeats < FOLD_FEW) && fold.first.contains(char::is_alphanumeric)
    });
    if folds.is_empty() && repeats >= FOLD_SAID {
        // A block said again whole (a warning a build prints three times): its lines
        // are each folded once, and are what the marker holds, from its first line that
        // has something to read.
        return match opening {
            Some(first) => format!("{repeats} repeated lines from \"{}\"", clip(&first)),
            None => format!("{repeats} repeated lines"),
        };
    }
    // The largest folds first: they are what the region mostly is.
    folds.sort_by_key(|fold| std::cmp::Reverse(fold.count));
    let mut parts: Vec<String> = folds
        .iter()
        .take(FOLD_SHAPES)
        .map(|fold| {
            // The shape as the reader would write it: a number that never varied is
            // quoted as it was, `#` stands for the ones that did. A record's opening
            // fields (its stamp, its logger, an access log's client and time) are left
            // out (`…`): they fill the quote before what the lines say.
            let mut shape = String::from(if fold.opened { "… " } else { "" });
            let mut from = 0;
            for (field, &(low, high)) in fold.fields.iter().zip(&fold.ranges) {
                shape.push_str(&fold.first[from..field.start]);
                if low == high {
                    shape.push_str(&fold.first[field.start..field.end]);
                } else {
                    shape.push('#');
                }
                from = field.end;
            }
            shape.push_str(&fold.first[from..]);
            let mut part = format!("{} like \"{}\"", fold.count, clip(&shape));
            let varied: Vec<String> = fold
                .ranges
                .iter()
                .filter(|(low, high)| low != high)
                .map(|(low, high)| format!("{low}-{high}"))
                .collect();
            if !varied.is_empty() {
                let more = if varied.len() > FOLD_FIELDS {
                    ", …"
                } else {
                    ""
                };
                let listed = varied[..varied.len().min(FOLD_FIELDS)].join(", ");
                part.push_str(&format!(" (# {listed}{more})"));
            }
            part
        })
        .collect();
    if folds.len() > FOLD_SHAPES {
        parts.push(format!("and {} more shapes", folds.len() - FOLD_SHAPES));
    }
    parts.join("; ")
}

/// The shape of `text` with each run of digits written `#`, wherever it stands (in a
/// word too: `page#.html`), and those runs as fields.
fn number_fields(text: &str) -> (String, Vec<crate::pipeline::dedupe::Field>) {
    let mut shape = String::with_capacity(text.len());
    let mut fields = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            let next = (i + 1..bytes.len())
                .find(|&k| bytes[k].is_ascii_digit())
                .unwrap_or(bytes.len());
            shape.push_str(&text[i..next]);
            i = next;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let value = text[start..i.min(start + 15)].parse::<f64>().unwrap_or(0.0);
        fields.push(crate::pipeline::dedupe::Field {
            start,
            end: i,
            value,
        });
        shape.push('#');
    }
    (shape, fields)
}

/// Folded lines so few that each is described, though its shape was folded once.
const FOLD_FEW: usize = 3;

/// At most [`SHAPE_CHARS`] characters of `text`, with `…` where it was cut.
fn clip(text: &str) -> String {
    if text.chars().count() > SHAPE_CHARS {
        text.chars().take(SHAPE_CHARS).chain(['…']).collect()
    } else {
        text.to_owned()
    }
}

/// Commits a cut lists by id; more are said as a range.
const COMMITS_LISTED: usize = 12;

/// `commits 6ad1d45..., d36589b...`: the commits of a log whose first lines a region
/// hides, each by its id as the log printed it; `1055 commits, f8d30826 down to 4998e852`
/// when there are many.
fn cut_commits(doc: &Doc, region: std::ops::Range<usize>, max: usize) -> String {
    let ids: Vec<&str> = region
        .filter(|&j| doc.lines[j].marks.has(Marks::COMMIT))
        .map(|j| crate::pipeline::shapes::git::commit_id(doc.raw(j)))
        .collect();
    // A long run of a log is its newest and oldest commit: `git log A^..B` shows it again.
    match ids.len() {
        0 => String::new(),
        n if n > max.min(COMMITS_LISTED) => {
            format!("{n} commits, {} down to {}", ids[0], ids[n - 1])
        }
        _ => format!("commits {}", ids.join(", ")),
    }
}

/// `42 passed, 3 skipped, 6 failed (named again below)`: the passing tests a region
/// elided as progress (a test's status line once: go -json's `--- PASS` output, restated
/// by its `pass` event, is not counted), those of them that were skipped, not run, the
/// failing tests' status lines it elided because the runner names them again below, and
/// the failures a runner showed again (jest's `Summary of all failing tests`, cargo's
/// closing `failures:` list, nextest's failing status lines after its tally). Empty when it
/// elided none of these.
fn tests_tally(
    doc: &Doc,
    region: std::ops::Range<usize>,
    last_named: Option<usize>,
    last_section: Option<usize>,
) -> String {
    let (mut passed, mut skipped, mut failed, mut again) = (0usize, 0usize, 0usize, 0usize);
    let mut xfailed = 0usize;
    for j in region {
        let line = doc.lines[j];
        if line.fate != Fate::Progress {
            continue;
        }
        if line.role == Role::Pass && !line.marks.has(Marks::RESTATED) {
            let t = doc.clean(j);
            if crate::pipeline::shapes::skipped(&t) {
                skipped += 1;
            } else if crate::pipeline::shapes::pytest::xfailed(&t) {
                xfailed += 1;
            } else {
                passed += crate::pipeline::shapes::jest::tests_passed(&t);
            }
        } else if line.marks.has(Marks::RESTATED) && line.marks.has(Marks::TEST_FAILED) {
            // A runner that lists its failing tests after their sections (nextest) showed
            // them above; one that names each as it fails (cargo) shows them below.
            if last_section.is_some_and(|last| last < j) {
                again += 1;
            } else {
                failed += 1;
            }
        } else if line.marks.has(Marks::RESTATED) && line.marks.has(Marks::TEST_SECTION) {
            again += 1;
        } else if line.marks.has(Marks::RESTATED) && line.role == Role::Fail {
            // pytest -v's `tests/a.py::test_b FAILED [ 40%]`, named again by the summary
            // below it; cargo's closing `failures:` list, which says again what the
            // sections above showed.
            if last_named.is_some_and(|last| j < last) {
                failed += 1;
            } else {
                again += 1;
            }
        }
    }
    let mut parts = Vec::new();
    if passed > 0 {
        parts.push(format!("{passed} passed"));
    }
    if skipped > 0 {
        parts.push(format!("{skipped} skipped"));
    }
    if xfailed > 0 {
        parts.push(format!("{xfailed} xfailed"));
    }
    if failed > 0 {
        parts.push(format!("{failed} failed (named again below)"));
    }
    if again > 0 {
        parts.push(format!("{again} failed (shown above)"));
    }
    parts.join(", ")
}

/// `2 library frames: uvicorn/protocols/http/h11_impl.py, uvicorn/middleware/...`: the
/// frames of a traceback a region elided as noise (the interpreter's library and installed
/// packages), each by its path past `site-packages/` or `lib/pythonX.Y/`, up to `max`
/// before a count of the rest. Empty unless every line of the region is such noise.
fn frames_detail(doc: &Doc, region: std::ops::Range<usize>, max: usize) -> String {
    if region
        .clone()
        .any(|j| doc.lines[j].fate != Fate::Progress || doc.lines[j].role != Role::Noise)
    {
        return String::new();
    }
    let mut files: Vec<String> = Vec::new();
    let mut frames = 0;
    for j in region {
        let text = doc.clean(j);
        let Some((path, _)) = crate::pipeline::locate::python_file(text.trim_start()) else {
            continue;
        };
        frames += 1;
        let short = ["site-packages/", "dist-packages/"]
            .iter()
            .find_map(|dir| path.split_once(dir).map(|(_, rest)| rest))
            .or_else(|| {
                let (_, rest) = path.split_once("/lib/python")?;
                rest.split_once('/').map(|(_, file)| file)
            })
            .unwrap_or(path);
        if !files.iter().any(|f| f == short) {
            files.push(short.to_owned());
        }
    }
    if frames == 0 {
        return String::new();
    }
    let more = files.len().saturating_sub(max);
    files.truncate(max);
    if more > 0 {
        files.push(format!("and {more} more"));
    }
    let noun = if frames == 1 { "frame" } else { "frames" };
    format!("{frames} library {noun}: {}", files.join(", "))
}

/// Kinds a cut region's marker lists before counting the rest.
const KINDS: usize = 3;
/// Regions shorter than this get no kinds.
const KINDS_REGION: usize = 40;

/// Definitions a cut of a printed source file's lines names before a count of the rest.
const DEFINITIONS: usize = 12;

/// What a cut of content held: of a diff, `3 hunks, +87 -5` (the hunks that start in it
/// and its changed lines); of a printed source file, `defines parse_key, parse_value`
/// (the functions, classes and types declared on its lines). Empty when it held neither.
fn content_detail(doc: &Doc, region: std::ops::Range<usize>) -> String {
    let cut = || {
        region
            .clone()
            .filter(|&j| matches!(doc.lines[j].fate, Fate::Ranked | Fate::Keep))
    };
    let diff = doc.lines.iter().any(|l| l.marks.has(Marks::HUNK));
    if diff {
        let hunks = cut()
            .filter(|&j| doc.lines[j].marks.has(Marks::HUNK))
            .count();
        // A cut that opens inside a hunk whose head is shown holds that hunk's end.
        let heads = |j: usize| {
            let marks = doc.lines[j].marks;
            marks.has(Marks::HUNK) || marks.has(Marks::DIFF_FILE) || marks.has(Marks::COMMIT)
        };
        let opened = !heads(region.start)
            && doc.raw(region.start).starts_with([' ', '+', '-', '\\'])
            && (0..region.start)
                .rev()
                .find(|&j| heads(j))
                .is_some_and(|j| doc.lines[j].marks.has(Marks::HUNK));
        let (mut added, mut removed) = (0usize, 0usize);
        // What the line says: `git diff --color` and rustfmt colour the sign.
        for j in cut() {
            let text = doc.clean(j);
            if text.starts_with('+') && !text.starts_with("+++ ") {
                added += 1;
            } else if text.starts_with('-') && !text.starts_with("--- ") {
                removed += 1;
            }
        }
        let counts = format!("+{added} -{removed}");
        return match (opened, hunks, added + removed) {
            (false, _, 0) => String::new(),
            (false, 0, _) => counts,
            (false, 1, _) => format!("1 hunk, {counts}"),
            (false, h, _) => format!("{h} hunks, {counts}"),
            (true, 0, _) => format!("the rest of a hunk, {counts}"),
            (true, 1, _) => format!("the rest of a hunk and 1 more, {counts}"),
            (true, h, _) => format!("the rest of a hunk and {h} more, {counts}"),
        };
    }
    if let Some(listing) = listing_detail(doc, cut().collect()) {
        return listing;
    }
    // Each name once, as first defined (a name defined in two branches of an `if` is one
    // name to look for).
    let mut names: Vec<&str> = Vec::new();
    for name in cut()
        .filter_map(|j| defined_name(numbered_line(doc.raw(j))).or_else(|| c_function_name(doc, j)))
    {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    match names.len() {
        0 => String::new(),
        n if n > DEFINITIONS => format!(
            "defines {} and {} more",
            names[..DEFINITIONS].join(", "),
            n - DEFINITIONS
        ),
        _ => format!("defines {}", names.join(", ")),
    }
}

/// Directories a cut of a listing names before a count of the rest.
const DIRECTORIES: usize = 6;

/// What a cut of a listing held, directory by directory, at the depth that names at most
/// [`DIRECTORIES`] of them: of `ls -R`, the directories whose headers it hid (`170
/// directories: 104 in ./locale/, 2 in ./migrations/, ...`); of a list of paths (`find`),
/// how many under each directory (`98 in ./conf/locale/, 12 in ./db/migrations/, 1 in
/// ./`). None when the lines are not a listing.
fn listing_detail(doc: &Doc, cut: Vec<usize>) -> Option<String> {
    let headers: Vec<&str> = cut
        .iter()
        .filter(|&&j| doc.lines[j].role == Role::Header)
        .filter_map(|&j| doc.raw(j).trim_end_matches('\r').strip_suffix(':'))
        .collect();
    if !headers.is_empty() && cut.iter().all(|&j| !doc.lines[j].marks.has(Marks::COMMIT)) {
        // Each directory counts in the directory it is, or is under.
        let noun = if headers.len() == 1 {
            "directory"
        } else {
            "directories"
        };
        return Some(format!(
            "{} {noun}: {}",
            headers.len(),
            by_directory(&headers)
        ));
    }
    // A list of paths: every line one path, with a directory in it.
    let paths: Vec<&str> = cut
        .iter()
        .map(|&j| doc.raw(j).trim_end_matches('\r'))
        .filter(|t| !t.is_empty())
        .collect();
    let listed = paths.len() >= 2
        && paths
            .iter()
            .all(|p| p.contains('/') && !p.contains(char::is_whitespace));
    if !listed {
        return None;
    }
    let parents: Vec<&str> = paths
        .iter()
        .map(|p| p.rsplit_once('/').map_or(*p, |(dir, _)| dir))
        .collect();
    Some(by_directory(&parents))
}

/// `98 in ./conf/locale/, 12 in ./db/migrations/ and 7 in 3 other directories`: how many
/// of `dirs` are in or under each directory, the largest first, at the deepest level that
/// names at most [`DIRECTORIES`] of them.
fn by_directory(dirs: &[&str]) -> String {
    // Directories by their first `depth` names, in order of first appearance.
    let grouped = |depth: usize| -> Vec<(&str, usize)> {
        let mut groups: Vec<(&str, usize)> = Vec::new();
        let mut at: HashMap<&str, usize> = HashMap::new();
        for dir in dirs {
            let name = dir
                .match_indices('/')
                .nth(depth - 1)
                .map_or(*dir, |(end, _)| &dir[..end]);
            let k = *at.entry(name).or_insert_with(|| {
                groups.push((name, 0));
                groups.len() - 1
            });
            groups[k].1 += 1;
        }
        groups
    };
    let deepest = dirs
        .iter()
        .map(|d| d.matches('/').count() + 1)
        .max()
        .unwrap_or(0);
    let mut groups = grouped(1);
    for depth in 2..=deepest {
        let deeper = grouped(depth);
        // One directory holding all says nothing the lines around the marker do not:
        // then the next level is named, as far as it goes.
        if deeper.len() > DIRECTORIES && groups.len() > 1 {
            break;
        }
        groups = deeper;
        if groups.len() > DIRECTORIES {
            break;
        }
    }
    // The largest first, so what a reader would look for is named; then by name.
    groups.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let more = groups.len().saturating_sub(DIRECTORIES);
    let rest: usize = groups.iter().skip(DIRECTORIES).map(|(_, n)| n).sum();
    let mut detail = groups
        .iter()
        .take(DIRECTORIES)
        .map(|(dir, n)| format!("{n} in {dir}/"))
        .collect::<Vec<_>>()
        .join(", ");
    if more > 0 {
        let other = if more == 1 {
            "other directory"
        } else {
            "other directories"
        };
        detail.push_str(&format!(" and {rest} in {more} {other}"));
    }
    detail
}

/// The name a line of source declares: `fn parse_key(`, `def parse_key(`, `class Parser:`,
/// `func (p *P) Parse(`, `function parse(`, `struct Key {`, `impl Parser {`...
/// A line of a file as printed, without the number `nl` and `cat -n` write before it
/// (`   407\t`).
fn numbered_line(raw: &str) -> &str {
    let digits = raw.trim_start_matches(' ');
    let rest = digits.trim_start_matches(|c: char| c.is_ascii_digit());
    match rest.strip_prefix('\t') {
        Some(line) if rest.len() < digits.len() => line,
        _ => raw,
    }
}

fn defined_name(raw: &str) -> Option<&str> {
    const KEYWORDS: &[&str] = &[
        "fn ",
        "def ",
        "async def ",
        "class ",
        "func ",
        "function ",
        "struct ",
        "enum ",
        "trait ",
        "impl ",
        "interface ",
        "type ",
        "mod ",
    ];
    const PREFIXES: &[&str] = &[
        "pub ",
        "pub(crate) ",
        "pub(super) ",
        "async ",
        "export ",
        "default ",
        "unsafe ",
        "const ",
        "static ",
        "private ",
        "public ",
        "protected ",
    ];
    let mut t = raw.trim_start();
    while let Some(rest) = PREFIXES.iter().find_map(|p| t.strip_prefix(p)) {
        t = rest;
    }
    let rest = KEYWORDS.iter().find_map(|k| t.strip_prefix(k))?;
    // Go's method receiver: `func (p *Parser) Parse(`.
    let rest = match rest.strip_prefix('(') {
        Some(receiver) => receiver.split_once(") ")?.1,
        None => rest,
    };
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    // What follows a declared name is code (`(`, `<`, `{`, `:`, ` = `, ` extends `), not
    // more words: `function maintains a "token stack"` in a docstring declares nothing.
    let after = rest[end..].trim_start();
    let code = after.is_empty()
        || after.starts_with(['(', '<', '{', ':', ';', '=', '['])
        || [
            "struct",
            "interface",
            "extends",
            "implements",
            "for ",
            "where",
        ]
        .iter()
        .any(|w| after.starts_with(w));
    (code && !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

/// The function a C definition at line `j` declares: `static int\nemit_stream_start(
/// yaml_emitter_t *emitter,` or `int main(void) {`. Its name opens at the left edge or
/// after a return type, and the line ends with its `{` or a lone `{` follows within a
/// few lines: a prototype ends with `;`, and a call at the left edge (`setup(`) is
/// followed by no body.
fn c_function_name<'a>(doc: &Doc<'a>, j: usize) -> Option<&'a str> {
    let raw = doc.raw(j).trim_end();
    let first = raw.bytes().next()?;
    if !(first.is_ascii_alphabetic() || first == b'_')
        || raw.ends_with(';')
        || raw.contains(['"', '\'', '='])
    {
        return None;
    }
    let (before, _) = raw.split_once('(')?;
    let before = before.trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |at| at + 1);
    let name = &before[start..];
    let typed = before[..start]
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b' ' || b == b'*');
    const STATEMENTS: &[&str] = &["if", "while", "for", "switch", "return", "sizeof", "else"];
    let macro_like = !name.bytes().any(|b| b.is_ascii_lowercase());
    if name.is_empty() || !typed || macro_like || STATEMENTS.contains(&name) {
        return None;
    }
    let body = raw.ends_with('{')
        || (j + 1..doc.lines.len().min(j + 8)).any(|k| doc.raw(k).trim_end() == "{");
    body.then_some(name)
}

/// `1140 INFO, 766 DEBUG`, or `520 "test …", 311 "Building …" and 40 other lines`: the
/// kinds of the lines of `region` cut for the budget or folded, most common first. A log
/// record's kind is its severity and its logger (`1712 INFO [api]`); another line's is its
/// first word. Empty when the region holds one kind of line only and the lines around
/// the marker are of that kind too: they already show it.
fn kinds_detail(doc: &Doc, region: std::ops::Range<usize>) -> String {
    let region_len = region.len();
    let (region_start, region_end) = (region.start, region.end);
    let mut kinds: Vec<(String, usize)> = Vec::new();
    let mut other = 0usize;
    // Kept lines too: level 1 hides what level 2 would show.
    let hidden = |j: &usize| matches!(doc.lines[*j].fate, Fate::Ranked | Fate::Repeat | Fate::Keep);
    for j in region.filter(hidden) {
        let t = doc.clean(j);
        let kind = match crate::pipeline::shapes::log::severity(&t) {
            Some(severity) => match crate::pipeline::shapes::log::logger(&t) {
                Some(logger) => format!("{severity} [{logger}]"),
                None => severity.to_owned(),
            },
            None => match first_word(&t) {
                Some(word) => format!("\"{word} …\""),
                None => {
                    other += 1;
                    continue;
                }
            },
        };
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    // Most common first; a stable sort keeps ties in order of first appearance.
    kinds.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    // A short cut is read around its marker; and kinds that cover less than half of what
    // was cut say less than its size does.
    let named: usize = kinds.iter().take(KINDS).map(|(_, n)| n).sum();
    let cut: usize = kinds.iter().map(|(_, n)| n).sum::<usize>() + other;
    // One kind is said when a line next to the region is of another: the ERROR a log's
    // routine records were cut around is no sample of them.
    let kind_of = |j: usize| {
        let t = doc.clean(j);
        crate::pipeline::shapes::log::severity(&t).map(str::to_owned)
    };
    let alone = kinds.len() == 1 && other == 0 && {
        let own = kind_of(region_start);
        [region_start.checked_sub(1), Some(region_end)]
            .into_iter()
            .flatten()
            .filter(|&j| j < doc.lines.len())
            .all(|j| kind_of(j) == own)
    };
    let several = kinds.len() + usize::from(other > 0) >= 2;
    let said = several || kinds.len() == 1 && !alone;
    if !said || region_len < KINDS_REGION || named * 2 < cut {
        return String::new();
    }
    other += kinds.iter().skip(KINDS).map(|(_, n)| n).sum::<usize>();
    let mut detail = kinds
        .iter()
        .take(KINDS)
        .map(|(kind, n)| format!("{n} {kind}"))
        .collect::<Vec<_>>()
        .join(", ");
    if other > 0 {
        detail.push_str(&format!(" and {}", plural(other, "other line")));
    }
    detail
}

/// The word a line opens with, as its kind: the first of its first three tokens that
/// starts with a letter, up to where it stops being a word (`[ 45%] Building CXX` is
/// `Building`, `api:test: cache hit` is `api`).
fn first_word(t: &str) -> Option<&str> {
    let token = t
        .split_whitespace()
        .take(3)
        .find(|w| w.starts_with(|c: char| c.is_alphabetic()))?;
    let end = token
        .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(token.len());
    Some(&token[..end])
}

/// Files the shown lines name.
fn shown_files<'a>(doc: &Doc<'a>, shown: &[bool]) -> HashSet<&'a str> {
    (0..doc.lines.len())
        .filter(|&i| shown[i])
        .filter_map(|i| locate::file_of(doc.raw(i)))
        .collect()
}

/// `in a.rs, b.rs`: the files lines of `region` name that `named` does not, each once and
/// in order of their paths, at most `max` of them before a count of the rest.
fn unnamed_files(
    doc: &Doc,
    region: std::ops::Range<usize>,
    named: &HashSet<&str>,
    max: usize,
) -> String {
    let mut files: Vec<&str> = Vec::new();
    let mut listed: HashSet<&str> = HashSet::new();
    // In a diff the files are its `diff --git` headers; a changed line that holds a path
    // (`+src/main.py` in a patch being added) names no file of the diff.
    let diff = doc.lines.iter().any(|l| l.marks.has(Marks::DIFF_FILE));
    // A cut that starts in one file's hunks and runs on into other files names that file
    // too, though its header is in view: `in Cargo.lock` alone over a changelog's last
    // hunk would say the changelog's lines were the lockfile's.
    let is_file = |i: usize| doc.lines[i].marks.has(Marks::DIFF_FILE);
    // Only when it holds some of that file's lines: the blank line between two commits of
    // `git log -p` closes the last file's hunk rather than belonging to it.
    let section = |i: usize| is_file(i) || doc.lines[i].marks.has(Marks::COMMIT);
    let holds_hunk_lines = region
        .clone()
        .take_while(|&i| !section(i))
        .any(|i| doc.raw(i).starts_with([' ', '+', '-', '\\']));
    let crosses = diff && !is_file(region.start) && holds_hunk_lines && region.clone().any(is_file);
    let above = crosses
        .then(|| (0..region.start).rev().find(|&i| is_file(i)))
        .flatten();
    if let Some(above) = above
        && let Some(file) = locate::file_of(doc.raw(above))
    {
        listed.insert(file);
        files.push(file);
    }
    // A listing of hits (grep's `path:line:text`): every line names its file.
    let listing = !diff && {
        let mut lines = region.clone().filter(|&i| !doc.raw(i).trim().is_empty());
        let n = lines.clone().count();
        n >= 2 && lines.all(|i| locate::file_of(doc.raw(i)).is_some())
    };
    // How many of the region's lines each file has: a search's hits, a build's reports.
    let mut lines: HashMap<&str, usize> = HashMap::new();
    for i in region.filter(|&i| matches!(doc.lines[i].fate, Fate::Ranked | Fate::Keep)) {
        if diff && !doc.lines[i].marks.has(Marks::DIFF_FILE) {
            continue;
        }
        let Some(file) = locate::file_of(doc.raw(i)) else {
            continue;
        };
        // A search's hits of a file partly shown are still hidden: a listing names them.
        if named.contains(file) && (diff || !listing) {
            continue;
        }
        *lines.entry(file).or_default() += 1;
        if listed.insert(file) {
            files.push(file);
        }
    }
    if files.is_empty() {
        return String::new();
    }
    files.sort_unstable();
    let more = files.len().saturating_sub(max);
    files.truncate(max);
    let files: Vec<String> = files
        .iter()
        .map(|&file| match lines.get(file).copied().unwrap_or(0) {
            n if n > 1 && !diff => format!("{file} ×{n}"),
            _ => file.to_owned(),
        })
        .collect();
    let mut detail = format!("in {}", files.join(", "));
    if more > 0 {
        detail.push_str(&format!(" and {more} more files"));
    }
    detail
}

/// Level 0's counts are worth their bytes even on a short region: they are the level.
fn detail_is_counts(options: &Options, detail: &str) -> bool {
    options.level == Level::Counts && !detail.is_empty()
}

/// Longer than this, a shown line is cut inside: a minified bundle or a one-line JSON
/// document is mostly bytes nobody reads, and a budget counted in bytes cannot hold it.
pub const LONG_LINE: usize = 4096;
/// Bytes of a cut line kept before and after its in-line marker.
const CUT_HEAD: usize = 1024;
const CUT_TAIL: usize = 256;

/// How many bytes line `i` costs in a view: all of it, or what a cut keeps.
pub fn shown_len(doc: &Doc, i: usize) -> usize {
    let len = doc.line_end(i) - doc.lines[i].start as usize;
    if len > LONG_LINE {
        CUT_HEAD + CUT_TAIL + 48
    } else {
        len
    }
}

fn push_line(out: &mut String, doc: &Doc, i: usize, handle: &str) {
    let raw = doc.raw(i);
    if raw.len() > LONG_LINE {
        // The head and tail of the line with the cut announced between them, at char
        // boundaries: `{...1 KB...}[lens: 240123 bytes elided, line 1, HANDLE]{...}`.
        let head = floor_boundary(raw, CUT_HEAD);
        let tail = ceil_boundary(raw, raw.len() - CUT_TAIL);
        out.push_str(&raw[..head]);
        out.push_str(&cut_marker(tail - head, i + 1, handle));
        out.push_str(&raw[tail..]);
    } else {
        out.push_str(raw);
    }
    let end = doc.line_end(i);
    if end < doc.text.len() {
        out.push('\n');
    }
}

fn floor_boundary(s: &str, mut at: usize) -> usize {
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_boundary(s: &str, mut at: usize) -> usize {
    while !s.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// The in-line marker of a cut line: `[lens: N bytes elided, line L, HANDLE]`.
pub fn cut_marker(bytes: usize, line: usize, handle: &str) -> String {
    format!("[lens: {bytes} bytes elided, line {line}, {handle}]")
}

/// Where a cut line's in-line marker is in `shown`, if `shown` is line `raw` (line number
/// `line`) cut as [`push_line`] cuts: (marker start, marker end).
fn cut_in(shown: &str, raw: &str, line: usize, handle: &str) -> Option<(usize, usize)> {
    if raw.len() <= LONG_LINE {
        return None;
    }
    let head = floor_boundary(raw, CUT_HEAD);
    let tail = ceil_boundary(raw, raw.len() - CUT_TAIL);
    let marker = cut_marker(tail - head, line, handle);
    let expected = shown.len() == head + marker.len() + raw.len() - tail
        && shown.starts_with(&raw[..head])
        && shown[head..].starts_with(&marker)
        && shown.ends_with(&raw[tail..]);
    expected.then_some((head, head + marker.len()))
}

/// The contract's marker: `[lens: N lines elided, A-B, HANDLE]` or with `: detail`.
pub fn marker(count: usize, first: usize, last: usize, handle: &str, detail: &str) -> String {
    let lines = if count == 1 { "line" } else { "lines" };
    if detail.is_empty() {
        format!("[lens: {count} {lines} elided, {first}-{last}, {handle}]")
    } else {
        format!("[lens: {count} {lines} elided, {first}-{last}, {handle}: {detail}]")
    }
}

/// `3 more E0308 "mismatched types" at src/a.rs:3, src/a.rs:9, src/b.rs:4` for each group with members
/// in `range`.
fn group_detail(
    causes: &Causes,
    range: std::ops::Range<usize>,
    hides: impl Fn(usize) -> bool,
    max_locations: usize,
) -> String {
    if range.is_empty() {
        return String::new();
    }
    // The report each group keeps, where this region hides it too (level 1 shows no
    // warnings): it is one of the region's, not one of the `more`.
    let firsts: Vec<Member> = causes
        .groups
        .iter()
        .enumerate()
        .filter(|(_, g)| hides(g.first_line as usize - 1))
        .map(|(k, g)| Member {
            line: g.first_line - 1,
            group: k as u32,
            file: g.first.0.clone(),
            line_number: g.first.1.clone(),
            quoted: String::new(),
            invoked: String::new(),
        })
        .collect();
    // Groups in order of appearance, each with its members; then each group's files in
    // order of appearance, each with its line numbers. Indexed, so a region of a hundred
    // thousand reports in as many files stays linear.
    let mut groups: Vec<(u32, Vec<&Member>)> = Vec::new();
    let mut group_at: HashMap<u32, usize> = HashMap::new();
    let hidden: HashSet<u32> = firsts.iter().map(|m| m.group).collect();
    let mut in_order: Vec<&Member> = causes.members[range].iter().collect();
    in_order.extend(firsts.iter().filter(|m| !m.file.is_empty()));
    in_order.sort_by_key(|m| m.line);
    for m in in_order {
        let at = *group_at.entry(m.group).or_insert_with(|| {
            groups.push((m.group, Vec::new()));
            groups.len() - 1
        });
        groups[at].1.push(m);
    }
    let group_shares = shares(
        &groups.iter().map(|(_, m)| m.len()).collect::<Vec<_>>(),
        max_locations,
    );
    let mut parts = Vec::with_capacity(groups.len());
    for ((g, members), per_group) in groups.into_iter().zip(group_shares) {
        let group = &causes.groups[g as usize];
        let more = if hidden.contains(&g) { "" } else { "more " };
        if group.tests {
            parts.push(tests_detail(&group.message, &members, per_group, more));
            continue;
        }
        let label = group
            .label
            .as_deref()
            .map(|l| format!("{l} "))
            .unwrap_or_default();
        // Each file's places, each with the names its report quotes otherwise than the
        // report shown (`formatter.py:48 "cast"` under `Name "…" is not defined`).
        let mut files: Vec<(&str, Vec<Report>)> = Vec::new();
        let mut file_at: HashMap<&str, usize> = HashMap::new();
        for m in &members {
            let at = *file_at.entry(&m.file).or_insert_with(|| {
                files.push((&m.file, Vec::new()));
                files.len() - 1
            });
            files[at].1.push((&m.line_number, &m.quoted, &m.invoked));
        }
        // Each file's places in line order, each once with how many reports it held: a
        // file compiled once per program reports its warnings once per compile.
        let files: Vec<(&str, Vec<Place>)> = files
            .into_iter()
            .map(|(file, mut lines)| {
                lines.sort_by_key(|&(line, _, invoked)| (place_order(line), place_order(invoked)));
                let mut places: Vec<Place> = Vec::new();
                for (line, quoted, invoked) in lines {
                    match places.last_mut() {
                        Some(last) if last.line == line && last.quoted == quoted => {
                            last.times += 1;
                            if !invoked.is_empty() && !last.invoked.contains(&invoked) {
                                last.invoked.push(invoked);
                            }
                        }
                        _ => places.push(Place {
                            line,
                            quoted,
                            invoked: [invoked].into_iter().filter(|i| !i.is_empty()).collect(),
                            times: 1,
                        }),
                    }
                }
                (file, places)
            })
            .collect();
        let listed_files = files.len().min(per_group);
        let file_shares = shares(
            &files[..listed_files]
                .iter()
                .map(|(_, places)| places.len())
                .collect::<Vec<_>>(),
            per_group,
        );
        // A few places are each written whole, so a reader (or a search) finds
        // `a.c:1245:53` as it was printed; a flood of them names each file once and then
        // its line numbers (`src/a.rs:5:24,10:24`), a third of the bytes.
        let listed_places: usize = file_shares.iter().sum();
        let whole = listed_places <= WHOLE_PLACES;
        let mut places: Vec<String> = files[..listed_files]
            .iter()
            .zip(&file_shares)
            .map(|((file, at), &per_file)| {
                let shown = &at[..at.len().min(per_file)];
                let mut listed: Vec<String> = Vec::new();
                for at in shown {
                    let mut place = if whole || listed.is_empty() {
                        format!("{file}:{}", at.line)
                    } else {
                        at.line.to_owned()
                    };
                    if !at.quoted.is_empty() {
                        place.push(' ');
                        place.push_str(at.quoted);
                    }
                    if at.times > 1 {
                        place.push_str(&format!(" ×{}", at.times));
                    }
                    if !at.invoked.is_empty() {
                        let word = if at.invoked.len() > 1 {
                            "macros"
                        } else {
                            "macro"
                        };
                        place.push_str(&format!(" ({word} at {})", number_runs(&at.invoked)));
                    }
                    listed.push(place);
                }
                let listed = listed.join(if whole { ", " } else { "," });
                let rest: usize = at[shown.len()..].iter().map(|at| at.times).sum();
                if rest > 0 {
                    format!("{listed} +{rest}")
                } else {
                    listed
                }
            })
            .collect();
        if files.len() > listed_files {
            places.push(format!("and {} more files", files.len() - listed_files));
        }
        parts.push(format!(
            "{} {more}{label}\"{}\" at {}",
            members.len(),
            quote(&group.message),
            places.join(", ")
        ));
    }
    parts.join("; ")
}

/// How many of each of `sizes` to list within `cap` in all: each as many as it has, while
/// an even share of what is left allows, so a group of three leaves what it does not need
/// to a group of fifty-one rather than cutting it to fifty (`+1` names no place). Each gets
/// at least one.
fn shares(sizes: &[usize], cap: usize) -> Vec<usize> {
    let mut out = vec![0; sizes.len()];
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&k| sizes[k]);
    let mut left = cap;
    for (taken, &k) in order.iter().enumerate() {
        let share = (left / (sizes.len() - taken)).max(1);
        out[k] = sizes[k].min(share);
        left = left.saturating_sub(out[k]);
    }
    out
}

/// A grouped report as its marker places it: its line (and column), the names it quoted
/// otherwise than the report shown, the line of the macro call it was expanded from.
type Report<'a> = (&'a str, &'a str, &'a str);

/// A place in a group's marker: its line (and column), the names its reports quoted
/// otherwise, the lines of the macro calls they were expanded from, and how many reports
/// were there.
struct Place<'a> {
    line: &'a str,
    quoted: &'a str,
    invoked: Vec<&'a str>,
    times: usize,
}

/// Line numbers in order, runs of consecutive ones written as a range: `155-167, 171`.
fn number_runs(numbers: &[&str]) -> String {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    let mut other: Vec<&str> = Vec::new();
    for n in numbers {
        match n.parse::<u64>() {
            Ok(n) => match runs.last_mut() {
                Some((_, end)) if *end + 1 == n => *end = n,
                _ => runs.push((n, n)),
            },
            Err(_) => other.push(n),
        }
    }
    runs.iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .chain(other.iter().map(|s| (*s).to_owned()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The order of a place within its file: its line, then its column (`154:13`, `(3,7)`);
/// a place with no number sorts last, in the order it came.
fn place_order(place: &str) -> (u64, u64) {
    let mut numbers = place
        .split(|c: char| !c.is_ascii_digit())
        .filter(|n| !n.is_empty())
        .map(|n| n.parse::<u64>().unwrap_or(u64::MAX));
    (
        numbers.next().unwrap_or(u64::MAX),
        numbers.next().unwrap_or(0),
    )
}

/// Places a group's marker writes whole, each with its file, before it writes a file once
/// and then its line numbers.
const WHOLE_PLACES: usize = 12;

/// Characters of a grouped message a marker quotes.
const MESSAGE_CHARS: usize = 60;

/// A message as a marker quotes it: at most [`MESSAGE_CHARS`] characters.
fn quote(message: &str) -> String {
    if message.chars().count() > MESSAGE_CHARS {
        message.chars().take(MESSAGE_CHARS).chain(['…']).collect()
    } else {
        message.to_owned()
    }
}

/// `119 more tests failed with "assertion `left == right` failed": a::b (src/a.rs:18),
/// ...`: the message the group's tests share, and every test with where it failed, up to
/// `max` of them before a count of the rest. Tests that all failed at one place (a
/// function each of them called) have it said once: `... failed with "TypeError: x" at
/// index.js:138: a, b, ...`. Tests are listed by name, as their runner sorts them, not in
/// the order threads happened to finish them.
fn tests_detail(message: &str, members: &[&Member], max: usize, more: &str) -> String {
    let quoted = quote(message);
    let mut sorted = members.to_vec();
    sorted.sort_by(|a, b| a.file.cmp(&b.file));
    let shared = members
        .first()
        .map(|first| first.line_number.as_str())
        .filter(|place| {
            !place.is_empty()
                && members.len() > 1
                && members.iter().all(|m| m.line_number == *place)
        });
    let mut names: Vec<String> = sorted
        .iter()
        .take(max)
        .map(|m| {
            if m.line_number.is_empty() || shared.is_some() {
                m.file.clone()
            } else {
                format!("{} ({})", m.file, m.line_number)
            }
        })
        .collect();
    if members.len() > max {
        names.push(format!("and {} more", members.len() - max));
    }
    let tests = if members.len() == 1 { "test" } else { "tests" };
    let at = shared
        .map(|place| format!(" at {place}"))
        .unwrap_or_default();
    format!(
        "{} {more}{tests} failed with \"{quoted}\"{at}: {}",
        members.len(),
        names.join(", ")
    )
}

/// Does `out` account for every line of `doc` exactly once, in order: each output line is
/// either the next raw line or a marker covering the lines from there? This is the
/// contract's invariant, checked on every view so a bug yields the raw stream instead.
pub fn accounts_for(doc: &Doc, out: &str, handle: &str) -> bool {
    let n = doc.lines.len();
    let mut next = 0usize;
    let body = out.strip_suffix('\n').unwrap_or(out);
    if out.is_empty() {
        return n == 0;
    }
    for line in body.split('\n') {
        if next < n
            && (line == doc.raw(next) || cut_in(line, doc.raw(next), next + 1, handle).is_some())
        {
            next += 1;
            continue;
        }
        match parse_marker(line, handle) {
            Some((count, first, last))
                if first == next + 1 && last <= n && count == last + 1 - first =>
            {
                next = last;
            }
            _ => return false,
        }
    }
    next == n
}

/// The bytes of `out`, a view of `readable` (a same-length copy of `raw`), with each kept
/// line written from `raw`: the walk is [`accounts_for`]'s, which `out` has passed.
pub fn restore(readable: &str, raw: &[u8], out: &str, handle: &str) -> Vec<u8> {
    let doc = crate::pipeline::parse::parse(readable);
    let n = doc.lines.len();
    let mut bytes = Vec::with_capacity(out.len());
    let mut next = 0usize;
    for piece in out.split_inclusive('\n') {
        let line = piece.strip_suffix('\n').unwrap_or(piece);
        if next < n && line == doc.raw(next) {
            let start = doc.lines[next].start as usize;
            bytes.extend_from_slice(&raw[start..start + line.len()]);
            next += 1;
        } else if let Some((from, to)) = (next < n)
            .then(|| cut_in(line, doc.raw(next), next + 1, handle))
            .flatten()
        {
            // A cut line: its head and tail from the raw bytes, the marker between them.
            let start = doc.lines[next].start as usize;
            let end = doc.line_end(next);
            let tail = line.len() - to;
            bytes.extend_from_slice(&raw[start..start + from]);
            bytes.extend_from_slice(&line.as_bytes()[from..to]);
            bytes.extend_from_slice(&raw[end - tail..end]);
            next += 1;
        } else {
            bytes.extend_from_slice(line.as_bytes());
            if let Some((_, _, last)) = parse_marker(line, handle) {
                next = last;
            }
        }
        if piece.ends_with('\n') {
            bytes.push(b'\n');
        }
    }
    bytes
}

/// (count, first, last) of a marker line with this handle. The runner reads markers back
/// with it to place each view line where its raw lines arrived.
pub fn parse_marker(line: &str, handle: &str) -> Option<(usize, usize, usize)> {
    let rest = line.strip_prefix("[lens: ")?.strip_suffix(']')?;
    let (count, rest) = rest.split_once(' ')?;
    let rest = rest
        .strip_prefix("lines elided, ")
        .or_else(|| rest.strip_prefix("line elided, "))?;
    let (range, rest) = rest.split_once(", ")?;
    let (first, last) = range.split_once('-')?;
    let rest = rest.strip_prefix(handle)?;
    if !(rest.is_empty() || rest.starts_with(": ")) {
        return None;
    }
    Some((count.parse().ok()?, first.parse().ok()?, last.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Stream;
    use crate::pipeline::cause::{Group, Member};
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    fn options(level: u8) -> Options<'static> {
        Options {
            level: Level::from_number(level.into()).unwrap(),
            handle: "0badcafe",
            exit_code: 0,
            head_lines: 2,
            max_locations: 40,
            content: false,
            stream: Stream::Stdout,
        }
    }

    fn doc_with<'a>(text: &'a str, fates: &[Fate]) -> Doc<'a> {
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        for (line, fate) in doc.lines.iter_mut().zip(fates) {
            line.fate = *fate;
        }
        doc
    }

    use Fate::*;

    /// A report grouped away, of group 0.
    fn member(line: u32, file: &str, n: &str) -> Member {
        Member {
            line,
            group: 0,
            file: file.into(),
            line_number: n.into(),
            quoted: String::new(),
            invoked: String::new(),
        }
    }

    /// A group whose shown report is the stream's first line.
    fn group(label: &str, message: &str, first: (&str, &str)) -> Group {
        Group {
            first_line: 1,
            label: Some(label.into()),
            message: message.into(),
            tests: false,
            first: (first.0.into(), first.1.into()),
        }
    }

    #[test]
    fn a_tracebacks_library_frames_are_named_in_their_marker() {
        let lib = "/usr/lib/python3.11/site-packages";
        let text = format!(
            "Traceback (most recent call last):\n  File \"{lib}/uvicorn/protocols/http/h11_impl.py\", line 406, in run_asgi\n    result = await app(  # type: ignore[func-returns-value]\n  File \"{lib}/uvicorn/middleware/proxy_headers.py\", line 70, in __call__\n    return await self.app(scope, receive, send)\n  File \"/srv/app.py\", line 8, in discount\n    pct = tiers[code]\nKeyError: 'WINTER'\n"
        );
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        crate::pipeline::progress::progress(&mut doc, true, None);
        let out = render(&doc, &Causes::default(), &options(2));
        assert!(
            out.contains(": 2 library frames: uvicorn/protocols/http/h11_impl.py, uvicorn/middleware/proxy_headers.py]"),
            "{out}"
        );
    }

    #[test]
    fn contents_lines_are_never_its_anomalies() {
        let mut text = String::new();
        for i in 0..40 {
            text.push_str(&format!("src/m{i}.py:{i}:def f{i}(x):\n"));
        }
        text.push_str("src/z.py:9:def g(errors=\"ignore\"):\nsrc/z.py:12:def last(x):\n");
        let mut doc = parse(&text);
        classify(&mut doc, Family::Content, Stream::Stdout);
        let content = Options {
            content: true,
            ..options(0)
        };
        let out = render(&doc, &Causes::default(), &content);
        assert_eq!(
            out.lines().nth(1),
            Some("src/z.py:12:def last(x):"),
            "{out}"
        );
    }

    #[test]
    fn a_head_of_a_log_ends_where_a_commit_does() {
        let log = "commit 1111111\nAuthor: A\nDate:   x\n\n    one\n\ncommit 2222222\nAuthor: B\nDate:   y\n\n    two\n    more\n\ncommit 3333333\nAuthor: C\n";
        let mut doc = parse(log);
        classify(&mut doc, Family::Content, Stream::Stdout);
        // A head of eight lines stops in the second commit's header: it goes on to that
        // commit's end, not past it.
        let shown = head(&doc, 8);
        let upto = shown.iter().rposition(|&s| s).unwrap();
        assert_eq!(doc.raw(upto), "", "{shown:?}");
        assert!(!shown[13], "the third commit");
        assert!(shown[11], "the second commit's message");
    }

    #[test]
    fn a_cut_of_a_listing_counts_what_each_directory_lost() {
        let find = "./a/x.py\n./a/b/y.py\n./a/b/z.py\n./c/w.py\n./top.py\n";
        let doc = parse(find);
        assert_eq!(
            listing_detail(&doc, (0..5).collect()).as_deref(),
            Some("2 in ./a/b/, 1 in ./, 1 in ./a/, 1 in ./c/"),
            "the largest first, then by name"
        );
        let prose = "see ./a/x.py for this\n./b.py\n";
        assert_eq!(listing_detail(&parse(prose), vec![0, 1]), None);
    }

    #[test]
    fn c_definitions_are_named_by_their_body() {
        let c = "static int\nyaml_emitter_emit_stream_start(yaml_emitter_t *emitter,\n        yaml_event_t *event)\n{\n    return 1;\n}\n\nint main(void) {\n}\n\nstatic int helper(int x);\nYAML_DECLARE(int)\nsetup(name, version)\nprintf(\"%d\", x)\n";
        let doc = parse(c);
        let names: Vec<&str> = (0..doc.lines.len())
            .filter_map(|j| c_function_name(&doc, j))
            .collect();
        assert_eq!(names, ["yaml_emitter_emit_stream_start", "main"]);
    }

    #[test]
    fn a_cut_of_a_log_names_the_files_it_holds_lines_of_in_order() {
        let log = "commit 1111111\n\n    one\n\ndiff --git a/z.c b/z.c\n@@ -1 +1 @@\n-a\n+b\n\ncommit 2222222\n\n    two\n\ndiff --git a/y.c b/y.c\n@@ -1 +1 @@\n-c\n+d\ndiff --git a/b.c b/b.c\n@@ -1 +1 @@\n-e\n+f\n";
        let mut doc = parse(log);
        classify(&mut doc, Family::Content, Stream::Stdout);
        for j in 8..doc.lines.len() {
            doc.lines[j].fate = Fate::Ranked;
        }
        // The cut opens on the blank line that closes z.c's hunk: it holds none of z.c.
        assert_eq!(
            unnamed_files(&doc, 8..doc.lines.len(), &HashSet::new(), 10),
            "in b.c, y.c"
        );
        // Opened inside z.c's hunk, it holds z.c's last line too.
        for j in 7..8 {
            doc.lines[j].fate = Fate::Ranked;
        }
        assert_eq!(
            unnamed_files(&doc, 7..doc.lines.len(), &HashSet::new(), 10),
            "in b.c, y.c, z.c"
        );
    }

    #[test]
    fn a_cut_of_content_says_what_changes_or_what_it_defines() {
        assert_eq!(
            defined_name("pub fn parse_key(src: &str) -> Key {"),
            Some("parse_key")
        );
        assert_eq!(
            defined_name("    def _parse_value(self, pos):"),
            Some("_parse_value")
        );
        assert_eq!(
            defined_name("func (p *Parser) Parse() error {"),
            Some("Parse")
        );
        assert_eq!(defined_name("class Parser:"), Some("Parser"));
        assert_eq!(defined_name("impl<'a> Doc<'a> {"), None);
        assert_eq!(defined_name("    let x = fn_name();"), None);
        assert_eq!(
            defined_name("    function maintains a \"token stack\""),
            None
        );
        assert_eq!(defined_name("type Parser struct {"), Some("Parser"));
        assert_eq!(defined_name("class Lexer extends Base {"), Some("Lexer"));
        assert_eq!(defined_name("mod tests;"), Some("tests"));
        let diff = "diff --git a/a.rs b/a.rs\n--- a/a.rs\n+++ b/a.rs\n@@ -1,2 +1,2 @@\n-old\n+new\n@@ -9,1 +9,2 @@\n x\n+more\n";
        let mut doc = parse(diff);
        classify(&mut doc, Family::Content, Stream::Stdout);
        for j in 3..doc.lines.len() {
            doc.lines[j].fate = Fate::Ranked;
        }
        assert_eq!(content_detail(&doc, 3..doc.lines.len()), "2 hunks, +2 -1");
        // A cut that opens inside a hunk whose head is shown says it holds that hunk's end.
        assert_eq!(
            content_detail(&doc, 5..doc.lines.len()),
            "the rest of a hunk and 1 more, +2 -0"
        );
        assert_eq!(content_detail(&doc, 5..6), "the rest of a hunk, +1 -0");
        let source = "def a():\n    pass\nclass B:\n    pass\n";
        let mut doc = parse(source);
        classify(&mut doc, Family::Content, Stream::Stdout);
        doc.lines.iter_mut().for_each(|l| l.fate = Fate::Ranked);
        assert_eq!(content_detail(&doc, 0..4), "defines a, B");
    }

    #[test]
    fn a_group_lists_its_tests_by_name() {
        let member = |name: &str, line: u32| Member {
            line,
            group: 0,
            file: name.to_owned(),
            line_number: format!("src/t.rs:{line}"),
            quoted: String::new(),
            invoked: String::new(),
        };
        let (b, c, a) = (member("t::b", 1), member("t::c", 2), member("t::a", 3));
        assert_eq!(
            tests_detail("boom", &[&b, &c, &a], 2, "more "),
            "3 more tests failed with \"boom\": t::a (src/t.rs:3), t::b (src/t.rs:1), and 1 more"
        );
        // Tests that failed in one function they all called: its place is said once.
        let at = |name: &str| Member {
            line_number: "index.js:138".to_owned(),
            ..member(name, 9)
        };
        let (d, e) = (at("t::e"), at("t::d"));
        assert_eq!(
            tests_detail("boom", &[&d, &e], 5, "more "),
            "2 more tests failed with \"boom\" at index.js:138: t::d, t::e"
        );
    }

    const LONG: &str = "a line long enough that a marker in its place saves more than half of its bytes, even with the detail a fold or a cut puts in the marker\n";

    #[test]
    fn level0_counts_what_the_tools_tally_says() {
        assert_eq!(
            tally_count(
                "Found 30 errors in 5 files (checked 28 source files)",
                "error"
            ),
            Some(30)
        );
        assert_eq!(
            tally_count("==== 1 failed, 2 errors in 0.12s ====", "error"),
            Some(2)
        );
        assert_eq!(
            tally_count("==== 1 failed, 2 errors in 0.12s ====", "failed"),
            Some(1)
        );
        assert_eq!(
            tally_count(
                "test result: FAILED. 42 passed; 6 failed; 0 ignored",
                "failed"
            ),
            Some(6)
        );
        assert_eq!(tally_count("Found 1 error in 1 file", "error"), Some(1));
        assert_eq!(tally_count("==== 3 passed in 0.1s ====", "failed"), None);
    }

    #[test]
    fn a_logged_errors_traceback_is_that_error() {
        let text = "2026-12-01 21:47:39,501 INFO  [uvicorn.access] GET /items/3 200\n2026-12-01 21:47:39,507 ERROR [uvicorn.error] Exception in ASGI application\nTraceback (most recent call last):\n  File \"/app/app.py\", line 29, in price\n    pct = tiers[code]\nKeyError: 'WINTER'\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        assert_eq!(counts(&doc), "6 lines, 1 error");
    }

    #[test]
    fn a_failing_tests_panic_is_counted_as_failed_not_as_an_error() {
        let text = "warning: unused variable: `x`\n --> src/a.rs:2:9\n\nrunning 2 tests\ntest t::a ... FAILED\ntest t::b ... FAILED\n\nfailures:\n\n---- t::a stdout ----\n\nthread 't::a' panicked at src/a.rs:3:5:\nboom\n\n---- t::b stdout ----\n\nthread 't::b' panicked at src/a.rs:8:5:\nbang\n\nfailures:\n    t::a\n    t::b\n\ntest result: FAILED. 0 passed; 2 failed; 0 ignored\n\nerror: test failed, to rerun pass `--lib`\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        assert_eq!(counts(&doc), "26 lines, 1 warning, 2 failed");
    }

    #[test]
    fn a_marker_over_passing_tests_says_how_many_and_what_failed() {
        let text: String = (0..40)
            .map(|n| format!("test tests::case_{n} ... ok\n"))
            .chain(["test tests::broken ... FAILED\n".to_owned()])
            .collect();
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        for line in doc.lines.iter_mut() {
            line.fate = Progress;
        }
        doc.lines[40].marks.add(Marks::RESTATED);
        doc.lines[40].marks.add(Marks::TEST_FAILED);
        let out = render(&doc, &Causes::default(), &options(2));
        assert!(
            out.contains(": 40 passed, 1 failed (named again below)]"),
            "{out}"
        );
    }

    #[test]
    fn expected_failures_are_not_counted_as_passed() {
        let text: String = (0..30)
            .map(|n| format!("tests/test_a.py::test_{n} PASSED [ {n}%]\n"))
            .chain((0..3).map(|n| format!("tests/test_a.py::test_x{n} XFAIL [ 99%]\n")))
            .collect();
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        for line in doc.lines.iter_mut() {
            line.fate = Progress;
        }
        let out = render(&doc, &Causes::default(), &options(2));
        assert!(out.contains(": 30 passed, 3 xfailed]"), "{out}");
    }

    #[test]
    fn a_fold_quotes_the_fields_that_never_varied_and_ranges_the_rest_past_the_stamp() {
        let text: String = (0..6)
            .map(|i| {
                format!(
                    "2026-03-14 09:20:{:02} GET /healthz 200 {}ms\n",
                    i * 7,
                    3 + i
                )
            })
            .collect();
        let mut fates = vec![Repeat; 6];
        fates[0] = Keep;
        let doc = doc_with(&text, &fates);
        let out = render(&doc, &Causes::default(), &options(2));
        assert!(
            out.contains("5 like \"… GET /healthz 200 #ms\" (# 4-8)"),
            "{out}"
        );
    }

    #[test]
    fn folds_of_paths_that_differ_in_a_number_are_described_as_one() {
        // dedupe folds each page apart; the marker says what they all were.
        let mut text = String::new();
        for round in 0..3 {
            for page in 1..=4 {
                text.push_str(&format!(
                    "2026-12-02T06:12:3{round}+0000 [log#info] \"127.0.0.1\" - - [02/Dec/2026:06:12:3{round} +0000] \"GET /page{page}.html HTTP/1.1\" 200 7\n"
                ));
            }
        }
        let mut fates = vec![Repeat; 12];
        fates[0] = Keep;
        let doc = doc_with(&text, &fates);
        let out = render(&doc, &Causes::default(), &options(2));
        assert!(
            out.contains(": 11 like \"… \"GET /page#.html HTTP/1.1\" 200 7\" (# 1-4)]"),
            "{out}"
        );
    }

    #[test]
    fn a_cut_of_a_routine_log_says_what_kinds_of_lines_it_held() {
        let mut text = String::from("start\n");
        for i in 0..60 {
            let line = match i % 3 {
                0 => format!("2026-03-14 09:20:{:02} INFO served /a{i:x}b\n", i % 60),
                1 => format!("2026-03-14 09:20:{:02} DEBUG cache /c{i:x}d\n", i % 60),
                _ => format!("   Compiling crate{i:x}z v1.0.{i}\n"),
            };
            text.push_str(&line);
        }
        text.push_str("end\n");
        let mut fates = vec![Ranked; 62];
        fates[0] = Keep;
        fates[61] = Keep;
        let doc = doc_with(&text, &fates);
        let out = render(&doc, &Causes::default(), &options(2));
        assert!(
            out.contains(": 20 INFO, 20 DEBUG, 20 \"Compiling …\"]"),
            "{out}"
        );
        // Level 1 hides them too, and says so; content's lines are not of kinds.
        assert!(render(&doc, &Causes::default(), &options(1)).contains(": 20 INFO, 20 DEBUG"));
        let content = Options {
            content: true,
            ..options(2)
        };
        assert!(!render(&doc, &Causes::default(), &content).contains("INFO,"));
    }

    #[test]
    fn one_kind_of_record_is_named_when_its_neighbours_are_another() {
        let mut text = String::from("2026-03-14 09:19:59 ERROR [db] lost\n");
        for i in 0..50 {
            text.push_str(&format!(
                "2026-03-14 09:20:{:02} INFO [api] GET /a{i:x}b 200\n",
                i % 60
            ));
        }
        text.push_str("2026-03-14 09:21:00 WARNING [db] slow\n");
        let mut fates = vec![Ranked; 52];
        fates[0] = Keep;
        fates[51] = Keep;
        let doc = doc_with(&text, &fates);
        let out = render(&doc, &Causes::default(), &options(2));
        assert!(out.contains(", 0badcafe: 50 INFO [api]]"), "{out}");
        // Among lines of its own kind, the kind is what the reader sees around it.
        let text = text.replace("ERROR", "INFO").replace("WARNING", "INFO");
        let doc = doc_with(&text, &fates);
        assert!(render(&doc, &Causes::default(), &options(2)).contains(", 0badcafe]"));
    }

    #[test]
    fn one_marker_per_region_with_original_line_numbers() {
        let text = format!("keep\n{LONG}{LONG}keep too\n{LONG}");
        let doc = doc_with(&text, &[Keep, Repeat, Repeat, Keep, Ranked]);
        let out = render(&doc, &Causes::default(), &options(2));
        assert_eq!(
            out,
            "keep\n[lens: 2 lines elided, 2-3, 0badcafe: 2 like \"a line long enough that a marker in its place saves more than half of it…\"]\nkeep too\n[lens: 1 line elided, 5-5, 0badcafe]\n"
        );
        assert!(accounts_for(&doc, &out, "0badcafe"));
    }

    #[test]
    fn a_region_shorter_than_its_marker_is_shown() {
        let doc = doc_with("a\nb\nc", &[Keep, Repeat, Keep]);
        assert_eq!(render(&doc, &Causes::default(), &options(2)), "a\nb\nc");
        // A marker must stand for at least twice its bytes: 60 bytes of line against a
        // 40-byte marker stay shown.
        let line = "x".repeat(59);
        let text = format!("a\n{line}\nc");
        let doc = doc_with(&text, &[Keep, Ranked, Keep]);
        assert_eq!(render(&doc, &Causes::default(), &options(2)), text);
        let text = format!("a\n{line}{line}\nc");
        let doc = doc_with(&text, &[Keep, Ranked, Keep]);
        assert!(render(&doc, &Causes::default(), &options(2)).contains("[lens: 1 line elided"));
    }

    #[test]
    fn blank_lines_next_to_hidden_regions_go_with_them() {
        let text = format!("{LONG}\n{LONG}\nkept\n");
        let doc = doc_with(&text, &[Grouped, Keep, Grouped, Keep, Keep]);
        assert_eq!(
            render(&doc, &Causes::default(), &options(2)),
            "[lens: 4 lines elided, 1-4, 0badcafe]\nkept\n"
        );
    }

    #[test]
    fn level0_names_the_error_that_stands_alone_before_a_flood() {
        let text = "a.py:1:80: E501 line too long (86 > 79 characters)\na.py:2:80: E501 line too long (90 > 79 characters)\na.py:3:80: E501 line too long (81 > 79 characters)\nb.py:7:2: F821 undefined name 'x'\n";
        let doc = doc_with(text, &[Keep, Grouped, Grouped, Keep]);
        let causes = Causes {
            groups: vec![group("E501", "line too long", ("a.py", "1:80"))],
            members: vec![member(1, "a.py", "2:80"), member(2, "a.py", "3:80")],
        };
        let out = render(&doc, &causes, &options(0));
        assert_eq!(
            out.lines().nth(1),
            Some("b.py:7:2: F821 undefined name 'x'")
        );
        // A lone line that says no place is the flood's echo (a linker's), not news.
        let echo = text.replace(
            "b.py:7:2: F821 undefined name 'x'",
            "tests.c:(.text+0x1133): undefined reference to `jsmn_init'",
        );
        let doc = doc_with(&echo, &[Keep, Grouped, Grouped, Keep]);
        assert_eq!(doc.lines[3].role, Role::Error);
        let out = render(&doc, &causes, &options(0));
        assert_eq!(
            out.lines().next(),
            Some("a.py:1:80: E501 line too long (86 > 79 characters)")
        );
    }

    #[test]
    fn group_markers_name_every_file() {
        let text = format!("{LONG}{LONG}{LONG}{LONG}");
        let doc = doc_with(&text, &[Keep, Grouped, Grouped, Grouped]);
        let causes = Causes {
            groups: vec![group("E0308", "mismatched types", ("src/a.rs", "1"))],
            members: vec![
                member(1, "src/a.rs", "3"),
                member(2, "src/b.rs", "4"),
                member(3, "src/a.rs", "9"),
            ],
        };
        let out = render(&doc, &causes, &options(2));
        assert_eq!(
            out.lines().nth(1).unwrap(),
            "[lens: 3 lines elided, 2-4, 0badcafe: 3 more E0308 \"mismatched types\" at src/a.rs:3, src/a.rs:9, src/b.rs:4]"
        );
        // Three reports at one place are that place once, with how many.
        let causes = Causes {
            members: vec![
                member(1, "a.py", "4:1"),
                member(2, "a.py", "4:1"),
                member(3, "a.py", "4:1"),
            ],
            ..causes
        };
        let out = render(&doc, &causes, &options(2));
        assert!(
            out.lines().nth(1).unwrap().ends_with(" at a.py:4:1 ×3]"),
            "{out}"
        );
        // A file compiled twice reports its places twice: each once, in line order.
        let causes = Causes {
            members: vec![
                member(1, "a.c", "12:5"),
                member(2, "a.c", "9:3"),
                member(3, "a.c", "12:5"),
            ],
            ..causes
        };
        let out = render(&doc, &causes, &options(2));
        assert!(
            out.lines()
                .nth(1)
                .unwrap()
                .ends_with(" at a.c:9:3, a.c:12:5 ×2]"),
            "{out}"
        );
        // A flood names each file once, then its line numbers.
        let causes = Causes {
            members: (1..=14)
                .map(|n| member(1, "a.py", &format!("{n}:1")))
                .collect(),
            ..causes
        };
        let out = render(&doc, &causes, &options(2));
        assert!(out.contains(" at a.py:1:1,2:1,3:1,"), "{out}");
    }

    #[test]
    fn level1_without_failures_is_the_head_and_never_empty() {
        let text = format!("one\ntwo\n{LONG}{LONG}");
        let doc = doc_with(&text, &[Keep, Keep, Keep, Keep]);
        assert_eq!(
            render(&doc, &Causes::default(), &options(1)),
            "one\ntwo\n[lens: 2 lines elided, 3-4, 0badcafe]\n"
        );
    }

    #[test]
    fn level0_is_counts_and_the_failure() {
        let text = format!("{LONG}error: boom\n{LONG}");
        let doc = doc_with(&text, &[Keep, Keep, Keep]);
        assert_eq!(
            render(&doc, &Causes::default(), &options(0)),
            "[lens: 1 line elided, 1-1, 0badcafe: 3 lines, 1 error]\nerror: boom\n[lens: 1 line elided, 3-3, 0badcafe]\n"
        );
    }

    #[test]
    fn level0_counts_go_on_a_marker_worth_its_bytes() {
        // A short first line is cheaper shown than a marker with the counts in its place.
        let text = format!("PASS a\nerror: boom\n{LONG}");
        let doc = doc_with(&text, &[Keep, Keep, Keep]);
        assert_eq!(
            render(&doc, &Causes::default(), &options(0)),
            "PASS a\nerror: boom\n[lens: 1 line elided, 3-3, 0badcafe: 3 lines, 1 error]\n"
        );
    }

    #[test]
    fn level0_counts_never_cost_more_than_the_lines() {
        // pytest collecting nothing: four short lines, which the marker would only restate.
        let text =
            "=== test session starts ===\ncollected 0 items\n\n=== no tests ran in 0.00s ===";
        let doc = doc_with(text, &[Keep, Keep, Keep, Keep]);
        assert_eq!(render(&doc, &Causes::default(), &options(0)), text);
    }

    #[test]
    fn shares_leave_what_a_small_group_does_not_need_to_a_large_one() {
        assert_eq!(shares(&[51, 3, 2, 1], 200), [51, 3, 2, 1]);
        assert_eq!(shares(&[300, 3], 200), [197, 3]);
        assert_eq!(shares(&[100, 100], 50), [25, 25]);
        assert_eq!(shares(&[5, 5, 5], 2), [1, 1, 1]);
    }

    #[test]
    fn level0_keeps_a_wrapped_message_whole() {
        let text = format!(
            "{LONG}src/a.py:21: error: Cannot find implementation or library\nstub for module named \"jnius\"  [import-not-found]\n    from jnius import x\n{LONG}"
        );
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let out = render(&doc, &Causes::default(), &options(0));
        assert!(
            out.contains("library\nstub for module named \"jnius\"  [import-not-found]\n[lens: "),
            "{out}"
        );
    }

    #[test]
    fn level0_names_a_logged_traceback_by_its_error() {
        // twistd writes a traceback tab-indented under its `#critical` record.
        let text = "2026-12-02T06:12:36+0000 [a#info] GET /a 200\n2026-12-02T06:12:36+0000 [a.Request#critical] \n\tTraceback (most recent call last):\n\t  File \"www/r.rpy\", line 12, in render_GET\n\t    name = USERS[uid]\n\tbuiltins.KeyError: '41'\n\t\n2026-12-02T06:12:36+0000 [a#info] GET /r 500\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        let out = render(&doc, &Causes::default(), &options(0));
        assert!(out.contains("]\n\tbuiltins.KeyError: '41'\n"), "{out}");
        assert!(!out.contains("Traceback"), "{out}");
    }

    #[test]
    fn level0_keeps_the_place_a_finding_gives_on_its_next_line() {
        let text = "   Compiling a v0.1.0\nerror[E0425]: cannot find value `N` in this scope\n   --> src/d.rs:297:30\n    |\n297 |         sec = sec.add(nsec / NANOS_PER_SEC)?;\n    |                              ^^^^^^^^^^^^^ not found in this scope\n";
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stderr);
        let out = render(&doc, &Causes::default(), &options(0));
        assert!(
            out.contains("in this scope\n   --> src/d.rs:297:30\n[lens: "),
            "{out}"
        );
    }

    #[test]
    fn an_overlong_line_is_cut_inside_and_the_cut_announced() {
        let long = format!("{{\"packages\":[{}]}}", "\"é\",".repeat(3000));
        let text = format!("before\n{long}\nafter\n");
        let doc = doc_with(&text, &[Keep, Keep, Keep]);
        let out = render(&doc, &Causes::default(), &options(2));
        let cut = out.lines().nth(1).unwrap();
        let elided = long.len()
            - floor_boundary(&long, CUT_HEAD)
            - (long.len() - ceil_boundary(&long, long.len() - CUT_TAIL));
        assert!(
            cut.contains(&format!("[lens: {elided} bytes elided, line 2, 0badcafe]")),
            "{cut}"
        );
        let (head, tail) = cut.split_once("[lens: ").unwrap();
        assert!(cut.len() < 1400 && long.starts_with(head), "{cut}");
        assert!(long.ends_with(tail.split_once(']').unwrap().1));
        assert!(accounts_for(&doc, &out, "0badcafe"));
        let forged = out.replace(
            &format!("[lens: {elided} "),
            &format!("[lens: {} ", elided + 1),
        );
        assert!(!accounts_for(&doc, &forged, "0badcafe"));
    }

    #[test]
    fn accounts_for_rejects_a_renumbered_or_missing_line() {
        let doc = doc_with("a\nb\nc\n", &[Keep, Keep, Keep]);
        assert!(accounts_for(&doc, "a\nb\nc\n", "0badcafe"));
        assert!(!accounts_for(&doc, "a\nc\n", "0badcafe"));
        assert!(accounts_for(
            &doc,
            "a\n[lens: 2 lines elided, 2-3, 0badcafe]\n",
            "0badcafe"
        ));
        assert!(!accounts_for(
            &doc,
            "a\n[lens: 2 lines elided, 1-2, 0badcafe]\n",
            "0badcafe"
        ));
        assert!(!accounts_for(
            &doc,
            "a\n[lens: 1 line elided, 2-3, 0badcafe]\n",
            "0badcafe"
        ));
    }
}
