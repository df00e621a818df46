//! A stored stream's view, read back from the store within a bounded window.
//!
//! Capture writes the streams to the store and holds nothing, so the view is rendered
//! from the stored file. A stream of at most [`WHOLE_BYTES`] and [`WHOLE_LINES`] is read
//! and filtered whole, as before. A larger one would make the pipeline's memory grow with the output, so
//! only its head is filtered: the first [`HEAD_BYTES`] or [`HEAD_LINES`], whichever ends
//! first (cut at a line end), go through the pipeline, the middle is one marker (`[lens: N lines elided, A-B, HANDLE: ...]`, every
//! byte still in the store), and the last lines, at most [`TAIL_LINES`] and
//! [`TAIL_BYTES`], are shown verbatim, because a run's end (its tally, its last error) is
//! what a reader looks for. The tail is shown raw rather than filtered so that its line
//! numbers need no rewriting: the pipeline numbers lines from the start of what it sees.
//!
//! Each view comes with the offset, in the raw stream, of the raw line each of its lines
//! stands for ([`Rendered::starts`]), which is what `merge` interleaves the two views on
//! under `2>&1`. A windowed stream is never read whole for it: the head's lines are mapped
//! against the head window read to filter it, the middle's marker stands at the head's
//! end, and the tail's lines start where the tail's read puts them.
//!
//! A raw view (level 3, a store or config failure, a binary stream) of a large stream is
//! never loaded: it is copied from the file to the output in chunks. A stream whose head
//! is binary, or that has no line end in its head, is raw in full, as binary output
//! must be byte-identical.

use crate::merge;
use crate::pipeline;
use crate::view;
use anyhow::{Context, Result};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// A stream up to this size and this many lines is read and filtered whole.
///
/// The line bound is there because the pipeline's cost is per line, and because a stream
/// past either bound has its head's view written while the child still runs (see the
/// runner), so how soon `lens yes | head -1` returns is how soon a producer of short lines
/// reaches it: a shell loop of `echo y` under lens prints about 90,000 lines a second on
/// the 2-core machine. At 128 bytes a line both bounds are met together; only streams of
/// shorter lines are windowed sooner than by size.
pub const WHOLE_BYTES: u64 = 16 << 20;
pub const WHOLE_LINES: u64 = 128 << 10;
/// Past the whole bounds, how much of the head is filtered: at most this many bytes and
/// this many lines, half of each whole bound, so the head is fixed before the stream is
/// known to be windowed.
pub const HEAD_BYTES: u64 = 8 << 20;
pub const HEAD_LINES: usize = 64 << 10;
/// Past [`WHOLE_BYTES`], how many last lines are shown verbatim, and in how many bytes.
pub const TAIL_LINES: usize = 40;
pub const TAIL_BYTES: u64 = 16 << 10;

/// A stored stream: its file, size and newline count.
pub struct Stored<'a> {
    pub path: &'a Path,
    pub bytes: u64,
    pub newlines: u64,
}

/// What to write for one stream.
pub enum View {
    /// These bytes.
    Bytes(Vec<u8>),
    /// The stored file itself, this many bytes of it, copied without loading it.
    File(PathBuf, u64),
    /// Bytes `from..to` of the stored file, copied without loading them.
    FileFrom(PathBuf, u64, u64),
}

