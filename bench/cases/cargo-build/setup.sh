#!/usr/bin/env bash
# A small binary crate with three compile errors of different kinds and three warnings, so
# the build fails with distinct diagnostics in distinct files.
set -euo pipefail
cd "$1"
mkdir -p src
cat > Cargo.toml <<'TOML'
[package]
name = "inventory"
version = "0.1.0"
edition = "2021"

[dependencies]
TOML
cat > src/main.rs <<'RS'
mod parse;
mod report;

use std::collections::HashMap;
use std::fmt::Write;

fn main() {
    let unused_total = 0;
    let items = parse::read_items("apple,3\npear,5\n");
    let text = report::render(&items);
    println!("{text}");
}
RS
cat > src/parse.rs <<'RS'
pub struct Item {
    pub name: String,
    pub count: u32,
}

pub fn read_items(text: &str) -> Vec<Item> {
    let mut items = Vec::new();
    for line in text.lines() {
        let mut parts = line.split(',');
        let name = parts.next().unwrap_or_default();
        let count: u32 = parts.next().unwrap_or("0");
        items.push(Item { name: name.to_string(), count });
    }
    items
}

fn legacy_header() -> &'static str {
    "name,count"
}
RS
cat > src/report.rs <<'RS'
use crate::parse::Item;

pub fn render(items: &[Item]) -> String {
    let mut out = String::new();
    for item in items {
        out.push_str(&format!("{}: {}\n", item.name, item.count));
    }
    out.push_str(&format!("total: {}\n", total_count(items)));
    out
}

pub fn largest(items: &mut Vec<Item>) -> &Item {
    let first = &items[0];
    items.push(Item { name: String::from("extra"), count: 0 });
    first
}
RS
