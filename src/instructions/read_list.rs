//! Aider's `read:` list in `.aider.conf.yml`, edited one line at a time.
//!
//! Only three shapes are edited: no top-level `read:` key (a marked block with one is
//! appended), `read:` followed by a block sequence, and `read:` with nothing after it (an
//! item line is added below, marked by its trailing comment). Anything else is an error
//! that says what to add by hand. There is no YAML parser here: lens must give the file
//! back byte for byte, and a parse and re-serialisation would rewrite every line the user
//! wrote (comments, quoting, order), so the edit is a line inserted and the same line
//! taken out.

use super::Marks;
use anyhow::{Result, bail};
use std::path::Path;

fn body(entry: &str) -> String {
    format!("read:\n  - {entry}\n")
}

fn note(agent: &str) -> String {
    format!("  # lens: added by `lens init {agent}`; remove with `lens init {agent} --uninstall`")
}

/// Whether `entry` is on the list as lens put it there.
pub fn listed(agent: &str, text: &str, entry: &str) -> bool {
    let item = format!("- {entry}{}", note(agent));
    Marks::yaml(agent).present(text, &body(entry)) || text.lines().any(|l| l.trim_start() == item)
}

/// The config with `entry` added; `None` when lens listed it already.
pub fn add(agent: &str, text: Option<&str>, entry: &str, path: &Path) -> Result<Option<String>> {
    let text = text.unwrap_or("");
    if listed(agent, text, entry) {
        return Ok(None);
    }
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n');
    let Some(key) = lines.by_ref().find(|line| {
        let found = line
            .strip_prefix("read:")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t', '\n', '\r']));
        if !found {
            offset += line.len();
        }
        found
    }) else {
        return Ok(Marks::yaml(agent).add(Some(text), &body(entry)));
    };
    let value = key["read:".len()..].trim();
    if !(value.is_empty() || value.starts_with('#')) {
        bail!(
            "`read: {value}` in `{}` is not a list lens can add a line to; write it as a \
             list (`read:` then `  - {value}`) and run this again, or add `{entry}` to it \
             yourself",
            path.display(),
            value = value.split(" #").next().unwrap_or(value).trim()
        );
    }
    offset += key.len();
    // The sequence's items: lines indented as the first one and starting `- `, or
    // indented deeper (an item's continuation).
    let mut indent: Option<&str> = None;
    for line in lines {
        let spaces = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[spaces..];
        let item = rest.starts_with("- ") || rest.trim_end() == "-";
        let within = match indent {
            None => item,
            Some(i) => (item && spaces == i.len()) || (spaces > i.len() && !rest.trim().is_empty()),
        };
        if !within {
            break;
        }
        indent.get_or_insert(&line[..spaces]);
        offset += line.len();
    }
    let indent = indent.unwrap_or("  ");
    let line = format!("{indent}- {entry}{}", note(agent));
    let (head, tail) = text.split_at(offset);
    Ok(Some(if head.ends_with('\n') {
        format!("{head}{line}\n{tail}")
    } else {
        // The list ends the file without a newline: the new line keeps it that way.
        format!("{head}\n{line}{tail}")
    }))
}

/// The config with lens's entry taken out (`None` inside: remove the file); `None` when
/// lens's entry is not there.
pub fn remove(agent: &str, text: &str, entry: &str, path: &Path) -> Result<Option<Option<String>>> {
    let marks = Marks::yaml(agent);
    if marks.opened(text) || text.contains(&marks.end) {
        return marks.remove(text, &body(entry), path).map(Some);
    }
    let item = format!("- {entry}{}", note(agent));
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end_matches('\n').trim_start() == item {
            let (head, tail) = (&text[..offset], &text[offset + line.len()..]);
            return Ok(Some(Some(if line.ends_with('\n') {
                format!("{head}{tail}")
            } else {
                head.strip_suffix('\n').unwrap_or(head).to_owned()
            })));
        }
        offset += line.len();
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml_round_trip(original: Option<&str>, entry: &str) -> String {
        let path = Path::new(".aider.conf.yml");
        let added = add("aider", original, entry, path).unwrap().expect("added");
        assert!(listed("aider", &added, entry), "{added}");
        assert_eq!(
            add("aider", Some(&added), entry, path).unwrap(),
            None,
            "never twice"
        );
        let removed = remove("aider", &added, entry, path)
            .unwrap()
            .expect("found");
        assert_eq!(
            removed.as_deref(),
            original.filter(|t| !t.is_empty()),
            "{added}"
        );
        added
    }

    #[test]
    fn an_aider_config_without_read_gets_a_marked_read_block() {
        let added = yaml_round_trip(Some("model: sonnet\n"), ".aider.lens.md");
        assert!(
            added.ends_with("read:\n  - .aider.lens.md\n# lens: end\n"),
            "{added}"
        );
        yaml_round_trip(Some("model: sonnet"), ".aider.lens.md");
        yaml_round_trip(None, "~/.aider.lens.md");
    }

    #[test]
    fn an_aider_read_list_gets_one_marked_item_after_its_last() {
        let note =
            "  # lens: added by `lens init aider`; remove with `lens init aider --uninstall`";
        let added = yaml_round_trip(
            Some("model: x\nread:\n    - CONVENTIONS.md\n    - docs/\n\nvim: true\n"),
            ".aider.lens.md",
        );
        assert_eq!(
            added,
            format!(
                "model: x\nread:\n    - CONVENTIONS.md\n    - docs/\n    - .aider.lens.md{note}\n\nvim: true\n"
            )
        );
        let added = yaml_round_trip(Some("read:\n- A.md\n- B.md"), ".aider.lens.md");
        assert_eq!(
            added,
            format!("read:\n- A.md\n- B.md\n- .aider.lens.md{note}")
        );
        let added = yaml_round_trip(Some("read:  # conventions\nvim: true\n"), ".aider.lens.md");
        assert_eq!(
            added,
            format!("read:  # conventions\n  - .aider.lens.md{note}\nvim: true\n")
        );
    }

    #[test]
    fn an_aider_read_scalar_or_flow_list_is_left_for_the_user() {
        for text in ["read: CONVENTIONS.md\n", "read: [A.md, B.md]  # two\n"] {
            let error = add("aider", Some(text), ".aider.lens.md", Path::new("c"))
                .unwrap_err()
                .to_string();
            assert!(
                error.contains("is not a list lens can add a line to"),
                "{error}"
            );
            assert!(
                error.contains("add `.aider.lens.md` to it yourself"),
                "{error}"
            );
        }
    }
}
