#!/usr/bin/env bash
# One Rust source file compiled with rustc directly: two errors and a warning.
set -euo pipefail
cat > "$1/main.rs" <<'RS'
use std::collections::HashMap;

struct Point {
    x: i32,
    y: i32,
}

fn distance(a: &Point, b: &Point) -> f64 {
    let dx = a.x - b.x;
    let dy = a.y - b.y;
    ((dx * dx + dy * dy) as f64).sqrt()
}

fn main() {
    let origin = Point { x: 0, y: 0 };
    let target = Point { x: 3, y: 4 };
    let d: i32 = distance(&origin, &target);
    println!("{}", origin.z);
    println!("{d}");
}
RS
