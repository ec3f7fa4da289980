"""The examples of the README and of every page of docs/ run, and print
what the page says they print; their ```python blocks are doctests."""
from __future__ import annotations

import os
import re
import shlex
import shutil

import pytest
from click.testing import CliRunner

from bgcli.cli import cli

from conftest import ROOT, example_command, skip_without_gnubg

# the README, then every reference page
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def page_lines():
    """(page, line) of every line of every page, in order."""
    for page in PAGES:
        for line in page.read_text(encoding="utf-8").splitlines():
            yield page, line


def examples() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for each `$ bgcli ...` in a code block."""
    found = []
    inside = False
    current = None
    for _, line in page_lines():
        if line.startswith("```"):
            inside, current = not inside, None
        elif inside and line.startswith("$ "):
            current = (example_command(line[2:])[0], [])
            found.append(current)
        elif inside and current is not None:
            current[1].append(line)
    return found


def blocks() -> list[tuple[int, int, list[str]]]:
    """(first line, closing line, lines) of each fenced code block of the pages, lines numbered across them."""
    found, start, current = [], None, []
    for number, (_, line) in enumerate(page_lines()):
        if line.startswith("```"):
            if start is None:
                start, current = number, []
            else:
                found.append((start, number, current))
                start = None
        elif start is not None:
            current.append(line)
    return found


def unprompted_examples() -> list[tuple[str, list[str]]]:
    """(command, expected output lines) for the examples written without a
    prompt: a block that starts with one `bgcli` line (the only one in it),
    its output after it in the same block or in the block right after it."""
    found = []
    every = blocks()
    for index, (start, end, lines) in enumerate(every):
        if not lines or not lines[0].startswith("bgcli ") or any(l.startswith("bgcli ") for l in lines[1:]):
            continue
        expected = lines[1:]
        if not expected and index + 1 < len(every) and every[index + 1][0] == end + 1:
            expected = every[index + 1][2]
        found.append((example_command(lines[0])[0], expected))
    return found


PROMPTED = [case for case in examples() if ">" not in case[0]]  # `< FILE` is read as standard input
CASES = PROMPTED + unprompted_examples()   # every one, in a shell


def test_there_are_examples():
    assert len(PROMPTED) >= 10
    # the first thing a new user runs, and the engine's rating, written without a prompt
    assert {"bgcli audit samples/flawed_5pt.mat", "bgcli rate samples/studio_mrpurple_lasse_3pt.txt"} <= {
        command for command, _ in unprompted_examples()}


@pytest.mark.parametrize("command,expected", PROMPTED, ids=[c for c, _ in PROMPTED])
def test_readme_example(command, expected, tmp_path, monkeypatch):
    skip_without_gnubg(command)
    command_line, _, stdin_path = command.split("|")[0].partition("<")
    words = shlex.split(command_line)
    assert words[0] == "bgcli"
    monkeypatch.chdir(ROOT)
    if "-o" in words:  # write into a temporary folder, not the checkout
        words[words.index("-o") + 1] = str(tmp_path / words[words.index("-o") + 1])
    stdin = (ROOT / stdin_path.strip()).read_bytes() if stdin_path.strip() else None
    result = CliRunner().invoke(cli, words[1:], input=stdin, catch_exceptions=False)
    assert "Traceback" not in result.output
    assert result.exit_code in (0, 1), result.output  # never a usage error or an unreadable file
    lines = [l for l in result.output.splitlines() if not l.startswith("note: building the exact")]   # as below
    head = re.search(r"\| head -(\d+)", command)
    if head:
        lines = lines[: int(head.group(1))]
    if any("..." in line for line in expected) or not expected:
        return  # shortened in the README: only that it runs
    if "-o" in words:
        lines = [l.replace(str(tmp_path) + os.sep, "") for l in lines]
    assert [l.rstrip() for l in lines] == [l.rstrip() for l in expected]


def python_examples() -> list[str]:
    """The text of each ```python block of the pages."""
    blocks, current = [], None
    for _, line in page_lines():
        if current is None and line.startswith("```python"):
            current = []
        elif current is not None and line.startswith("```"):
            blocks.append("\n".join(current) + "\n")
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_there_are_python_examples():
    assert len(python_examples()) >= 3


