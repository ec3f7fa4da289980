"""Every shell example of the reference pages (docs/**/*.md) runs as written, from the project root, ends with the
exit status the page gives it and prints what the page shows.

tests/test_readme.py runs the README's examples (and, loosely, the pages': a prompted one in a shell, its output
compared only when shown whole, any of exit 0 or 1, an example block of several commands skipped); this file holds
the pages to more, in process (so the whole runs in seconds):

- an example is a line of a fenced block that starts with ``$ bgcli`` (its output the lines after it), or, in a
  block without prompts whose first line is a command or a ```sh block, one that starts with ``bgcli`` (the output
  of an unprompted one is the lines after it that are no command); the commands of one block run one after the
  other in one folder, so a later one sees what an earlier one wrote (``--db``, ``-o``, ``> FILE``);
- its exit status is 0 unless its line ends with a shell comment that starts ``# exit N`` (the shell ignores it);
- its output, where shown, matches line for line (trailing spaces aside); ``...`` stands for any text, also
  several lines (doctest's ELLIPSIS): a page marks what it leaves out;
- ``| head -N``, ``< FILE`` and ``> FILE`` are read as a shell reads them; the folder it runs in sees the project's
  samples/, tests/ and docs/, and whatever the example writes stays there;
- an example that needs an optional extra (engine, stats, dask) or GNU Backgammon skips where it is missing.

The ```python blocks of the pages are doctests, run by tests/test_readme.py (test_readme_python_example)."""
from __future__ import annotations

import doctest
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgcli.cli import cli

from conftest import ROOT, example_command, skip_without_gnubg

PAGES = sorted((ROOT / "docs").rglob("*.md"))
# a bear-off table's "building" note comes once a machine, to whichever command first needs the table
BUILDING = "note: building the exact"
SHARED = ("samples", "tests", "docs")              # what an example may read, beside what it wrote


@dataclass
class Example:
    command: str                                   # as the page writes it, without prompt or comment
    status: int                                    # the exit status the page gives it
    expected: list[str] = field(default_factory=list)


@dataclass
class Block:
    page: Path
    line: int                                      # of the opening fence, counting from 1
    examples: list[Example]

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def fenced(page: Path) -> list[tuple[int, str, list[str]]]:
    """(line of the opening fence, its info string, the lines inside) of each fenced block of ``page``."""
    found, start, info, lines = [], 0, "", []
    inside = False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            if not inside:
                start, info, lines = number, line[3:].strip(), []
            else:
                found.append((start, info, lines))
            inside = not inside
        elif inside:
            lines.append(line)
    return found


def example(line: str) -> Example:
    return Example(*example_command(line))


def blocks() -> list[Block]:
    """The blocks of the pages that hold examples."""
    found = []
    for page in PAGES:
        for start, info, lines in fenced(page):
            prompted = any(line.startswith("$ bgcli") for line in lines)
            unprompted = not prompted and bool(lines) and (info == "sh" or lines[0].startswith("bgcli "))
            examples: list[Example] = []
            for line in lines:
                if prompted and line.startswith("$ "):
                    examples.append(example(line[2:]))
                elif unprompted and line.startswith("bgcli "):
                    examples.append(example(line))
                elif examples and info != "sh":
                    examples[-1].expected.append(line)
            if examples:
                found.append(Block(page, start, examples))
    return found


BLOCKS = blocks()


def test_the_pages_have_examples():
    examples = [example for block in BLOCKS for example in block.examples]
    assert len(examples) >= 40
    assert any(example.status for example in examples)               # an example that fails, as its page says
    assert any("..." in line for example in examples for line in example.expected)
    # the commands in a shell block, and a block of several unprompted commands, are examples too
    assert "bgcli audit --db results.sqlite --report" in {example.command for example in examples}


def skip_without_extras(command: str) -> None:
    """Skip an example that needs what this machine lacks: GNU Backgammon, or an extra (bgcli/errors.py's Extra)."""
    skip_without_gnubg(command)
    words = shlex.split(command)
    needs = []
    if words[1] in ("hint", "rate", "rollout") and not re.search(r"--engine[ =](exact|gnubg)\b", command):
        needs.append("bgsage")                     # the engine extra: sage is the default engine
    if words[1] == "dice":
        needs.append("scipy")                      # the stats extra
    if "--scheduler" in words:
        needs.append("distributed")                # the dask extra
    for module in needs:
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed: {command}")


