//! Logs of records: files whose lines each open with a timestamp or a severity.
//!
//! `cat` and `head` print content: the file is the answer, so its view is cut in one
//! piece and nothing is kept for its words. A log file is the exception. What a reader
//! runs `cat service.log` for is the one ERROR among thousands of INFO records, as when
//! the service printed them itself; a head and a tail of it hide exactly that. So a stream
//! from a file printer whose first lines are mostly log records is read as diagnostics
//! (deduplicated, ranked by what its lines say), like the output of the program that
//! wrote it.
//!
//! A record opens with one of the stamps real loggers write: an ISO date (Python's
//! logging, log4j, Go's log, tracing), nginx's `2026/03/12 14:48:26`, syslog's
//! `Mar 12 14:48:26`, the combined access log's `[12/Mar/2026:14:00:02 +0000]` after the
//! client fields, a bare time of day, or a severity word (`INFO`, `[WARN]`). Only the
//! first lines are looked at, so the decision costs the same on any file.

use std::sync::LazyLock;

use regex::Regex;

/// How many non-blank lines from the start decide.
const SAMPLE: usize = 200;

/// Fewer sampled lines than this are too few to call a file a log.
const LEAST: usize = 20;

static STAMP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^\[?(?:",
        // 2026-03-14 09:20:00,052 / 2026-03-14T09:20:00.052Z / 2026/03/12 14:48:26
        r"\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}",
        // Mar 12 14:48:26 (syslog)
        r"|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}",
        // 14:48:26.123
        r"|\d{2}:\d{2}:\d{2}\b",
        // a severity word, bare or bracketed
        r"|(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b",
        r")",
        // 10.2.0.1 - - [12/Mar/2026:14:00:02 +0000] (combined access log), and Python's
        // http.server and werkzeug: 127.0.0.1 - - [01/Dec/2026 17:44:09]
        r"|^\S+ \S+ \S+ \[\d{2}/[A-Z][a-z]{2}/\d{4}[: ]\d{2}:\d{2}:\d{2}",
    ))
    .expect("static regex")
});

/// The severities loggers write, as [`severity`] names them.
const SEVERITIES: &[&str] = &[
    "TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "WARNING", "ERROR", "FATAL", "CRITICAL",
];

/// How far into a line a record's severity may stand (after its stamp and a thread or
/// process field).
const SEVERITY_WITHIN: usize = 48;

/// The severity a record states near its start (`INFO`, `[error]`, `level=warn`), upper-
/// cased, or `None`.
pub(crate) fn severity(line: &str) -> Option<&'static str> {
    let mut end = line.len().min(SEVERITY_WITHIN);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    line[..end]
        .split(|c: char| !c.is_ascii_alphabetic())
        .find_map(|word| SEVERITIES.iter().find(|s| s.eq_ignore_ascii_case(word)))
        .copied()
}

/// The logger a record names in brackets near its start, after its severity: `api` in
/// `2026-03-01 12:00:00,027 INFO  [api] GET /v1/items/19773 200`, `db.pool` in `... INFO
/// [db.pool] pool stats`. Records of one severity from several loggers are several kinds.
pub(crate) fn logger(line: &str) -> Option<&str> {
    let mut end = line.len().min(SEVERITY_WITHIN + 40);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let head = &line[..end];
    let open = head.find('[')?;
    let name = &head[open + 1..open + 1 + head[open + 1..].find(']')?];
    let named = !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b':' | b'#'));
    named.then_some(name)
}

/// Does `line` open the way a logger opens a record?
pub(crate) fn is_record(line: &str) -> bool {
    STAMP.is_match(line)
}

static ISO_STAMP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\s+")
        .expect("static regex")
});

/// What a record says after its ISO timestamp (`2026-12-01T20:12:55,257   src/a.c:3:5:
/// error: x` says `src/a.c:3:5: error: x`), when it opens with one: a tool's own line,
/// logged by another (pip's `--log` of a compiler).
pub(crate) fn after_stamp(t: &str) -> Option<&str> {
    ISO_STAMP.find(t).map(|m| &t[m.end()..])
}

static RECORD_HEAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        // 2026-12-02T06:12:36+0000 [twisted.python.log#info] , [2026-12-02T04:47:34.225Z]
        r"^(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?\s+",
        r"(?:\[[^\]\s]*\]\s+)?)?",
        // "127.0.0.1" - - [02/Dec/2026:06:12:36 +0000] (the combined access log's client and time)
        r#"(?:"?[^\s"]+"? \S+ \S+ \[\d{2}/[A-Z][a-z]{2}/\d{4}[: ]\d{2}:\d{2}:\d{2}[^\]]*\]\s+)?"#,
    ))
    .expect("static regex")
});

/// What a record says after the fields every record of its log opens with: its stamp,
/// the logger's bracketed name, an access log's client and time (`2026-12-02T06:12:36+0000
/// [twisted.python.log#info] "127.0.0.1" - - [02/Dec/2026:06:12:36 +0000] "GET /a HTTP/1.1"
/// 200 7` says `"GET /a HTTP/1.1" 200 7`), when it opens with any of them.
pub(crate) fn record_body(t: &str) -> Option<&str> {
    RECORD_HEAD
        .find(t)
        .filter(|m| m.end() > 0)
        .map(|m| &t[m.end()..])
}

