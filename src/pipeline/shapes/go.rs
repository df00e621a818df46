//! What `go test` and `go build` print by themselves: `=== RUN` progress, `--- FAIL: X`
//! and `--- PASS: X` results, the per-package `FAIL\tpkg` and `ok  \tpkg` tallies, and a
//! runtime panic's first line.
//!
//! `go vet` and `go build` report `file.go:3:5: message`, which is classify's located
//! shape; goroutine frames in the toolchain are noise, decided there because it takes the
//! frame's two lines.

use super::{Tool, sw};
use crate::block::{Doc, Marks, Role};

pub(crate) const TOOL: Tool = Tool {
    role,
    marks,
    restated,
    test_name,
    payload: super::bare,
};

/// `--- FAIL: TestA/sub (0.00s)`: `TestA/sub`.
fn test_name(t: &str) -> Option<&str> {
    let rest = t.trim_start().strip_prefix("--- FAIL: ")?;
    rest.split(' ').next()
}

fn role(t: &str) -> Option<Role> {
    if sw(t, "--- FAIL: ") {
        return Some(Role::Fail);
    }
    if sw(t, "--- PASS: ") || sw(t, "--- SKIP: ") {
        return Some(Role::Pass);
    }
    if sw(t, "=== RUN ") || sw(t, "=== PAUSE ") || sw(t, "=== CONT ") {
        return Some(Role::Progress);
    }
    if t == "FAIL" || sw(t, "FAIL\t") || sw(t, "ok  \t") || t == "PASS" {
        return Some(Role::Summary);
    }
    if sw(t, "panic: ") || sw(t, "fatal error: ") {
        return Some(Role::Error);
    }
    None
}

fn marks(t: &str, role: Role) -> Marks {
    match role {
        // A subtest is indented under its parent: each names one failing test.
        Role::Fail if sw(t.trim_start(), "--- FAIL: ") => Marks::TEST_FAILED | Marks::TEST_SECTION,
        Role::Summary if sw(t, "FAIL\t") || sw(t, "ok  \t") => Marks::TALLY,
        _ => Marks::NONE,
    }
}

fn restated(_: &mut Doc) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_tallies() {
        assert_eq!(role("--- FAIL: TestA (0.00s)"), Some(Role::Fail));
        assert_eq!(
            marks("    --- FAIL: TestA/sub (0.00s)", Role::Fail),
            Marks::TEST_FAILED | Marks::TEST_SECTION
        );
        assert_eq!(marks("FAIL\tdemo\t0.01s", Role::Summary), Marks::TALLY);
        assert_eq!(role("=== RUN   TestA"), Some(Role::Progress));
        assert_eq!(role("okay"), None);
    }
}
