//! Fold repeated blocks: keep the first, the last and any outlier, mark the rest.
//!
//! Two blocks repeat when they differ only in fields that measure progress: numbers, with
//! or without a unit (`3`, `0.25`, `1873ms`, `45%`, `12KiB`), and the pieces of a date or
//! a time. What a reader acts on is never such a field: an id (a sha `3fce3b5b`, a
//! request id `req_8f3kd92`, a temp path `/tmp/.tmpA1b2`) or a name with a number in it
//! (`tests::case_7`) is compared whole, so a log of commits or of distinct requests has no
//! repeats. The key also holds the role, so a passing and a failing line never merge.
//!
//! A fold keeps the first copy and the last (what the run ended on), and any copy whose
//! numbers lie far outside the rest of its fold (more than [`OUTLIER_SIGMAS`] standard
//! deviations from the fold's mean): the one request that took 1,873 ms among six hundred
//! that took 3 to 19 is what the debug prints were added to find. A copy just before a
//! rare line that says something went wrong stays too: the request before its `Error
//! (404)` is what led to it. Render's marker says what was folded: the shape, with `#`
//! for each varying field, and each field's range.
//!
//! Failures and tallies are stricter: their numbers are often the message (`left: 195`,
//! `assert 28 == 33`), so only an exact copy repeats, until one shape has come back more
//! than [`FAILURE_SHAPES`] times (a log of one error with its timestamps).
//!
//! A finding with a location is left to cause, which groups it by message and names
//! where each copy was; dropping it here would lose its place.
//!
//! Two passes over the blocks, with a small record per distinct shape and nothing per
//! line: the first counts each shape and its fields' mean and spread, the second decides.
//! The table stops growing at [`MAX_KEYS`] shapes, so memory stays bounded on a stream of
//! unique lines; beyond that, new shapes are simply not candidates.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use crate::block::{Block, Doc, Fate, Marks, Role};
use crate::pipeline::cause;

const MAX_KEYS: usize = 1 << 18;

/// Copies of one failure shape shown before the rest count as repeats.
const FAILURE_SHAPES: u32 = 10;

/// How far from its fold's mean a field must lie for its line to be kept as an outlier.
pub const OUTLIER_SIGMAS: f64 = 5.0;

/// Fields per shape whose spread is tracked: the first [`FIELDS`]` / 2` and the last as
/// many. A line's stamp (a date, a time) opens it and what it measures (a status, a
/// duration, a size) tends to close it; an access log's status is its eleventh number.
const FIELDS: usize = 8;

/// The tracked fields of `values`, each with its slot in a [`Shape`].
fn tracked(values: &[f64]) -> impl Iterator<Item = (usize, f64)> + '_ {
    let half = FIELDS / 2;
    let tail = values.len().saturating_sub(half).max(half);
    values
        .iter()
        .copied()
        .enumerate()
        .filter(move |&(k, _)| values.len() <= FIELDS || k < half || k >= tail)
        .enumerate()
        .map(|(slot, (_, x))| (slot, x))
}

/// What the first pass learns about one shape.
#[derive(Default, Clone, Copy)]
struct Shape {
    count: u32,
    first: u32,
    last: u32,
    sum: [f64; FIELDS],
    squares: [f64; FIELDS],
    /// Of the first [`KIND_FIELDS`] fields, whatever their number: a status sits in the
    /// middle of an access log's line, between its stamp and its sizes.
    kinds: [Kind; KIND_FIELDS],
}

/// Fields per shape read for categories.
const KIND_FIELDS: usize = 16;

/// Distinct values a field may take and still be a category.
const KINDS: usize = 3;

/// Whether a field is a category rather than a measure: an HTTP status, an exit code.
/// It takes a few small whole values, and goes back and forth between them, where a
/// counter or a clock only climbs and a duration takes many values.
#[derive(Default, Clone, Copy)]
struct Kind {
    values: [u16; KINDS],
    /// Distinct values seen; more than [`KINDS`], or a value that is not a small whole
    /// number, makes it `u8::MAX`: a measure.
    distinct: u8,
    last: u16,
    rose: bool,
    fell: bool,
}

