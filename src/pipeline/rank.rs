//! Fit the view to the budget: keep failures first, then what most likely matters.
//!
//! Lines context forced are not candidates; of the rest, at most `budget` bytes stay
//! (bytes, because they are what a reader pays for: two hundred lines of a minified
//! bundle and of `seq` are not the same cost). Each
//! line gets a score from its role (a tally over a warning over a header over plain text
//! over quoted source over a passing test), raised for plain text that says something
//! went wrong (`failed`, `denied`, `not found`, ...) and for the last and first lines of
//! the stream (where a tool says how it ended and what it was doing), and for the first
//! line naming each file (so a cut grep still shows every file once), and for a line
//! whose template (first word and punctuation) is rare when one template prints most of
//! the stream: the one line a script printed differently is the one to keep. A line inside a
//! block scores at least its head's score less a little, so a kept block stays whole.
//!
//! The budget is spent in few pieces (see [`rank`]): notable lines by score, then a
//! window at each end. Only notable lines are sorted, so the cost is linear in the
//! stream plus a sort of what is worth keeping; ties go to the earlier line.

use std::sync::LazyLock;

use regex::Regex;

use std::collections::{HashMap, HashSet};

use crate::block::{Doc, Fate, Marks, Role};
use crate::pipeline::locate;

static ALARM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)error|fail|fatal|panic|exception|denied|refused|timed ?out|not found|cannot|can't|unable|invalid|warning|deprecated|abort|crash|killed|segmentation",
    )
    .expect("static regex")
});

/// Does `t` say something went wrong? An alarm word inside a path or a file's name
/// (`copying simplejson/errors.py`, `adding 'yaml/error.py'`) names a file, not a fault.
pub(crate) fn alarming(t: &str) -> bool {
    ALARM.find_iter(t).any(|m| {
        let start = t[..m.start()]
            .rfind(char::is_whitespace)
            .map_or(0, |at| at + 1);
        let end = t[m.end()..]
            .find(char::is_whitespace)
            .map_or(t.len(), |at| m.end() + at);
        let word = t[start..end].trim_matches(|c: char| "'\"`,;:()[]".contains(c));
        let named_file = word.contains('/')
            || word.rsplit_once('.').is_some_and(|(_, ext)| {
                !ext.is_empty() && ext.chars().all(|c| c.is_ascii_alphanumeric())
            });
        !named_file
    })
}

/// The most lines of a stream's head and of its tail a routine stream keeps.
const HEAD_WINDOW: usize = 8;
const TAIL_WINDOW: usize = 16;

/// How many lines at each end of the stream get a bonus.
const TAIL: usize = 10;
const HEAD: usize = 5;

/// Lines whose own score (before the bonus for being near an end) reaches this are worth
/// keeping by themselves: a failure, a tally, a warning, a location, a header, a plain line
/// that says something went wrong or was printed by a rare template.
const NOTABLE: u8 = 90;

