//! Stage micro-benchmarks: growth gates, latency reports.
//!
//! Every stage and the whole pipeline run on two corpora at 1x, 4x and 16x their size:
//!
//! - `mixed`: every recorded fixture under tests/fixtures that is text, concatenated, the
//!   closest thing to the mixed build log lens sees in practice. Scaling repeats it, so
//!   groups, duplicates and ranked candidates all grow with the input.
//! - `one-block`: 160,000 unindented lines at 1x, the shape behind a documented past bug
//!   (parsing that rescanned its block went quadratic in block length).
//!
//! Two checks, and only one gates by default:
//!
//! - Growth fails the run. For each stage and corpus, time(16x) / time(1x) is compared
//!   with 16 and time(16x) / time(4x) with 4. A stage fails only when BOTH ratios exceed
//!   linear by more than [`GROWTH_TOLERANCE`] (3x). Quadratic code lands at 16x linear on
//!   the first ratio and 4x on the second, far past it. Linear code does not stay at 1x:
//!   timings are minima of repeated runs, but on a two-core machine shared with other
//!   work, memory bandwidth and cache are shared too, and a 16x input suffers more from
//!   that than a 1x one. Measured here under load, linear stages reached 2.7x linear on
//!   the 16x ratio and 2.5x on the 4x one (parse, whose 16x input is 100 MB), though
//!   the same stages grow 2.0-2.4x per doubling from 16x to 64x on a quieter machine.
//!   The corpora start large enough (see [`MIXED_MIN_BYTES`]) that all three scales are
//!   past the fastest caches. Requiring both steps keeps one noisy sample from failing
//!   the build; stages under [`GROWTH_FLOOR`] at 16x are reported but not judged, since
//!   their timings are mostly noise. A stage already more than 3x linear from 1x to 4x
//!   fails without running 16x, and the first failure ends the run: a quadratic stage
//!   at 16x would take hours, and a gate that hangs is a gate nobody waits for.
//! - Latency is compared with bench/results/micro-baseline.json and only reported, since
//!   absolute times belong to the machine that recorded them; `--gate-latency` fails on a
//!   stage more than [`LATENCY_TOLERANCE`] slower than its baseline, for use on that machine.
//!
//! `--save` rewrites the baseline from this machine. Throughput (MB/s) is printed for the
//! whole pipeline and every stage.

use lens::block::Stream;
use lens::command::CommandLine;
use lens::level::Level;
use lens::pipeline::{self, Plan, Request, Run, Settings, Stage};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How far past linear a stage may grow before the build fails (see the module comment).
const GROWTH_TOLERANCE: f64 = 3.0;
/// Below this time at 16x, a stage is too fast for its growth to be measured reliably.
const GROWTH_FLOOR: Duration = Duration::from_millis(2);
/// The mixed corpus is repeated up to at least this size at 1x, so that all three scales
/// are past the CPU's faster caches and what is compared is the algorithm, not the cache.
const MIXED_MIN_BYTES: usize = 4 << 20;
/// Unindented lines in the one-block corpus at 1x: 160,000, four times the 40,000 of the
/// documented quadratic-parse bug, for the same reason as [`MIXED_MIN_BYTES`].
const ONE_BLOCK_LINES: usize = 160_000;
/// With `--gate-latency`, how much slower than the baseline a 1x run may be.
const LATENCY_TOLERANCE: f64 = 1.25;
/// Each measurement repeats until it has used at least this long, and at least 3 times.
const MIN_MEASURE: Duration = Duration::from_millis(100);
const SCALES: [usize; 3] = [1, 4, 16];

struct Options {
    gate_latency: bool,
    save: bool,
    baseline: PathBuf,
    fixtures: PathBuf,
}

