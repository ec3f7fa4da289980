"""The help a newcomer reads: `bgcli --help`'s list of the commands, each
command's --help, and the pages that say the same (the README's table of
the commands, docs/index.md, docs/commands/*.md) kept in step with them."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from bgcli.cli import cli
from bgcli.cli.common import COMMANDS

from conftest import ROOT

SUMMARIES = {name: summary for name, (_, summary) in COMMANDS.items()}


def group_help() -> str:
    return CliRunner().invoke(cli, ["--help"]).output


def test_every_command_is_listed_whole_in_bgcli_help():
    listed = group_help().split("Commands:\n", 1)[1].splitlines()
    rows = [tuple(line.split(None, 1)) for line in listed if line.strip()]
    assert rows == list(SUMMARIES.items())   # in the README's order, no few words cut with '...'
    assert set(SUMMARIES) == set(cli.load_all())


def test_bgcli_help_imports_no_command():
    # the list is the group's own: `bgcli` alone answers without importing every command's module
    code = ("import sys; from click.testing import CliRunner; from bgcli.cli import cli; "
            "CliRunner().invoke(cli, ['--help']); print(' '.join(sorted(m for m in sys.modules if m.startswith('bgcli.cli.'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    loaded = set(done.stdout.split())
    assert done.returncode == 0 and loaded.isdisjoint(f"bgcli.cli.{module}" for module, _ in COMMANDS.values()
                                                      if module != "batch"), loaded


def test_the_readme_table_of_the_commands_says_what_bgcli_help_says():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \[`bgcli (\w+)`\]\(([^)]+)\) \| (.+) \|$", readme, re.M)
    assert [name for name, _, _ in rows] == list(SUMMARIES)
    for name, link, text in rows:
        # the README may add a word in brackets after the command's few words
        assert text == SUMMARIES[name] or text.startswith(SUMMARIES[name] + " ("), f"README: {name}: {text}"
        assert link in (f"docs/commands/{name}.md", f"docs/{name}.md")


def test_the_index_of_the_pages_says_what_bgcli_help_says():
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    rows = re.findall(r"^- \[(\w+)\]\(commands/(\w+)\.md\): (.+)$", index, re.M)
    assert [name for name, _, _ in rows] == [name for name in SUMMARIES if (ROOT / "docs" / "commands" / f"{name}.md").exists()]
    for name, page, text in rows:
        assert page == name and text == SUMMARIES[name], f"docs/index.md: {name}: {text}"


@pytest.mark.parametrize("example", ["bgcli moves start 31", "bgcli audit samples/flawed_5pt.mat"])
def test_bgcli_help_shows_the_first_commands_to_try(example):
    assert example in group_help()