/// Keep at most `budget` bytes of the unforced kept lines; mark the rest `Fate::Ranked`.
///
/// What stays is a few contiguous pieces, not a sample: the notable lines by score (at
/// most half the budget), then the rest of the budget as one window at the head of the
/// stream and one at its tail. Scattering the budget over the highest-scoring plain lines
/// of a routine log gave views of two hundred lone lines between a hundred and sixty
/// markers. When the stream is content (`content`: a printed file, a diff, a log of
/// commits) nothing is kept for its words: the view is its head and its tail.
pub fn rank(doc: &mut Doc, budget: usize, content: bool) {
    let candidate = |l: &crate::block::Line| l.fate == Fate::Keep && !l.forced();
    let candidates: Vec<usize> = (0..doc.lines.len())
        .filter(|&i| candidate(&doc.lines[i]))
        .collect();
    let cost = |i: usize| crate::pipeline::render::shown_len(doc, i) + 1;
    let total: usize = candidates.iter().map(|&i| cost(i)).sum();
    // A cut that saves less than a tenth of the stream costs the reader a marker and a
    // question for almost nothing.
    if total <= budget || (total - budget) * 10 < total {
        return;
    }
    let mut keep = vec![false; doc.lines.len()];
    let mut unfolded = Vec::new();
    if content && doc.lines.iter().any(|l| l.marks.has(Marks::DIFF_FILE)) {
        keep_diff(doc, budget, &mut keep);
    } else {
        let mut room = budget;
        if !content {
            let (scores, own) = scores(doc);
            let mut notable: Vec<usize> = candidates
                .iter()
                .copied()
                .filter(|&i| own[i] >= NOTABLE)
                .collect();
            // Highest score first; ties to the earlier line.
            notable.sort_by_key(|&i| (std::cmp::Reverse(scores[i]), i));
            let mut spent = 0;
            let mut taken = Vec::new();
            for &i in &notable {
                if spent + cost(i) > budget / 2 {
                    break;
                }
                spent += cost(i);
                keep[i] = true;
                taken.push(i);
            }
            // A notable line is read with the line on each side of it (the request before
            // an upstream error, the record after it), when they fit. A neighbour folded
            // as a repeat comes back for it: in a routine log every line repeats some
            // shape, and a line with its context folded away is shown out of context.
            for i in taken {
                for j in [i.wrapping_sub(1), i + 1] {
                    if j >= doc.lines.len() || keep[j] || spent + cost(j) > budget / 2 {
                        continue;
                    }
                    let line = &doc.lines[j];
                    if candidate(line) {
                        keep[j] = true;
                    } else if line.fate == Fate::Repeat && doc.is_whole_block(j) {
                        keep[j] = true;
                        unfolded.push(j);
                    } else {
                        continue;
                    }
                    spent += cost(j);
                }
            }
            room -= spent;
        }
        let rest: Vec<usize> = candidates.iter().copied().filter(|&i| !keep[i]).collect();
        // Content is the answer, so it gets the whole budget; elsewhere the ends only say
        // what the command was doing and how it ended, and a few lines say that.
        let (head, tail, lines) = if content {
            (room * 2 / 3, room - room * 2 / 3, (usize::MAX, usize::MAX))
        } else {
            (room / 3, room - room / 3, (HEAD_WINDOW, TAIL_WINDOW))
        };
        let head = window(rest.iter().copied(), head, lines.0, &cost);
        let tail = window(rest.iter().rev().copied(), tail, lines.1, &cost);
        let commits = doc
            .lines
            .iter()
            .filter(|l| is_unit_head(l, content))
            .count();
        for (taken, from_end) in [(head, false), (tail, true)] {
            for &i in &snap_to_commits(doc, taken, from_end, commits > 1, content) {
                keep[i] = true;
            }
        }
    }
    for i in candidates {
        if !keep[i] {
            doc.lines[i].fate = Fate::Ranked;
        }
    }
    for i in unfolded {
        doc.lines[i].fate = Fate::Keep;
    }
}

/// The lines of `lines`, in order, until `bytes` or `most` lines are spent.
fn window(
    lines: impl Iterator<Item = usize>,
    bytes: usize,
    most: usize,
    cost: &dyn Fn(usize) -> usize,
) -> Vec<usize> {
    let mut spent = 0;
    let mut taken = Vec::new();
    for i in lines.take(most) {
        if spent + cost(i) > bytes {
            break;
        }
        spent += cost(i);
        taken.push(i);
    }
    taken
}

/// The first line of a unit: a commit's `commit <sha>`, and in content a directory's
/// header in `ls -R` (the git module reads it as a header).
fn is_unit_head(line: &crate::block::Line, content: bool) -> bool {
    line.marks.has(Marks::COMMIT) || content && line.role == Role::Header
}

/// A window of a log of commits ends (or, from the end, starts) at a commit's first line,
/// so no commit is shown without its header or its header without its Author and Date;
/// so does a window of `ls -R` at a directory's header, so no entry is shown under
/// another directory's.
fn snap_to_commits(
    doc: &Doc,
    mut taken: Vec<usize>,
    from_end: bool,
    commits: bool,
    content: bool,
) -> Vec<usize> {
    if !commits || taken.is_empty() {
        return taken;
    }
    let is_head = |i: usize| is_unit_head(&doc.lines[i], content);
    if from_end {
        // Taken from the last line backwards: keep up to the earliest commit head in it.
        if let Some(at) = taken.iter().rposition(|&i| is_head(i)) {
            taken.truncate(at + 1);
        }
    } else if let Some(&next) = taken.last().map(|&l| l + 1).as_ref()
        && next < doc.lines.len()
        && !is_head(next)
        && let Some(at) = taken.iter().rposition(|&i| is_head(i))
        && at > 0
    {
        // The window stops inside a commit: end it before that commit's header.
        taken.truncate(at);
    }
    taken
}

