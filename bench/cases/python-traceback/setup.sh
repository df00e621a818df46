#!/usr/bin/env bash
# A script that fails four frames deep with a chained exception (KeyError, then RuntimeError).
set -euo pipefail
cat > "$1/app.py" <<'PY'
import json


def load(text):
    return json.loads(text)


def port_of(config):
    return int(config["server"]["port"])


def start(text):
    config = load(text)
    try:
        return port_of(config)
    except KeyError as err:
        raise RuntimeError(f"config has no {err}") from err


print("starting")
start('{"server": {"host": "localhost"}}')
PY
