//! Both views in the order their lines arrived, for a stdout and stderr that are one pipe.
//!
//! When lens's stdout and stderr are the same file or pipe (`2>&1`), writing the stdout
//! view and then the stderr view would end the merged output on whatever stderr said
//! last, not where the command ended: `lens cargo test 2>&1 | tail -4` showed cargo's
//! `Running` lines instead of the `test result` lines. So each view line is given the
//! arrival position of the raw line it stands for, and the two views are merged on it.
//!
//! A view line is mapped to raw lines by order, as the contract shapes a view ([`starts`]):
//! it is the next raw line verbatim, or a marker `[lens: N lines elided, A-B, HANDLE...]`
//! standing for raw lines A-B (read back with [`render::parse_marker`]), which is placed
//! where the first of them that is not blank arrived. Anything else (an overlong line cut in place) stands for the
//! next raw line, so a changed line never derails the lines after it. A line's position
//! is that of its first byte in the arrival list capture recorded: which stretch of reads,
//! on either stream, brought it. Each view keeps its own order; only the interleaving is
//! chosen here. Every line still goes to its own stream's descriptor, so a marker stands
//! in the stream whose lines it replaces.
//!
//! The merge itself holds nothing of the raw output: it takes each view with the offset,
//! in its raw stream, of the raw line each view line stands for. A stream read whole is
//! mapped against itself; a windowed one (see `window`) could not be without reading all
//! of it, so its head is mapped against the head window already read to filter it, its
//! middle marker stands at the head's end, and its tail lines are raw lines whose offsets
//! the tail's read gives. That is what lets a stream of any size keep its place.
//!
//! A windowed stdout's head is written while the child runs (see `capture`). Under `2>&1`
//! only its first lines that arrived before anything on stderr may be
//! ([`stdout_first`], [`prefix_before`]): every line of stderr's view, a marker included,
//! is placed at or after the first stderr byte, so those lines come first whatever the
//! stderr view turns out to be, and the rest of the head waits for the merge at the end.

use crate::block::Stream;
use crate::capture::Arrival;
use crate::pipeline::render;

/// One stream's view, and for each of its lines the offset in the raw stream of the raw
/// line it stands for ([`starts`]).
pub struct Side<'a> {
    pub view: &'a [u8],
    pub starts: &'a [u64],
}

/// The lines of both views, each with its stream, in arrival order.
pub fn interleave<'a>(
    out: Side<'a>,
    err: Side<'a>,
    arrival: &[Arrival],
) -> Vec<(Stream, &'a [u8])> {
    let out_lines = placed(&out, Stream::Stdout, arrival);
    let err_lines = placed(&err, Stream::Stderr, arrival);
    let mut merged = Vec::with_capacity(out_lines.len() + err_lines.len());
    let (mut o, mut e) = (
        out_lines.into_iter().peekable(),
        err_lines.into_iter().peekable(),
    );
    loop {
        let take_out = match (o.peek(), e.peek()) {
            (Some(a), Some(b)) => a.0 <= b.0,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let (_, line) = if take_out { o.next() } else { e.next() }.expect("peeked");
        merged.push((
            if take_out {
                Stream::Stdout
            } else {
                Stream::Stderr
            },
            line,
        ));
    }
    merged
}

/// Each view line of `side` with the arrival position of the raw line it stands for.
fn placed<'a>(side: &Side<'a>, stream: Stream, arrival: &[Arrival]) -> Vec<(usize, &'a [u8])> {
    let position = Positions::new(arrival, stream);
    side.view
        .split_inclusive(|&b| b == b'\n')
        .enumerate()
        .map(|(i, line)| {
            let offset = side.starts.get(i).or(side.starts.last()).copied();
            (position.of(offset.unwrap_or(0)), line)
        })
        .collect()
}

/// For each line of `view`, the offset in `raw` of the raw line it stands for: the next
/// raw line when it is that line verbatim, the first line a marker names, else the next
/// raw line (a line cut in place). Past the end of `raw`, the start of its last line.
pub fn starts(raw: &[u8], view: &[u8], handle: &str) -> Vec<u64> {
    let starts = line_starts(raw);
    let mut next = 0usize;
    view.split_inclusive(|&b| b == b'\n')
        .map(|line| {
            let body = line.strip_suffix(b"\n").unwrap_or(line);
            let raw_line = if next < starts.len() && body == raw_line(raw, &starts, next) {
                next += 1;
                next - 1
            } else if let Some((_, first, last)) = std::str::from_utf8(body)
                .ok()
                .and_then(|text| render::parse_marker(text, handle))
                .filter(|&(_, first, last)| first == next + 1 && first <= last)
            {
                next = last;
                // Where the first line that says something arrived: the blank line closing
                // one test binary's report came before cargo's `Running` line for the
                // next, and a marker over both reports belongs after that line.
                (first - 1..last)
                    .find(|&i| !raw_line(raw, &starts, i).trim_ascii().is_empty())
                    .unwrap_or(first - 1)
            } else {
                next += 1;
                next - 1
            };
            starts.get(raw_line).or(starts.last()).copied().unwrap_or(0) as u64
        })
        .collect()
}