/// A diff cut for the budget, a kind of file at a time, in the order a reader needs them
/// (commits and source, then prose, then what a tool generated; see
/// `shapes::git::diff_file_rank`). Of each kind, every commit's and file's headers come
/// first, so the view names each commit and file it touched; then the files' hunks,
/// whole, context and all: a hunk from each file of the kind in turn,
/// so every source file shows its first changes before any shows its tenth, and a file
/// whose next hunk does not fit stops there, so what it loses is one piece, its last
/// hunks, under one marker. What is left of the budget then goes to the changed lines
/// of the first hunk that did not fit. Cutting context instead of hunks would break
/// every hunk into islands of changes between three-line markers.
fn keep_diff(doc: &Doc, budget: usize, keep: &mut [bool]) {
    let n = doc.lines.len();
    let candidate = |i: usize| doc.lines[i].fate == Fate::Keep && !doc.lines[i].forced();
    let cost = |i: usize| crate::pipeline::render::shown_len(doc, i) + 1;
    let hunk_head = |i: usize| doc.lines[i].marks.has(Marks::HUNK);
    let is_file = |i: usize| doc.lines[i].marks.has(Marks::DIFF_FILE);
    // Sections start at each file's `diff --git` and each commit's first line.
    let starts: Vec<usize> = std::iter::once(0)
        .chain((1..n).filter(|&i| {
            let marks = doc.lines[i].marks;
            marks.has(Marks::DIFF_FILE) || marks.has(Marks::COMMIT)
        }))
        .collect();
    let mut sections: Vec<(u8, std::ops::Range<usize>)> = starts
        .iter()
        .enumerate()
        .map(|(k, &from)| {
            let to = starts.get(k + 1).copied().unwrap_or(n);
            let rank = if doc.lines[from].marks.has(Marks::DIFF_FILE) {
                crate::pipeline::locate::file_of(doc.raw(from))
                    .map_or(0, crate::pipeline::shapes::git::diff_file_rank)
                    + 1
            } else {
                0
            };
            (rank, from..to)
        })
        .collect();
    sections.sort_by_key(|(rank, range)| (*rank, range.start));
    // Each section as its headers (a commit's author, date and message; a file's `diff
    // --git` to `+++`) and its hunks, each from its `@@` line to the next one's.
    let parts: Vec<(Vec<usize>, Vec<Vec<usize>>)> = sections
        .iter()
        .map(|(_, range)| {
            let first_hunk = range.clone().find(|&i| hunk_head(i)).unwrap_or(range.end);
            let (mut headers, rest): (Vec<usize>, Vec<usize>) = range
                .clone()
                .filter(|&i| candidate(i))
                .partition(|&i| i < first_hunk);
            // rustfmt's `Diff in src/a.rs:96:` heads its file and its one hunk: it is both.
            if first_hunk == range.start && is_file(range.start) && candidate(range.start) {
                headers.push(range.start);
            }
            let mut hunks: Vec<Vec<usize>> = Vec::new();
            for i in rest {
                match hunks.last_mut() {
                    Some(hunk) if !hunk_head(i) => hunk.push(i),
                    _ => hunks.push(vec![i]),
                }
            }
            (headers, hunks)
        })
        .collect();
    // Kind by kind (commits with source files, then prose, then what a tool generated):
    // the headers of every commit and file of the kind, then each file's first hunk, then
    // a hunk from each file of the kind in turn while they fit. A generated file's header
    // does not outrank a source file's changes: a cut of generated files names them in
    // its marker instead.
    let mut room = budget;
    // Every file's `diff --git` line first, while they take at most a quarter of the
    // room: the view names each file it touched, under its own line, whatever is cut.
    let file_lines: Vec<usize> = parts
        .iter()
        .filter_map(|(headers, _)| headers.first().copied().filter(|&i| is_file(i)))
        .collect();
    let named: usize = file_lines.iter().map(|&i| cost(i)).sum();
    if named <= budget / 4 {
        room -= named;
        file_lines.iter().for_each(|&i| keep[i] = true);
    }
    // What a tool generated (a lockfile's checksums) is shown in whole hunks or not at all:
    // a piece of a new lockfile is bytes nobody reads, and its marker says what it held.
    let generated = |k: usize| sections[k].0 > GENERATED_RANK;
    let mut headed = vec![false; parts.len()];
    let mut next = vec![0usize; parts.len()];
    let mut stopped = vec![false; parts.len()];
    let mut tier_start = 0;
    while tier_start < parts.len() {
        let tier_rank = sections[tier_start].0.max(1);
        let tier_end = (tier_start..parts.len())
            .find(|&k| sections[k].0.max(1) != tier_rank)
            .unwrap_or(parts.len());
        for k in tier_start..tier_end {
            let headers = &parts[k].0;
            let spend: usize = headers
                .iter()
                .filter(|&&i| !keep[i])
                .map(|&i| cost(i))
                .sum();
            if spend <= room {
                room -= spend;
                headed[k] = true;
                headers.iter().for_each(|&i| keep[i] = true);
            }
        }
        // Each file's first hunk, within an even share of what is left: a new file's one
        // long hunk shows its start rather than nothing, beside smaller files' changes
        // shown whole (a commit that adds three modules and trims others showed only the
        // trimming).
        // Smallest first, so a short hunk is shown whole before a long one takes what is
        // left as a piece, and no share goes unspent.
        let mut first: Vec<usize> = (tier_start..tier_end)
            .filter(|&k| headed[k] && !parts[k].1.is_empty())
            .collect();
        first.sort_by_key(|&k| parts[k].1[0].iter().map(|&i| cost(i)).sum::<usize>());
        for (taken, &k) in first.iter().enumerate() {
            let share = room / (first.len() - taken);
            let hunk = &parts[k].1[0];
            let spend: usize = hunk.iter().map(|&i| cost(i)).sum();
            if spend <= share {
                room -= spend;
                hunk.iter().for_each(|&i| keep[i] = true);
                next[k] = 1;
            } else if share >= PIECE && !generated(k) {
                room -= keep_piece(doc, hunk, share, keep);
                stopped[k] = true;
            }
        }
        loop {
            let mut took = false;
            for k in tier_start..tier_end {
                let hunks = &parts[k].1;
                if !headed[k] || stopped[k] || next[k] == hunks.len() {
                    continue;
                }
                let hunk = &hunks[next[k]];
                let spend: usize = hunk.iter().map(|&i| cost(i)).sum();
                if spend > room {
                    stopped[k] = true;
                    continue;
                }
                room -= spend;
                hunk.iter().for_each(|&i| keep[i] = true);
                next[k] += 1;
                took = true;
            }
            if !took {
                break;
            }
        }
        tier_start = tier_end;
    }
    // A file that would show no change at all, its first hunk too large for what is left
    // (a new file of two thousand lines), keeps that hunk's start while it fits.
    if let Some(k) =
        (0..parts.len()).find(|&k| stopped[k] && next[k] == 0 && headed[k] && !generated(k))
    {
        let hunk = &parts[k].1[0];
        if !hunk.iter().any(|&i| keep[i]) {
            keep_piece(doc, hunk, room, keep);
        }
    }
    // A file none of whose changes are shown keeps its `diff --git` line, with the marker
    // over the rest of it under that: its `index` and `---`/`+++` lines say nothing the
    // reader can use without a hunk.
    for (headers, hunks) in &parts {
        let file = headers.first().is_some_and(|&i| is_file(i));
        if file && !hunks.is_empty() && !hunks.iter().flatten().any(|&i| keep[i]) {
            headers[1..].iter().for_each(|&i| keep[i] = false);
        }
    }
}

