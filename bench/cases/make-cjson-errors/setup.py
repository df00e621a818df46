"""cJSON 1.7.19 with two faults injected in cJSON_Utils.c, for its own Makefile.

cJSON builds with `-Wall -Werror -Wconversion` and more, so one edit can fail a build in
several places. Two plausible edits:

- `compare_strings` gets its parameter renamed from `case_sensitive` to `sensitive` while
  the body still uses the old name: an undeclared identifier, with gcc's "did you mean"
  fix-it and its note.
- `pointer_encoded_length` is declared to return `int` instead of `size_t`: one
  -Werror=conversion error in its body and three -Werror=sign-conversion errors where
  callers use the result as a size, ending in "cc1: all warnings being treated as errors".

`make` first builds cJSON.o and the shared library, then stops at cJSON_Utils.o with
make's own `Error 1` line after the compiler's five errors.

Input: github.com/DaveGamble/cJSON, tag v1.7.19 (commit
c859b25da02955fef659d658b8f324b5cde87be3). The repository is not part of this tree, and
this script does not download it: re-recording needs a clone at /tmp/lens-src/cJSON.git,
made with `git clone --bare https://github.com/DaveGamble/cJSON /tmp/lens-src/cJSON.git`.
The fixture recorded from it is what the tests read.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.sources import SOURCES, check_out, inject

SOURCE = SOURCES / "cJSON.git"
COMMIT = "c859b25da02955fef659d658b8f324b5cde87be3"
FAULTS = [
    (
        "cJSON_Utils.c",
        "const unsigned char *string2, const cJSON_bool case_sensitive)",
        "const unsigned char *string2, const cJSON_bool sensitive)",
    ),
    (
        "cJSON_Utils.c",
        "static size_t pointer_encoded_length(const unsigned char *string)",
        "static int pointer_encoded_length(const unsigned char *string)",
    ),
]

root = Path(sys.argv[1])
check_out(SOURCE, COMMIT, root)
inject(root, FAULTS)
