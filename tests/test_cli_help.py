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


# --- each option's help: one wording, said once ------------------------------------------------

def options_of_every_command():
    import click

    for name, command in sorted(cli.load_all().items()):
        for param in command.params:
            if isinstance(param, click.Option):
                yield name, param


def test_a_range_click_shows_is_not_said_again_in_words():
    # click adds '[default: 1; 1<=x<=64]': '(1 to 64)' before it said the same twice
    import click

    for name, option in options_of_every_command():
        if isinstance(option.type, (click.IntRange, click.FloatRange)) and option.show_default:
            assert f"{option.type.min} to {option.type.max}" not in (option.help or ""), f"{name} {option.opts}"


def test_an_option_that_needs_another_says_so_in_one_way():
    # 'With --engine: how deep ...', never 'With --engine: How deep ...'
    for name, option in options_of_every_command():
        found = re.match(r"With (-\S+): (\w)", option.help or "")
        if found:
            assert found.group(2).islower(), f"{name} {option.opts}: {option.help}"


def test_level_means_one_thing_on_every_command():
    from bgcli.cli.common import LEVEL_HELP

    levels = {name: option.help for name, option in options_of_every_command() if option.name == "level"}
    assert len(levels) >= 5
    for name, text in levels.items():
        assert LEVEL_HELP[1:] in (text or ""), f"{name}: {text}"


def test_the_examples_heading_counts_its_examples():
    for name, command in sorted(cli.load_all().items()):
        text = command.help or ""
        heading = re.search(r"^\s*(Examples?):\n((?:\s+\S.*\n?)+)", text, re.M)
        assert heading, name
        count = len(heading.group(2).strip().splitlines())
        assert heading.group(1) == ("Example" if count == 1 else "Examples"), f"{name}: {count} under {heading.group(1)}"


@pytest.mark.parametrize("where", ["help", "page"])
def test_the_rules_help_and_page_name_every_command_that_takes_rules(where):
    text = cli.get_command(None, "rules").help if where == "help" else page_of("rules").read_text(encoding="utf-8")
    said = re.search(r"on every command that reads match files \(([^)]+)\)", " ".join(text.split()))
    taking = {name for name, option in options_of_every_command() if option.name == "profile"}
    assert set(said.group(1).split(", ")) == taking


def test_the_met_help_names_every_command_that_takes_met():
    # it named four: rollout's --met was left out
    said = re.search(r"what --met takes on every command that judges match play \(([^)]+)\)",
                     " ".join(cli.get_command(None, "met").help.split()))
    taking = [name for name in SUMMARIES if name in {n for n, option in options_of_every_command() if option.name == "met"}]
    assert said.group(1).split(", ") == taking


def test_the_readme_names_every_command_that_asks_gnubg():
    # it named hint, rate, view and analyze: rollout and dice take --engine gnubg too
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    said = re.search(r"needed only for `--engine gnubg` \(([^)]+)\)", readme)
    taking = [name for name in SUMMARIES if name in {n for n, option in options_of_every_command()
                                                     if "--engine" in option.opts and "gnubg" in option.type.choices}]
    assert said.group(1).replace("`", "").split(", ") == taking
    assert "`rate --second-opinion gnubg`" in readme


def test_the_rules_command_calls_its_argument_name():
    result = CliRunner().invoke(cli, ["rules", "nosuch"], prog_name="bgcli")
    assert result.exit_code == 2 and result.output.splitlines()[0] == "Usage: bgcli rules [OPTIONS] [NAME]"
    assert "'nosuch' is not one of 'standard', 'plyyard', 'korean'" in result.output


# --- each command's page names every option of the command -----------------------------------

def page_of(name: str):
    page = ROOT / "docs" / "commands" / f"{name}.md"
    return page if page.exists() else ROOT / "docs" / f"{name}.md"


def options_paragraph(name: str) -> str:
    """The paragraph of the command's page that names its options, as the command declares them (rule
    options summed up as the single rules under --rules, which docs/commands/rules.md describes)."""
    import click

    from bgcli.core.rules import SETTINGS

    single_rules = {setting.option for setting in SETTINGS if setting.option}
    command = cli.load_all()[name]
    declared = [p for p in command.params if isinstance(p, click.Option) and not p.hidden]
    has_rules = any(p.name == "profile" for p in declared)
    spelled = ["/".join(f"`{o}`" for o in sorted(p.opts + p.secondary_opts, key=len)) for p in declared
               if not (has_rules and (p.name == "profile" or p.opts[0] in single_rules))]
    here = page_of(name).parent
    docs = "" if here.name == "docs" else "../"
    if has_rules:
        spelled.append(f"and `--rules` with the single rules under it ([rules]({'' if docs else 'commands/'}rules.md))")
    return (f"Options: {', '.join(spelled)}; `bgcli {name} --help` says what each does, "
            f"[options]({docs}options.md) what each means on every command.")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_commands_page_names_its_options(name):
    page = " ".join(page_of(name).read_text(encoding="utf-8").split())
    assert options_paragraph(name) in page, \
        f"{page_of(name).relative_to(ROOT)} does not name the options of bgcli {name}: python tests/test_cli_help.py"


if __name__ == "__main__":   # the paragraph each page holds
    import textwrap

    for command_name in COMMANDS:
        print(f"--- {page_of(command_name).relative_to(ROOT)}")
        print(textwrap.fill(options_paragraph(command_name), 100, break_on_hyphens=False, break_long_words=False))


def test_the_archive_commands_say_scheduler_in_one_way():
    # rate's said "its scheduler's address, or local:N" where audit and dice say what local:N does
    helps = {name: option.help.split(" on a Dask cluster ", 1)[1] for name, option in options_of_every_command()
             if option.name == "scheduler" and name in {n for n, o in options_of_every_command() if o.name == "db_path"}}
    assert set(helps) == {"audit", "dice", "rate"}
    assert len({text.removesuffix(" The workers read the files.") for text in helps.values()}) == 1, helps


def test_a_second_opinion_is_any_engine():
    from bgcli.engines import ENGINE_NAMES

    option = next(o for name, o in options_of_every_command() if o.name == "second_opinion")
    assert tuple(option.type.choices) == tuple(ENGINE_NAMES)