/// A diff section's rank above this is a generated file's (its `diff_file_rank`, plus one).
const GENERATED_RANK: u8 = 2;

/// The least share of the budget a hunk too large to show whole is worth starting.
const PIECE: usize = 600;

/// Keep the start of `hunk` within `limit` bytes: its `@@` line, then its lines from the
/// first changed one on, so the piece is the change, not its leading context. Returns the
/// bytes kept.
fn keep_piece(doc: &Doc, hunk: &[usize], limit: usize, keep: &mut [bool]) -> usize {
    let cost = |i: usize| crate::pipeline::render::shown_len(doc, i) + 1;
    let changed = |i: usize| {
        let text = doc.clean(i);
        text.starts_with('+') || text.starts_with('-')
    };
    let from = hunk.iter().position(|&i| changed(i)).unwrap_or(0);
    let head = hunk
        .first()
        .filter(|&&i| doc.lines[i].marks.has(Marks::HUNK));
    let mut spent = 0;
    for &i in head.into_iter().chain(&hunk[from.max(1)..]) {
        if spent + cost(i) > limit {
            break;
        }
        spent += cost(i);
        keep[i] = true;
    }
    spent
}

/// Each line's score, and its own score: the same without the bonus for lying near an
/// end of the stream.
fn scores(doc: &Doc) -> (Vec<u8>, Vec<u8>) {
    let n = doc.lines.len();
    let mut scores = vec![0u8; n];
    let mut own = vec![0u8; n];
    // The first line naming each file: with it kept, the view still names the file.
    let mut files: HashSet<&str> = HashSet::new();
    // How many plain candidates share each line template: a line printed by a template
    // used once, among thousands printed by another, is what the run was for.
    let mut templates: HashMap<u64, u32> = HashMap::new();
    let template_of = |i: usize| template(&doc.clean(i));
    for i in 0..n {
        let line = doc.lines[i];
        if line.fate == Fate::Keep && !line.forced() && line.role == Role::Plain {
            *templates.entry(template_of(i)).or_insert(0) += 1;
        }
    }
    let crowded = templates.values().any(|&c| c as usize * 2 > n);
    for block in doc.blocks() {
        let (mut head_score, mut head_own) = (0u8, 0u8);
        for i in block.lines() {
            let line = doc.lines[i];
            let mut score = role_score(line.role);
            let candidate = line.fate == Fate::Keep && !line.forced();
            if candidate && line.role == Role::Plain {
                if alarming(&doc.clean(i)) {
                    score = score.saturating_add(100);
                }
                if crowded && templates.get(&template_of(i)).is_some_and(|&c| c <= 2) {
                    score = score.saturating_add(60);
                }
            }
            if candidate
                && let Some(file) = locate::file_of(doc.raw(i))
                && files.insert(file)
            {
                score = score.saturating_add(15);
            }
            own[i] = if i == block.first as usize {
                head_own = score;
                score
            } else {
                score.max(head_own.saturating_sub(10))
            };
            if i + TAIL >= n {
                score = score.saturating_add(60);
            } else if i < HEAD {
                score = score.saturating_add(30);
            }
            if i == block.first as usize {
                head_score = score;
            } else {
                score = score.max(head_score.saturating_sub(10));
            }
            scores[i] = score;
        }
    }
    (scores, own)
}

