//! Collapse repeated blocks into their first occurrence.
//!
//! Blocks are compared on a key in which every word holding a digit is masked, because
//! what varies between repeats of one message is a timestamp, a counter, an id, an
//! address or a temp path (`/tmp/.tmpA1b2`), and each of those carries digits. The first
//! copy stays; later copies become `Fate::Repeat`, and render announces them. The key
//! also holds the role, so a passing and a failing line never merge.
//!
//! A repeat that is a single short line is still marked: render shows a region whose
//! marker would be longer than its text, so marking never costs the reader bytes.
//!
//! A finding with a location is left to cause, which groups it by message and names
//! where each copy was; dropping it here would lose its place.
//!
//! The table of seen keys holds hashes only and stops growing at `MAX_KEYS` distinct
//! blocks, so memory stays bounded on a stream of unique lines; beyond that, new blocks
//! are simply not candidates.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use crate::block::{Doc, Fate, Role};
use crate::pipeline::cause;

const MAX_KEYS: usize = 1 << 20;

/// Copies of one failure shape shown before the rest count as repeats.
const FAILURE_SHAPES: u32 = 10;

/// Mark every block that repeats an earlier one (after masking) as `Fate::Repeat`.
pub fn dedupe(doc: &mut Doc) {
    let mut seen: HashSet<u64, BuildHasherDefault<Prehashed>> = HashSet::default();
    let mut failures: HashMap<u64, u32, BuildHasherDefault<Prehashed>> = HashMap::default();
    for b in 0..doc.block_count() {
        let block = doc.block(b);
        let head = doc.lines[block.first as usize];
        if head.role == Role::Blank || head.fate != Fate::Keep {
            continue;
        }
        if head.role.is_finding() && cause::is_locatable(doc, block) {
            // cause groups it and names its place; a repeat here would lose the place.
            continue;
        }
        // Failures and tallies: their numbers are what they say.
        let failure = block
            .lines()
            .any(|i| doc.lines[i].role.is_failure() || doc.lines[i].role == Role::Summary);
        let mut masked = Hasher::new(head.role as u64);
        // A failure names its test (`tests::case_7`): there only whole numbers vary.
        masked.keep_names = failure;
        for i in block.lines() {
            masked.line(&doc.clean(i));
        }
        let key = masked.finish();
        let repeat = if failure {
            // In a failure the numbers are often the message (`left: 195`, `assert 28 ==
            // 33`): only an exact copy is a repeat, until one shape has come back more
            // than FAILURE_SHAPES times (a log of one error with its timestamps).
            let mut exact = Hasher::new(u64::MAX);
            for i in block.lines() {
                exact.exact(&doc.clean(i));
            }
            let count = failures.entry(key).or_insert(0);
            *count += 1;
            let exact_seen = !seen.insert(exact.finish());
            exact_seen || *count > FAILURE_SHAPES
        } else {
            seen.contains(&key) || {
                if seen.len() < MAX_KEYS {
                    seen.insert(key);
                }
                false
            }
        };
        if repeat {
            for i in block.lines() {
                doc.lines[i].fate = Fate::Repeat;
            }
        }
    }
}

/// How many separate runs of digits a word holds: `test_cart_4` one, `req_8f3kd92` three.
fn digit_runs(word: &[u8]) -> usize {
    let mut runs = 0;
    let mut in_run = false;
    for &b in word {
        let digit = b.is_ascii_digit();
        runs += (digit && !in_run) as usize;
        in_run = digit;
    }
    runs
}

const OTHER: u8 = 0;
const LETTER: u8 = 1;
const DIGIT: u8 = 2;

/// What each byte is to a word: words are ASCII alphanumerics and `_`.
static CLASS: [u8; 256] = {
    let mut class = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_digit() {
            class[b] = DIGIT;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            class[b] = LETTER;
        }
        b += 1;
    }
    class
};

/// Keys are hashes already: the table uses them as they are.
#[derive(Default)]
pub(crate) struct Prehashed(u64);