fn main() {
    let options = parse_options();
    let corpora = corpora(&options.fixtures);
    let settings = Settings::default();
    let mut failures = Vec::new();
    let mut latest: BTreeMap<String, f64> = BTreeMap::new();
    let baseline = read_baseline(&options.baseline);

    println!(
        "{:<22} {:<10} {:>10} {:>10} {:>10} {:>9} {:>8} {:>8} {:>9}",
        "stage", "corpus", "1x ms", "4x ms", "16x ms", "MB/s", "16x/1x", "16x/4x", "vs base"
    );
    for (corpus_name, base) in &corpora {
        let inputs: Vec<String> = SCALES.iter().map(|&n| base.repeat(n)).collect();
        for (stage_name, stage) in stages() {
            let key = format!("{stage_name}/{corpus_name}");
            let t1 = measure(|| stage(&inputs[0], &settings));
            let t4 = measure(|| stage(&inputs[1], &settings));
            let early = t4.as_secs_f64() / t1.as_secs_f64();
            if t4 >= GROWTH_FLOOR && early > 4.0 * GROWTH_TOLERANCE {
                // Already superlinear from 1x to 4x: 16x would take minutes or hours, and
                // a benchmark that hangs tells nobody anything.
                println!(
                    "{stage_name:<22} {corpus_name:<10} {:>10.3} {:>10.3} {:>10} (16x skipped: 4x took {early:.1}x)",
                    t1.as_secs_f64() * 1e3,
                    t4.as_secs_f64() * 1e3,
                    "-"
                );
                fail_now(&format!(
                    "{key} grows superlinearly: 4x input took {early:.1}x"
                ));
            }
            let times = [t1, t4, measure(|| stage(&inputs[2], &settings))];
            let t1 = times[0].as_secs_f64();
            let per_16 = times[2].as_secs_f64() / t1;
            let per_4 = times[2].as_secs_f64() / times[1].as_secs_f64();
            let throughput = inputs[2].len() as f64 / times[2].as_secs_f64() / 1e6;
            let versus = baseline.get(&key).map(|b| t1 / b);
            println!(
                "{:<22} {:<10} {:>10.3} {:>10.3} {:>10.3} {:>9.1} {:>8.1} {:>8.1} {:>9}",
                stage_name,
                corpus_name,
                t1 * 1e3,
                times[1].as_secs_f64() * 1e3,
                times[2].as_secs_f64() * 1e3,
                throughput,
                per_16,
                per_4,
                versus.map_or("-".to_string(), |v| format!("{:+.0}%", (v - 1.0) * 100.0)),
            );
            let measurable = times[2] >= GROWTH_FLOOR;
            if measurable && per_16 > 16.0 * GROWTH_TOLERANCE && per_4 > 4.0 * GROWTH_TOLERANCE {
                fail_now(&format!(
                    "{key} grows superlinearly: 16x input took {per_16:.1}x, 4x→16x took {per_4:.1}x"
                ));
            }
            if options.gate_latency && versus.is_some_and(|v| v > LATENCY_TOLERANCE) {
                failures.push(format!(
                    "{key} is {:.0}% slower than its baseline",
                    (versus.unwrap() - 1.0) * 100.0
                ));
            }
            latest.insert(key, t1);
        }
    }
    let sizes: Vec<String> = corpora
        .iter()
        .map(|(name, text)| format!("{name} {} KB", text.len() / 1024))
        .collect();
    println!(
        "1x inputs: {}; growth gate: both ratios over {GROWTH_TOLERANCE}x linear",
        sizes.join(", ")
    );

    if options.save {
        write_baseline(&options.baseline, &latest);
        println!("wrote {}", options.baseline.display());
    }
    if !failures.is_empty() {
        for failure in &failures {
            eprintln!("FAIL {failure}");
        }
        std::process::exit(1);
    }
}

/// One timed step: it receives the input and returns how long its timed part took, so a
/// stage can be measured alone on a run already carried through the stages before it.
type StepFn = fn(&str, &Settings) -> Duration;

fn request<'a>(command: &'a CommandLine, settings: &'a Settings, level: u8) -> Request<'a> {
    Request {
        stream: Stream::Stderr,
        level: Level::from_number(level.into()).expect("a level"),
        budget: lens::cli::DEFAULT_BUDGET,
        handle: "0badcafe",
        exit_code: 101,
        command,
        settings,
    }
}

const ARGV: fn() -> CommandLine =
    || CommandLine::from_words(&["cargo".to_owned(), "build".to_owned()]);

/// What is timed: the whole pipeline at each level, parse, each stage alone, and render.
fn stages() -> Vec<(&'static str, StepFn)> {
    fn whole(text: &str, settings: &Settings, level: u8) -> Duration {
        let argv = ARGV();
        let started = Instant::now();
        std::hint::black_box(pipeline::view(text, &request(&argv, settings, level)));
        started.elapsed()
    }
    /// Time `stage` alone, on a run carried through every stage before it.
    fn one(text: &str, settings: &Settings, stage: Stage) -> Duration {
        let argv = ARGV();
        let plan = Plan::new(&request(&argv, settings, 2), text);
        let mut run = Run::parse(text);
        for earlier in Stage::ALL.into_iter().take_while(|s| *s != stage) {
            run.apply(earlier, &plan);
        }
        let started = Instant::now();
        run.apply(stage, &plan);
        let took = started.elapsed();
        std::hint::black_box(&run);
        took
    }
    let mut steps: Vec<(&'static str, StepFn)> = vec![
        ("pipeline level 2", |t, s| whole(t, s, 2)),
        ("pipeline level 1", |t, s| whole(t, s, 1)),
        ("pipeline level 0", |t, s| whole(t, s, 0)),
        ("parse", |t, _| {
            let started = Instant::now();
            std::hint::black_box(Run::parse(t));
            started.elapsed()
        }),
    ];
    macro_rules! stage {
        ($($name:literal => $stage:expr),*) => {
            $(steps.push(($name, |t, s| one(t, s, $stage)));)*
        };
    }
    stage!("classify" => Stage::Classify, "dedupe" => Stage::Dedupe, "progress" => Stage::Progress,
        "cause" => Stage::Cause, "context" => Stage::Context, "excerpt" => Stage::Excerpt, "rank" => Stage::Rank);
    steps.push(("render", |t, s| {
        let argv = ARGV();
        let plan = Plan::new(&request(&argv, s, 2), t);
        let mut run = Run::parse(t);
        for stage in Stage::ALL {
            run.apply(stage, &plan);
        }
        let started = Instant::now();
        std::hint::black_box(run.render(&plan));
        started.elapsed()
    }));
    steps
}