/// A line's template: its first word and the punctuation and spacing after it, so
/// `applied 0001_backfill in 40 ms` and `applied 0002_drop in 77 ms` share one.
/// The line a routine stream was watched for: a kept plain line that says something went
/// wrong, printed by a template used at most twice where one template prints most of the
/// stream (the `Error (404)` among 2,400 request records). Counted over every plain line,
/// whatever its fate, so it names the same line before and after the folds.
pub(crate) fn anomaly(doc: &Doc) -> Option<usize> {
    anomalies(doc).first().copied()
}

/// The first [`ANOMALIES`] lines [`anomaly`] would name, in order.
pub(crate) fn anomalies(doc: &Doc) -> Vec<usize> {
    let plain = |i: &usize| doc.lines[*i].role == Role::Plain;
    let mut templates: HashMap<u64, u32> = HashMap::new();
    for i in (0..doc.lines.len()).filter(plain) {
        *templates.entry(template(&doc.clean(i))).or_insert(0) += 1;
    }
    if !templates
        .values()
        .any(|&c| c as usize * 2 > doc.lines.len())
    {
        return Vec::new();
    }
    (0..doc.lines.len())
        .filter(plain)
        .filter(|&i| {
            let text = doc.clean(i);
            doc.lines[i].fate == Fate::Keep
                && templates.get(&template(&text)).is_some_and(|&c| c <= 2)
                && alarming(&text)
        })
        .take(ANOMALIES)
        .collect()
}

/// Anomalies level 1 shows besides a stream's failures.
const ANOMALIES: usize = 3;

