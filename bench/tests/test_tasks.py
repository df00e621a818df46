"""The tasks: every one builds from nothing, fails verification as set up, and the traps'
critical token cannot be found by searching the tree."""

import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

from bench.agent import tasks

ALL = tasks.load_tasks("retention") + tasks.load_tasks("session")


class Layout(unittest.TestCase):
    def test_the_five_retention_tasks(self):
        names = {t.name for t in tasks.load_tasks("retention")}
        want = {
            "cargo-cascade",
            "cascading-errors",
            "fix-failing-test",
            "last-line-trap",
            "mid-stream-trap",
        }
        self.assertEqual(names, want)

    def test_prompts_name_every_command_and_policies_are_complete(self):
        for task in ALL:
            placeholders = set(re.findall(r"\{(\w+)\}", task.prompt_template))
            self.assertEqual(placeholders, set(task.commands), task.name)
            self.assertTrue(task.scripted.get("step"), task.name)
            for step in task.scripted["step"]:
                self.assertIn(step["command"], task.commands)
                self.assertTrue(("replace" in step) != ("write" in step), task.name)
                re.compile(step["needle"])

    def test_prompt_fills_only_command_placeholders(self):
        task = tasks.Task(
            "t", Path("."), "retention", {"run": ["x"]}, [], "run `{run}`; {} {other}"
        )
        self.assertEqual(task.prompt({"run": "lens x"}), "run `lens x`; {} {other}")

    def test_unknown_task_is_an_error(self):
        with self.assertRaises(SystemExit):
            tasks.load_tasks("retention", ["no-such-task"])


class SetupAndVerify(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp())

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_fresh_directories_fail_verification(self):
        for task in ALL:
            if task.missing_tools():
                continue
            work = self.tmp / task.name
            tasks.setup(task, work)
            ok, why = tasks.verify(task, work, self.tmp)
            self.assertFalse(ok, task.name)
            self.assertTrue(why, task.name)

    def test_trap_token_is_not_in_the_tree(self):
        for name in ("last-line-trap", "mid-stream-trap"):
            task = tasks.load_tasks("retention", [name])[0]
            work = self.tmp / name
            tasks.setup(task, work)
            out = subprocess.run(
                task.commands["migrate"], cwd=work, capture_output=True, text=True, check=True
            ).stdout
            needle = re.compile(task.scripted["step"][0]["needle"], re.MULTILINE)
            token = needle.search(out).group(1)
            for path in work.rglob("*"):
                if path.is_file():
                    self.assertNotIn(token.encode(), path.read_bytes(), path)
                    self.assertNotIn(token.encode().hex().encode(), path.read_bytes(), path)
            (work / "ANSWER").write_text(token + "\n")
            self.assertEqual(tasks.verify(task, work, self.tmp), (True, ""))
            (work / "ANSWER").write_text("0" * 16 + "\n")
            self.assertEqual(tasks.verify(task, work, self.tmp), (False, "wrong token"))

    def test_blob_is_fresh_per_setup(self):
        task = tasks.load_tasks("retention", ["mid-stream-trap"])[0]
        tasks.setup(task, self.tmp / "a")
        tasks.setup(task, self.tmp / "b")
        blob = Path(".migrate") / "blob"
        self.assertNotEqual(
            (self.tmp / "a" / blob).read_bytes(), (self.tmp / "b" / blob).read_bytes()
        )
        self.assertEqual(
            (self.tmp / "a" / "migrate.sh").read_text(), (self.tmp / "b" / "migrate.sh").read_text()
        )


if __name__ == "__main__":
    unittest.main()