impl Kind {
    fn observe(&mut self, x: f64) {
        if self.distinct == u8::MAX {
            return;
        }
        if x.fract() != 0.0 || !(0.0..=f64::from(u16::MAX)).contains(&x) {
            self.distinct = u8::MAX;
            return;
        }
        let v = x as u16;
        let n = self.distinct as usize;
        if n > 0 {
            self.rose |= v > self.last;
            self.fell |= v < self.last;
        }
        self.last = v;
        if !self.values[..n].contains(&v) {
            if n == KINDS {
                self.distinct = u8::MAX;
                return;
            }
            self.values[n] = v;
            self.distinct += 1;
        }
    }

    fn is_category(&self) -> bool {
        (2..=KINDS as u8).contains(&self.distinct) && self.rose && self.fell
    }
}

impl Shape {
    fn is_outlier(&self, values: &[f64]) -> bool {
        let n = self.count as f64;
        tracked(values).any(|(k, x)| {
            let mean = self.sum[k] / n;
            let variance = (self.squares[k] / n - mean * mean).max(0.0);
            let spread = variance.sqrt();
            spread > 0.0 && (x - mean).abs() > OUTLIER_SIGMAS * spread
        })
    }
}

type Table<V> = HashMap<u64, V, BuildHasherDefault<Prehashed>>;

/// Mark every block that repeats an earlier one as `Fate::Repeat`, keeping each fold's
/// first and last copy and its outliers.
pub fn dedupe(doc: &mut Doc) {
    let units = units(doc);
    let mut shapes: Table<Shape> = Table::default();
    let mut values = Vec::new();
    for (b, &unit) in units.iter().enumerate() {
        let block = doc.block(b);
        let Some(key) = candidate_key(doc, block, unit, &mut values) else {
            continue;
        };
        if let Some(shape) = count(&mut shapes, key, b, &values) {
            for (kind, &x) in shape.kinds.iter_mut().zip(&values) {
                kind.observe(x);
            }
        }
    }
    // A shape with a category among its fields folds each category apart: the 62 lines
    // of `404` among 3,000 of `200` are a fold of their own, whose first and last stay.
    let mut split: Table<Shape> = Table::default();
    for (b, &unit) in units.iter().enumerate() {
        let block = doc.block(b);
        let Some(key) = candidate_key(doc, block, unit, &mut values) else {
            continue;
        };
        let Some(refined) = shapes
            .get(&key)
            .and_then(|shape| category_key(shape, key, &values))
        else {
            continue;
        };
        count(&mut split, refined, b, &values);
    }
    let mut seen: HashSet<u64, BuildHasherDefault<Prehashed>> = HashSet::default();
    let mut failures: Table<u32> = Table::default();
    let mut folded = vec![false; units.len()];
    // Each block's shape key, for the pass after this one.
    let mut keys: Vec<Option<u64>> = vec![None; units.len()];
    for (b, &unit) in units.iter().enumerate() {
        let block = doc.block(b);
        let Some(key) = candidate_key(doc, block, unit, &mut values) else {
            continue;
        };
        keys[b] = Some(key);
        let Some(shape) = shapes.get(&key) else {
            continue;
        };
        let category = category_key(shape, key, &values).and_then(|refined| split.get(&refined));
        // A category a few lines have among many (six `404`s among 300 `200`s) is each
        // line's own news: none of them folds.
        if category.is_some_and(|c| c.count <= RARE_CATEGORY && c.count * 10 < shape.count) {
            continue;
        }
        let shape = category.unwrap_or(shape);
        let repeat = if is_failure(doc, block) {
            let mut exact = Hasher::new(u64::MAX ^ salt(unit));
            for i in block.lines() {
                exact.exact(&doc.clean(i));
            }
            let count = failures.entry(key).or_insert(0);
            *count += 1;
            let exact_seen = !seen.insert(exact.finish());
            exact_seen || *count > FAILURE_SHAPES
        } else {
            let b = b as u32;
            b != shape.first && b != shape.last && !shape.is_outlier(&values)
        };
        folded[b] = repeat;
    }
    // The copy just before a line that says something went wrong, printed once or a few
    // times, is what led to it: the request before `"GET /items/51.json" Error (404)`.
    for b in 0..folded.len().saturating_sub(1) {
        if folded[b] && !folded[b + 1] && is_news(doc, &shapes, &keys, b) {
            folded[b] = false;
        }
    }
    for (b, _) in folded.iter().enumerate().filter(|&(_, &f)| f) {
        for i in doc.block(b).lines() {
            doc.lines[i].fate = Fate::Repeat;
        }
    }
}