impl View {
    pub fn len(&self) -> u64 {
        match self {
            View::Bytes(bytes) => bytes.len() as u64,
            View::File(_, len) => *len,
            View::FileFrom(_, from, to) => to.saturating_sub(*from),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One stream's view, why it is raw when a filtered one was asked for, and for each line
/// of a view held in memory the offset of the raw line it stands for ([`merge::starts`]);
/// `None` for a view copied from the file, which is not interleaved.
pub struct Rendered {
    pub view: View,
    pub reason: Option<String>,
    pub starts: Option<Vec<u64>>,
}

/// Whether a stream of `bytes` bytes and `newlines` line ends is past what is filtered
/// whole, and so windowed. Both only grow while the child runs: once true, it stays true,
/// which is what lets the runner write the head's view before the child ends.
pub fn is_windowed(bytes: u64, newlines: u64) -> bool {
    bytes > WHOLE_BYTES || newlines > WHOLE_LINES
}

/// A windowed stream's filtered head: its view, how much of the raw stream it covers, and
/// where each of its lines stands in the raw stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    pub view: Vec<u8>,
    pub raw_bytes: u64,
    pub raw_lines: u64,
    pub reason: Option<String>,
    pub starts: Vec<u64>,
    /// How many bytes of `view` were written while the child ran: all of it, except
    /// under `2>&1`, where only its lines that came before anything on stderr were (see
    /// `capture`). Zero as rendered.
    pub written: usize,
}

impl Head {
    /// The part of the view not yet written, and the offsets of its lines.
    pub fn unwritten(&self) -> (&[u8], &[u64]) {
        let lines = self.view[..self.written]
            .split_inclusive(|&b| b == b'\n')
            .count();
        (
            &self.view[self.written..],
            &self.starts[lines.min(self.starts.len())..],
        )
    }

    /// Where in the raw stream what is not yet written begins: a raw copy of the stream
    /// resumes there without repeating or losing a line.
    pub fn resume_at(&self) -> u64 {
        match self.unwritten() {
            (view, starts) if !view.is_empty() => starts.first().copied().unwrap_or(0),
            _ => self.raw_bytes,
        }
    }
}

/// How a windowed stream is shown.
pub enum Window {
    /// In full, raw, with the reason when a filtered view was asked for.
    Raw(Option<String>),
    /// Its filtered head, then [`rest`].
    Head(Head),
}

/// Render `stored`; `blocker` makes the view raw, as in `view::render`.
pub fn render(
    stored: &Stored,
    blocker: Option<&str>,
    request: &pipeline::Request,
) -> Result<Rendered> {
    let asked = request.level != crate::level::Level::Raw && stored.bytes > 0;
    if !is_windowed(stored.bytes, stored.newlines) {
        let raw = read_range(stored.path, 0, stored.bytes)?;
        let (view, reason) = match blocker {
            Some(reason) => (raw.clone(), asked.then(|| reason.to_owned())),
            None => {
                let (view, reason) = view::render(&raw, request);
                (view.into_owned(), reason)
            }
        };
        let starts = merge::starts(&raw, &view, request.handle);
        return Ok(Rendered {
            view: View::Bytes(view),
            reason,
            starts: Some(starts),
        });
    }
    match head(stored.path, blocker, request)? {
        Window::Raw(reason) => Ok(Rendered {
            view: View::File(stored.path.to_owned(), stored.bytes),
            reason,
            starts: None,
        }),
        Window::Head(head) => {
            let (rest, rest_starts) = rest(stored, &head, request.handle)?;
            let (mut out, mut starts) = (head.view, head.starts);
            out.extend_from_slice(&rest);
            starts.extend_from_slice(&rest_starts);
            Ok(Rendered {
                view: View::Bytes(out),
                reason: head.reason,
                starts: Some(starts),
            })
        }
    }
}

/// The head window of a windowed stream at `path`: it depends only on the stream's first
/// [`HEAD_BYTES`], never on what follows, so it may be rendered while the child still runs.
///
/// The head is filtered as if the command had succeeded. The exit status's only say in a
/// view is to keep a failing stream's last lines (and, at level 0, its last kept line);
/// a windowed stream's last lines are its tail, shown raw in full whatever the status, and
/// the head's own last lines are not the stream's end. Ignoring the status is what makes
/// the head's view the same before the child ends as after, and in `lens show`.
pub fn head(path: &Path, blocker: Option<&str>, request: &pipeline::Request) -> Result<Window> {
    if let Some(reason) = blocker {
        let asked = request.level != crate::level::Level::Raw;
        return Ok(Window::Raw(asked.then(|| reason.to_owned())));
    }
    if request.level == crate::level::Level::Raw {
        return Ok(Window::Raw(None));
    }
    let mut head = read_range(path, 0, HEAD_BYTES)?;
    let Some(end) = head.iter().rposition(|&b| b == b'\n') else {
        return Ok(Window::Raw(Some("no line end in the head window".into())));
    };
    head.truncate(end + 1);
    if let Some((cut, _)) = head
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(HEAD_LINES - 1)
    {
        head.truncate(cut + 1);
    }
    if std::str::from_utf8(&head).is_err() || head.contains(&0) {
        return Ok(Window::Raw(Some("binary: in the head window".into())));
    }
    let request = pipeline::Request {
        exit_code: 0,
        ..*request
    };
    let (head_view, reason) = view::render(&head, &request);
    let mut view = head_view.into_owned();
    if !view.ends_with(b"\n") && !view.is_empty() {
        view.push(b'\n');
    }
    let starts = merge::starts(&head, &view, request.handle);
    Ok(Window::Head(Head {
        view,
        raw_bytes: head.len() as u64,
        raw_lines: head.iter().filter(|&&b| b == b'\n').count() as u64,
        reason,
        starts,
        written: 0,
    }))
}

/// What follows `head` in a windowed stream's view: the marker for the middle and the raw
/// tail, and the offset of each of their lines in the raw stream (the marker's is the
/// head's end, where its first line starts). It needs the whole stream, so it is rendered
/// once the child has ended.
pub fn rest(stored: &Stored, head: &Head, handle: &str) -> Result<(Vec<u8>, Vec<u64>)> {
    let tail_from = stored.bytes.saturating_sub(TAIL_BYTES).max(head.raw_bytes);
    let tail_bytes = read_range(stored.path, tail_from, stored.bytes - tail_from)?;
    let tail = last_lines(&tail_bytes, tail_from == head.raw_bytes);
    let total_lines = stored.newlines + u64::from(!tail_bytes.ends_with(b"\n"));
    let head_lines = head.raw_lines;
    let tail_lines = tail.split_inclusive(|&b| b == b'\n').count() as u64;
    let (first, last) = (head_lines + 1, total_lines - tail_lines);
    let count = last + 1 - first;
    let middle = stored.bytes - head.raw_bytes - tail.len() as u64;
    let mut out = format!(
        "[lens: {count} line{} elided, {first}-{last}, {handle}: {middle} bytes past the first {head_lines} lines, which were filtered; the stream is {:.1} MiB]\n",
        if count == 1 { "" } else { "s" },
        stored.bytes as f64 / f64::from(1 << 20),
    )
    .into_bytes();
    out.extend_from_slice(tail);
    let mut starts = vec![head.raw_bytes];
    let mut at = stored.bytes - tail.len() as u64;
    for line in tail.split_inclusive(|&b| b == b'\n') {
        starts.push(at);
        at += line.len() as u64;
    }
    Ok((out, starts))
}

/// The last whole lines of `bytes`, at most [`TAIL_LINES`] of them. Unless `at_line_start`,
/// the first line of `bytes` may be a fragment and is never part of the answer.
fn last_lines(bytes: &[u8], at_line_start: bool) -> &[u8] {
    let mut start = if at_line_start {
        0
    } else {
        bytes
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| i + 1)
    };
    let body = bytes[start..]
        .strip_suffix(b"\n")
        .unwrap_or(&bytes[start..]);
    let lines = body.split(|&b| b == b'\n').count();
    if lines > TAIL_LINES {
        let skip = lines - TAIL_LINES;
        let mut seen = 0;
        for (i, &b) in bytes[start..].iter().enumerate() {
            if b == b'\n' {
                seen += 1;
                if seen == skip {
                    start += i + 1;
                    break;
                }
            }
        }
    }
    &bytes[start..]
}

/// How many newlines the file at `path` holds, read in chunks (for `lens show`, which has
/// no capture to count them).
pub fn count_newlines(path: &Path) -> Result<u64> {
    let mut file =
        File::open(path).with_context(|| format!("failed to open `{}`", path.display()))?;
    let mut chunk = vec![0u8; 64 * 1024];
    let mut newlines = 0u64;
    loop {
        let n = file
            .read(&mut chunk)
            .with_context(|| format!("failed to read `{}`", path.display()))?;
        if n == 0 {
            return Ok(newlines);
        }
        newlines += chunk[..n].iter().filter(|&&b| b == b'\n').count() as u64;
    }
}

/// `len` bytes of `path` from `offset` (fewer if the file is shorter).
fn read_range(path: &Path, offset: u64, len: u64) -> Result<Vec<u8>> {
    let mut file =
        File::open(path).with_context(|| format!("failed to open `{}`", path.display()))?;
    file.seek(SeekFrom::Start(offset))
        .with_context(|| format!("failed to seek in `{}`", path.display()))?;
    let mut bytes = Vec::new();
    file.take(len)
        .read_to_end(&mut bytes)
        .with_context(|| format!("failed to read `{}`", path.display()))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_is_whole_lines_and_at_most_the_line_bound() {
        assert_eq!(last_lines(b"ment\nb\nc\n", false), b"b\nc\n");
        assert_eq!(last_lines(b"a\nb\nc", true), b"a\nb\nc");
        let many: String = (1..=100).map(|i| format!("{i}\n")).collect();
        let tail = last_lines(many.as_bytes(), true);
        let expected: String = (61..=100).map(|i| format!("{i}\n")).collect();
        assert_eq!(tail, expected.as_bytes());
    }

    #[test]
    fn a_stream_of_very_short_lines_is_cut_by_the_line_bound() {
        use crate::block::Stream;
        let dir = std::env::temp_dir().join(format!("lens-window-short-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("stdout");
        let text = "y\n".repeat(WHOLE_BYTES as usize / 2 + 10);
        std::fs::write(&path, &text).unwrap();
        let settings = pipeline::Settings::default();
        let command = crate::command::CommandLine::from_words(&[]);
        let request = pipeline::Request {
            stream: Stream::Stdout,
            level: crate::level::Level::Filtered,
            budget: 200,
            handle: "0badcafe",
            exit_code: 0,
            command: &command,
            settings: &settings,
        };
        let stored = Stored {
            path: &path,
            bytes: text.len() as u64,
            newlines: (text.len() / 2) as u64,
        };
        let View::Bytes(view) = render(&stored, None, &request).unwrap().view else {
            panic!("a text stream is filtered");
        };
        let view = String::from_utf8(view).unwrap();
        let marker = view.lines().find(|l| l.contains("bytes past")).unwrap();
        let (_, first, _) = crate::pipeline::render::parse_marker(marker, "0badcafe").unwrap();
        assert_eq!(first, HEAD_LINES + 1, "{marker}");
        // Its size to a tenth: a stream windowed by its lines may be well under 1 MiB.
        assert!(marker.ends_with("the stream is 16.0 MiB]"), "{marker}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_windowed_view_is_its_head_then_its_rest_whatever_the_exit_code() {
        use crate::block::Stream;
        let dir = std::env::temp_dir().join(format!("lens-window-split-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("stdout");
        let mut text = String::new();
        // Lines that differ in letters, not digits, so none is folded as a repeat and the
        // exit status's say (keeping a failing stream's last lines) would show.
        for i in 0..WHOLE_LINES + 500 {
            let word: String = (0..4)
                .map(|k| char::from(b'a' + (i >> (5 * k) & 15) as u8))
                .collect();
            text.push_str(&format!("entry {word} of a long listing\n"));
        }
        std::fs::write(&path, &text).unwrap();
        let settings = pipeline::Settings::default();
        let command = crate::command::CommandLine::from_words(&[]);
        let request = |level, exit_code| pipeline::Request {
            stream: Stream::Stdout,
            level,
            budget: 200,
            handle: "0badcafe",
            exit_code,
            command: &command,
            settings: &settings,
        };
        let stored = Stored {
            path: &path,
            bytes: text.len() as u64,
            newlines: WHOLE_LINES + 500,
        };
        assert!(is_windowed(stored.bytes, stored.newlines));
        use crate::level::Level;
        for level in [Level::Counts, Level::Failures, Level::Filtered] {
            // What the runner writes while the child runs, before any exit status exists.
            let Window::Head(head) = head(&path, None, &request(level, 0)).unwrap() else {
                panic!("a text stream has a filtered head");
            };
            assert_eq!(head.raw_lines, HEAD_LINES as u64);
            let mut split = head.view.clone();
            split.extend_from_slice(&rest(&stored, &head, "0badcafe").unwrap().0);
            for exit_code in [0, 1, 141] {
                let rendered = render(&stored, None, &request(level, exit_code)).unwrap();
                let View::Bytes(view) = rendered.view else {
                    panic!("a text stream is filtered");
                };
                assert!(
                    view == split,
                    "{level:?}, exit {exit_code}: the view is the head, then the rest"
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_large_stream_is_its_filtered_head_a_marker_and_its_last_lines() {
        use crate::block::Stream;
        let dir = std::env::temp_dir().join(format!("lens-window-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("stdout");
        let line = "a routine line of output that repeats with a counter\n";
        let lines = (WHOLE_BYTES as usize / line.len()) + 1000;
        let mut text = String::with_capacity(lines * (line.len() + 8));
        for i in 1..=lines {
            text.push_str(&format!("{i} {line}"));
        }
        std::fs::write(&path, &text).unwrap();
        let settings = pipeline::Settings::default();
        let command = crate::command::CommandLine::from_words(&[]);
        let request = pipeline::Request {
            stream: Stream::Stdout,
            level: crate::level::Level::Filtered,
            budget: 200,
            handle: "0badcafe",
            exit_code: 0,
            command: &command,
            settings: &settings,
        };
        let stored = Stored {
            path: &path,
            bytes: text.len() as u64,
            newlines: lines as u64,
        };
        let rendered = render(&stored, None, &request).unwrap();
        let View::Bytes(view) = rendered.view else {
            panic!("a text stream is filtered");
        };
        let view = String::from_utf8(view).unwrap();
        let shown: Vec<&str> = view.lines().collect();
        assert_eq!(
            shown.last(),
            Some(&format!("{lines} {}", line.trim_end()).as_str())
        );
        let marker = shown[shown.len() - TAIL_LINES - 1];
        // Every line stands where its raw line starts, the middle's marker at its first.
        let starts = rendered.starts.expect("a view in memory has its offsets");
        assert_eq!(starts.len(), shown.len());
        for (shown, &start) in shown.iter().zip(&starts) {
            let at = &text[start as usize..];
            if !shown.starts_with("[lens: ") {
                assert!(at.starts_with(&format!("{shown}\n")), "{shown} at {start}");
            }
        }
        let marker_start = starts[shown.len() - TAIL_LINES - 1] as usize;
        let (_, marker_first, _) =
            crate::pipeline::render::parse_marker(marker, "0badcafe").unwrap();
        assert_eq!(text[..marker_start].matches('\n').count() + 1, marker_first);
        assert_eq!(text.as_bytes()[marker_start - 1], b'\n', "a line's start");
        let cut = text[..HEAD_BYTES as usize].rfind('\n').unwrap() + 1;
        let head_lines = text[..cut].matches('\n').count().min(HEAD_LINES);
        assert!(marker.starts_with("[lens: "), "{marker}");
        let (_, first, last) = crate::pipeline::render::parse_marker(marker, "0badcafe").unwrap();
        assert!(
            first > head_lines / 2 && first <= head_lines + 1,
            "{marker}"
        );
        assert_eq!(last, lines - TAIL_LINES, "{marker}");
        assert!(
            view.len() < 1 << 20,
            "the view is bounded: {} bytes",
            view.len()
        );
        // Asked raw, nothing is loaded: the file itself is the view.
        let raw = render(&stored, Some("config: broken"), &request).unwrap();
        assert!(matches!(raw.view, View::File(_, n) if n == text.len() as u64));
        assert_eq!(raw.reason.as_deref(), Some("config: broken"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
