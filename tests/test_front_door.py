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
    from bgcli.cli import common, main

    def end(status):   # as os._exit would end it, without ending this test process
        raise SystemExit(status)

    monkeypatch.setattr(common, "end_process", end)
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
    # the status is the one docs/exit-status.md gives it
    assert "`bgcli` with no command, which prints its help on standard error" in \
        (ROOT / "docs" / "exit-status.md").read_text(encoding="utf-8")


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


# --- help when a user slips ------------------------------------------------------------------

def test_a_mistyped_command_gets_a_suggestion(run):
    result = run("movs", "start", "31")
    assert result.exit_code == 2 and "Did you mean moves?" in result.output
    assert "Did you mean" not in run("zzzz").output   # nothing close: no guess


def test_a_mistyped_option_gets_a_suggestion(run):
    result = run("moves", "--jsn", "start", "31")
    assert result.exit_code == 2 and "--json" in result.output.splitlines()[-1]


@pytest.mark.parametrize("hit", ["x", "X"])
def test_a_hit_written_x_is_told_it_is_written_star(run, hit):
    result = run("check", "start", "31", f"8/5 6/5{hit}")
    assert result.exit_code == 1
    assert result.output.strip().endswith("(a hit is written *, as in 6/5*)")


def test_a_step_to_its_own_point_does_not_move(run):
    result = run("check", "start", "31", "8/5 6/6")
    assert result.exit_code == 1 and result.output.strip().endswith("6/6 does not move")
    assert "moves backwards" in run("check", "start", "31", "8/5 6/7").output


def test_a_position_id_with_its_case_swapped_says_so(run):
    result = run("moves", "4HPwATDgc/ABMA".swapcase(), "31")
    assert result.exit_code == 1 and "case looks swapped" in result.output and "4HPwATDgc/ABMA is a position" in result.output
    for typed, case in (("4HPWATDGC/ABMA", "upper"), ("4hpwatdgc/abma", "lower")):
        result = run("moves", typed, "31")
        assert result.exit_code == 1 and f"letters are case-sensitive: this one is all {case} case" in result.output
    assert "case" not in run("moves", "AAAAAAAAAAAAAA", "31").output   # no letters out of case: no guess


@pytest.mark.parametrize("command", [["audit"], ["score"], ["replay"], ["view", "-o", "-"], ["export", "--to", "mat"]],
                         ids=" ".join)
def test_a_chouette_given_to_a_match_command_is_one_line_naming_chouette(run, command):
    from conftest import SAMPLES

    result = run(*command, SAMPLES / "chouette.txt")
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert result.exit_code == 2
    assert errors == [f"Error: {SAMPLES / 'chouette.txt'}:4:1: this is a chouette: use `bgcli chouette`"]


@pytest.mark.parametrize("name, text", [("empty.mat", ""), ("blank.sgf", "\n  \n"), ("bom.txt", "\ufeff")])
def test_an_empty_file_is_said_to_be_empty(run, tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    for command in ("audit", "score"):
        result = run(command, path)
        assert result.exit_code == 2
        assert f"Error: {path}:1:1: the file is empty: no match in it" in result.output.splitlines()


def test_shell_completion_is_there_as_documented():
    import os

    env = dict(os.environ, _BGCLI_COMPLETE="bash_source")
    script = subprocess.run([sys.executable, "-m", "bgcli"], capture_output=True, text=True, env=env, timeout=120)
    assert script.returncode == 0 and "_bgcli_completion" in script.stdout
    env.update(_BGCLI_COMPLETE="bash_complete", COMP_WORDS="bgcli mov", COMP_CWORD="1")
    words = subprocess.run([sys.executable, "-m", "bgcli"], capture_output=True, text=True, env=env, timeout=120)
    assert words.stdout.split() == ["plain,moves"]
    # a match file's name completes as the shell completes file names (it completed nothing: a plain text value)
    env.update(COMP_WORDS="bgcli audit sam", COMP_CWORD="2")
    words = subprocess.run([sys.executable, "-m", "bgcli"], capture_output=True, text=True, env=env, timeout=120)
    assert words.stdout.split() == ["file,sam"]


def test_every_value_that_names_a_file_completes_as_a_file_name():
    import click

    named = []
    for name, command in sorted(cli.load_all().items()):
        context = click.Context(command, info_name=name)
        for param in command.params:
            if "FILE" in (param.metavar or ""):
                items = param.shell_complete(context, "sam")
                assert [item.type for item in items][:1] == ["file"], f"{name} {param.name}"
                named.append(f"{name} {param.name}")
    assert {"audit paths", "moves batch", "repair patch", "rate db_path", "met table", "export output"} <= set(named)


def test_a_table_completes_as_its_name_or_a_file():
    import click

    command = cli.load_all()["hint"]
    option = next(param for param in command.params if param.name == "met")
    items = option.shell_complete(click.Context(command, info_name="hint"), "wool")
    assert [(item.type, item.value) for item in items] == [("file", "wool"), ("plain", "Woolsey"),
                                                           ("plain", "Woolsey-formula")]


# --- the docs say what the code does ----------------------------------------------------------

def test_replay_help_names_every_action_its_json_writes():
    import re as _re

    help_text = " ".join(cli.get_command(None, "replay").help.split())
    docs = (ROOT / "docs" / "commands" / "replay.md").read_text(encoding="utf-8")
    listed = set(_re.findall(r"`(\w+)`", docs.split("`action` is", 1)[1].split(";", 1)[0]))
    assert {"raccoon", "draw", "roll"} <= listed
    for action in listed:
        assert action in help_text, action


def test_the_audit_page_names_every_suffix_a_folder_walk_takes():
    from bgcli.formats import registry

    page = " ".join((ROOT / "docs" / "commands" / "audit.md").read_text(encoding="utf-8").split())
    walk = page.split("A folder is walked", 1)[1].split(")", 1)[0]
    assert [s for s in registry.SUFFIXES if f"`{s}`" not in walk] == []


def test_a_mistyped_position_is_told_before_the_bear_off_table_is_built(tmp_path):
    import os

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}   # a fresh machine's: no table yet
    typo = subprocess.run([sys.executable, "-m", "bgcli", "analyze", "strat"], capture_output=True, text=True,
                          env=env, timeout=300)
    assert typo.returncode == 1 and typo.stderr.startswith("Error: invalid position 'strat'")
    from bgcli.analysis.bearoff import FILE_NAME

    assert "building" not in typo.stderr and not list(tmp_path.rglob(FILE_NAME))