/// Is `text` a log: are at least three in four of its first non-blank lines records?
/// Lines that continue a record (a traceback, a wrapped message) are the other quarter.
pub(crate) fn looks_like_log(text: &str) -> bool {
    let mut seen = 0;
    let mut records = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(SAMPLE) {
        seen += 1;
        records += usize::from(is_record(line));
    }
    seen >= LEAST && records * 4 >= seen * 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_records_logger_is_its_bracketed_name() {
        let api = "2026-03-01 12:00:00,027 INFO  [api] GET /v1/items/19773 200 103ms";
        assert_eq!(logger(api), Some("api"));
        assert_eq!(
            logger("2026-03-01 12:00:00 INFO [db.pool] pool stats"),
            Some("db.pool")
        );
        assert_eq!(logger("[2026-12-02T04:47:34.225Z] INFO x"), None, "a stamp");
        assert_eq!(logger("INFO plain"), None);
    }

    #[test]
    fn a_records_body_is_what_it_says_after_its_opening_fields() {
        let twisted = "2026-12-02T06:12:36+0000 [twisted.python.log#info] \"127.0.0.1\" - - [02/Dec/2026:06:12:36 +0000] \"GET /page9.html HTTP/1.1\" 200 7";
        assert_eq!(
            record_body(twisted),
            Some("\"GET /page9.html HTTP/1.1\" 200 7")
        );
        let node = "[2026-12-02T04:47:34.225Z]  \"GET /items/1.json\" \"inventory-sync/2.3\"";
        assert_eq!(
            record_body(node),
            Some("\"GET /items/1.json\" \"inventory-sync/2.3\"")
        );
        let combined = "10.2.0.1 - - [12/Mar/2026:14:00:02 +0000] \"GET /healthz HTTP/1.1\" 200 2";
        assert_eq!(
            record_body(combined),
            Some("\"GET /healthz HTTP/1.1\" 200 2")
        );
        assert_eq!(
            record_body("2026-03-14 09:26:28,354 ERROR x"),
            Some("ERROR x")
        );
        assert_eq!(record_body("   Compiling serde v1.0.0"), None);
    }

    #[test]
    fn the_stamps_of_real_loggers_open_records() {
        for line in [
            "2026-03-14 09:26:28,354 ERROR orders.worker: order ord_aa58726a81 failed",
            "2026-03-14T09:12:00.512Z INFO  api: GET /healthz 200 3ms",
            "2026/03/12 14:48:26 [error] 31#31: *92871 upstream timed out",
            "Mar 12 14:48:26 host sshd[812]: Accepted publickey for root",
            "[2026-03-14 09:20:00] local.ERROR: Undefined index",
            "10.2.0.1 - - [12/Mar/2026:14:00:02 +0000] \"GET /healthz HTTP/1.1\" 200 2",
            "127.0.0.1 - - [01/Dec/2026 17:44:09] \"GET /items/7 HTTP/1.1\" 200 -",
            "14:48:26.123 [main] INFO  app - started",
            "[WARN] disk almost full",
            "INFO: Started server process [1]",
        ] {
            assert!(is_record(line), "{line}");
        }
    }

    #[test]
    fn a_record_says_its_severity_near_its_start() {
        assert_eq!(
            severity("2026-03-14 09:26:28,354 ERROR orders.worker: x"),
            Some("ERROR")
        );
        assert_eq!(
            severity("2026/03/12 14:48:26 [error] 31#31: *92871 x"),
            Some("ERROR")
        );
        assert_eq!(severity("ts=2026-03-14 level=warn msg=x"), Some("WARN"));
        assert_eq!(severity("   Compiling serde v1.0.0"), None);
        // A word far into the message is not the record's severity.
        assert_eq!(severity(&format!("{} error", "x".repeat(60))), None);
        assert_eq!(severity("é".repeat(30).as_str()), None);
    }

    #[test]
    fn source_and_prose_are_not_records() {
        for line in [
            "fn main() {",
            "    let x = 2026;",
            "// 2026-03-14 is a date in a comment",
            "Information about the project",
            "ERRORS = []",
            "Traceback (most recent call last):",
            "12345 lines",
        ] {
            assert!(!is_record(line), "{line}");
        }
    }

    #[test]
    fn a_log_with_a_traceback_is_a_log_and_source_is_not() {
        let mut log = String::new();
        for n in 0..40 {
            log.push_str(&format!("2026-03-14 09:20:{n:02},052 INFO  w: order {n}\n"));
            if n == 20 {
                log.push_str("Traceback (most recent call last):\n  File \"x.py\", line 3\n");
            }
        }
        assert!(looks_like_log(&log));
        let source = "use std::io;\n\nfn main() {\n    println!(\"hi\");\n}\n".repeat(10);
        assert!(!looks_like_log(&source));
        // Too short to tell.
        assert!(!looks_like_log("2026-03-14 09:20:00 INFO one\n"));
    }
}
