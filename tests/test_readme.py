"""The README's examples run, and print what the README says they print."""
from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcli.cli import cli

ROOT = Path(__file__).resolve().parents[1]


def examples() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for each `$ bgcli ...` in a code block."""
    found = []
    inside = False
    current = None
    for line in (ROOT / "README.md").read_text().splitlines():
        if line.startswith("```"):
            inside, current = not inside, None
        elif inside and line.startswith("$ "):
            current = (line[2:], [])
            found.append(current)
        elif inside and current is not None:
            current[1].append(line)
    return found


CASES = [case for case in examples() if not re.search(r"[<>]", case[0])]


def test_there_are_examples():
    assert len(CASES) >= 10


@pytest.mark.parametrize("command,expected", CASES, ids=[c for c, _ in CASES])
def test_readme_example(command, expected, tmp_path, monkeypatch):
    words = shlex.split(command.split("|")[0])
    assert words[0] == "bgcli"
    monkeypatch.chdir(ROOT)
    if "-o" in words:  # write into a temporary folder, not the checkout
        words[words.index("-o") + 1] = str(tmp_path / words[words.index("-o") + 1])
    result = CliRunner().invoke(cli, words[1:], catch_exceptions=False)
    assert "Traceback" not in result.output
    lines = result.output.splitlines()
    head = re.search(r"\| head -(\d+)", command)
    if head:
        lines = lines[: int(head.group(1))]
    if any("..." in line for line in expected) or not expected:
        return  # shortened in the README: only that it runs
    if "-o" in words:
        lines = [l.replace(str(tmp_path) + os.sep, "") for l in lines]
    assert [l.rstrip() for l in lines] == [l.rstrip() for l in expected]
