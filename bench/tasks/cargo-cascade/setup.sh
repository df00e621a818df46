#!/bin/sh
# Build the cargo-cascade working directory from nothing: a crate whose `Sample.value`
# is declared i32 while 150 functions read it as i64, so one wrong field type is reported
# at every use site. Deterministic and offline (the crate has no dependencies).
set -eu
dir=$1
mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<'TOML'
[package]
name = "sensors"
version = "0.1.0"
edition = "2021"

[dependencies]
TOML
cat > "$dir/src/sample.rs" <<'RS'
/// One reading from a sensor.
pub struct Sample {
    pub id: u32,
    pub value: i32,
}
RS
awk 'BEGIN {
    print "use crate::sample::Sample;"
    print ""
    for (i = 1; i <= 150; i++) {
        printf "pub fn reading_%03d(s: &Sample) -> i64 {\n", i
        printf "    let v: i64 = s.value;\n"
        printf "    v * %d + i64::from(s.id)\n}\n\n", i
    }
    print "pub fn total(samples: &[Sample]) -> i64 {"
    print "    let mut t = 0;"
    print "    for s in samples {"
    for (i = 1; i <= 150; i++) printf "        t += reading_%03d(s);\n", i
    print "    }"
    print "    t"
    print "}"
}' > "$dir/src/uses.rs"
cat > "$dir/src/main.rs" <<'RS'
mod sample;
mod uses;

fn main() {
    let samples = [sample::Sample { id: 1, value: 2 }, sample::Sample { id: 3, value: 4 }];
    println!("{}", uses::total(&samples));
}
RS