/// Whether the block after `b` is news to it: plain text that says something went wrong,
/// of another shape than `b`'s (not the last copy of `b`'s own fold), and printed rarely.
fn is_news(doc: &Doc, shapes: &Table<Shape>, keys: &[Option<u64>], b: usize) -> bool {
    let next = doc.block(b + 1);
    let head = doc.lines[next.first as usize];
    if head.role != Role::Plain || head.fate != Fate::Keep {
        return false;
    }
    let key = keys[b + 1];
    if key.is_some() && key == keys[b] {
        return false;
    }
    let rare = key
        .and_then(|key| shapes.get(&key))
        .is_none_or(|shape| shape.count <= RARE_CATEGORY);
    rare && crate::pipeline::rank::alarming(&doc.clean(next.first as usize))
}

/// Count block `b`, of shape `key` with fields `values`, into `table`: the shape's
/// record, unless the table is full and the shape new to it.
fn count<'t>(
    table: &'t mut Table<Shape>,
    key: u64,
    b: usize,
    values: &[f64],
) -> Option<&'t mut Shape> {
    if table.len() >= MAX_KEYS && !table.contains_key(&key) {
        return None;
    }
    let shape = table.entry(key).or_insert(Shape {
        first: b as u32,
        ..Shape::default()
    });
    shape.count += 1;
    shape.last = b as u32;
    for (k, x) in tracked(values) {
        shape.sum[k] += x;
        shape.squares[k] += x * x;
    }
    Some(shape)
}

