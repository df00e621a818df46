//! The unit the pipeline works on.
//!
//! A child's two streams never mix: every line the pipeline sees belongs to exactly one
//! [`Stream`], which is what lets a failing command's stderr be treated differently from
//! its stdout.

/// Which of the child's output streams a piece of text came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    /// The name used in markers, the store and the log.
    pub fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "stdout",
            Stream::Stderr => "stderr",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_names_match_the_store_file_names() {
        assert_eq!(Stream::Stdout.name(), "stdout");
        assert_eq!(Stream::Stderr.name(), "stderr");
    }
}
