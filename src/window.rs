//! A stored stream's view, read back from the store within a bounded window.
//!
//! Capture writes the streams to the store and holds nothing, so the view is rendered
//! from the stored file. A stream of at most [`WHOLE_BYTES`] is read and filtered whole,
//! as before. A larger one would make the pipeline's memory grow with the output, so
//! only its head is filtered: the first [`HEAD_BYTES`] or [`HEAD_LINES`], whichever ends
//! first (cut at a line end), go through the pipeline, the middle is one marker (`[lens: N lines elided, A-B, HANDLE: ...]`, every
//! byte still in the store), and the last lines, at most [`TAIL_LINES`] and
//! [`TAIL_BYTES`], are shown verbatim, because a run's end (its tally, its last error) is
//! what a reader looks for. The tail is shown raw rather than filtered so that its line
//! numbers need no rewriting: the pipeline numbers lines from the start of what it sees.
//!
//! A raw view (level 3, a store or config failure, a binary stream) of a large stream is
//! never loaded: it is copied from the file to the output in chunks. A stream whose head
//! is binary, or that has no line end in its head, is raw in full, as binary output
//! must be byte-identical.

use crate::pipeline;
use crate::view;
use anyhow::{Context, Result};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// A stream up to this size is read and filtered whole.
pub const WHOLE_BYTES: u64 = 16 << 20;
/// Past [`WHOLE_BYTES`], how much of the head is filtered: at most this many bytes and
/// this many lines. The pipeline's cost is per byte and per line; the line bound keeps a
/// stream of very short lines (`y` forever) from costing more than 8 MiB of long ones.
pub const HEAD_BYTES: u64 = 8 << 20;
pub const HEAD_LINES: usize = 500_000;
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
}

impl View {
    pub fn len(&self) -> u64 {
        match self {
            View::Bytes(bytes) => bytes.len() as u64,
            View::File(_, len) => *len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One stream's view, why it is raw when a filtered one was asked for, and the raw bytes
/// when the stream was read whole (the merged emission maps view lines back to them).
pub struct Rendered {
    pub view: View,
    pub reason: Option<String>,
    pub raw: Option<Vec<u8>>,
}

/// Render `stored`; `blocker` makes the view raw, as in `view::render`.
pub fn render(
    stored: &Stored,
    blocker: Option<&str>,
    request: &pipeline::Request,
) -> Result<Rendered> {
    let asked = request.level != crate::level::Level::Raw && stored.bytes > 0;
    let whole_file = || View::File(stored.path.to_owned(), stored.bytes);
    if stored.bytes <= WHOLE_BYTES {
        let raw = read_range(stored.path, 0, stored.bytes)?;
        let (view, reason) = match blocker {
            Some(reason) => (raw.clone(), asked.then(|| reason.to_owned())),
            None => {
                let (view, reason) = view::render(&raw, request);
                (view.into_owned(), reason)
            }
        };
        return Ok(Rendered {
            view: View::Bytes(view),
            reason,
            raw: Some(raw),
        });
    }
    let raw_in_full = |reason: Option<String>| Rendered {
        view: whole_file(),
        reason,
        raw: None,
    };
    if let Some(reason) = blocker {
        return Ok(raw_in_full(asked.then(|| reason.to_owned())));
    }
    if !asked {
        return Ok(raw_in_full(None));
    }
    let mut head = read_range(stored.path, 0, HEAD_BYTES)?;
    let Some(end) = head.iter().rposition(|&b| b == b'\n') else {
        return Ok(raw_in_full(Some("no line end in the head window".into())));
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
        return Ok(raw_in_full(Some("binary: in the head window".into())));
    }
    let (head_view, reason) = view::render(&head, request);
    let mut out = head_view.into_owned();
    if !out.ends_with(b"\n") && !out.is_empty() {
        out.push(b'\n');
    }

    let tail_from = stored
        .bytes
        .saturating_sub(TAIL_BYTES)
        .max(head.len() as u64);
    let tail_bytes = read_range(stored.path, tail_from, stored.bytes - tail_from)?;
    let tail = last_lines(&tail_bytes, tail_from == head.len() as u64);
    let total_lines = stored.newlines + u64::from(!tail_bytes.ends_with(b"\n"));
    let head_lines = head.iter().filter(|&&b| b == b'\n').count() as u64;
    let tail_lines = tail.split_inclusive(|&b| b == b'\n').count() as u64;
    let (first, last) = (head_lines + 1, total_lines - tail_lines);
    let count = last + 1 - first;
    let middle = stored.bytes - head.len() as u64 - tail.len() as u64;
    out.extend_from_slice(
        format!(
            "[lens: {count} line{} elided, {first}-{last}, {}: {middle} bytes past the first {head_lines} lines, which were filtered; the stream is {} MiB]\n",
            if count == 1 { "" } else { "s" },
            request.handle,
            stored.bytes >> 20,
        )
        .as_bytes(),
    );
    out.extend_from_slice(tail);
    Ok(Rendered {
        view: View::Bytes(out),
        reason,
        raw: None,
    })
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
        let cut = text[..HEAD_BYTES as usize].rfind('\n').unwrap() + 1;
        let head_lines = text[..cut].matches('\n').count();
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
