//! What jest, vitest and mocha print by themselves: a file's `PASS`/`FAIL` head, the
//! `✓`/`✕` marks of each test, the `● suite › test` section of a failure, and the
//! `Tests:`/`Test Suites:` (jest) and `Test Files`/`Tests` (vitest) tallies.

use super::{Tool, sw};
use crate::block::{Doc, Marks, Role};

pub(crate) const TOOL: Tool = Tool {
    role,
    marks,
    restated,
    test_name,
    payload: super::bare,
};

/// `● suite › test`, vitest's `FAIL  file > suite > test`: the test's full name.
fn test_name(t: &str) -> Option<&str> {
    let trimmed = t.trim_start();
    if let Some(name) = trimmed.strip_prefix("● ") {
        return Some(name.trim());
    }
    let rest = trimmed.strip_prefix("FAIL ")?.trim_start();
    rest.contains(" > ").then_some(rest.trim_end())
}

fn role(t: &str) -> Option<Role> {
    if let Some(rest) = t.strip_prefix("FAIL ") {
        return Some(if rest.trim_start().is_empty() {
            Role::Summary
        } else {
            Role::Fail
        });
    }
    if sw(t, "PASS ") {
        return Some(Role::Pass);
    }
    if sw(t, "Tests:") || sw(t, "Test Suites:") || sw(t, "Snapshots:") {
        return Some(Role::Summary);
    }
    mark_role(t)
}

/// Marks of jest, vitest and mocha: `✓ name`, `✕ name`, `× name`, `● Suite › name`.
pub(crate) fn mark_role(trimmed: &str) -> Option<Role> {
    let c = trimmed.chars().next()?;
    match c {
        '✓' | '√' | '✔' => Some(Role::Pass),
        '✕' | '×' | '✗' | '✖' if !trimmed.contains(" problem") => Some(Role::Fail),
        // `● suite › test`, and a test outside any describe block (`● parses a line`);
        // jest's `● Console` heads captured console output, not a failure.
        '●' if !sw(trimmed, "● Console") && trimmed.chars().nth(1) == Some(' ') => {
            Some(Role::Fail)
        }
        '❯' if trimmed.contains(" failed") => Some(Role::Fail),
        _ => None,
    }
}

/// vitest's indented tallies: `Test Files  1 failed (1)`, `Tests  2 failed | 3 passed (5)`.
pub(crate) fn indented_tally(trimmed: &str) -> bool {
    sw(trimmed, "Test Files ") || sw(trimmed, "Tests ") || sw(trimmed, "Duration ")
}

fn marks(t: &str, role: Role) -> Marks {
    let trimmed = t.trim_start();
    match role {
        Role::Fail if sw(trimmed, "✕") || sw(trimmed, "×") => Marks::TEST_FAILED,
        // jest's `● suite › test`; vitest's `FAIL  file > suite > test` (jest's own `FAIL
        // file` heads a file's results, not one test's).
        Role::Fail if sw(trimmed, "●") || sw(trimmed, "FAIL ") && trimmed.contains(" > ") => {
            Marks::TEST_SECTION
        }
        Role::Summary if sw(t, "Tests:") || sw(trimmed, "Tests ") => Marks::TALLY,
        _ => Marks::NONE,
    }
}

fn restated(_: &mut Doc) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_sections_and_tallies() {
        assert_eq!(
            role("  ✓ adds (1 ms)"),
            None,
            "indented: classify trims first"
        );
        assert_eq!(mark_role("✓ adds (1 ms)"), Some(Role::Pass));
        assert_eq!(
            marks("  ✕ subtracts (2 ms)", Role::Fail),
            Marks::TEST_FAILED
        );
        assert_eq!(
            marks("  ● math › subtracts", Role::Fail),
            Marks::TEST_SECTION
        );
        assert_eq!(marks("FAIL src/a.test.js", Role::Fail), Marks::NONE);
        assert_eq!(
            marks(" FAIL  a.test.js > math > adds", Role::Fail),
            Marks::TEST_SECTION
        );
        assert_eq!(
            marks("Tests:       1 failed, 1 total", Role::Summary),
            Marks::TALLY
        );
        assert_eq!(mark_role("✖ 3 problems (3 errors, 0 warnings)"), None);
    }
}
