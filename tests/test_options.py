"""One table of options across commands (docs/options.md), kept true by
reading each click command's parameters: the same option name means the
same thing on every command that takes it, every command that reads files
takes several, and every example of every command's help runs as written.

``python tests/test_options.py`` prints the table that docs/options.md holds."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
OPTIONS_PAGE = ROOT / "docs" / "options.md"

# The options whose name is shared but whose values differ on one command, and why (the table says so too).
EXCEPTIONS = {
    ("--style", "show"): "show labels points only: gnubg's numbers or the Korean names",
    ("--report", "rate"): "rate reports by players (`--report`, or `--report players`); audit's `--report` is the totals",
    ("--to", "export"): "export writes match files, convert positions",
    ("--to", "met"): "met writes a match equity table",
}


def commands() -> dict[str, click.Command]:
    from bgcli.cli import cli

    return dict(sorted(cli.load_all().items()))


def kind(option: click.Option) -> str:
    """What an option takes, in words: the thing that must be the same wherever its name is."""
    t = option.type
    if option.is_flag and not option._flag_needs_value:   # type: ignore[attr-defined]
        return "flag"
    if isinstance(t, click.Choice):
        text = " \\| ".join(str(c) for c in t.choices)
    elif isinstance(t, (click.IntRange, click.FloatRange)):
        low = t.min if t.min is not None else ""
        high = t.max if t.max is not None else "no limit"
        text = f"{option.metavar or t.name.upper()} {low}–{high}"
    else:
        text = option.metavar or t.name.upper()
    if getattr(option, "_flag_needs_value", False):
        text = f"{text if text.startswith('[') else f'[{text}]'} (optional value)"
    return text


def name_of(option: click.Option) -> str:
    longs = [o for o in option.opts if o.startswith("--")]
    return longs[0] if longs else option.opts[0]


def shared_options() -> dict[str, dict[str, click.Option]]:
    """Each option's long name: the commands that take it, and its declaration there."""
    table: dict[str, dict[str, click.Option]] = {}
    for command_name, command in commands().items():
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                table.setdefault(name_of(param), {})[command_name] = param
    return dict(sorted(table.items(), key=lambda item: item[0].lstrip("-")))


def render_table() -> str:
    """docs/options.md's table, from the commands' parameters."""
    lines = ["| option | takes | commands (default) |", "|---|---|---|"]
    for name, declared in shared_options().items():
        first = next(iter(declared.values()))
        spelled = ", ".join(f"`{o}`" for o in sorted(first.opts + first.secondary_opts, key=len))
        usual = [c for c in declared if (name, c) not in EXCEPTIONS]
        takes = kind(declared[usual[0]]) if usual else kind(first)
        where = []
        for command, option in declared.items():
            default = option.default
            shown = "" if option.is_flag or default in (None, "", False) or repr(default).startswith("<") \
                or str(default).startswith("Sentinel") else f" ({default})"
            note = f" ({kind(option)}: {EXCEPTIONS[name, command]})" if (name, command) in EXCEPTIONS else ""
            where.append(f"{command}{shown}{note}")
        lines.append(f"| {spelled} | {takes} | {', '.join(where)} |")
    return "\n".join(lines) + "\n"


def test_the_same_option_name_means_the_same_thing_everywhere():
    for name, declared in shared_options().items():
        kinds = {command: kind(option) for command, option in declared.items() if (name, command) not in EXCEPTIONS}
        assert len(set(kinds.values())) <= 1, f"{name} differs between commands: {kinds}"
        spellings = {command: tuple(sorted(option.opts + option.secondary_opts)) for command, option in declared.items()}
        assert len(set(spellings.values())) == 1 or name == "--style", f"{name} is spelled differently: {spellings}"


def test_the_options_page_holds_the_table_of_the_commands():
    assert render_table() in OPTIONS_PAGE.read_text(encoding="utf-8"), \
        "docs/options.md's table is not the commands' options: python tests/test_options.py prints it"


@pytest.mark.parametrize("name", ["--batch", "--timeout", "--engine", "--level", "--jobs", "--json", "--output"])
def test_the_options_the_issue_names_are_shared(name):
    declared = shared_options()[name]
    assert len(declared) >= 2
    if name == "--batch":
        assert all(kind(option).endswith("(optional value)") for option in declared.values())
    if name == "--timeout":
        assert {(option.type.min, option.type.max) for option in declared.values()} == {(0.1, 3600.0)}


