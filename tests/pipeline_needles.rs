//! The line each fixture's command was run for, and every file and test it names, survive
//! level 2.
//!
//! Each recorded case carries a needle (a regex one line of the view must match) and its
//! items (names the view must contain, literally or as the first group of a pattern over
//! the raw lines). The table restates the bench's declarations for the fixtures copied
//! from it, plus needles for the shapes recorded in this tree (`shape-*`). Both streams
//! are rendered with the recorded argv and exit status, and searched together.

use lens::block::Stream;
use lens::command::CommandLine;
use lens::level::Level;
use lens::pipeline::{Request, Settings, view};
use regex::Regex;

#[path = "pipeline_fixture.rs"]
mod fixture;

struct Case {
    case: &'static str,
    needle: &'static str,
    names: &'static [&'static str],
    pattern: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        case: "cargo-build-color",
        needle: r#"error.*: could not compile .*inventory"#,
        names: &[r#"src/main.rs"#, r#"src/parse.rs"#, r#"src/report.rs"#],
        pattern: None,
    },
    Case {
        case: "cargo-build",
        needle: r#"^error: could not compile `inventory`"#,
        names: &[r#"src/main.rs"#, r#"src/parse.rs"#, r#"src/report.rs"#],
        pattern: None,
    },
    Case {
        case: "cargo-cascade",
        needle: r#"^error\[E0369\]: cannot multiply `String` by `\{float\}`"#,
        names: &[r#"src/pricing_00.rs"#, r#"could not compile `shop`"#],
        pattern: None,
    },
    Case {
        case: "cargo-clippy",
        needle: r#"generated \d+ warnings"#,
        names: &[
            r#"needless_return"#,
            r#"len_zero"#,
            r#"bool_comparison"#,
            r#"ptr_arg"#,
            r#"identity_op"#,
            r#"manual_range_contains"#,
        ],
        pattern: None,
    },
    Case {
        case: "cargo-test",
        needle: r#"^test result: FAILED\. 74 passed; 6 failed"#,
        names: &[
            r#"accounts::tests::accounts_case_3"#,
            r#"budget::tests::budget_case_7"#,
            r#"currency::tests::currency_case_1"#,
            r#"journal::tests::journal_case_5"#,
            r#"tax::tests::tax_case_2"#,
            r#"totals::tests::totals_case_9"#,
        ],
        pattern: None,
    },
    Case {
        case: "eslint",
        needle: r#"^✖ \d+ problems \(\d+ errors, \d+ warnings?\)$"#,
        names: &[],
        pattern: Some(r#"^/tmp/\S+/(src/\w+/view\d+\.js)$"#),
    },
    Case {
        case: "find",
        needle: r#"^\./app/jobs/queue\.py$"#,
        names: &[],
        pattern: Some(r#"^\./(\S+\.py)$"#),
    },
    Case {
        case: "gcc-errors",
        needle: r#"^main\.c:\d+:\d+: error: "#,
        names: &[r#"main.c"#, r#"util.c"#],
        pattern: None,
    },
    Case {
        case: "git-diff",
        needle: r#"^\+\s+return int\(value\) \+"#,
        names: &[],
        pattern: Some(r#"^diff --git a/(\S+) b/"#),
    },
    Case {
        case: "git-log-stat",
        needle: r#"^    Initial commit$"#,
        names: &[],
        pattern: Some(r#"^commit ([0-9a-f]{40})"#),
    },
    Case {
        case: "git-log",
        needle: r#"^    Initial commit$"#,
        names: &[],
        pattern: Some(r#"^commit ([0-9a-f]{40})"#),
    },
    Case {
        case: "git-show",
        needle: r#"^    Rename \w+ helpers for clarity$"#,
        names: &[],
        pattern: Some(r#"^diff --git a/(\S+) b/"#),
    },
    Case {
        case: "git-status",
        needle: r#"^\s+deleted:\s+src/log\.py$"#,
        names: &[
            r#"src/auth.py"#,
            r#"src/billing.py"#,
            r#"src/cache.py"#,
            r#"src/db.py"#,
            r#"src/http.py"#,
            r#"src/search.py"#,
            r#"src/log.py"#,
            r#"src/metrics.py"#,
            r#"scratch.txt"#,
            r#"tests/"#,
        ],
        pattern: None,
    },
    Case {
        case: "go-build",
        needle: r#"undefined: missing"#,
        names: &[r#"main.go"#, r#"calc.go"#],
        pattern: None,
    },
    Case {
        case: "go-test",
        needle: r#"^FAIL\s+example\.com/rates/round"#,
        names: &[
            r#"convert_test.go"#,
            r#"round_test.go"#,
            r#"TestScale3"#,
            r#"TestScale1"#,
            r#"TestScale6"#,
        ],
        pattern: None,
    },
    Case {
        case: "go-vet",
        needle: r#"Printf format %d has arg name of wrong type string"#,
        names: &[r#"main.go"#, r#"store/store.go"#],
        pattern: None,
    },
    Case {
        case: "grep",
        needle: r#"^src/net/client_07\.rs:\d+:pub fn retry_budget\(attempts: u32\) -> u32 \{$"#,
        names: &[],
        pattern: Some(r#"^(src/\w+/client_\d+\.rs):\d+:"#),
    },
    Case {
        case: "jest",
        needle: r#"^Tests:\s+2 failed, 6 passed, 8 total$"#,
        names: &[
            r#"tests/tax.test.js"#,
            r#"tests/parse.test.js"#,
            r#"adds 5% tax"#,
            r#"parses euro"#,
        ],
        pattern: None,
    },
    Case {
        case: "ls",
        needle: r#" Cargo\.lock$"#,
        names: &[
            r#"Cargo.toml"#,
            r#"Cargo.lock"#,
            r#"README.md"#,
            r#"README -> README.md"#,
            r#"LICENSE-MIT"#,
            r#"build.rs"#,
            r#"deny.toml"#,
            r#".github"#,
            r#"scripts"#,
            r#"src"#,
            r#"tests"#,
        ],
        pattern: None,
    },
    Case {
        case: "mypy",
        needle: r#"^Found \d+ errors in 3 files \(checked 5 source files\)$"#,
        names: &[
            r#"billing/money.py"#,
            r#"billing/invoice.py"#,
            r#"billing/report.py"#,
        ],
        pattern: None,
    },
    Case {
        case: "npm-install",
        needle: r#"^added \d+ packages in"#,
        names: &[],
        pattern: None,
    },
    Case {
        case: "pip-install",
        needle: r#"^Successfully installed "#,
        names: &[],
        pattern: None,
    },
    Case {
        case: "pytest-collect",
        needle: r#"ModuleNotFoundError: No module named 'shop\.refunds'"#,
        names: &[r#"tests/test_refunds.py"#],
        pattern: None,
    },
    Case {
        case: "pytest-fail",
        needle: r#"^=+ 6 failed, 74 passed in [\d.]+s =+$"#,
        names: &[
            r#"test_cart_4"#,
            r#"test_discount_1"#,
            r#"test_discount_8"#,
            r#"test_orders_6"#,
            r#"test_payments_2"#,
            r#"test_users_9"#,
        ],
        pattern: None,
    },
    Case {
        case: "pytest-pass",
        needle: r#"^=+ 80 passed in [\d.]+s =+$"#,
        names: &[],
        pattern: None,
    },
    Case {
        case: "python-traceback",
        needle: r#"^RuntimeError:\ config\ has\ no\ 'port'$"#,
        names: &[r#"app.py"#],
        pattern: None,
    },
    Case {
        case: "ruff-concise",
        needle: r#"^Found\ 50\ errors\.$"#,
        names: &[],
        pattern: Some(r#"(service/\w+/part_\d+\.py):\d+:\d+"#),
    },
    Case {
        case: "ruff",
        needle: r#"^Found\ 50\ errors\.$"#,
        names: &[],
        pattern: Some(r#"(service/\w+/part_\d+\.py):\d+:\d+"#),
    },
    Case {
        case: "rustc-errors",
        needle: r#"^error: aborting due to 2 previous errors"#,
        names: &[r#"E0308"#, r#"E0609"#],
        pattern: None,
    },
    Case {
        case: "trap-last-line",
        needle: r#"^export checksum: sha256:[0-9a-f]{64}$"#,
        names: &[],
        pattern: None,
    },
    Case {
        case: "trap-mid-stream",
        needle: r#"^ERROR 2400_\w+: constraint \w+ violated by 17 rows; rolled back, continuing \(incident [0-9a-f]{12}\)$"#,
        names: &[],
        pattern: None,
    },
    Case {
        case: "tsc",
        needle: r#"^src/user\.ts\(\d+,\d+\): error TS18048: 'user\.email' is possibly 'undefined'\.$"#,
        names: &[
            r#"src/user.ts"#,
            r#"src/cart.ts"#,
            r#"src/format.ts"#,
            r#"src/report.ts"#,
        ],
        pattern: None,
    },
    Case {
        case: "shape-build-deps",
        needle: r#"^    Finished `dev` profile"#,
        names: &[],
        pattern: None,
    },
    Case {
        case: "shape-verbose",
        needle: r#"^=+ 6 failed, 74 passed in [\d.]+s =+$"#,
        names: &[
            r#"test_cart_4"#,
            r#"test_discount_1"#,
            r#"test_discount_8"#,
            r#"test_orders_6"#,
            r#"test_payments_2"#,
            r#"test_users_9"#,
        ],
        pattern: None,
    },
    Case {
        case: "shape-test-verbose",
        needle: r#"^FAIL\s+example\.com/rates/round"#,
        names: &[
            r#"TestScale3"#,
            r#"TestScale1"#,
            r#"TestScale6"#,
            r#"convert_test.go"#,
            r#"round_test.go"#,
        ],
        pattern: None,
    },
    Case {
        case: "shape-run",
        needle: r#"Tests\s+2 failed \| 5 passed"#,
        names: &[
            r#"parses euro"#,
            r#"adds 5% tax"#,
            r#"expected 1049 to be 1048"#,
        ],
        pattern: None,
    },
    Case {
        case: "shape-test-panic",
        needle: r#"^panic: runtime error: index out of range \[2\] with length 2"#,
        names: &[
            r#"TestTotalTooMany"#,
            r#"book/book.go:13"#,
            r#"book/book_test.go:14"#,
        ],
        pattern: None,
    },
    Case {
        case: "shape-build-warnings",
        needle: r#"^    Finished `dev` profile"#,
        names: &[
            r#"unused_imports"#,
            r#"unused_variables"#,
            r#"dead_code"#,
            r#"src/main.rs"#,
        ],
        pattern: None,
    },
    Case {
        case: "shape-install-404",
        needle: r#"^npm error 404 Not Found - GET "#,
        names: &[r#"lens-fixture-no-such-package-4f2a"#],
        pattern: None,
    },
];

#[test]
fn level2_keeps_every_needle_and_names_every_item() {
    let settings = Settings::default();
    let mut failures = Vec::new();
    for case in CASES {
        let Some(fixture) = fixture::named(case.case) else {
            failures.push(format!("{}: fixture missing", case.case));
            continue;
        };
        let (mut raw, mut shown) = (String::new(), String::new());
        for stream in [Stream::Stdout, Stream::Stderr] {
            let text = fixture.stream(stream.name());
            let command = CommandLine::from_words(&fixture.argv);
            let request = Request {
                stream,
                level: Level::Filtered,
                budget: 200,
                handle: "0badcafe",
                exit_code: fixture.exit,
                command: &command,
                settings: &settings,
            };
            shown.push_str(&view(&text, &request));
            raw.push_str(&text);
        }
        let needle = Regex::new(case.needle).unwrap();
        if !shown
            .lines()
            .any(|l| needle.is_match(l.trim_end_matches('\r')))
        {
            failures.push(format!("{}: needle {} lost", case.case, case.needle));
        }
        let mut items: Vec<String> = case.names.iter().map(|n| n.to_string()).collect();
        if let Some(pattern) = case.pattern {
            let pattern = Regex::new(pattern).unwrap();
            for line in raw.lines() {
                if let Some(found) = pattern.captures(line.trim_end_matches('\r'))
                    && !items.iter().any(|i| i == &found[1])
                {
                    items.push(found[1].to_owned());
                }
            }
        }
        let missing: Vec<&String> = items
            .iter()
            .filter(|i| !shown.contains(i.as_str()))
            .collect();
        if !missing.is_empty() {
            failures.push(format!("{}: not named: {missing:?}", case.case));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
