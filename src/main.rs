//! The `lens` binary: argv in, [`lens::run`], exit code out. Everything else lives in the
//! library so the benchmarks and tests can drive it directly.

fn main() {
    let code = lens::run(std::env::args_os().skip(1).collect());
    std::process::exit(code);
}
