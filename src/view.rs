//! The per-stream decision: the pipeline's view, or the raw bytes and the reason why.
//!
//! Raw is the answer whenever lens cannot vouch for a filtered view: the level asked for
//! it, the stream is binary (not valid UTF-8, or holding NUL bytes: content whose every
//! byte matters, never decoded lossily), the store or config failed, or the pipeline
//! panicked. A panic is caught here, its message kept for the log and kept off the
//! user's terminal, and the raw stream is shown instead: lens failing must never break
//! the command it wraps.
//!
//! A live run and `lens show` both print a stream through [`stream`], with the run-wide
//! reason from [`blocker`], so the two cannot disagree about when a view is raw. They
//! did once: show rendered a filtered view on a broken config the run had shown raw.

use crate::level::Level;
use crate::pipeline;
use std::borrow::Cow;
use std::panic;
use std::sync::Mutex;

/// Why lens cannot vouch for any filtered view of a run: the raw output did not reach the
/// store, or the config could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    /// For the log's `raw_reason`.
    pub reason: String,
    /// The line lens prints on stderr after the views.
    pub diagnostic: String,
}

/// The run-wide blocker, if any: the store's failure first, since without the stored
/// bytes no marker could be honoured, then the config's.
pub fn blocker(store_error: Option<&str>, config_error: Option<&str>) -> Option<Blocked> {
    match (store_error, config_error) {
        (Some(error), _) => Some(Blocked {
            reason: format!("store: {error}"),
            diagnostic: format!("lens: the output was not stored ({error}); showing it in full"),
        }),
        (None, Some(reason)) => Some(Blocked {
            reason: format!("config: {reason}"),
            diagnostic: format!("lens: {reason}; showing the output in full"),
        }),
        (None, None) => None,
    }
}

/// One stream as lens prints it: raw when `blocked`, else [`render`]; with the reason
/// it is raw when a filtered view was asked for.
pub fn stream<'a>(
    raw: &'a [u8],
    blocked: Option<&Blocked>,
    request: &pipeline::Request,
) -> (Cow<'a, [u8]>, Option<String>) {
    match blocked {
        Some(blocked) => {
            let filtered_was_asked = request.level != Level::Raw && !raw.is_empty();
            (
                Cow::Borrowed(raw),
                filtered_was_asked.then(|| blocked.reason.clone()),
            )
        }
        None => render(raw, request),
    }
}

/// The view of one stream, and why it is raw when a filtered one was asked for.
pub fn render<'a>(raw: &'a [u8], request: &pipeline::Request) -> (Cow<'a, [u8]>, Option<String>) {
    if request.level == Level::Raw || raw.is_empty() {
        return (Cow::Borrowed(raw), None);
    }
    if let Some(why) = looks_binary(raw) {
        return (Cow::Borrowed(raw), Some(why));
    }
    match quietly(|| pipeline::try_view_bytes(raw, request)) {
        Ok(Ok(view)) => (Cow::Owned(view), None),
        Ok(Err(fallback)) => (Cow::Borrowed(raw), Some(fallback.reason().to_owned())),
        Err(message) => (
            Cow::Borrowed(raw),
            Some(format!("pipeline panicked: {message}")),
        ),
    }
}

/// Share of a stream's bytes, in thousandths, that may be NUL or invalid UTF-8 before it
/// is binary: one in a hundred. Git and grep call a file binary on a NUL in its first
/// few kilobytes; a test log that quotes a blob has two NULs in 235 KB and is text, and
/// reading it line by line is what the reader needs.
const BINARY_PER_MILLE: usize = 10;

/// Why `raw` is content to pass through untouched, if it is: more than
/// [`BINARY_PER_MILLE`] of its bytes NUL or invalid UTF-8, or a NUL within its first 8000
/// bytes that are not mostly text either (a file header).
pub fn looks_binary(raw: &[u8]) -> Option<String> {
    let nul = raw.iter().filter(|&&b| b == 0).count();
    let invalid: usize = raw.utf8_chunks().map(|c| c.invalid().len()).sum();
    let stray = nul + invalid;
    if stray * 1000 > raw.len() * BINARY_PER_MILLE {
        return Some(format!(
            "binary: {stray} of {} bytes are NUL or invalid UTF-8",
            raw.len()
        ));
    }
    let head = &raw[..raw.len().min(8000)];
    let head_nul = head.iter().filter(|&&b| b == 0).count();
    if head_nul * 1000 > head.len() * BINARY_PER_MILLE {
        return Some(format!("binary: {head_nul} NUL bytes at its start"));
    }
    None
}