def test_every_command_that_reads_files_takes_several():
    for name, command in commands().items():
        for param in command.params:
            if isinstance(param, click.Argument) and param.name in ("file", "files", "paths"):
                assert param.nargs == -1, f"{name} takes one {param.human_readable_name} only"


def test_view_writes_to_standard_output_without_o(run):
    from conftest import SAMPLES

    result = run("view", SAMPLES / "sp05001_3pt.mat")
    assert result.exit_code == 0 and result.output.startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("command, sample", [
    (["audit"], "sp05001_3pt.mat"), (["score"], "sp05001_3pt.mat"), (["replay"], "sp05001_3pt.mat"),
    (["export", "--to", "mat"], "sp05001_3pt.mat"), (["view"], "sp05001_3pt.mat"), (["chouette"], "chouette.txt"),
], ids=lambda v: v if isinstance(v, str) else " ".join(v))
def test_dash_reads_standard_input_as_a_file_does(run, command, sample):
    from conftest import SAMPLES

    path = SAMPLES / sample
    from_file = run(*command, path)
    from_stdin = run(*command, "-", input=path.read_bytes())
    assert from_stdin.exit_code == from_file.exit_code
    assert from_stdin.output == from_file.output.replace(str(path), "-").replace(path.name, "-")


def test_several_files_export_as_one_file_of_several_matches(run):
    from conftest import SAMPLES

    one, two = SAMPLES / "sp05001_3pt.mat", SAMPLES / "flawed_5pt.mat"
    import json

    def matches(*paths):   # one match is one JSON document, several a list of them
        data = json.loads(run("export", "--to", "json", "--force", *paths).output)
        return data if isinstance(data, list) else [data]

    assert matches(one, two) == matches(one) + matches(two)


def test_several_chouettes_are_settled_one_after_another(run):
    from conftest import SAMPLES

    one, two = SAMPLES / "chouette.txt", SAMPLES / "chouette_flawed.txt"
    both = run("chouette", "--json", one, two)
    assert both.output.splitlines() == run("chouette", "--json", one).output.splitlines() + \
        run("chouette", "--json", two).output.splitlines()
    assert both.exit_code == 1


# --- every example of every command's help runs as written ---------------------------------------

def help_examples() -> list[tuple[str, str]]:
    found = []
    for name, command in commands().items():
        text = command.help or ""
        block = text[text.find("Example"):]
        for line in block.splitlines()[1:]:
            line = line.strip()
            if line.startswith(("bgcli ", "printf ", "cat ")):
                found.append((name, line.split("  #")[0].strip()))
    return found


def test_every_command_has_help_examples():
    assert {name for name, _ in help_examples()} == set(commands())


@pytest.mark.parametrize("command, example", help_examples(), ids=[e for _, e in help_examples()])
def test_every_help_example_runs_as_written(tmp_path, command, example):
    """From a folder that has the project's samples/ (the project root, but
    for the files an example writes): exit 0 or 1 (1 is the planted problems
    of a sample), and no file named that is missing."""
    from conftest import skip_without_gnubg

    skip_without_gnubg(example)   # the README: a test that needs GNU Backgammon skips where it is missing
    (tmp_path / "samples").symlink_to(ROOT / "samples")
    words = shlex.split(example)
    if "--db" in words and "--report" in words:   # a report reads the database that the example before it wrote
        subprocess.run(shlex.join(words[:words.index("--report")] + ["samples/sp05001_3pt.mat"]), shell=True,
                       cwd=tmp_path, env=_env(), capture_output=True, timeout=600)
    done = subprocess.run(example, shell=True, cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1), f"{example}: exit {done.returncode}: {done.stderr[-500:]}"
    assert not re.search(r"No such file|cannot read|Missing|Usage:", done.stderr), f"{example}: {done.stderr[-500:]}"


def _env() -> dict[str, str]:
    # bgcli as installed beside this Python, importing this checkout's code (an editable install may point
    # at another checkout); pipes fail when a command in them fails
    return dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
                PYTHONPATH=os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH")))))


if __name__ == "__main__":
    print(render_table(), end="")