/// The key of a block's category within its shape, when the shape has a field that is
/// one: the shape's key with the category fields' values.
fn category_key(shape: &Shape, key: u64, values: &[f64]) -> Option<u64> {
    if shape.count < CATEGORY_FOLD || !shape.kinds.iter().any(Kind::is_category) {
        return None;
    }
    let mut refined = key;
    for (kind, &x) in shape.kinds.iter().zip(values) {
        if kind.is_category() {
            refined = (refined ^ x as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    Some(refined)
}

/// Lines of a category that all stay when the category is rare in its shape.
const RARE_CATEGORY: u32 = 10;

/// Lines of one shape before its categories are told apart: a few lines that alternate
/// between two values are read as they are.
const CATEGORY_FOLD: u32 = 10;

/// Each block's unit: how many failing tests' sections (as the runner's module marked
/// their heads) open at or before it. A block repeats only a block of its own unit: the
/// same traceback frame in two tests' sections is part of each, and folding the second
/// would leave that test's section without its `>` line or its location, under its own
/// header. Sections that failed alike are cause's to group, whole.
fn units(doc: &Doc) -> Vec<u64> {
    let mut unit = 0u64;
    (0..doc.block_count())
        .map(|b| {
            if doc
                .block(b)
                .lines()
                .any(|i| doc.lines[i].marks.has(Marks::TEST_SECTION))
            {
                unit += 1;
            }
            unit
        })
        .collect()
}

fn salt(unit: u64) -> u64 {
    unit.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// A block's shape key within its unit, with its varying fields in `values`; `None` for
/// a block that is never a repeat (blank, already removed, or a finding cause will group).
fn candidate_key(doc: &Doc, block: Block, unit: u64, values: &mut Vec<f64>) -> Option<u64> {
    let head = doc.lines[block.first as usize];
    // Progress, passing tests and noise are progress's to elide, as states and not as
    // repeats: a test id with a number in it is a name.
    if matches!(
        head.role,
        Role::Blank | Role::Progress | Role::Pass | Role::Noise
    ) || head.fate != Fate::Keep
    {
        return None;
    }
    // The one line per failing test names a test: each is an id, never a repeat, though
    // a parametrised id holds numbers (`SUBFAILED(r=2) tests/a.py::T::test_r`).
    if head.marks.has(Marks::TEST_FAILED) {
        return None;
    }
    if head.role.is_finding() && cause::is_locatable(doc, block) {
        // cause groups it and names its place; a repeat here would lose the place.
        return None;
    }
    values.clear();
    let mut masked = Hasher::new(head.role as u64 ^ salt(unit));
    for i in block.lines() {
        masked.line(&doc.clean(i), Some(values));
    }
    Some(masked.finish())
}

/// Failures and tallies: their numbers are what they say.
fn is_failure(doc: &Doc, block: Block) -> bool {
    block
        .lines()
        .any(|i| doc.lines[i].role.is_failure() || doc.lines[i].role == Role::Summary)
}

/// `2024-01-01T10:00:01Z`, `1873ms`, `0.25`, `45%`: a word that measures rather than
/// names. It starts with a digit, and whatever letters it holds are a unit or the `T`
/// and `Z` of a timestamp.
fn is_measure(word: &[u8]) -> bool {
    if !word[0].is_ascii_digit() {
        return false;
    }
    let letters_at = word
        .iter()
        .position(|b| !b.is_ascii_digit())
        .unwrap_or(word.len());
    let rest = &word[letters_at..];
    if rest.is_empty() {
        return true;
    }
    if let Some(after) = rest.strip_prefix(b"T")
        && after.iter().all(u8::is_ascii_digit)
    {
        return true;
    }
    const UNITS: &[&[u8]] = &[
        b"ms", b"s", b"us", b"ns", b"m", b"h", b"d", b"Z", b"b", b"B", b"k", b"K", b"KB", b"kB",
        b"KiB", b"M", b"MB", b"MiB", b"G", b"GB", b"GiB", b"x", b"th", b"st", b"nd", b"rd", b"px",
    ];
    UNITS.contains(&rest)
}

/// The value of a measure, for the spread of its fold: its leading digits.
fn value_of(word: &[u8]) -> f64 {
    word.iter()
        .take_while(|b| b.is_ascii_digit())
        .take(15)
        .fold(0.0, |n, &b| n * 10.0 + (b - b'0') as f64)
}

/// The pieces of a line: runs of word bytes (ASCII alphanumerics and `_`) and runs of
/// everything else, with whether each is a word. The one tokenizer of the key and of the
/// shape render quotes, so the two cannot disagree about what a field is.
fn pieces(bytes: &[u8]) -> impl Iterator<Item = (&[u8], bool)> {
    let mut i = 0;
    std::iter::from_fn(move || {
        let start = i;
        let word = CLASS[*bytes.get(i)? as usize] != OTHER;
        while i < bytes.len() && (CLASS[bytes[i] as usize] != OTHER) == word {
            i += 1;
        }
        Some((&bytes[start..i], word))
    })
}

/// The shape of `text` as render quotes it: each measure replaced by `#`.
pub fn template(text: &str) -> (String, Vec<f64>) {
    let (shape, fields) = fields(text);
    (shape, fields.iter().map(|f| f.value).collect())
}

/// One measure of a line: where it stands in the line and its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field {
    pub start: usize,
    pub end: usize,
    pub value: f64,
}

/// The shape of `text` (each measure replaced by `#`) and its measures, in order.
pub fn fields(text: &str) -> (String, Vec<Field>) {
    let mut out = Vec::with_capacity(text.len());
    let mut fields = Vec::new();
    let mut at = 0;
    for (piece, word) in pieces(text.as_bytes()) {
        if word && piece != b"0" && is_measure(piece) {
            out.push(b'#');
            fields.push(Field {
                start: at,
                end: at + piece.len(),
                value: value_of(piece),
            });
        } else {
            out.extend_from_slice(piece);
        }
        at += piece.len();
    }
    // Only whole runs of ASCII word bytes were replaced, so the rest is still UTF-8.
    (String::from_utf8(out).unwrap_or_default(), fields)
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
}

impl Hasher {
    pub(crate) fn new(seed: u64) -> Self {
        Hasher {
            state: seed.wrapping_mul(0x517c_c1b7_2722_0a95),
        }
    }

    fn add(&mut self, b: u64) {
        self.state = (self.state.rotate_left(5) ^ b).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    /// Add one line: a measure (see [`is_measure`]) counts as one placeholder, and its
    /// value goes to `values` when asked; zero is its own word (`0 failures` and `3
    /// failures` differ); every other byte counts as itself; the line ends with a
    /// separator.
    pub(crate) fn line(&mut self, text: &str, mut values: Option<&mut Vec<f64>>) {
        for (piece, word) in pieces(text.as_bytes()) {
            if !word {
                self.bytes(piece);
            } else if piece == b"0" {
                // A count of nothing is its own word, but `00` in `10:00:01` is a time.
                self.add(0x102);
            } else if is_measure(piece) {
                self.add(0x100);
                if let Some(values) = values.as_deref_mut() {
                    values.push(value_of(piece));
                }
            } else {
                self.bytes(piece);
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
    fn a_fold_keeps_its_first_and_last_copy() {
        let text = "2024-01-01T10:00:01Z retry attempt 1 in 20ms\nother\n2024-01-01T10:00:02Z retry attempt 2 in 25ms\n2024-01-01T10:00:03Z retry attempt 3 in 21ms\n";
        assert_eq!(fates(text), [Keep, Keep, Repeat, Keep]);
    }

    #[test]
    fn a_block_repeats_only_within_its_tests_section() {
        let section = |name: &str| {
            format!(
                "____ {name} ____\n\nx = 1\n\nsrc/a.py:3: in helper\n    helper()\n\nE   boom\n\nsrc/a.py:9: ValueError\n"
            )
        };
        let text = format!(
            "=== FAILURES ===\n{}{}{}",
            section("test_a"),
            section("test_b"),
            section("test_c")
        );
        let fates = fates(&text);
        assert!(fates.iter().all(|f| *f == Keep), "{fates:?}");
    }

    #[test]
    fn dedupe_compares_whole_blocks() {
        let text = "retry 1\n  at pool.rs\nretry 2\n  at pool.rs\nretry 3\n  at pool.rs\nretry 4\n  at net.rs\n";
        assert_eq!(
            fates(text),
            [Keep, Keep, Repeat, Repeat, Keep, Keep, Keep, Keep]
        );
    }

    #[test]
    fn located_findings_are_left_to_cause() {
        let text = "warning: unused\n  --> a.rs:1:1\nwarning: unused\n  --> a.rs:9:1\nerror: linker failed\nerror: linker failed\n";
        assert_eq!(fates(text), [Keep, Keep, Keep, Keep, Keep, Repeat]);
    }

    #[test]
    fn words_without_digits_still_differ() {
        assert_eq!(
            fates("alpha\nbeta\nalpha\nalpha\n"),
            [Keep, Keep, Repeat, Keep]
        );
        assert_eq!(fates("test a ... ok\ntest b ... ok\n"), [Keep, Keep]);
    }

    #[test]
    fn ids_are_never_a_varying_field() {
        let commits: String = ["3fce3b5b", "9a1c0e2f", "0b7d4e11", "1c2d3e4f"]
            .iter()
            .map(|sha| format!("commit {sha}\n"))
            .collect();
        assert!(fates(&commits).iter().all(|f| *f == Keep));
        let requests = "served request req_8f3kd92 in 3ms\nserved request req_x1b7qz4 in 5ms\nserved request req_a9k2m10 in 4ms\n";
        assert!(fates(requests).iter().all(|f| *f == Keep));
        assert_eq!(
            fates("test_cart_4 failed\ntest_user_4 failed\ntest_cart_5 failed\n"),
            [Keep, Keep, Keep]
        );
    }

    #[test]
    fn a_category_among_the_fields_folds_apart() {
        let line = |n: usize, status: u16| {
            format!(
                "127.0.0.1 - - [01/Dec/2026 16:37:{:02}] \"GET /items/{n} HTTP/1.1\" {status} -\n",
                n % 60
            )
        };
        let mut text = String::new();
        for n in 1..=300 {
            text.push_str(&line(n, if n % 50 == 7 { 404 } else { 200 }));
        }
        let folded = fates(&text);
        let kept: Vec<usize> = (0..300)
            .filter(|&i| folded[i] == Keep)
            .map(|i| i + 1)
            .collect();
        // The first and last of the 200s, and each of the six 404s, a rare category.
        assert_eq!(kept, [1, 7, 57, 107, 157, 207, 257, 300], "{kept:?}");
        // Sixty 404s are a fold of their own, whose first and last stay.
        let mut text = String::new();
        for n in 1..=600 {
            text.push_str(&line(n, if n % 10 == 3 { 404 } else { 200 }));
        }
        let folded = fates(&text);
        let kept: Vec<usize> = (0..600)
            .filter(|&i| folded[i] == Keep)
            .map(|i| i + 1)
            .collect();
        assert_eq!(kept, [1, 3, 593, 600], "{kept:?}");
        // A counter that only climbs is a measure, not a category: one fold.
        let counted: String = (0..300)
            .map(|n| format!("stage {} of 3\n", n / 100 + 1))
            .collect();
        let folded = fates(&counted);
        let kept: Vec<usize> = (0..300).filter(|&i| folded[i] == Keep).collect();
        assert_eq!(kept.len(), 2, "{kept:?}");
    }

    #[test]
    fn an_outlier_is_kept_in_its_fold() {
        let mut text = String::new();
        for chunk in 1..=600 {
            let latency = if chunk == 417 { 1873 } else { 3 + chunk % 17 };
            text.push_str(&format!("DEBUG chunk={chunk} latency_ms={latency}\n"));
        }
        let fates = fates(&text);
        let kept: Vec<usize> = (0..600).filter(|&i| fates[i] == Keep).collect();
        assert_eq!(kept, [0, 416, 599]);
    }

    #[test]
    fn an_outlier_late_in_a_long_line_is_kept_too() {
        // Werkzeug's access log: eleven numbers, the status last.
        let mut text = String::new();
        for i in 1..=3000 {
            let status = if i == 1337 { 500 } else { 200 };
            text.push_str(&format!(
                "127.0.0.1 - - [01/Dec/2026 16:50:34] \"GET /items/{i} HTTP/1.1\" {status} -\n"
            ));
        }
        let fates = fates(&text);
        assert_eq!(fates[1336], Keep);
        assert_eq!(fates.iter().filter(|f| **f == Keep).count(), 3);
    }

    #[test]
    fn failing_test_ids_with_numbers_never_fold() {
        let mut text = String::from("=== short test summary info ===\n");
        for r in 0..14 {
            text.push_str(&format!(
                "SUBFAILED(iterable=[0, 1], r={r}) tests/test_more.py::Tests::test_r\n"
            ));
        }
        assert!(fates(&text).iter().all(|f| *f == Keep));
    }

    #[test]
    fn a_counter_keeps_its_ends() {
        let text: String = (1..=1000).map(|n| format!("{n}\n")).collect();
        let fates = fates(&text);
        assert_eq!((fates[0], fates[999]), (Keep, Keep));
        assert!(fates[1..999].iter().all(|f| *f == Repeat));
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
    fn the_copy_before_a_line_that_says_something_failed_stays() {
        let mut text = String::new();
        for k in 0..300 {
            let n = if k == 150 { 77 } else { k % 60 + 1 };
            text.push_str(&format!("[10:00:{:02}] GET /items/{n}.json\n", k % 60));
            if k == 150 {
                text.push_str("[10:00:30] GET /items/77.json Error (404): Not found\n");
            }
        }
        let fates = fates(&text);
        let kept: Vec<usize> = (0..fates.len()).filter(|&i| fates[i] == Keep).collect();
        assert_eq!(kept, [0, 150, 151, 300]);
    }

    #[test]
    fn zero_is_not_any_other_number() {
        let text = "batch 17: 0 failures\nbatch 18: 0 failures\nbatch 19: 0 failures\nbatch 20: 3 failures\nbatch 21: 4 failures\n";
        assert_eq!(fates(text), [Keep, Repeat, Keep, Keep, Keep]);
    }

    #[test]
    fn tallies_with_other_counts_are_not_repeats() {
        let text = "test result: ok. 5 passed; 0 failed\ntest result: ok. 12 passed; 0 failed\ntest result: ok. 12 passed; 0 failed\n";
        assert_eq!(fates(text), [Keep, Keep, Repeat]);
    }

    #[test]
    fn templates_quote_the_shape_and_its_values() {
        let (shape, values) = template("DEBUG chunk=417 latency_ms=1873 at 10:00:01Z");
        assert_eq!(shape, "DEBUG chunk=# latency_ms=# at #:#:#");
        assert_eq!(values, [417.0, 1873.0, 10.0, 0.0, 1.0]);
        assert_eq!(template("0 failures").0, "0 failures");
        assert_eq!(template("commit 3fce3b5b").0, "commit 3fce3b5b");
    }

    #[test]
    fn blank_lines_are_not_repeats() {
        assert_eq!(fates("\nx\n\n"), [Keep, Keep, Keep]);
    }
}
