"""yargs-parser at one commit, with two source edits, a test edit and a new lockfile.

`lib/string-utils.ts` gets two changes (camelCase upper-cases nothing, `looksLikeNumber` is
renamed), `test/yargs-parser.mjs` one changed assertion, and `npm install --package-lock-only`
writes a package-lock.json of about 7,000 lines (which the project ignores) that `git add
-N -f` puts in the diff between them: what a diff looks like after someone ran npm in a
project that does not commit its lockfile. The changed lines of the two source files are
what the diff is read for.

Input: a bare clone of github.com/yargs/yargs-parser at /tmp/lens-src/yargs-parser.git
(`git clone --bare https://github.com/yargs/yargs-parser /tmp/lens-src/yargs-parser.git`),
commit 60f2db5 ("fix: unknown-options-as-args now respects short-option-groups (#510)");
the lockfile is resolved against npm's registry.
"""

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from bench.sources import SOURCES, check_out, inject

root = Path(sys.argv[1])
check_out(SOURCES / "yargs-parser.git", "60f2db5dacde1e94f960ce0941a717f3f422f865", root)
inject(
    root,
    [
        ("lib/string-utils.ts", "chr = chr.toUpperCase()", "chr = chr.toLowerCase()"),
        (
            "lib/string-utils.ts",
            "export function looksLikeNumber (",
            "export function looksNumeric (",
        ),
        (
            "test/yargs-parser.mjs",
            "const parse = parser('foo bar baz')\n"
            "    parse.should.have.property('_').and.deep.equal(['foo', 'bar', 'baz'])",
            "const parse = parser('foo bar baz')\n"
            "    parse.should.have.property('_').and.deep.equal(['foo', 'baz', 'bar'])",
        ),
    ],
)
subprocess.run(
    ["npm", "install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"],
    cwd=root,
    check=True,
    stdout=subprocess.DEVNULL,
)
subprocess.run(["git", "add", "-N", "-f", "package-lock.json"], cwd=root, check=True)
