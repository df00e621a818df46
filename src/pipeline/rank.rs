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

use crate::block::{Doc, Fate, Role};
use crate::pipeline::locate;

static ALARM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)error|fail|fatal|panic|exception|denied|refused|timed? ?out|not found|cannot|can't|unable|invalid|warning|deprecated|abort|crash|killed|segmentation",
    )
    .expect("static regex")
});

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
    let cost = |i: usize| doc.line_end(i) + 1 - doc.lines[i].start as usize;
    if candidates.iter().map(|&i| cost(i)).sum::<usize>() <= budget {
        return;
    }
    let mut keep = vec![false; doc.lines.len()];
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
        for &i in &notable {
            if spent + cost(i) > budget / 2 {
                break;
            }
            spent += cost(i);
            keep[i] = true;
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
    let mut take = |lines: &mut dyn Iterator<Item = &usize>, bytes: usize, most: usize| {
        let mut spent = 0;
        for &i in lines.take(most) {
            if spent + cost(i) > bytes {
                break;
            }
            spent += cost(i);
            keep[i] = true;
        }
    };
    take(&mut rest.iter(), head, lines.0);
    take(&mut rest.iter().rev(), tail, lines.1);
    for i in candidates {
        if !keep[i] {
            doc.lines[i].fate = Fate::Ranked;
        }
    }
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
                if ALARM.is_match(&doc.clean(i)) {
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
}