/// Run `f`, turning a panic into its message without printing anything.
pub(crate) fn quietly<T>(f: impl FnOnce() -> T + panic::UnwindSafe) -> Result<T, String> {
    static MESSAGE: Mutex<Option<String>> = Mutex::new(None);
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|info| {
        if let Ok(mut slot) = MESSAGE.lock() {
            *slot = Some(info.to_string());
        }
    }));
    let result = panic::catch_unwind(f);
    panic::set_hook(previous);
    result.map_err(|_| {
        MESSAGE
            .lock()
            .ok()
            .and_then(|mut m| m.take())
            .unwrap_or_else(|| "unknown panic".into())
            .replace('\n', " ")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::block::Stream;
    use crate::command::CommandLine;

    fn options(level: Level) -> pipeline::Request<'static> {
        static SETTINGS: std::sync::LazyLock<pipeline::Settings> =
            std::sync::LazyLock::new(Default::default);
        static COMMAND: std::sync::LazyLock<CommandLine> =
            std::sync::LazyLock::new(|| CommandLine::from_words(&[]));
        pipeline::Request {
            stream: Stream::Stdout,
            level,
            budget: crate::cli::DEFAULT_BUDGET,
            handle: "0badcafe",
            exit_code: 0,
            command: &COMMAND,
            settings: &SETTINGS,
        }
    }

    #[test]
    fn binary_streams_pass_through_byte_identical() {
        let raw = b"ok\n\xff\xfe\n";
        let (view, reason) = render(raw, &options(Level::Filtered));
        assert_eq!(&*view, raw);
        assert_eq!(
            reason.as_deref(),
            Some("binary: 2 of 6 bytes are NUL or invalid UTF-8")
        );
        let (view, reason) = render(b"a\0b\n", &options(Level::Filtered));
        assert_eq!(&*view, b"a\0b\n");
        assert!(reason.unwrap().starts_with("binary: "));
    }

    #[test]
    fn a_few_stray_bytes_in_a_long_text_are_not_binary() {
        let mut raw = "test case ok\n".repeat(2000).into_bytes();
        raw.extend_from_slice(b"quoted \0\0 and \xff\n");
        assert_eq!(looks_binary(&raw), None);
        let mut tar = vec![0u8; 512];
        tar.extend_from_slice(&"x\n".repeat(20000).into_bytes());
        assert!(looks_binary(&tar).is_some());
    }

    #[test]
    fn level_three_is_raw_without_a_reason() {
        let (view, reason) = render(b"x\n", &options(Level::Raw));
        assert_eq!(&*view, b"x\n");
        assert_eq!(reason, None);
    }

    #[test]
    fn a_blocked_run_is_raw_with_the_reason_only_when_a_view_was_asked_for() {
        let blocked = blocker(None, Some("invalid config `c`: bad")).unwrap();
        assert_eq!(blocked.reason, "config: invalid config `c`: bad");
        assert_eq!(
            blocked.diagnostic,
            "lens: invalid config `c`: bad; showing the output in full"
        );
        let repeated = "same line\n".repeat(50);
        let (view, reason) = stream(
            repeated.as_bytes(),
            Some(&blocked),
            &options(Level::Filtered),
        );
        assert_eq!(&*view, repeated.as_bytes());
        assert_eq!(reason.as_deref(), Some("config: invalid config `c`: bad"));
        let (_, reason) = stream(repeated.as_bytes(), Some(&blocked), &options(Level::Raw));
        assert_eq!(reason, None);
        let (_, reason) = stream(b"", Some(&blocked), &options(Level::Filtered));
        assert_eq!(reason, None);
        let (view, _) = stream(repeated.as_bytes(), None, &options(Level::Filtered));
        assert!(
            view.len() < repeated.len(),
            "unblocked, the stream is filtered"
        );
    }

    #[test]
    fn the_store_failure_wins_over_the_config_failure() {
        let blocked = blocker(Some("disk full"), Some("invalid config")).unwrap();
        assert_eq!(blocked.reason, "store: disk full");
        assert_eq!(
            blocked.diagnostic,
            "lens: the output was not stored (disk full); showing it in full"
        );
        assert_eq!(blocker(None, None), None);
    }

    #[test]
    fn a_panic_becomes_a_reason_and_prints_nothing() {
        let result: Result<(), String> = quietly(|| panic!("stage broke\non two lines"));
        let message = result.unwrap_err();
        assert!(message.contains("stage broke on two lines"), "{message}");
    }
}
