"""What the setup scripts of cases built on a real project share: a checkout of the
project at one commit, from a bare clone under /tmp/lens-src, a crate read from cargo's
registry cache, and the faults put in it.

A setup script runs as `python3 setup.py DIR`; it reaches this module with
`sys.path.insert(0, str(Path(__file__).resolve().parents[3]))`, then
`from bench.sources import check_out, inject`.
"""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
import tarfile
from pathlib import Path

# Where the sources are kept; no setup script downloads them (see tests/fixtures/README.md).
SOURCES = Path("/tmp/lens-src")


def check_out(repo: Path, commit: str, root: Path) -> None:
    """Check `commit` of the bare clone `repo` out into `root`, or exit saying what is missing."""
    if not repo.is_dir():
        sys.exit(f"{repo} is missing; see this script's docstring for how to make it")
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(repo), str(root)], check=True)
    subprocess.run(["git", "checkout", "-q", "--detach", commit], cwd=root, check=True)


def inject(root: Path, faults: list[tuple[str, str, str]]) -> None:
    """Replace, in each file named, its one copy of `old` with `new`.

    A text that is not there exactly once means the checkout is not the one the case was
    written for: the script exits rather than record a run without its fault.
    """
    for name, old, new in faults:
        path = root / name
        text = path.read_text()
        if text.count(old) != 1:
            sys.exit(f"{name}: the text to change is not there exactly once")
        path.write_text(text.replace(old, new))


def from_cargo_cache(pattern: str, sha256: str) -> bytes:
    """The bytes of the file under cargo's registry (`cache/*/regex-syntax-0.8.12.crate`,
    `src/*/regex-syntax-0.8.12/src/lib.rs`), checked against `sha256`, or exit saying why.

    The crates these cases read are pinned by this repository's Cargo.lock, so `cargo
    fetch` in it fills the cache; the checksum keeps a different version from slipping in.
    """
    cargo_home = Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))
    found = sorted(cargo_home.glob(f"registry/{pattern}"))
    if not found:
        sys.exit(f"{pattern} is not in {cargo_home}/registry; run `cargo fetch` in the repository")
    data = found[0].read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        sys.exit(f"{found[0]} is not the file these fixtures were recorded from")
    return data


def unpack_crate(crate: str, sha256: str, root: Path) -> None:
    """Unpack the published crate `crate` (`aho-corasick-1.1.5.crate`) from cargo's
    download cache into `root`, its top folder stripped."""
    data = from_cargo_cache(f"cache/*/{crate}", sha256)
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        for member in archive.getmembers():
            member.name = member.name.split("/", 1)[1] if "/" in member.name else "."
            archive.extract(member, root, filter="data")


def unpack_itoa(root: Path) -> None:
    """Unpack itoa 1.0.19 into `root`, buildable with no other crate: its optional
    `no-panic` dependency becomes an empty feature of that name, and its benchmark's
    `criterion` goes from Cargo.toml, along with the lockfile that pins them."""
    unpack_crate(
        "itoa-1.0.19.crate",
        "3bd1574e617a9a6c1f8f8181bd7e841e1f20e4277607ef28945765188d6284d4",
        root,
    )
    (root / "Cargo.lock").unlink()
    inject(
        root,
        [
            (
                "Cargo.toml",
                '[dependencies.no-panic]\nversion = "0.1"\noptional = true\n',
                "[features]\nno-panic = []\n",
            ),
            (
                "Cargo.toml",
                '[target."cfg(not(miri))".dev-dependencies.criterion]\n'
                'version = "0.8"\ndefault-features = false\n',
                "",
            ),
        ],
    )
