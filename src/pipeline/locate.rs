//! Where a line says something is: the `path:line` shapes compilers, linters and test
//! runners print, parsed by hand.
//!
//! Classify uses these to recognise a finding, cause to name a group member's place in a
//! marker. A hand parser rather than a regex: these run on every line of a build log, and
//! the common case (no location) is answered from the first token without backtracking.

/// A location at the start of a line: `src/a.rs:12:5: rest`, `a.py:3: rest`,
/// `src/a.ts(3,7): rest`, `src/a.ts:3:7 - rest`. Returns (path, line number, rest).
pub fn prefix(t: &str) -> Option<(&str, &str, &str)> {
    let bytes = t.as_bytes();
    // Cheap refusal first: a location's first token holds `:` or `(` before any space.
    let mut token_end = bytes.len();
    let mut marked = false;
    for (at, &b) in bytes.iter().enumerate() {
        match b {
            b' ' | b'\t' => {
                token_end = at;
                break;
            }
            b':' | b'(' => marked = true,
            _ => {}
        }
    }
    if !marked {
        return None;
    }
    let token = &t[..token_end];
    // tsc: path(line,col):
    if let Some(open) = token.find('(') {
        let inner = &token[open + 1..];
        let close = inner.find(')')?;
        let (line, col) = inner[..close].split_once(',')?;
        let after = &inner[close + 1..];
        if open > 0 && is_digits(line) && is_digits(col) && after == ":" {
            return Some((&token[..open], line, t[token_end..].trim_start()));
        }
        return None;
    }
    let colon = token.find(':')?;
    if colon == 0 {
        return None;
    }
    let path = &token[..colon];
    let rest_of_token = &token[colon + 1..];
    let digits = rest_of_token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let line = &rest_of_token[..digits];
    let mut after = &rest_of_token[digits..];
    if let Some(col) = after.strip_prefix(':') {
        let n = col.bytes().take_while(u8::is_ascii_digit).count();
        if n > 0 {
            after = &col[n..];
        }
    }
    let rest = t[token_end..].trim_start();
    match after {
        // `path:line:col: rest` or `path:line: rest`
        ":" if token_end < t.len() => Some((path, line, rest)),
        // `path:line:col - rest` (tsc --pretty)
        "" if rest.starts_with("- ") => Some((path, line, &rest[2..])),
        _ => None,
    }
}

/// `--> src/a.rs:3:5` or `::: src/a.rs:3:5` (rustc, ruff): (path, line number).
pub fn arrow(t: &str) -> Option<(&str, &str)> {
    let t = t.trim_start();
    let rest = t.strip_prefix("--> ").or_else(|| t.strip_prefix("::: "))?;
    path_line(rest.trim())
}

/// `path:line` or `path:line:col` as a whole token.
pub fn path_line(t: &str) -> Option<(&str, &str)> {
    let colon = t.find(':')?;
    let path = &t[..colon];
    let rest = &t[colon + 1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (colon > 0 && digits > 0).then(|| (path, &rest[..digits]))
}

/// `  File "x.py", line 3, in f` (Python tracebacks): (path, line number).
pub fn python_file(t: &str) -> Option<(&str, &str)> {
    let rest = t.trim_start().strip_prefix("File \"")?;
    let (path, rest) = rest.split_once("\", line ")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0).then(|| (path, &rest[..digits]))
}

/// The file a line names where a tool puts it: a location prefix (`a.c:3:5: ...`), grep's
/// `path:12:match`, an arrow (`--> src/a.rs:3:5`), a traceback's `File "x.py"`, a diff's
/// `diff --git a/x b/x` or git status's `\tmodified:   x`. Reads
/// the raw line, so it returns a slice of it; a line with escapes names nothing here.
pub fn file_of(raw: &str) -> Option<&str> {
    if let Some(rest) = raw.strip_prefix("diff --git a/") {
        // `diff --git a/x b/x`: the new name.
        return rest.rsplit_once(" b/").map(|(_, new)| new);
    }
    if let Some(path) = crate::pipeline::shapes::git::rustfmt_file(raw) {
        return Some(path);
    }
    if let Some(change) = raw.strip_prefix('\t') {
        // git status: `\tmodified:   src/a.rs`, `\tnew file:   x`, `\trenamed:    a -> b`.
        if let Some((kind, path)) = change.split_once(":   ")
            && kind.bytes().all(|b| b.is_ascii_lowercase() || b == b' ')
        {
            let path = path.trim_start();
            return Some(path.rsplit_once(" -> ").map_or(path, |(_, new)| new));
        }
    }
    if let Some((path, _, _)) = prefix(raw) {
        return Some(path);
    }
    if let Some((path, line)) = path_line(raw)
        && raw[path.len() + 1 + line.len()..].starts_with(':')
        && !path.contains(' ')
    {
        return Some(path);
    }
    arrow(raw)
        .map(|(path, _)| path)
        .or_else(|| python_file(raw).map(|(path, _)| path))
        .or_else(|| crate::pipeline::shapes::git::stat_path(raw))
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_of_compilers_and_linters() {
        assert_eq!(
            prefix("src/a.rs:12:5: error: x"),
            Some(("src/a.rs", "12", "error: x"))
        );
        assert_eq!(
            prefix("a.py:3: error: Bad  [misc]"),
            Some(("a.py", "3", "error: Bad  [misc]"))
        );
        assert_eq!(
            prefix("src/a.ts(3,7): error TS2322: T"),
            Some(("src/a.ts", "3", "error TS2322: T"))
        );
        assert_eq!(
            prefix("src/a.ts:3:7 - error TS2322: T"),
            Some(("src/a.ts", "3", "error TS2322: T"))
        );
        assert_eq!(
            prefix("./main.go:5:2: undefined: x"),
            Some(("./main.go", "5", "undefined: x"))
        );
    }

    #[test]
    fn text_that_only_looks_like_a_location_is_not_one() {
        assert_eq!(prefix("note: see"), None);
        assert_eq!(prefix("http://x.y:80/z"), None);
        assert_eq!(prefix("12:30:00 started"), None);
        assert_eq!(prefix("f(x): y"), None);
        assert_eq!(prefix("a.rs:12"), None);
    }

    #[test]
    fn files_named_by_grep_compilers_and_tracebacks() {
        assert_eq!(file_of("src/a.rs:12:pub fn x() {"), Some("src/a.rs"));
        assert_eq!(file_of("main.c:3:5: error: x"), Some("main.c"));
        assert_eq!(file_of("  --> src/b.rs:1:1"), Some("src/b.rs"));
        assert_eq!(file_of("  File \"a.py\", line 3, in f"), Some("a.py"));
        assert_eq!(file_of("plain words: 12:30"), None);
        assert_eq!(
            file_of("diff --git a/src/x.rs b/src/y.rs"),
            Some("src/y.rs")
        );
        assert_eq!(file_of("\tmodified:   src/auth.py"), Some("src/auth.py"));
        assert_eq!(file_of("\tdeleted:    src/log.py"), Some("src/log.py"));
        assert_eq!(file_of("\trenamed:    a.py -> b.py"), Some("b.py"));
    }

    #[test]
    fn arrows_and_tracebacks() {
        assert_eq!(arrow("  --> src/a.rs:3:5"), Some(("src/a.rs", "3")));
        assert_eq!(arrow(" --> a.py:1:8"), Some(("a.py", "1")));
        assert_eq!(arrow("  = note: x"), None);
        assert_eq!(
            python_file("  File \"/x/a.py\", line 12, in f"),
            Some(("/x/a.py", "12"))
        );
    }
}