fn template(t: &str) -> u64 {
    let bytes = t.as_bytes();
    let first_end = bytes
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .unwrap_or(bytes.len());
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut add = |b: u8| hash = (hash ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
    bytes[..first_end].iter().for_each(|&b| add(b));
    add(0);
    for &b in &bytes[first_end..] {
        if !(b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80) {
            add(b);
        }
    }
    hash
}

fn role_score(role: Role) -> u8 {
    match role {
        Role::Error | Role::Fail => 250,
        Role::Summary => 200,
        Role::Warning => 150,
        Role::Location | Role::Help | Role::Note => 120,
        Role::Header => 90,
        Role::Plain => 50,
        Role::Source => 40,
        Role::Blank => 30,
        Role::Progress | Role::Pass => 20,
        Role::Noise => 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Stream;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    fn kept(text: &str, budget: usize) -> Vec<String> {
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        rank(&mut doc, budget, false);
        (0..doc.lines.len())
            .filter(|&i| doc.lines[i].fate == Fate::Keep)
            .map(|i| doc.raw(i).to_owned())
            .collect()
    }

    #[test]
    fn within_budget_nothing_goes() {
        assert_eq!(kept("a\nb\n", 4), ["a", "b"]);
    }

    #[test]
    fn a_file_named_error_is_not_an_alarm() {
        assert!(!alarming("copying simplejson/errors.py -> build/lib"));
        assert!(!alarming("adding 'yaml/error.py'"));
        assert!(alarming("error: command 'gcc' failed: No such file"));
        assert!(alarming("Build failed."));
        assert!(alarming("src/a.c:3:5: error: x"));
        assert!(alarming("connect ETIMEDOUT 10.0.0.1:443"));
        // A setting named after a fault is not one.
        assert!(!alarming("Connection Timeout: 120 seconds"));
    }

    #[test]
    fn the_alarming_line_in_the_middle_outranks_filler() {
        let mut text = String::new();
        for i in 0..100 {
            text.push_str(&format!("record {i} stored\n"));
            if i == 50 {
                text.push_str("upload refused: quota exceeded\n");
            }
        }
        let kept = kept(&text, 300);
        assert!(kept.len() < 20, "{kept:?}");
        assert!(kept.contains(&"upload refused: quota exceeded".to_owned()));
        assert!(kept.contains(&"record 99 stored".to_owned()));
        assert!(kept.contains(&"record 0 stored".to_owned()));
    }

    #[test]
    fn a_notable_line_takes_back_its_neighbours_from_a_fold() {
        // Requests with distinct ids (never folded), then probes that fold, with an
        // upstream error among them.
        let mut text: String = (0..200)
            .map(|i| format!("GET /items/{:x}a done\n", i * 7919))
            .collect();
        for i in 0..400 {
            text.push_str(&format!("GET /healthz 200 {}ms\n", i % 9 + 1));
            if i == 200 {
                text.push_str("upstream timed out\n");
            }
        }
        let mut doc = parse(&text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        crate::pipeline::dedupe::dedupe(&mut doc);
        let error = 401;
        assert_eq!(doc.raw(error), "upstream timed out");
        // dedupe leaves the probe before the error (what led to it); the one after is rank's.
        assert_eq!(doc.lines[error + 1].fate, Fate::Repeat);
        rank(&mut doc, 600, false);
        let fates: Vec<Fate> = (error - 1..=error + 1).map(|i| doc.lines[i].fate).collect();
        assert_eq!(fates, [Fate::Keep; 3]);
        // The rest of the fold stays folded.
        assert_eq!(doc.lines[error - 50].fate, Fate::Repeat);
    }

    #[test]
    fn the_line_printed_by_a_rare_template_outranks_the_flood() {
        let mut text = String::new();
        for i in 0..500 {
            text.push_str(&format!(
                "wrote record {i:04} region=eu-{} bytes={}\n",
                i % 7,
                i * 3
            ));
            if i == 250 {
                text.push_str("checksum mismatch at record 0250 (expected ab12)\n");
            }
        }
        let kept = kept(&text, 800);
        assert!(kept.contains(&"checksum mismatch at record 0250 (expected ab12)".to_owned()));
    }

    #[test]
    fn a_routine_streams_anomaly_is_its_rare_line_that_says_something_failed() {
        let mut text = String::from("Connection Timeout: 120 seconds\n");
        for i in 0..200 {
            text.push_str(&format!("GET /items/{i}.json 200\n"));
            if i == 120 {
                text.push_str("GET /items/x.json Error (404): \"Not found\"\n");
            }
        }
        let doc = parse(&text);
        assert_eq!(anomaly(&doc), Some(122));
        // A stream no template crowds has no anomaly of that kind: its lines are all news.
        let doc = parse("build a\nerror: b\nlink c\n");
        assert_eq!(anomaly(&doc), None);
    }

    #[test]
    fn forced_lines_are_not_counted_against_the_budget() {
        let mut doc = parse("a\nb\nc\n");
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        doc.lines[0].force();
        doc.lines[1].force();
        rank(&mut doc, 2, false);
        assert!(doc.lines.iter().all(|l| l.fate == Fate::Keep));
    }

    #[test]
    fn the_budget_counts_bytes_and_is_spent_in_few_pieces() {
        let text: String = (0..1000)
            .map(|i| format!("line {i:04} of a printed file\n"))
            .collect();
        let mut doc = parse(&text);
        classify(&mut doc, Family::Content, Stream::Stdout);
        rank(&mut doc, 2800, true);
        let kept: Vec<usize> = (0..1000)
            .filter(|&i| doc.lines[i].fate == Fate::Keep)
            .collect();
        // 28 bytes a line: 66 lines of head and 33 of tail, nothing in between.
        assert_eq!(kept.len(), 99);
        assert_eq!(kept[..66], (0..66).collect::<Vec<_>>()[..]);
        assert_eq!(kept[66..], (967..1000).collect::<Vec<_>>()[..]);
    }
    /// The lines of `text` that ranking as content under `budget` keeps.
    fn shown_as_content(text: &str, budget: usize) -> Vec<&str> {
        let kept = ranked_as_content(text, budget);
        let doc = parse(text);
        (0..doc.lines.len())
            .filter(|&i| kept[i])
            .map(|i| doc.raw(i))
            .collect()
    }

    fn ranked_as_content(text: &str, budget: usize) -> Vec<bool> {
        let mut doc = parse(text);
        classify(&mut doc, Family::Content, Stream::Stdout);
        rank(&mut doc, budget, true);
        doc.lines.iter().map(|l| l.fate == Fate::Keep).collect()
    }

    #[test]
    fn a_diff_keeps_whole_hunks_a_file_at_a_time_in_turn() {
        let mut text = String::new();
        for file in ["a", "b", "c"] {
            text.push_str(&format!(
                "diff --git a/src/{file}.rs b/src/{file}.rs\n--- a/src/{file}.rs\n+++ b/src/{file}.rs\n"
            ));
            for hunk in 0..4 {
                text.push_str(&format!(
                    "@@ -{0},7 +{0},7 @@ fn {file}{hunk}()\n",
                    hunk * 40 + 1
                ));
                for line in 0..3 {
                    text.push_str(&format!("     let before_{file}_{hunk}_{line} = ();\n"));
                }
                text.push_str(&format!(
                    "-    old_{file}_{hunk}();\n+    new_{file}_{hunk}();\n"
                ));
                for line in 0..3 {
                    text.push_str(&format!("     let after_{file}_{hunk}_{line} = ();\n"));
                }
            }
        }
        text.push_str("diff --git a/sig/x.tar.gz.asc b/sig/x.tar.gz.asc\nnew file mode 100644\n--- /dev/null\n+++ b/sig/x.tar.gz.asc\n@@ -0,0 +1,2 @@\n+-----BEGIN PGP SIGNATURE-----\n+iQIzBAABCAAdFiEE\n");
        let kept = ranked_as_content(&text, 1600);
        let doc = parse(&text);
        let shown: Vec<&str> = (0..doc.lines.len())
            .filter(|&i| kept[i])
            .map(|i| doc.raw(i))
            .collect();
        // Every source file's first hunk, whole, before any file's second.
        for file in ["a", "b", "c"] {
            assert!(
                shown.contains(&format!("+    new_{file}_0();").as_str()),
                "{shown:?}"
            );
            assert!(shown.contains(&format!("     let after_{file}_0_2 = ();").as_str()));
            assert!(
                !shown.contains(&format!("+    new_{file}_3();").as_str()),
                "{shown:?}"
            );
        }
        // Each file loses one piece, its last hunks: no kept line after a cut in a file
        // but the next file's header.
        let islands = (1..doc.lines.len())
            .filter(|&i| kept[i] && !kept[i - 1] && !doc.raw(i).starts_with("diff --git"))
            .count();
        assert_eq!(islands, 0, "{shown:?}");
        // A generated file's changes do not outrank source changes: it is named by its
        // `diff --git` line alone.
        assert!(shown.contains(&"diff --git a/sig/x.tar.gz.asc b/sig/x.tar.gz.asc"));
        assert!(!shown.contains(&"+++ b/sig/x.tar.gz.asc"), "{shown:?}");
        assert!(!shown.contains(&"+-----BEGIN PGP SIGNATURE-----"));
    }

    #[test]
    fn each_file_starts_its_first_hunk_before_any_file_takes_the_room() {
        // Two trimmed files first, then two new modules of one long hunk each.
        let mut text = String::new();
        for file in ["a", "b"] {
            text.push_str(&format!(
                "diff --git a/src/{file}.rs b/src/{file}.rs\n--- a/src/{file}.rs\n+++ b/src/{file}.rs\n@@ -1,60 +1,0 @@\n"
            ));
            for i in 0..60 {
                text.push_str(&format!("-    let gone_{file}_{i} = old();\n"));
            }
        }
        for file in ["c", "d"] {
            text.push_str(&format!(
                "diff --git a/src/{file}.rs b/src/{file}.rs\nnew file mode 100644\n--- /dev/null\n+++ b/src/{file}.rs\n@@ -0,0 +1,150 @@\n"
            ));
            for i in 0..150 {
                text.push_str(&format!("+    let added_{file}_{i} = new();\n"));
            }
        }
        let shown = shown_as_content(&text, 4000);
        for file in ["a", "b", "c", "d"] {
            let first = if file < "c" {
                format!("-    let gone_{file}_0 = old();")
            } else {
                format!("+    let added_{file}_0 = new();")
            };
            assert!(shown.contains(&first.as_str()), "{file}: {shown:?}");
        }
    }

    #[test]
    fn a_cut_that_saves_under_a_tenth_is_not_made() {
        let text: String = (0..100).map(|i| format!("row {i:04}\n")).collect();
        // 900 bytes against a budget of 850: cutting would save a eighteenth.
        assert!(ranked_as_content(&text, 850).iter().all(|&k| k));
        assert!(!ranked_as_content(&text, 600).iter().all(|&k| k));
    }

    #[test]
    fn a_diff_names_every_file_even_when_its_changes_do_not_fit() {
        let mut text = String::new();
        for file in ["a", "b", "c"] {
            text.push_str(&format!(
                "diff --git a/src/{file}.rs b/src/{file}.rs\n--- a/src/{file}.rs\n+++ b/src/{file}.rs\n@@ -1,40 +1,40 @@\n"
            ));
            for i in 0..40 {
                text.push_str(&format!(
                    "-    let value_{i} = old_{file}();\n+    let value_{i} = new_{file}();\n"
                ));
            }
        }
        let shown = shown_as_content(&text, 3000);
        let doc = parse(&text);
        for file in ["a", "b", "c"] {
            let header = format!("diff --git a/src/{file}.rs b/src/{file}.rs");
            assert!(shown.contains(&header.as_str()), "{file}: {shown:?}");
        }
        // Not everything fits: some file's changes went.
        assert!(shown.len() < doc.lines.len());
    }

    #[test]
    fn a_source_file_too_large_to_fit_keeps_its_first_hunks_before_a_lockfile() {
        let mut text = String::from(
            "diff --git a/src/main.rs b/src/main.rs\n--- a/src/main.rs\n+++ b/src/main.rs\n",
        );
        for h in 0..30 {
            text.push_str(&format!("@@ -{0},4 +{0},4 @@\n", h * 10 + 1));
            for i in 0..4 {
                text.push_str(&format!(
                    "-    let v{h}_{i} = old();\n+    let v{h}_{i} = new();\n"
                ));
            }
        }
        text.push_str("diff --git a/Cargo.lock b/Cargo.lock\n--- a/Cargo.lock\n+++ b/Cargo.lock\n@@ -1,2 +1,2 @@\n-checksum = \"aa\"\n+checksum = \"bb\"\n");
        let shown = shown_as_content(&text, 2000);
        assert!(shown.contains(&"+    let v0_0 = new();"), "{shown:?}");
        // One hunk larger than the budget keeps its first changed lines.
        let mut one = String::from(
            "diff --git a/src/a.rs b/src/a.rs\n--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1,300 +1,300 @@\n",
        );
        for i in 0..300 {
            one.push_str(&format!("-    let v{i} = old();\n+    let v{i} = new();\n"));
        }
        let kept_one = ranked_as_content(&one, 2000);
        let n = kept_one.iter().filter(|&&k| k).count();
        assert!(kept_one[5] && n > 40 && n < 200, "{n}");
        assert!(shown.contains(&"@@ -1,4 +1,4 @@"));
        assert!(!shown.contains(&"+checksum = \"bb\""), "{shown:?}");
        assert!(shown.contains(&"diff --git a/Cargo.lock b/Cargo.lock"));
    }

    #[test]
    fn a_diff_loses_its_lockfile_first_and_context_before_changes() {
        let mut text = String::from("diff --git a/Cargo.lock b/Cargo.lock\n@@ -1,40 +1,40 @@\n");
        for i in 0..40 {
            text.push_str(&format!("-checksum = \"{i:064}\"\n"));
        }
        text.push_str("diff --git a/src/a.rs b/src/a.rs\n@@ -1,9 +1,9 @@\n");
        for i in 0..8 {
            text.push_str(&format!(" let unchanged_context_line_{i} = {i};\n"));
        }
        text.push_str("-    old();\n+    new();\n");
        let shown = shown_as_content(&text, 200);
        assert!(
            shown.contains(&"-    old();") && shown.contains(&"+    new();"),
            "{shown:?}"
        );
        assert!(shown.contains(&"diff --git a/src/a.rs b/src/a.rs"));
        assert!(
            !shown.iter().any(|l| l.starts_with("-checksum")),
            "{shown:?}"
        );
        assert!(
            !shown.iter().any(|l| l.contains("unchanged_context")),
            "{shown:?}"
        );
    }

    #[test]
    fn a_window_over_a_log_ends_at_a_commit() {
        let text: String = (0..40)
            .map(|i| format!("commit {i:040x}\nAuthor: A <a@b>\nDate:   today\n\n    change {i}\n"))
            .collect();
        let kept = ranked_as_content(&text, 1200);
        // The head window holds whole commits only: the line after its last kept line is
        // the next commit's header.
        let last = (0..kept.len()).take_while(|&i| kept[i]).last().unwrap();
        assert_eq!(
            (last + 1) % 5,
            0,
            "the head window ends inside a commit at line {last}"
        );
        assert!(!kept[last + 1]);
    }
}