/// How many bytes of stdout arrived before the first byte of stderr; all of them
/// (`u64::MAX`) while stderr has brought none.
pub fn stdout_first(arrival: &[Arrival]) -> u64 {
    match arrival.iter().position(|a| a.stream == Stream::Stderr) {
        Some(first) => arrival[..first].iter().map(|a| a.bytes as u64).sum(),
        None => u64::MAX,
    }
}

/// How many bytes the first lines of `view` take whose raw lines start before `offset`
/// (`starts` as [`starts`] gives them): what of it may be written before the other stream.
pub fn prefix_before(view: &[u8], starts: &[u64], offset: u64) -> usize {
    view.split_inclusive(|&b| b == b'\n')
        .zip(starts)
        .take_while(|&(_, &start)| start < offset)
        .map(|(line, _)| line.len())
        .sum()
}

/// Byte offsets at which the lines of `raw` start.
fn line_starts(raw: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    for line in raw.split_inclusive(|&b| b == b'\n') {
        starts.push(at);
        at += line.len();
    }
    starts
}

/// Line `index` of `raw` without its newline.
fn raw_line<'a>(raw: &'a [u8], starts: &[usize], index: usize) -> &'a [u8] {
    let end = starts.get(index + 1).copied().unwrap_or(raw.len());
    let line = &raw[starts[index]..end];
    line.strip_suffix(b"\n").unwrap_or(line)
}

/// Maps a byte offset in one stream to the index of the arrival entry that brought it.
struct Positions {
    /// (offset just past the entry's bytes in this stream, the entry's index).
    ends: Vec<(u64, usize)>,
}

impl Positions {
    fn new(arrival: &[Arrival], stream: Stream) -> Positions {
        let mut at = 0;
        let ends = arrival
            .iter()
            .enumerate()
            .filter(|(_, a)| a.stream == stream)
            .map(|(index, a)| {
                at += a.bytes as u64;
                (at, index)
            })
            .collect();
        Positions { ends }
    }

