"""A new user's first steps: the help as it reaches a terminal (through
``bgcli.cli.main``, where output is escaped), and the hints for slips."""
from __future__ import annotations

import subprocess
import sys

import pytest

from bgcli.cli import cli

from conftest import ROOT

COMMANDS = sorted(cli.load_all())


def main_output(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    """bgcli's ``main`` run in this process with ``args``: exit status, standard output, standard error."""
    from bgcli.cli import main

    monkeypatch.setattr(sys, "argv", ["bgcli", *args])
    with pytest.raises(SystemExit) as exited:
        main()
    out, err = capsys.readouterr()
    return exited.value.code, out, err


def test_bgcli_alone_prints_its_help_with_real_newlines():
    # the real program, as a user first types it (python -m bgcli: the same main)
    result = subprocess.run([sys.executable, "-m", "bgcli"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 2
    assert "\\x0a" not in result.stderr
    lines = result.stderr.splitlines()
    assert lines[0].startswith("Usage: bgcli") and len(lines) > 10
    assert any(line.split()[:1] == ["moves"] for line in lines)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_help_has_real_newlines(monkeypatch, capsys, command):
    status, out, err = main_output(monkeypatch, capsys, command, "--help")
    assert status == 0 and "\\x" not in out and out.count("\n") > 5


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_missing_its_argument_says_so_in_lines(monkeypatch, capsys, command):
    status, out, err = main_output(monkeypatch, capsys, command)
    assert "\\x" not in out + err
    if status == 2:   # a usage error: click's usage line, then the error line
        assert err.splitlines()[0].startswith(f"Usage: bgcli {command}")
        assert err.splitlines()[-1].startswith("Error:")