@pytest.mark.parametrize("command", [["show"], ["moves", "{}", "31"], ["analyze"], ["check", "{}", "31", "8/5 6/5"],
                                     ["hint", "{}", "31"], ["rollout", "{}", "31"]],
                         ids=lambda c: c[0])
def test_a_path_given_as_a_position_is_told_what_it_is(run, tmp_path, command):
    """A folder, a match file or another file where a position goes is named as such, not answered with
    the list of every notation (which did not say why a file that is there was not read). It is the wrong
    input given, status 2 as a missing file's and a match command's file of another kind (`audit` of a
    position file): it was 1, as a position read and found bad."""
    from bgcli.output import quote
    from conftest import SAMPLES

    other = tmp_path / "notes.md"
    other.write_text("# not a position\n", encoding="utf-8")
    for path, said in ((tmp_path, "that is a folder, not a position (a position file's name ends .xgp, .pos, .txt or .sgf)"),
                       (SAMPLES / "flawed_5pt.mat", "that is a match file, not a position: `bgcli replay --boards "
                                                    "FILE` draws its positions"),
                       (other, "that is a file, not a position (a position file's name ends .xgp, .pos, .txt or .sgf)")):
        words = [str(path) if w == "{}" else w for w in command] if "{}" in command else [*command, str(path)]
        result = run(*words)
        assert result.exit_code == 2
        assert result.output.splitlines() == [f"Error: invalid position {quote(str(path))}: {said}"]
    nosuch = str(tmp_path / "nosuch.txt")
    missing = run(*([nosuch if w == "{}" else w for w in command] if "{}" in command else [*command, nosuch]))
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_a_word_that_is_a_position_is_read_as_one_even_where_a_file_has_its_name(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "start").write_text("not a position\n", encoding="utf-8")
    assert run("moves", "start", "31").output.splitlines()[0] == "24/23 24/21"


def test_convert_reads_a_position_file_as_show_does(run, tmp_path):
    """docs/formats.md promised `convert` a position file, as `show` reads it; it read the file's name as a
    notation and refused it. A file that cannot be read is status 2, as show says."""
    from conftest import DATA, SAMPLES

    snowie = DATA / "imports" / "snowietxt" / "pos00.txt"
    for path in (snowie, SAMPLES / "positions.txt"):
        shown = run("show", str(path)).output
        xgid = run("convert", "--to", "xgid", str(path))
        assert xgid.exit_code == 0 and xgid.output.strip().startswith("XGID=")
        assert run("show", xgid.output.strip()).output.splitlines()[:2] == shown.splitlines()[:2]   # the IDs
    missing = run("convert", "--to", "xgid", str(tmp_path / "nosuch.txt"), "start")
    assert missing.exit_code == 2 and "cannot read" in missing.output and "XGID=" in missing.output
    folder = run("convert", "--to", "xgid", str(tmp_path), "start")
    assert folder.exit_code == 2 and "that is a folder, not a position" in folder.output and "XGID=" in folder.output


