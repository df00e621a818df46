"""A git repository with thirty commits at fixed dates, then uncommitted work on top.

Every git case builds this same repository, so git log, git show, git status and git diff
read one history. The committed history touches a dozen source files; the working tree then
has staged, modified, deleted and untracked files so status and diff have something to say.
Dates, names and contents are fixed, so commit ids are the same on every run.
"""

import os
import subprocess
import sys
from pathlib import Path

root = Path(sys.argv[1])
MODULES = ["auth", "billing", "cache", "config", "db", "email", "http", "jobs", "log", "search"]
SUBJECTS = [
    "Add {m} module skeleton",
    "Handle empty input in {m}",
    "Rename {m} helpers for clarity",
]


def git(*args, date=None):
    env = dict(os.environ)
    if date:
        env["GIT_AUTHOR_DATE"] = date
        env["GIT_COMMITTER_DATE"] = date
    subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def module_text(m, revision):
    lines = [f'"""The {m} module, revision {revision}."""', ""]
    for f in range(4 + revision * 2):
        lines += [f"def {m}_step_{f}(value):", f"    return value + {f * (revision + 1)}", "", ""]
    return "\n".join(lines).rstrip() + "\n"


git("init", "-q", "-b", "main")
(root / "src").mkdir()
(root / "README.md").write_text("# service\n\nA small service used to record git output.\n")
git("add", ".")
git("commit", "-q", "-m", "Initial commit", date="2026-01-01T09:00:00+00:00")
for n in range(29):
    m = MODULES[n % len(MODULES)]
    revision = n // len(MODULES)
    (root / "src" / f"{m}.py").write_text(module_text(m, revision))
    if n % 7 == 3:
        notes = root / "NOTES.md"
        old = notes.read_text() if notes.exists() else "# Notes\n"
        notes.write_text(old + f"\n- {m}: revision {revision} shipped\n")
    git("add", ".")
    subject = SUBJECTS[revision].format(m=m)
    body = f"The {m} step functions now number {4 + revision * 2}."
    git("commit", "-q", "-m", subject, "-m", body, date=f"2026-01-{2 + n:02}T10:{n:02}:00+00:00")

# Uncommitted work: two files staged, four modified, one deleted, three untracked.
for m in ["auth", "billing"]:
    path = root / "src" / f"{m}.py"
    path.write_text(path.read_text().replace("return value + 0", "return value"))
git("add", "src/auth.py", "src/billing.py")
for m in ["cache", "db", "http", "search"]:
    path = root / "src" / f"{m}.py"
    text = path.read_text().splitlines()
    text = [line.replace("value +", "int(value) +") for line in text]
    text += ["", "", f"def {m}_reset():", f'    """Forget every {m} step."""', "    return None"]
    path.write_text("\n".join(text) + "\n")
(root / "src" / "log.py").unlink()
(root / "src" / "metrics.py").write_text('"""Counters."""\n')
(root / "scratch.txt").write_text("todo\n")
(root / "tests").mkdir()
(root / "tests" / "test_cache.py").write_text("def test_cache():\n    assert True\n")
