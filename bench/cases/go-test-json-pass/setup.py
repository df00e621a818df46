"""The go-test-json-one-cause ledger with its constant and parser fixed: every test passes."""

import subprocess
import sys
from pathlib import Path

one_cause = Path(__file__).resolve().parent.parent / "go-test-json-one-cause" / "setup.py"
subprocess.run([sys.executable, str(one_cause), sys.argv[1], "fixed"], check=True)