class _Installed:
    """A stand-in for importlib.metadata's distribution of bgcli, with pip's direct_url.json (or none)."""

    def __init__(self, direct_url: str | None):
        self.direct_url = direct_url

    def read_text(self, name: str) -> str | None:
        return self.direct_url if name == "direct_url.json" else None


def test_the_command_that_adds_an_extra_is_the_one_for_the_bgcli_that_runs(monkeypatch, tmp_path):
    """Installed from a clone (the README's pip install -e .), the message that asks for an extra names the
    clone: `pip install 'bgcli[engine]'` would have asked the package index for a bgcli that is not this one."""
    import json
    from importlib import metadata
    from urllib.parse import quote

    from bgcli.errors import Extra, install_command

    clone = tmp_path / "my clone"
    clone.mkdir()
    (clone / "pyproject.toml").write_text("[project]\nname = 'bgcli'\n")
    url = "file://" + quote(str(clone))
    for direct_url, expected in (
            (json.dumps({"url": url, "dir_info": {"editable": True}}), f"pip install -e '{clone}[engine]'"),
            (json.dumps({"url": url, "dir_info": {}}), f"pip install '{clone}[engine]'"),
            (json.dumps({"url": "file:///no/such/folder", "dir_info": {"editable": True}}), "pip install 'bgcli[engine]'"),
            (json.dumps({"url": "https://example.org/bgcli.tar.gz", "archive_info": {}}), "pip install 'bgcli[engine]'"),
            ("not json", "pip install 'bgcli[engine]'"),
            (None, "pip install 'bgcli[engine]'")):
        # the clone's own bgcli.egg-info (no direct_url.json) first, as from `python -m bgcli` in the clone
        monkeypatch.setattr(metadata, "distributions", lambda name, d=direct_url: [_Installed(None), _Installed(d)])
        assert install_command(Extra.ENGINE) == expected


@pytest.mark.parametrize("command", [["hint", "start", "31"], ["dice", "{sample}"]], ids=lambda c: c[0])
def test_a_missing_extra_is_named_with_the_command_that_adds_it(run, monkeypatch, command):
    from bgcli.errors import Extra, install_command
    from conftest import SAMPLES

    for module in ("bgbot_cpp", "scipy.stats"):
        monkeypatch.setitem(sys.modules, module, None)   # import fails as when it is not installed
    extra, needs = (Extra.ENGINE, "the sage engine needs bgsage") if command[0] == "hint" else \
        (Extra.STATS, "bgcli dice needs scipy for its statistics")
    result = run(*[str(SAMPLES / "sp05001_3pt.mat") if w == "{sample}" else w for w in command])
    assert result.exit_code == 2 and result.output.splitlines() == [f"Error: {needs}: {install_command(extra)}"]


@pytest.mark.parametrize("typed, said", [
    ("4HPwATDgd/ABMA", "invalid position id '4HPwATDgd/ABMA': it holds 31 checkers, more than 30 (15 a side)"),
    ("//8AAAAAAAAAAA", "the opponent has 16 checkers, more than 15"),
    ("cAkAAAAAAAAA", "invalid position 'cAkAAAAAAAAA': this is a Match ID alone: a position needs its Position ID, "
                     "of 14 characters, before it (POSITIONID:MATCHID, as gnubg's GNUbg ID)"),
    ("ATDgc/ABMA", "a Position ID has 14 characters (A-Z, a-z, 0-9, + and /), this has 10"),
])
def test_a_mistyped_or_half_copied_id_is_told_in_the_words_of_the_board(run, typed, said):
    """A typo in a Position ID said 'it does not describe 50 slots'; a Match ID copied alone was told that
    a Position ID has 14 characters. Now the checkers it would hold, or what the word is."""
    result = run("moves", typed, "31")
    assert result.exit_code == 1 and said in result.output and len(result.output.splitlines()) == 1


def test_a_fibs_board_with_a_field_missing_or_one_too_many_says_how_many_it_has(run):
    board = run("convert", "--to", "fibs", "start").output.strip()
    fields = board.split(":")
    for changed, count in ((fields[:-1], 51), (fields[:10] + fields[11:], 51), (fields + ["0"], 53)):
        result = run("show", ":".join(changed))
        assert result.exit_code == 1
        assert result.output.strip().endswith("a FIBS board has 52 fields after board:, the two names and 50 numbers, "
                                              f"separated by ':'; this has {count}"), result.output
    assert "unexpected 'x' at column 20" in run("show", ":".join(fields[:3] + ["x"] + fields[4:])).output