impl std::hash::Hasher for Prehashed {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A fast 64-bit hash of masked text (the multiply-rotate of rustc's FxHasher).
pub(crate) struct Hasher {
    state: u64,
    /// Hash names with numbers in them (`case_7`) whole instead of masking their digits.
    pub(crate) keep_names: bool,
}

impl Hasher {
    pub(crate) fn new(seed: u64) -> Self {
        Hasher {
            state: seed.wrapping_mul(0x517c_c1b7_2722_0a95),
            keep_names: false,
        }
    }

    fn add(&mut self, b: u64) {
        self.state = (self.state.rotate_left(5) ^ b).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    /// Add one line: a word (ASCII alphanumerics and `_`) holding a digit that starts with
    /// one, is mostly digits or is all hex counts as one placeholder; any other word with a
    /// digit (`test_cart_4`) has only its digit runs masked, so names stay apart; every
    /// other byte counts as itself; the line ends with a separator.
    pub(crate) fn line(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let start = i;
            if CLASS[bytes[i] as usize] == OTHER {
                while i < bytes.len() && CLASS[bytes[i] as usize] == OTHER {
                    i += 1;
                }
                self.bytes(&bytes[start..i]);
                continue;
            }
            let mut digits = 0;
            while i < bytes.len() && CLASS[bytes[i] as usize] != OTHER {
                digits += (CLASS[bytes[i] as usize] == DIGIT) as usize;
                i += 1;
            }
            let word = &bytes[start..i];
            if digits == 0 {
                self.bytes(word);
            } else if word.iter().all(|&b| b == b'0') {
                // Zero is not just another count: `0 failures` and `3 failures` differ.
                self.add(0x102);
            } else if word[0].is_ascii_digit()
                || digits * 2 >= word.len()
                || word.iter().all(u8::is_ascii_hexdigit)
                || word.len() >= 6 && digit_runs(word) >= 2
            {
                // A number, a hex id, a timestamp piece, a numbered item
                // (`0042_add_index`), a generated id (`req_8f3kd92`): all of it varies.
                self.add(0x100);
            } else if self.keep_names {
                self.bytes(word);
            } else {
                // A name with a number in it (`test_cart_4`): only the digit runs vary.
                let mut in_digits = false;
                for &w in word {
                    if w.is_ascii_digit() {
                        if !in_digits {
                            self.add(0x100);
                        }
                        in_digits = true;
                    } else {
                        self.add(w as u64);
                        in_digits = false;
                    }
                }
            }
        }
        self.add(0x101);
    }

    /// Add a run of bytes eight at a time.
    fn bytes(&mut self, run: &[u8]) {
        let mut chunks = run.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last) ^ (rest.len() as u64) << 61);
        }
    }

    /// Add one line as it is, nothing masked.
    fn exact(&mut self, text: &str) {
        for &b in text.as_bytes() {
            self.add(b as u64);
        }
        self.add(0x101);
    }

    pub(crate) fn finish(&self) -> u64 {
        self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Stream;
    use crate::pipeline::classify::{Family, classify};
    use crate::pipeline::parse::parse;

    fn fates(text: &str) -> Vec<Fate> {
        let mut doc = parse(text);
        classify(&mut doc, Family::Diagnostics, Stream::Stdout);
        dedupe(&mut doc);
        doc.lines.iter().map(|l| l.fate).collect()
    }

    use Fate::*;

    #[test]
    fn dedupe_keeps_first_copy_and_sees_through_numbers() {
        let text = "2024-01-01T10:00:01Z retry id=7f3a9c1 attempt 1\nother\n2024-01-01T10:00:02Z retry id=9b2e4d0 attempt 2\n";
        assert_eq!(fates(text), [Keep, Keep, Repeat]);
    }

    #[test]
    fn dedupe_compares_whole_blocks() {
        let text = "retry 1\n  at pool.rs\nretry 2\n  at pool.rs\nretry 3\n  at net.rs\n";
        assert_eq!(fates(text), [Keep, Keep, Repeat, Repeat, Keep, Keep]);
    }

    #[test]
    fn located_findings_are_left_to_cause() {
        let text = "warning: unused\n  --> a.rs:1:1\nwarning: unused\n  --> a.rs:9:1\nerror: linker failed\nerror: linker failed\n";
        assert_eq!(fates(text), [Keep, Keep, Keep, Keep, Keep, Repeat]);
    }

    #[test]
    fn words_without_digits_still_differ() {
        assert_eq!(fates("alpha\nbeta\nalpha\n"), [Keep, Keep, Repeat]);
        assert_eq!(fates("test a ... ok\ntest b ... ok\n"), [Keep, Keep]);
    }

    #[test]
    fn failures_differing_in_numbers_stay_until_one_shape_floods() {
        let text = "E       assert 28 == 33\nE       assert 34 == 39\nE       assert 34 == 39\n";
        assert_eq!(fates(text), [Keep, Keep, Repeat]);
        let flood: String = (1..13)
            .map(|i| format!("ERROR 10:00:{i:02} refused\n"))
            .collect();
        let fates = fates(&flood);
        assert_eq!(fates.iter().filter(|f| **f == Keep).count(), 10);
    }

    #[test]
    fn failing_tests_differing_by_a_numbered_name_are_never_a_flood() {
        let text: String = (0..30)
            .map(|i| format!("thread 'tests::case_{i}' panicked at src/lib.rs:{i}:5:\n"))
            .collect();
        assert!(fates(&text).iter().all(|f| *f == Keep));
    }

    #[test]
    fn zero_is_not_any_other_number() {
        let text = "batch 17: 0 failures\nbatch 18: 0 failures\nbatch 19: 3 failures\nbatch 20: 4 failures\n";
        assert_eq!(fates(text), [Keep, Repeat, Keep, Repeat]);
    }

    #[test]
    fn tallies_with_other_counts_are_not_repeats() {
        let text = "test result: ok. 5 passed; 0 failed\ntest result: ok. 12 passed; 0 failed\ntest result: ok. 12 passed; 0 failed\n";
        assert_eq!(fates(text), [Keep, Keep, Repeat]);
    }

    #[test]
    fn generated_ids_vary_whole() {
        let text = "served request req_8f3kd92 in 3ms\nserved request req_x1b7qz4 in 5ms\n";
        assert_eq!(fates(text), [Keep, Repeat]);
    }

    #[test]
    fn names_with_numbers_keep_their_letters() {
        assert_eq!(
            fates("test_cart_4 failed\ntest_user_4 failed\ntest_cart_5 failed\n"),
            [Keep, Keep, Repeat]
        );
    }

    #[test]
    fn blank_lines_are_not_repeats() {
        assert_eq!(fates("\nx\n\n"), [Keep, Keep, Keep]);
    }
}