    /// The entry holding byte `offset`; past the recorded bytes, after everything.
    fn of(&self, offset: u64) -> usize {
        let found = self.ends.partition_point(|&(end, _)| end <= offset);
        self.ends.get(found).map_or(usize::MAX, |&(_, index)| index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrivals(parts: &[(Stream, usize)]) -> Vec<Arrival> {
        parts
            .iter()
            .map(|&(stream, bytes)| Arrival { stream, bytes })
            .collect()
    }

    fn render(merged: &[(Stream, &[u8])]) -> String {
        merged
            .iter()
            .map(|(stream, line)| {
                let tag = if *stream == Stream::Stdout {
                    "O "
                } else {
                    "E "
                };
                format!("{tag}{}", String::from_utf8_lossy(line))
            })
            .collect()
    }

    /// Both streams read whole, each given as (raw, view), merged and tagged.
    fn merge(
        out: (&[u8], &[u8]),
        err: (&[u8], &[u8]),
        arrival: &[Arrival],
        handle: &str,
    ) -> String {
        let (out_starts, err_starts) = (starts(out.0, out.1, handle), starts(err.0, err.1, handle));
        render(&interleave(
            Side {
                view: out.1,
                starts: &out_starts,
            },
            Side {
                view: err.1,
                starts: &err_starts,
            },
            arrival,
        ))
    }

    #[test]
    fn raw_views_interleave_as_the_lines_arrived() {
        let out = b"o1\no2\no3\n";
        let err = b"e1\ne2\n";
        let arrival = arrivals(&[
            (Stream::Stdout, 3),
            (Stream::Stderr, 3),
            (Stream::Stdout, 6),
            (Stream::Stderr, 3),
        ]);
        assert_eq!(
            merge((out, out), (err, err), &arrival, "0badcafe"),
            "O o1\nE e1\nO o2\nO o3\nE e2\n"
        );
    }

    #[test]
    fn a_marker_goes_where_its_first_line_arrived() {
        let out = b"first\nx\ny\nz\nlast\n";
        let view = b"first\n[lens: 3 lines elided, 2-4, 0badcafe: detail]\nlast\n";
        let err = b"Running a\nRunning b\n";
        // first; Running a; x y z; Running b; last.
        let arrival = arrivals(&[
            (Stream::Stdout, 6),
            (Stream::Stderr, 10),
            (Stream::Stdout, 6),
            (Stream::Stderr, 10),
            (Stream::Stdout, 5),
        ]);
        assert_eq!(
            merge((out, view), (err, err), &arrival, "0badcafe"),
            "O first\nE Running a\nO [lens: 3 lines elided, 2-4, 0badcafe: detail]\nE Running b\nO last\n"
        );
    }

    #[test]
    fn a_marker_opening_on_a_blank_line_goes_where_its_first_words_arrived() {
        // cargo test: the blank line that closes one binary's report, then cargo's
        // `Running` for the next binary on stderr, then that binary's report.
        let out = b"test result: ok.\n\nrunning 2 tests\ntest a ... ok\ntest b ... ok\n";
        let view = b"test result: ok.\n[lens: 4 lines elided, 2-5, 0badcafe: 2 passed]\n";
        let err = b"Running b\n";
        let arrival = arrivals(&[
            (Stream::Stdout, 18),
            (Stream::Stderr, 10),
            (Stream::Stdout, 42),
        ]);
        assert_eq!(
            merge((out, view), (err, err), &arrival, "0badcafe"),
            "O test result: ok.\nE Running b\nO [lens: 4 lines elided, 2-5, 0badcafe: 2 passed]\n"
        );
    }

    #[test]
    fn a_line_cut_in_place_still_stands_for_the_next_raw_line() {
        let out = b"aaaaaaaaaa\nb\n";
        let view = b"aaa[cut]\nb\n";
        let err = b"e\n";
        let arrival = arrivals(&[
            (Stream::Stdout, 11),
            (Stream::Stderr, 2),
            (Stream::Stdout, 2),
        ]);
        assert_eq!(
            merge((out, view), (err, err), &arrival, "0badcafe"),
            "O aaa[cut]\nE e\nO b\n"
        );
    }

    #[test]
    fn a_line_split_across_reads_is_placed_by_its_first_byte() {
        let out = b"half and half\n";
        let err = b"between\n";
        let arrival = arrivals(&[
            (Stream::Stdout, 5),
            (Stream::Stderr, 8),
            (Stream::Stdout, 9),
        ]);
        assert_eq!(
            merge((out, out), (err, err), &arrival, "h"),
            "O half and half\nE between\n"
        );
    }

    #[test]
    fn a_last_line_without_newline_and_empty_streams_are_kept() {
        let out = b"no newline";
        let arrival = arrivals(&[(Stream::Stdout, 10)]);
        assert_eq!(merge((out, out), (b"", b""), &arrival, "h"), "O no newline");
    }

    #[test]
    fn view_lines_stand_at_the_offsets_of_their_raw_lines() {
        let raw = b"one\ntwo\nthree\nfour\nfive";
        let view = b"one\n[lens: 2 lines elided, 2-3, h]\nfo[cut]\nfive";
        assert_eq!(starts(raw, view, "h"), [0, 4, 14, 19]);
        // A marker naming other lines, or another handle, is a line cut in place.
        let view = b"one\n[lens: 1 line elided, 3-3, h]\n[lens: 1 line elided, 3-3, x]\n";
        assert_eq!(starts(raw, view, "h"), [0, 4, 8]);
    }

    #[test]
    fn a_windowed_view_is_placed_by_its_offsets_without_its_raw_stream() {
        // Raw stdout `h1 m2 m3 m4 t5`, three bytes a line; its view as `window` gives it:
        // the head's line, the middle's marker (at the head's end) and the tail's line.
        let view = b"h1\n[lens: 3 lines elided, 2-4, h: 9 bytes past the first 1 lines]\nt5\n";
        let out_starts = [0, 3, 12];
        let err = b"e1\ne2\n";
        let err_starts = [0, 3];
        // h1; e1; m2 m3 m4; e2; t5.
        let arrival = arrivals(&[
            (Stream::Stdout, 3),
            (Stream::Stderr, 3),
            (Stream::Stdout, 9),
            (Stream::Stderr, 3),
            (Stream::Stdout, 3),
        ]);
        let merged = interleave(
            Side {
                view,
                starts: &out_starts,
            },
            Side {
                view: err,
                starts: &err_starts,
            },
            &arrival,
        );
        assert_eq!(
            render(&merged),
            "O h1\nE e1\nO [lens: 3 lines elided, 2-4, h: 9 bytes past the first 1 lines]\nE e2\nO t5\n"
        );
    }

    #[test]
    fn only_the_lines_that_came_before_any_stderr_may_go_first() {
        let view = b"h1\n[lens: 3 lines elided, 2-4, h]\nt5\n";
        let starts = [0, 3, 12];
        let before = |parts: &[(Stream, usize)]| {
            let clear = stdout_first(&arrivals(parts));
            prefix_before(view, &starts, clear)
        };
        assert_eq!(before(&[(Stream::Stdout, 3), (Stream::Stderr, 3)]), 3);
        // A marker whose first line came before stderr goes with it.
        assert_eq!(
            before(&[(Stream::Stdout, 4), (Stream::Stderr, 3)]),
            view.len() - 3
        );
        assert_eq!(before(&[(Stream::Stderr, 3), (Stream::Stdout, 15)]), 0);
        assert_eq!(before(&[(Stream::Stdout, 15)]), view.len(), "no stderr yet");
        assert_eq!(stdout_first(&[]), u64::MAX);
    }
}
