"""ky 2.0.2 with two type faults injected, for `tsc --pretty`.

ky is a small TypeScript HTTP client whose tsconfig extends @sindresorhus/tsconfig (strict,
exactOptionalPropertyTypes). Two faults are injected, each a plausible edit:

- `RetryOptions.statusCodes` and `afterStatusCodes` become `ReadonlySet<number>` (as if
  for faster lookup), which the defaults and every `.includes` call contradict: errors in
  two files, one with a five-level elaboration, two sharing one message, two pointing at
  the declaration they came from.
- a typo, `body.byteLenght`, in source/utils/body.ts: a "Did you mean" error.

`--noEmit` is part of the command because TypeScript 7 refuses ky's tsconfig for emitting
without an explicit rootDir (TS5011), which would hide the type errors.

Input: github.com/sindresorhus/ky, tag v2.0.2 (commit
0a24c44fe4a15d0545c840facc56e473dd0b315b), and the two packages its type check needs,
@sindresorhus/tsconfig 8.1.0 and @type-challenges/utils 0.1.1 from npm. None of them is
part of this tree, and this script downloads nothing: re-recording needs, in
/tmp/lens-src, a bare clone `ky.git` (`git clone --bare https://github.com/sindresorhus/ky
/tmp/lens-src/ky.git`) and the two tarballs `npm pack` makes there
(`npm pack @sindresorhus/tsconfig@8.1.0 @type-challenges/utils@0.1.1`). The fixture
recorded from it is what the tests read.
"""

import sys
import tarfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.sources import SOURCES, check_out, inject

COMMIT = "0a24c44fe4a15d0545c840facc56e473dd0b315b"
PACKAGES = {
    "@sindresorhus/tsconfig": "sindresorhus-tsconfig-8.1.0.tgz",
    "@type-challenges/utils": "type-challenges-utils-0.1.1.tgz",
}
FAULTS = [
    ("source/types/retry.ts", "\tstatusCodes?: number[];", "\tstatusCodes?: ReadonlySet<number>;"),
    (
        "source/types/retry.ts",
        "\tafterStatusCodes?: number[];",
        "\tafterStatusCodes?: ReadonlySet<number>;",
    ),
    ("source/utils/body.ts", "return body.byteLength;", "return body.byteLenght;"),
]

root = Path(sys.argv[1])
needed = [SOURCES / "ky.git", *(SOURCES / t for t in PACKAGES.values())]
missing = [str(p) for p in needed if not p.exists()]
if missing:
    sys.exit(f"missing {', '.join(missing)}; see this script's docstring for how to make them")
check_out(SOURCES / "ky.git", COMMIT, root)
for name, tarball in PACKAGES.items():
    dest = root / "node_modules" / name
    dest.mkdir(parents=True)
    with tarfile.open(SOURCES / tarball) as archive:
        for member in archive.getmembers():
            member.name = member.name.removeprefix("package/")
            archive.extract(member, dest, filter="data")
inject(root, FAULTS)