@pytest.mark.parametrize("block", python_examples(), ids=lambda b: b.splitlines()[0][:40])
def test_readme_python_example(block, monkeypatch):
    import doctest

    monkeypatch.chdir(ROOT)
    import bgcli

    # the blocks read as one session: each may use what the README imported before it
    test = doctest.DocTestParser().get_doctest(block, {"bgcli": bgcli}, "README", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and test.examples


def sh_blocks() -> list[list[str]]:
    """The lines of each ```sh block of the README."""
    blocks, current = [], None
    for line in (ROOT / "README.md").read_text().splitlines():
        if current is None and line.startswith("```sh"):
            current = []
        elif current is not None and line.startswith("```"):
            blocks.append(current)
            current = None
        elif current is not None:
            current.append(line.strip())
    return blocks


def test_ci_installs_and_runs_exactly_what_the_readme_says():
    lines = [line for block in sh_blocks() for line in block]
    install = next(line for line in lines if line.startswith("pip install "))
    command = next(line for line in lines if line.startswith("python -m pytest"))
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    installs = [line for line in ci if " pip install " in line and "--upgrade pip" not in line]
    # the compiled build comes after, in its own environment (the README's note on speed)
    pure = [line for line in installs if "BGCLI_COMPILE=" not in line]
    assert [shlex.split(line)[-1] for line in pure] == [shlex.split(install)[-1]]
    assert ci.index(pure[0]) < ci.index(next(line for line in ci if line.startswith("python -m pytest")))
    assert [line for line in ci if line.startswith("python -m pytest")] == [command]
    assert " -n " in command  # the developer's loop uses both cores


def test_the_test_extra_brings_what_the_suite_needs():
    # every optional import the tests make comes with the README's install line
    import importlib.util

    install = next(line for block in sh_blocks() for line in block if line.startswith("pip install "))
    extras = set(re.search(r"\[(.*)\]", install).group(1).split(","))
    assert {"test", "dask", "engine", "stats"} <= extras
    for module in ("xdist", "hypothesis", "distributed", "bgsage", "scipy"):
        assert importlib.util.find_spec(module) is not None, f"{module} is not installed by {install}"


@pytest.mark.parametrize("command,expected", CASES, ids=[c for c, _ in CASES])
def test_readme_example_in_a_shell(command, expected, tmp_path):
    # as a new user runs it: a real shell and process, so pipes, standard input and exit codes are a shell's
    skip_without_gnubg(command)
    import subprocess
    import sys

    words = shlex.split(command.split("|")[0].split("<")[0])
    if "-o" in words:   # write into a temporary folder, not the checkout
        target = words[words.index("-o") + 1]
        command = command.replace(f"-o {target}", f"-o {shlex.quote(str(tmp_path / target))}")
    # the `bgcli` a new user types: the installed script beside this Python
    # (bgcli's own entry point), else `python -m bgcli` where it is not there
    script = shutil.which("bgcli", path=os.path.dirname(sys.executable))
    program = shlex.quote(script) if script else f"{shlex.quote(sys.executable)} -m bgcli"
    line = program + command[len("bgcli"):]
    # the script's imports from this checkout (an editable install may point at another one: a worktree's
    # new example would run the old code)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    done = subprocess.run(["sh", "-c", line + " 2>&1"], capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
    assert "Traceback" not in done.stdout
    assert done.returncode in (0, 1), done.stdout
    if any("..." in l for l in expected) or not expected:
        return
    # a bear-off table's "building" note comes once a machine, to the first command that needs the table
    # with an empty cache folder (a fresh clone's), whichever example that is: not part of any example
    lines = [l.replace(str(tmp_path) + os.sep, "") for l in done.stdout.splitlines()
             if not l.startswith("note: building the exact")]
    assert [l.rstrip() for l in lines] == [l.rstrip() for l in expected]


def test_python_m_doctest_works_over_the_pages():
    # as docs/development.md says: `python -m doctest` over every page with doctests, from the project root
    import subprocess
    import sys

    pages = [str(page.relative_to(ROOT)) for page in PAGES if ">>> " in page.read_text(encoding="utf-8")]
    assert "README.md" in pages
    done = subprocess.run([sys.executable, "-m", "doctest", "-o", "ELLIPSIS", *pages], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:]


def test_the_pages_name_rules_by_what_they_say_not_by_file():
    for page, line in page_lines():
        assert not re.search(r"\bseeds? \d{3}", line), f"{page.name}: {line}"


def test_the_readme_is_a_front_door():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) < 300
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    for page in PAGES[1:]:
        if page.name != "index.md":
            assert str(page.relative_to(ROOT / "docs")) in index, f"docs/index.md does not list {page.name}"


def test_every_link_between_the_pages_leads_to_a_file():
    missing = []
    for page in PAGES:
        for found in re.finditer(r"\]\(([^)#\s]+)(#[^)]*)?\)", page.read_text(encoding="utf-8")):
            target = found.group(1)
            if "://" in target:
                continue
            path = (page.parent / target).resolve()
            if not path.exists():
                missing.append(f"{page.relative_to(ROOT)}: {target}")
    assert missing == []


def anchors(page) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them: lower case, spaces to hyphens, no punctuation."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def test_every_link_to_a_part_of_a_page_leads_to_a_heading():
    missing = []
    for page in PAGES:
        for found in re.finditer(r"\]\(([^)#\s]*)#([^)\s]+)\)", page.read_text(encoding="utf-8")):
            target = (page.parent / found.group(1)).resolve() if found.group(1) else page
            if "://" not in found.group(1) and target.suffix == ".md" and found.group(2) not in anchors(target):
                missing.append(f"{page.relative_to(ROOT)}: {found.group(1)}#{found.group(2)}")
    assert missing == []
    assert "dice" in anchors(ROOT / "docs" / "notation.md")   # the check sees a heading (## Dice)


@pytest.mark.parametrize("command, skipped", [
    ("bgcli hint --engine gnubg start 31", True), ("bgcli rate --second-opinion=gnubg samples/x.mat", True),
    ("bgcli hint start 31", False), ("bgcli convert --to gnubg start", False), ("bgcli hint --engine sage start", False),
])
def test_an_example_that_asks_gnubg_skips_where_it_is_missing(monkeypatch, command, skipped):
    from bgcli.engines import gnubg

    monkeypatch.setattr(gnubg, "find_gnubg", lambda: None)   # a machine without GNU Backgammon
    if skipped:
        with pytest.raises(pytest.skip.Exception, match="apt-get install gnubg"):
            skip_without_gnubg(command)
    else:
        skip_without_gnubg(command)
    assert any("--engine gnubg" in command for command, _ in CASES)   # the pages have such an example
