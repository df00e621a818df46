//! The filtering pipeline: one stream's text in, its view out.
//!
//! This is the whole contract the runner relies on: [`view`] receives the decoded text of
//! one stream (already known to be valid UTF-8 without NUL bytes) and returns the text to
//! print in its place. It does no I/O and reads no clock or environment. The runner calls
//! it only when the raw output is safely in the store, so every marker it writes can name
//! a handle that resolves.

use crate::block::Stream;

/// Pipeline configuration, read from the `[pipeline]` table of config.toml.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {}

/// Everything the pipeline knows about the run besides the text itself.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub stream: Stream,
    /// 0, 1 or 2. Level 3 is the raw output and never reaches the pipeline.
    pub level: u8,
    /// Ranking budget, in lines per stream, beyond what is force-kept.
    pub budget: usize,
    /// The run's handle, eight lowercase hex digits, for markers.
    pub handle: &'a str,
    /// The exit status lens reports for the child (128 + N for a signal).
    pub exit_code: i32,
    /// The command as run, lossily decoded, for per-command shapes and defaults.
    pub argv: &'a [String],
    pub settings: &'a Settings,
}

/// Render the view of one stream. Until the stages land, the view is the raw text:
/// nothing is removed, so nothing needs announcing.
pub fn view(text: &str, _request: &Request) -> String {
    text.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_without_stages_is_the_raw_text() {
        let settings = Settings::default();
        let argv = vec!["true".to_owned()];
        let request = Request {
            stream: Stream::Stdout,
            level: 2,
            budget: 200,
            handle: "0123abcd",
            exit_code: 0,
            argv: &argv,
            settings: &settings,
        };
        assert_eq!(view("a\nb\n", &request), "a\nb\n");
    }
}
