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

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use crate::block::{Doc, Fate, Role};
use crate::pipeline::cause;

const MAX_KEYS: usize = 1 << 20;

/// Mark every block that repeats an earlier one (after masking) as `Fate::Repeat`.
pub fn dedupe(doc: &mut Doc) {
    let mut seen: HashSet<u64, BuildHasherDefault<Prehashed>> = HashSet::default();
    for b in 0..doc.blocks.len() {
        let block = doc.blocks[b];
        let head = doc.lines[block.first as usize];
        if head.role == Role::Blank || head.fate != Fate::Keep {
            continue;
        }
        if head.role.is_finding() && cause::is_locatable(doc, block) {
            // cause groups it and names its place; a repeat here would lose the place.
            continue;
        }
        let mut hash = Hasher::new(head.role as u64);
        for i in block.lines() {
            hash.line(&doc.clean(i));
        }
        let key = hash.finish();
        if seen.contains(&key) {
            for i in block.lines() {
                doc.lines[i].fate = Fate::Repeat;
            }
        } else if seen.len() < MAX_KEYS {
            seen.insert(key);
        }
    }
}

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
pub(crate) struct Hasher(u64);

impl Hasher {
    pub(crate) fn new(seed: u64) -> Self {
        Hasher(seed.wrapping_mul(0x517c_c1b7_2722_0a95))
    }

    fn add(&mut self, b: u64) {
        self.0 = (self.0.rotate_left(5) ^ b).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    /// Add one line: words (ASCII alphanumerics and `_`) holding a digit count as one
    /// placeholder; every other byte counts as itself; the line ends with a separator.
    pub(crate) fn line(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_alphanumeric() || b == b'_' {
                let start = i;
                let mut digit = false;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    digit |= bytes[i].is_ascii_digit();
                    i += 1;
                }
                if digit {
                    self.add(0x100);
                } else {
                    for &w in &bytes[start..i] {
                        self.add(w as u64);
                    }
                }
            } else {
                self.add(b as u64);
                i += 1;
            }
        }
        self.add(0x101);
    }

    pub(crate) fn finish(&self) -> u64 {
        self.0
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
    fn blank_lines_are_not_repeats() {
        assert_eq!(fates("\nx\n\n"), [Keep, Keep, Keep]);
    }
}
