"""http-server 14.1.1 serving a static catalogue, driven by a client that asks for one
item the catalogue does not have.

The output is the server's own request log: a startup banner, 1,800 records
`[ISO time]  "GET /items/N.json" "catalog-mirror/0.9"` for N cycling over 1..60, and,
at the 912th request, `"GET /items/77.json" Error (404): "Not found"` after its request
record. The client then stops the server with SIGINT (`http-server stopped.`). Node
warns once on stderr about a deprecated API http-server still calls. The command exits 0:
a server that answered a 404 did its job, and the reader has to find the one request that
failed.

Input: http-server 14.1.1 from npm's registry; the site and the client are written here.
"""

import json
import subprocess
import sys
from pathlib import Path

root = Path(sys.argv[1])
subprocess.run(
    [
        "npm",
        "install",
        "--no-audit",
        "--no-fund",
        "--no-save",
        "--ignore-scripts",
        "http-server@14.1.1",
    ],
    cwd=root,
    check=True,
    stdout=subprocess.DEVNULL,
)
items = root / "site" / "items"
items.mkdir(parents=True)
for n in range(1, 61):
    (items / f"{n}.json").write_text(json.dumps({"id": n, "sku": f"SKU-{n:04}"}) + "\n")

(root / "drive.js").write_text(
    """// Ask the server for 1,800 items over one keep-alive connection, one of them missing.
const http = require("http");
const port = Number(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(path) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port, path, agent, headers: { "user-agent": "catalog-mirror/0.9" } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
      },
    );
    req.on("error", reject);
  });
}

async function ready() {
  for (let tries = 0; tries < 200; tries++) {
    try {
      await new Promise((resolve, reject) => {
        const s = require("net").connect(port, "127.0.0.1", resolve);
        s.on("error", reject);
        s.on("connect", () => s.end());
      });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error("server did not start");
}

(async () => {
  await ready();
  for (let k = 0; k < 1800; k++) {
    const n = k === 911 ? 77 : (k % 60) + 1;
    await get(`/items/${n}.json`);
  }
  agent.destroy();
})();
"""
)

(root / "serve.sh").write_text(
    """#!/bin/bash
# Serve site/, let the client mirror the catalogue, then stop the server as Ctrl-C would.
port=18391
node_modules/.bin/http-server site -p "$port" -a 127.0.0.1 -c-1 &
server=$!
node drive.js "$port" >/dev/null
kill -INT "$server"
wait "$server"
"""
)
