//! The per-stream decision: the pipeline's view, or the raw bytes and the reason why.
//!
//! Raw is the answer whenever lens cannot vouch for a filtered view: the level asked for
//! it, the stream is binary (not valid UTF-8, or holding NUL bytes: content whose every
//! byte matters, never decoded lossily), the store or config failed, or the pipeline
//! panicked. A panic is caught here, its message kept for the log and kept off the
//! user's terminal, and the raw stream is shown instead: lens failing must never break
//! the command it wraps.

use crate::level::Level;
use crate::pipeline;
use std::borrow::Cow;
use std::panic;
use std::sync::Mutex;

/// The view of one stream, and why it is raw when a filtered one was asked for.
pub fn render<'a>(raw: &'a [u8], request: &pipeline::Request) -> (Cow<'a, [u8]>, Option<String>) {
    if request.level == Level::Raw || raw.is_empty() {
        return (Cow::Borrowed(raw), None);
    }
    let Ok(text) = std::str::from_utf8(raw) else {
        return (Cow::Borrowed(raw), Some("binary: not valid UTF-8".into()));
    };
    if text.as_bytes().contains(&0) {
        return (
            Cow::Borrowed(raw),
            Some("binary: contains NUL bytes".into()),
        );
    }
    match quietly(|| pipeline::view(text, request)) {
        Ok(view) => (Cow::Owned(view.into_bytes()), None),
        Err(message) => (
            Cow::Borrowed(raw),
            Some(format!("pipeline panicked: {message}")),
        ),
    }
}

/// Run `f`, turning a panic into its message without printing anything.
fn quietly<T>(f: impl FnOnce() -> T + panic::UnwindSafe) -> Result<T, String> {
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
            budget: 200,
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
        assert_eq!(reason.as_deref(), Some("binary: not valid UTF-8"));
        let (view, reason) = render(b"a\0b\n", &options(Level::Filtered));
        assert_eq!(&*view, b"a\0b\n");
        assert_eq!(reason.as_deref(), Some("binary: contains NUL bytes"));
    }

    #[test]
    fn level_three_is_raw_without_a_reason() {
        let (view, reason) = render(b"x\n", &options(Level::Raw));
        assert_eq!(&*view, b"x\n");
        assert_eq!(reason, None);
    }

    #[test]
    fn a_panic_becomes_a_reason_and_prints_nothing() {
        let result: Result<(), String> = quietly(|| panic!("stage broke\non two lines"));
        let message = result.unwrap_err();
        assert!(message.contains("stage broke on two lines"), "{message}");
    }
}