def run(command: str, folder: Path) -> tuple[int, list[str]]:
    """Run ``command`` (``bgcli ...``, with the shell's ``| head -N``, ``< FILE``, ``> FILE``) in ``folder``:
    its exit status and the lines it prints (standard output then error, as click's runner gives them)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    tokens = list(lexer)
    head = stdin = stdout = None
    words: list[str] = []
    while tokens:
        token = tokens.pop(0)
        if token == "|":
            assert tokens[:2] == ["head", tokens[1]] and tokens[1].startswith("-"), f"a pipe into what? {command}"
            head = int(tokens[1][1:])
            tokens = tokens[2:]
        elif token == "<":
            stdin = (folder / tokens.pop(0)).read_bytes()
        elif token == ">":
            stdout = folder / tokens.pop(0)
        else:
            assert not set(token) & set(";&()|<>"), f"a shell word this test does not read: {token!r} in {command}"
            words.append(token)
    assert words[0] == "bgcli", command
    if "--jobs" in words or "--scheduler" in words:
        return in_a_process(words, stdin, stdout, head, folder)
    result = CliRunner().invoke(cli, words[1:], input=stdin, catch_exceptions=False)
    lines = [line for line in result.output.splitlines() if not line.startswith(BUILDING)]
    if stdout is not None:
        stdout.write_text(result.stdout)
        lines = [line for line in result.stderr.splitlines() if not line.startswith(BUILDING)]
    if head is not None:
        return 0, lines[:head]                     # a pipeline's status is its last command's, head's
    return result.exit_code, lines


def in_a_process(words: list[str], stdin: bytes | None, stdout: Path | None, head: int | None,
                 folder: Path) -> tuple[int, list[str]]:
    """``run`` for a command that starts worker processes: its own process (workers forked from a test runner's
    process, with click's runner's stand-in streams, can hang)."""
    done = subprocess.run([sys.executable, "-m", "bgcli", *words[1:]], input=stdin, capture_output=True, cwd=folder,
                          timeout=300, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                              filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))})
    out, err = done.stdout.decode(), done.stderr.decode()
    if stdout is not None:
        stdout.write_text(out)
        out = ""
    lines = [line for line in (out + err).splitlines() if not line.startswith(BUILDING)]
    return (0, lines[:head]) if head is not None else (done.returncode, lines)


def matches(expected: list[str], lines: list[str]) -> bool:
    want = "".join(line.rstrip() + "\n" for line in expected)
    got = "".join(line.rstrip() + "\n" for line in lines)
    return doctest.OutputChecker().check_output(want, got, doctest.ELLIPSIS)


@pytest.mark.parametrize("block", BLOCKS, ids=[block.id for block in BLOCKS])
def test_docs_example(block, tmp_path, monkeypatch):
    for example in block.examples:
        skip_without_extras(example.command)
    for name in SHARED:
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    for example in block.examples:
        status, lines = run(example.command, tmp_path)
        shown = "\n".join(lines)
        assert "Traceback" not in shown
        assert status == example.status, f"{block.id}: `{example.command}` exits {status}, the page says " \
                                         f"{example.status}:\n{shown}"
        if example.expected:
            assert matches(example.expected, lines), f"{block.id}: `{example.command}` prints\n{shown}"


@pytest.mark.parametrize("expected, printed, same", [
    (["a", "...", "d"], ["a", "b", "c", "d"], True),   # a line of its own: any lines
    (["a ... d"], ["a b c d"], True),                  # within a line: any text
    (["a", "d"], ["a", "b", "d"], False),              # nothing left out unless marked
    (["a  "], ["a"], True),                            # trailing spaces aside
    (["a", "b"], ["a", "c"], False),
])
def test_how_output_is_compared(expected, printed, same):
    assert matches(expected, printed) is same


def test_a_wrong_example_fails(tmp_path, monkeypatch):
    # the check above is not vacuous: a changed output line, or a status the page does not give, is caught
    monkeypatch.chdir(ROOT)
    status, lines = run("bgcli check start 31 8/5 6/5", tmp_path)
    assert status == 0 and matches(["8/5 6/5\tsGfwATDgc/ABMA"], lines)
    assert not matches(["8/5 6/5\tsGfwATDgc/ABMB"], lines)
    assert run("bgcli check start 64 24/18 13/11", tmp_path)[0] == 1
    batch = run("bgcli moves --batch samples/positions.txt", ROOT)[1]
    assert run("bgcli moves --batch - < samples/positions.txt | head -1", ROOT) == (0, batch[:1])
