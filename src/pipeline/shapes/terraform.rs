//! What `terraform plan` and `terraform apply` print by themselves: the per-resource
//! progress (`aws_s3_bucket.logs: Refreshing state... [id=logs]`, `Creating...`,
//! `Creation complete after 2s`), the head of each planned change (`  # aws_s3_bucket.logs
//! will be updated in-place`, `must be replaced`), and the run's tally (`Plan: 3 to add, 48
//! to change, 2 to destroy.`, `Apply complete! Resources: ...`, `No changes.`).
//!
//! A planned change's head is a [`Role::Header`]: the resources a plan touches are what a
//! reader runs it for, and the attribute lines under each head are its body. Terraform's
//! boxed diagnostics (`│ Error: ...`) are left to the shapes every tool shares.

use super::{Tool, sw};
use crate::block::{Doc, Marks, Role};

pub(crate) const TOOL: Tool = Tool {
    role,
    marks,
    restated,
    test_name: super::TestName::Line(test_name),
    payload: super::bare,
    tally_count: super::no_tally,
    cut_detail,
};

/// What follows a resource's address on a line of progress.
const PROGRESS: &[&str] = &[
    ": Refreshing state...",
    ": Reading...",
    ": Read complete after ",
    ": Creating...",
    ": Creation complete after ",
    ": Modifying...",
    ": Modifications complete after ",
    ": Destroying...",
    ": Destruction complete after ",
    ": Still creating...",
    ": Still modifying...",
    ": Still destroying...",
];

/// How the head of a planned change ends: what will happen to the resource.
const ACTIONS: &[&str] = &[
    " will be created",
    " will be destroyed",
    " will be updated in-place",
    " must be replaced",
    " will be read during apply",
];

fn role(t: &str) -> Option<Role> {
    if sw(t, "# ") && ACTIONS.iter().any(|action| t.ends_with(action)) {
        return Some(Role::Header);
    }
    if is_tally(t) {
        return Some(Role::Summary);
    }
    // `aws_s3_bucket.logs: Refreshing state... [id=logs]`: an address has no space.
    let (address, _) = t.split_once(": ")?;
    let progress = !address.is_empty()
        && !address.contains(' ')
        && address.contains('.')
        && PROGRESS.iter().any(|p| t[address.len()..].starts_with(p));
    progress.then_some(Role::Progress)
}

/// `Plan: 3 to add, 48 to change, 2 to destroy.`, `Apply complete! Resources: 3 added, ...`,
/// `Destroy complete! Resources: 2 destroyed.`
fn is_tally(t: &str) -> bool {
    sw(t, "Plan: ") && t.contains(" to add, ")
        || sw(t, "Apply complete! Resources: ")
        || sw(t, "Destroy complete! Resources: ")
}

fn marks(t: &str, role: Role) -> Marks {
    match role {
        Role::Summary if is_tally(t) => Marks::TALLY,
        _ => Marks::NONE,
    }
}

fn restated(_: &mut Doc) {}

/// Changed attributes a cut names before a count of the rest.
const CHANGES: usize = 4;

/// `changes port = 8011 -> 8010`: the attributes a cut of a planned change's body says
/// will change in place (`~ port = 8011 -> 8010`), when the cut is the body under its
/// `~ resource "type" "name" {` line. What the reader runs a plan for is what changes.
fn cut_detail(doc: &Doc, region: std::ops::Range<usize>) -> Option<String> {
    let opener = region.start.checked_sub(1)?;
    let head = doc.clean(opener);
    let head = head.trim_start();
    if !(head.starts_with("~ resource \"") || head.starts_with("-/+ resource \""))
        || !head.ends_with('{')
    {
        return None;
    }
    let changes: Vec<String> = region
        .filter_map(|i| {
            let t = doc.clean(i);
            let change = t.trim_start().strip_prefix("~ ")?;
            // `~ input  = {` opens a changed map, whose changed entries are listed.
            let (name, values) = change.split_once(" = ")?;
            values
                .contains(" -> ")
                .then(|| format!("{} = {}", name.trim_end(), values.trim()))
        })
        .collect();
    if changes.is_empty() {
        return None;
    }
    let mut detail = format!(
        "changes {}",
        changes[..changes.len().min(CHANGES)].join(", ")
    );
    if changes.len() > CHANGES {
        detail.push_str(&format!(" and {} more", changes.len() - CHANGES));
    }
    Some(detail)
}

/// Terraform runs no tests.
fn test_name(_: &str) -> Option<&str> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_heads_and_tallies_are_read_by_their_shapes() {
        let progress = [
            "terraform_data.svc[\"svc46\"]: Refreshing state... [id=2865fe22]",
            "aws_instance.web: Still creating... [10s elapsed]",
            "module.db.aws_db_instance.main: Creation complete after 4m2s [id=db-1]",
        ];
        for line in progress {
            assert_eq!(role(line), Some(Role::Progress), "{line}");
        }
        assert_eq!(
            role("# terraform_data.svc[\"svc10\"] will be destroyed"),
            Some(Role::Header)
        );
        assert_eq!(
            role("# aws_instance.web must be replaced"),
            Some(Role::Header)
        );
        let tally = "Plan: 3 to add, 48 to change, 2 to destroy.";
        assert_eq!(role(tally), Some(Role::Summary));
        assert_eq!(marks(tally, Role::Summary), Marks::TALLY);
        // Prose that happens to say the words is not a shape of terraform's.
        assert_eq!(role("note: Refreshing state... is slow"), None);
        assert_eq!(role("# this will be created later, maybe"), None);
    }

    #[test]
    fn a_cut_body_names_what_changes_in_place() {
        use crate::pipeline::parse::parse;
        let plan = "  ~ resource \"terraform_data\" \"svc\" {\n        id     = \"407c\"\n      \
                    ~ input  = {\n          ~ port     = 8011 -> 8010\n            name = \"svc11\"\n        \
                    }\n      ~ output = {\n          - port = 8011\n        } -> (known after apply)\n    }\n";
        let doc = parse(plan);
        assert_eq!(
            cut_detail(&doc, 1..doc.lines.len()).as_deref(),
            Some("changes port = 8011 -> 8010")
        );
        // Not under a resource's opening line: the lines are some other tool's.
        assert_eq!(cut_detail(&doc, 2..doc.lines.len()), None);
    }
}