def test_rollout_writes_to_a_file_as_every_command_does(run, tmp_path):
    """rollout was the one command without -o/--output (docs/options.md: every command's habit)."""
    pytest.importorskip("bgsage", reason="bgsage is not installed (pip install '.[engine]')")
    words = ["rollout", "--trials", "36", "--truncate", "2", "--json", "start", "31"]
    printed = run(*words)
    target = tmp_path / "rollout.json"
    written = run(*words[:1], "-o", str(target), *words[1:])
    assert printed.exit_code == written.exit_code == 0 and written.output == ""
    assert target.read_text(encoding="utf-8") == printed.output
    missing = run(*words[:1], "-o", str(tmp_path / "no" / "such" / "x.txt"), *words[1:])
    assert missing.exit_code == 2 and "does not exist" in missing.output


@pytest.mark.parametrize("command", [["check", "start", "{}", "24/21"], ["moves", "start", "{}"],
                                     ["check", "start", "{}"]], ids=" ".join)
def test_a_die_word_of_any_length_is_told_its_dice_are_invalid(run, command):
    """A word of digits where the dice go is the dice, however long: `check start 3333 24/21` was told its
    dice were missing (a word over three characters was read as the play), and `moves` with a word over
    twelve that it was no Match ID."""
    from bgcli.output import quote

    for word in ("3333", "3" * 1_000_000):
        result = run(*[word if w == "{}" else w for w in command])
        lines = result.output.splitlines()
        if command == ["check", "start", "{}"]:   # no play after the dice: a usage error that names them, cut short
            assert result.exit_code == 2 and lines[-1].startswith(f"Error: missing PLAY after the dice {quote(word)} (")
            assert len(lines[-1]) < 200
            continue
        assert result.exit_code == 1 and len(lines) == 1, result.output[:300]
        assert lines[0].startswith(f"Error: invalid dice {quote(word)}: expected two numbers from 1 to 6")


@pytest.mark.parametrize("left, right", [("Mr:X", "Bob"), ("gnubg", "Bo:b"), ("A:B:C", "http://x.org/~r"),
                                         ("Mr : X", ":)")])
def test_a_players_name_with_a_colon_in_a_mat_score_line_is_read_whole(run, tmp_path, left, right):
    """` Mr:X : 3    Bob : 2` was a syntax error on every score line. The score's colon is the one a number
    follows; any other is the name's, kept whole (gnubg 1.07's import cuts a second name at its colon,
    'Bo:b' read as 'Bo', and aborts on a first one: nothing of that is followed)."""
    import json
    import re

    from conftest import SAMPLES

    text = re.sub(r"(?m)^ gnubg : ([0-9]+) +root : ([0-9]+)$",
                  lambda m: f" {left} : {m[1]}".ljust(32) + f"{right} : {m[2]}", (SAMPLES / "sp05001_3pt.mat").read_text())
    assert text.count(f" {left} : ") == 4
    path = tmp_path / "colon.mat"
    path.write_text(text, encoding="utf-8")
    audit = run("audit", str(path))
    assert audit.exit_code == 0 and "no problems" in audit.output, audit.output
    doc = json.loads(run("export", "--to", "json", str(path)).output)
    assert doc["players"] == [left, right]


@pytest.mark.parametrize("command", [["show"], ["moves", "{}", "31"], ["hint", "{}", "31"], ["check", "{}", "31", "8/5 6/5"]],
                         ids=lambda c: c[0])
def test_a_match_files_name_that_is_not_there_is_a_missing_file(run, tmp_path, command):
    """`bgcli moves samples/nosuch.mat 31` was told the list of every notation (exit 1), where a missing
    .pos is `cannot read ...: No such file or directory` (exit 2): a mistyped file name is said so."""
    for name in ("nosuch.mat", "nosuch.json", "nosuch.gam"):
        path = str(tmp_path / name)
        result = run(*([path if w == "{}" else w for w in command] if "{}" in command else [*command, path]))
        assert result.exit_code == 2 and result.output.splitlines() == [f"Error: cannot read {path}: No such file or directory"]


@pytest.mark.parametrize("command", [["audit"], ["score"], ["view", "-o", "-"], ["replay"]], ids=" ".join)
def test_a_folder_holding_json_nested_too_deeply_is_one_line_not_a_bug(run, tmp_path, command):
    """The walk of a folder asks each .json whether it is a match document (jsondoc.why_not_a_record): one
    nested 100000 deep was 'internal error, a bug in bgcli: RecursionError' (exit 70) on `bgcli view FOLDER`;
    read alone it was one line. Now the walk passes it to the reader, which says so."""
    from conftest import SAMPLES

    (tmp_path / "nested.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (tmp_path / "match.mat").write_text((SAMPLES / "sp05001_3pt.mat").read_text(encoding="utf-8"), encoding="utf-8")
    result = run(*command, str(tmp_path))
    assert result.exit_code == 2 and "internal error" not in result.output
    assert f"Error: {tmp_path / 'nested.json'}:1:1: not a bgcli match document: nested too deeply" in result.output.splitlines()
