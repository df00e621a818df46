"""The go-test case's module (three packages, tests named TestScale0 to TestScale7)."""

import subprocess
import sys
from pathlib import Path

go_test = Path(__file__).resolve().parent.parent / "go-test" / "setup.py"
subprocess.run([sys.executable, str(go_test), sys.argv[1]], check=True)