/// Stop at the first superlinear stage: every later measurement that runs it (each stage
/// after it is timed on a run carried through it) would take minutes or hours more.
fn fail_now(failure: &str) -> ! {
    eprintln!("FAIL {failure}");
    eprintln!("stopped at the first superlinear stage; later stages were not measured");
    std::process::exit(1);
}

/// The minimum of the times `f` reports over repeated runs. A run of a second or more is
/// measured once: noise is small beside it, and a slow stage should fail fast.
fn measure(mut f: impl FnMut() -> Duration) -> Duration {
    let mut best = Duration::MAX;
    let started = Instant::now();
    let mut runs = 0;
    while runs < 3 || started.elapsed() < MIN_MEASURE {
        best = best.min(f());
        runs += 1;
        if best >= Duration::from_secs(1) {
            break;
        }
    }
    best
}

fn corpora(fixtures: &Path) -> Vec<(&'static str, String)> {
    let mut files = Vec::new();
    collect_streams(fixtures, &mut files);
    files.sort();
    let mut mixed = String::new();
    for file in files {
        // Binary streams never reach the pipeline, so they are not part of its corpus.
        if let Ok(text) = std::fs::read_to_string(&file)
            && !text.contains('\0')
        {
            mixed.push_str(&text);
            if !text.ends_with('\n') && !text.is_empty() {
                mixed.push('\n');
            }
        }
    }
    if mixed.is_empty() {
        eprintln!(
            "no fixtures under {}; timing the one-block corpus only",
            fixtures.display()
        );
    } else if mixed.len() < MIXED_MIN_BYTES {
        mixed = mixed.repeat(MIXED_MIN_BYTES.div_ceil(mixed.len()));
    }
    let one_block: String = (0..ONE_BLOCK_LINES)
        .map(|i| format!("line {i} of one long unindented block\n"))
        .collect();
    let mut corpora = vec![("one-block", one_block)];
    if !mixed.is_empty() {
        corpora.insert(0, ("mixed", mixed));
    }
    corpora
}

fn collect_streams(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_streams(&path, out);
        } else if matches!(
            path.file_name().and_then(|n| n.to_str()),
            Some("stdout" | "stderr")
        ) {
            out.push(path);
        }
    }
}

fn read_baseline(path: &Path) -> BTreeMap<String, f64> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return BTreeMap::new();
    };
    let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
    json.get("seconds_1x")
        .and_then(|v| v.as_object())
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_f64()?)))
                .collect()
        })
        .unwrap_or_default()
}

fn write_baseline(path: &Path, latest: &BTreeMap<String, f64>) {
    let json = serde_json::json!({
        "note": "minimum seconds per run at 1x input, from `make bench-save` on the machine named here",
        "machine": machine(),
        "seconds_1x": latest,
    });
    let text = serde_json::to_string_pretty(&json).expect("baseline encodes") + "\n";
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create baseline directory");
    }
    std::fs::write(path, text).expect("write baseline");
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown cpu".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{cpu}, {cores} cores, {}", std::env::consts::ARCH)
}

fn parse_options() -> Options {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut options = Options {
        gate_latency: false,
        save: false,
        baseline: root.join("bench/results/micro-baseline.json"),
        fixtures: root.join("tests/fixtures"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--gate-latency" => options.gate_latency = true,
            "--save" => options.save = true,
            "--baseline" => options.baseline = args.next().expect("--baseline needs a path").into(),
            "--fixtures" => options.fixtures = args.next().expect("--fixtures needs a path").into(),
            // cargo bench passes --bench to every harness=false target.
            "--bench" => {}
            other => {
                eprintln!(
                    "pipeline bench: unknown argument `{other}` (--gate-latency, --save, --baseline P, --fixtures P)"
                );
                std::process::exit(2);
            }
        }
    }
    options
}
