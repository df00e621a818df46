"""A Terraform configuration of sixty services, applied, then edited: `terraform plan` shows
what the edit would do.

The services are `terraform_data` resources, which need no provider to download (the
built-in `terraform` provider has them), so the case runs without a network. The edit is
one a refactoring could make: two services dropped from the list, three added, and one
given more replicas. Because each service's port comes from its place in the list, the
services after the first one dropped change too, so the plan destroys two, creates three
and updates most of the rest in place, each change under its own `# ... will be` head.
"""

import subprocess
import sys
from pathlib import Path

root = Path(sys.argv[1])
root.mkdir(parents=True, exist_ok=True)

CONFIG = """variable "names" {{
  default = [{names}]
}}

resource "terraform_data" "svc" {{
  for_each = toset(var.names)
  input = {{
    name     = each.key
    port     = 8000 + index(var.names, each.key)
    replicas = {replicas}
    tags     = {{ team = "core", env = "prod", owner = each.key }}
  }}
}}

output "ports" {{
  value = [for k, v in terraform_data.svc : v.input.port]
}}
"""


def write(names: list[str], replicas: str) -> None:
    quoted = ", ".join(f'"{name}"' for name in names)
    (root / "main.tf").write_text(CONFIG.format(names=quoted, replicas=replicas))


def terraform(*args: str) -> None:
    subprocess.run(["terraform", *args], cwd=root, check=True, capture_output=True)


before = [f"svc{i:02d}" for i in range(60)]
write(before, "3")
terraform("init", "-input=false", "-no-color")
terraform("apply", "-auto-approve", "-input=false", "-no-color")
after = [name for name in before if name not in ("svc10", "svc41")]
after += ["svc60", "svc61", "svc62"]
write(after, 'each.key == "svc33" ? 5 : 3')
