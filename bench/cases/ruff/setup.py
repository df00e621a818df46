"""A Python package of fifty modules in five folders, one ruff finding in each.

The findings rotate over five rules (F401, E711, F841, E712, B006), so every file is a
separate place a reader has to visit and no rule repeats in one file.
"""

import sys
from pathlib import Path

FOLDERS = ["api", "core", "jobs", "models", "utils"]
PER_FOLDER = 10

FINDINGS = [
    "import os\n\n\ndef handler_{n}(value):\n    return value + {n}\n",
    "def check_{n}(value):\n    if value == None:\n        return {n}\n    return value\n",
    "def compute_{n}(value):\n    scratch = value * {n}\n    return value\n",
    "def enabled_{n}(flag):\n    if flag == True:\n        return {n}\n    return 0\n",
    "def collect_{n}(item, bucket=[]):\n    bucket.append(item + {n})\n    return bucket\n",
]

root = Path(sys.argv[1])
(root / "ruff.toml").write_text('[lint]\nselect = ["E", "F", "B"]\n')
for f, folder in enumerate(FOLDERS):
    pkg = root / "service" / folder
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    for i in range(PER_FOLDER):
        n = f * PER_FOLDER + i
        body = FINDINGS[n % len(FINDINGS)].format(n=n)
        (pkg / f"part_{n:02}.py").write_text(f'"""Module {n} of the {folder} layer."""\n\n' + body)
(root / "service" / "__init__.py").write_text("")
