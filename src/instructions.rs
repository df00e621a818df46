//! The instruction block `lens init agents-md` adds to a project's `AGENTS.md`.
//!
//! Agents without a hook lens can answer read instructions instead. AGENTS.md is the
//! shared format for them (https://agents.md, github.com/agentsmd/agents.md: plain
//! Markdown at the repository root, read by Codex, Cursor, GitHub Copilot, Aider,
//! Windsurf, Roo Code and others), so one short block there says when to put `lens` in
//! front of a command and how to get elided lines back.
//!
//! The block is delimited by two comment lines, so it can be found again and removed
//! exactly, and it is appended after the file's last line with one blank line between. A
//! file that did not end with a newline gets one, and the opening line says so, so that
//! `--uninstall` takes that newline back too: the file returns byte for byte, however the
//! rest of it was edited since. A file lens created is removed again when nothing else
//! was written into it. The block is never added twice, and a block that was edited is
//! left in place with an error rather than guessed at.

use anyhow::{Result, bail};
use std::path::Path;

const BEGIN: &str = "<!-- lens: begin (added by `lens init agents-md`; remove with `lens init agents-md --uninstall`) -->\n";
const BEGIN_NEWLINE: &str = "<!-- lens: begin (added by `lens init agents-md`, with the newline that ends the line above; remove with `lens init agents-md --uninstall`) -->\n";
const END: &str = "<!-- lens: end -->\n";
const BODY: &str = "\
## Long command output: use `lens`

Put `lens` in front of builds, tests, linters and other commands whose output is long:
`lens cargo test`, `lens npm test`, `cd web && lens make`. Lens prints a shorter view and
keeps the full output; each elided part is replaced by one line such as
`[lens: 42 lines elided, 10-51, 1a2b3c4d]`. To read those lines, run
`lens show 1a2b3c4d --lines 10-51` with the handle and range from that line.

Do not use `lens` when the output is piped, redirected or captured (`cmd | grep`,
`cmd > file`, `$(cmd)`), for interactive commands, or in scripts: the exit status is the
command's own, but the text is a view of it.
";

/// The block as installed, opened for a file that did (`true`) or did not end in a newline.
fn block(had_newline: bool) -> String {
    let begin = if had_newline { BEGIN } else { BEGIN_NEWLINE };
    format!("{begin}{BODY}{END}")
}

/// The file's text with the block added; `None` when it is there already.
pub fn add(before: Option<&str>) -> Option<String> {
    let text = before.unwrap_or("");
    if text.contains(BEGIN) || text.contains(BEGIN_NEWLINE) {
        return None;
    }
    Some(match text {
        "" => block(true),
        t if t.ends_with('\n') => format!("{t}\n{}", block(true)),
        t => format!("{t}\n\n{}", block(false)),
    })
}

/// The file's text with the block taken out (`None`: the file should not exist), or an
/// error when the block is missing or was edited.
pub fn remove(text: &str, path: &Path) -> Result<Option<String>> {
    for had_newline in [true, false] {
        let block = block(had_newline);
        let Some(at) = text.find(&block) else {
            continue;
        };
        let (head, tail) = (&text[..at], &text[at + block.len()..]);
        if head.is_empty() && tail.is_empty() {
            return Ok(None);
        }
        // What `add` put before the block: one blank line, and with BEGIN_NEWLINE also the
        // newline that ended the user's last line.
        let separator = if had_newline { "\n" } else { "\n\n" };
        let head = head.strip_suffix(separator).unwrap_or(head);
        return Ok(Some(format!("{head}{tail}")));
    }
    if text.contains(BEGIN) || text.contains(BEGIN_NEWLINE) || text.contains(END) {
        bail!(
            "the lens block in `{}` was edited; remove it by hand (it starts at `<!-- lens: begin`)",
            path.display()
        );
    }
    bail!("no lens block in `{}`", path.display())
}

/// Whether the file holds the block.
pub fn present(text: &str) -> bool {
    text.contains(&block(true)) || text.contains(&block(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(original: Option<&str>) {
        let added = add(original).expect("added");
        assert!(present(&added));
        assert_eq!(add(Some(&added)), None, "never twice");
        let removed = remove(&added, Path::new("AGENTS.md")).unwrap();
        assert_eq!(removed.as_deref(), original.filter(|t| !t.is_empty()));
    }

    #[test]
    fn removing_gives_back_the_file_byte_for_byte() {
        round_trip(None);
        round_trip(Some("# Project\n\nRun `make`.\n"));
        round_trip(Some("# Project\n\nno newline at the end"));
        round_trip(Some("ends with blank lines\n\n\n"));
        round_trip(Some("\n"));
    }

    #[test]
    fn edits_around_the_block_are_kept() {
        let added = add(Some("# Top\n")).unwrap();
        let edited = format!("{added}\n## Later section\n");
        let removed = remove(&edited, Path::new("AGENTS.md")).unwrap().unwrap();
        assert_eq!(removed, "# Top\n\n## Later section\n");
    }

    #[test]
    fn an_edited_block_is_an_error_not_a_guess() {
        let added = add(Some("# Top\n"))
            .unwrap()
            .replace("lens show", "lens  show");
        let error = remove(&added, Path::new("AGENTS.md"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("was edited"), "{error}");
        let error = remove("# nothing\n", Path::new("AGENTS.md"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("no lens block"), "{error}");
    }

    #[test]
    fn the_block_says_when_to_use_lens_and_how_to_get_lines_back() {
        assert!(BODY.contains("lens show 1a2b3c4d --lines 10-51"));
        assert!(BODY.contains("`cmd | grep`"));
        assert!(BODY.lines().all(|l| l.len() <= 92), "short lines");
    }
}
