//! Both views in the order their lines arrived, for a stdout and stderr that are one pipe.
//!
//! When lens's stdout and stderr are the same file or pipe (`2>&1`), writing the stdout
//! view and then the stderr view would end the merged output on whatever stderr said
//! last, not where the command ended: `lens cargo test 2>&1 | tail -4` showed cargo's
//! `Running` lines instead of the `test result` lines. So each view line is given the
//! arrival position of the raw line it stands for, and the two views are merged on it.
//!
//! A view line is mapped to raw lines by order, as the contract shapes a view: it is the
//! next raw line verbatim, or a marker `[lens: N lines elided, A-B, HANDLE...]` standing
//! for raw lines A-B (read back with [`render::parse_marker`]), which is placed where
//! line A arrived. Anything else (an overlong line cut in place) stands for the next raw
//! line, so a changed line never derails the lines after it. A line's position is that
//! of its first byte in the arrival list capture recorded: which stretch of reads, on
//! either stream, brought it. Each view keeps its own order; only the interleaving is
//! chosen here. Every line still goes to its own stream's descriptor, so a marker stands
//! in the stream whose lines it replaces.

use crate::block::Stream;
use crate::capture::Arrival;
use crate::pipeline::render;

/// One stream's raw bytes and its view.
pub struct Side<'a> {
    pub raw: &'a [u8],
    pub view: &'a [u8],
}

/// The lines of both views, each with its stream, in arrival order.
pub fn interleave<'a>(
    out: Side<'a>,
    err: Side<'a>,
    arrival: &[Arrival],
    handle: &str,
) -> Vec<(Stream, &'a [u8])> {
    let out_lines = placed(&out, Stream::Stdout, arrival, handle);
    let err_lines = placed(&err, Stream::Stderr, arrival, handle);
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
fn placed<'a>(
    side: &Side<'a>,
    stream: Stream,
    arrival: &[Arrival],
    handle: &str,
) -> Vec<(usize, &'a [u8])> {
    let starts = line_starts(side.raw);
    let position = Positions::new(arrival, stream);
    let mut next = 0usize;
    let mut placed = Vec::new();
    for line in side.view.split_inclusive(|&b| b == b'\n') {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let raw_line = if next < starts.len() && body == raw_line(side.raw, &starts, next) {
            next += 1;
            next - 1
        } else if let Some((_, first, last)) = std::str::from_utf8(body)
            .ok()
            .and_then(|text| render::parse_marker(text, handle))
            .filter(|&(_, first, last)| first == next + 1 && first <= last)
        {
            next = last;
            first - 1
        } else {
            next += 1;
            next - 1
        };
        let offset = starts.get(raw_line).or(starts.last()).copied().unwrap_or(0);
        placed.push((position.of(offset), line));
    }
    placed
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
    ends: Vec<(usize, usize)>,
}

impl Positions {
    fn new(arrival: &[Arrival], stream: Stream) -> Positions {
        let mut at = 0;
        let ends = arrival
            .iter()
            .enumerate()
            .filter(|(_, a)| a.stream == stream)
            .map(|(index, a)| {
                at += a.bytes;
                (at, index)
            })
            .collect();
        Positions { ends }
    }

    /// The entry holding byte `offset`; past the recorded bytes, after everything.
    fn of(&self, offset: usize) -> usize {
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
        let merged = interleave(
            Side {
                raw: out,
                view: out,
            },
            Side {
                raw: err,
                view: err,
            },
            &arrival,
            "0badcafe",
        );
        assert_eq!(render(&merged), "O o1\nE e1\nO o2\nO o3\nE e2\n");
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
        let merged = interleave(
            Side { raw: out, view },
            Side {
                raw: err,
                view: err,
            },
            &arrival,
            "0badcafe",
        );
        assert_eq!(
            render(&merged),
            "O first\nE Running a\nO [lens: 3 lines elided, 2-4, 0badcafe: detail]\nE Running b\nO last\n"
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
        let merged = interleave(
            Side { raw: out, view },
            Side {
                raw: err,
                view: err,
            },
            &arrival,
            "0badcafe",
        );
        assert_eq!(render(&merged), "O aaa[cut]\nE e\nO b\n");
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
        let merged = interleave(
            Side {
                raw: out,
                view: out,
            },
            Side {
                raw: err,
                view: err,
            },
            &arrival,
            "h",
        );
        assert_eq!(render(&merged), "O half and half\nE between\n");
    }

    #[test]
    fn a_last_line_without_newline_and_empty_streams_are_kept() {
        let out = b"no newline";
        let merged = interleave(
            Side {
                raw: out,
                view: out,
            },
            Side {
                raw: b"",
                view: b"",
            },
            &arrivals(&[(Stream::Stdout, 10)]),
            "h",
        );
        assert_eq!(render(&merged), "O no newline");
    }
}
