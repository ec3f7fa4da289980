"""Start-up: a command imports its own module only, and ``bgcli moves``
with ``start`` or a Position ID reads them without the grammar or the match
state (no timings here: benchmarks/bench_targets.py measures them).

- ``moves start 31`` and ``moves ID DICE`` in a fresh process import no
  parser, no match state, no other command's module, no engine, no json;
- the table of commands by module names every command each module
  registers, and ``bgcli --help`` lists every command with its short help;
- the quick reading of ``start DICE`` / ``ID DICE`` gives what the words
  give (the same position, dice and side on roll), and the command writes
  what it writes for the same position read the general way;
- ``moves --batch -`` is answered before click is imported too: the same
  output, statuses and messages as through click (bad lines, a closed pipe,
  a full disk, SIGTERM), and no click while every line is an ID and dice.
"""
from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import sysconfig

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.cli import cli
from bgcli.cli.common import COMMAND_MODULES, read_position
from bgcli.cli.batch import DEFAULT_SIDE, moves_json, position_and_dice, read_id_and_dice
from bgcli.core.generator import accelerator
from bgcli.core.ids import parse_position
from bgcli.core.state import MatchState
from bgcli.formats import registry

from conftest import ROOT

# imported by `moves start 31` only if start-up regressed
NOT_ON_THE_MOVES_PATH = [
    "lark", "bgcli.grammar", "bgcli.core.ids", "bgcli.core.state", "bgcli.core.rules", "bgcli.engines",
    "bgcli.formats", "bgcli.render.board", "bgcli.scale.pool", "bgcli.cli.matches", "bgcli.cli.audit",
    "bgcli.cli.hint", "bgcli.cli.analyze", "bgcli.cli.rate", "bgcli.cli.chouette", "json", "hashlib",
    "click", "bgcli.cli.common", "bgcli.cli.positions",   # answered before click is imported
]
SHOW_MODULES = "import atexit, sys\natexit.register(lambda: sys.stderr.write(' '.join(sorted(sys.modules))))\n" \
               "from bgcli.cli import main\nmain()\n"


def modules_of(*args: str) -> tuple[str, set[str]]:
    """The output of ``bgcli ARGS`` in a fresh process, and the modules it had imported at exit."""
    done = subprocess.run([sys.executable, "-c", SHOW_MODULES, *args], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout, set(done.stderr.split())


@pytest.mark.parametrize("words", [["start", "31"], ["4HPwATDgc/ABMA", "3-1"], ["sOfBFQCKz8EBBg", "6", "6"]])
def test_moves_of_start_or_an_id_imports_no_parser_and_no_other_command(words):
    output, modules = modules_of("moves", *words)
    position, dice = position_and_dice(words)
    assert output.splitlines() == [p["play"] for p in moves_json(position, dice, "gnubg")["plays"]]
    assert "bgcli.core.generator" in modules  # the check sees what the command uses
    assert [name for name in NOT_ON_THE_MOVES_PATH if name in modules] == []


def test_a_general_position_still_reads_through_the_grammar():
    # the check above can fail: an XGID goes the general way, with the match state
    _, modules = modules_of("moves", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    assert {"bgcli.core.ids", "bgcli.core.state", "click", "bgcli.cli.positions"} <= modules
    _, modules = modules_of("moves", "--style", "gnubg", "start", "31")   # an option: through click
    assert "click" in modules and "bgcli.core.ids" not in modules


QUICK_WORDS = [["start", "31"], ["start", "6", "6"], ["4HPwATDgc/ABMA", "1-3"], ["sOfBFQCKz8EBBg", "5x2"],
               ["27YBBwDg/wcAQA", "66"], ["4HPwATDgc/ABMB", "21"]]


def bgcli_process(*args: str, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bgcli", *args], stdout=stdout, stderr=subprocess.PIPE, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT, timeout=60)


@pytest.mark.parametrize("words", QUICK_WORDS)
def test_the_answer_before_click_is_the_commands(run, words):
    done = bgcli_process("moves", *words)
    through_click = run("moves", *words)
    assert (done.returncode, done.stdout, done.stderr) == (through_click.exit_code, through_click.stdout,
                                                          through_click.stderr)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_full_disk_is_reported_as_through_click():
    with open("/dev/full", "w") as full:
        quick = bgcli_process("moves", "start", "31", stdout=full)
        through_click = bgcli_process("moves", "--style", "gnubg", "start", "31", stdout=full)
    assert quick.returncode == through_click.returncode == 2
    assert quick.stderr == through_click.stderr == "Error: cannot write standard output: no space left on device\n"


def test_the_command_table_names_the_module_of_every_command():
    for module in set(COMMAND_MODULES.values()):
        importlib.import_module(f"bgcli.cli.{module}")
    registered = {name: command.callback.__module__ for name, command in cli.commands.items()}
    assert registered == {name: f"bgcli.cli.{module}" for name, module in COMMAND_MODULES.items()}


def test_help_lists_every_command_with_its_short_help(run):
    text = run("--help").output
    listed = text.split("Commands:", 1)[1]
    for name, command in cli.load_all().items():
        assert f"  {name}" in listed
        assert command.get_short_help_str(limit=45)[:30] in listed, name


def test_an_unknown_command_is_a_usage_error(run):
    result = run("mvoes", "start", "31")
    assert result.exit_code == 2 and "No such command" in result.output


_IDS = ["4HPwATDgc/ABMA", "sOfBFQCKz8EBBg", "4HPwATDgc/ABMB", "//////////////", "AAAAAAAAAAAAAA", "4HPwATDgc/ABM@",
        "4HPwATDgc/ABMA:cAkAAAAAAAAA", "start", "Start", "start ", "4HPwATDgc/ABMAA"]
_DICE_WORDS = ["31", "3-1", "3,1", "3/1", "3x1", "66", "13", "71", "0", "3", "311", "3 1", "-", "x"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_IDS), st.lists(st.sampled_from(_DICE_WORDS), min_size=0, max_size=3))
def test_the_quick_reading_gives_what_the_words_give(position, dice_words):
    words = [position, *dice_words]
    quick = read_id_and_dice(words)
    if quick is None:
        return
    game, dice = position_and_dice(words, read_position)
    assert quick == (game.position, dice)
    assert game.match.on_roll == DEFAULT_SIDE


def test_the_quick_reading_takes_the_common_words():
    assert read_id_and_dice(["start", "31"]) is not None
    assert read_id_and_dice(["4HPwATDgc/ABMA", "1", "3"]) is not None
    assert read_id_and_dice(["4HPwATDgc/ABMA", "13"])[1] == (3, 1)
    assert read_id_and_dice(["start 31"]) is None and read_id_and_dice(["start", "3", "1", "2"]) is None
    assert DEFAULT_SIDE == MatchState().on_roll


@pytest.mark.parametrize("style", ["gnubg", "korean", "mat", "fibs"])
@pytest.mark.parametrize("words", [["start", "31"], ["sOfBFQCKz8EBBg", "5", "1"], ["4HPwATDgc/ABMA", "44"]])
def test_the_quick_command_writes_what_the_general_reading_writes(run, words, style):
    game, dice = parse_position(words[0]), tuple(sorted(map(int, "".join(words[1:])), reverse=True))
    expected = moves_json(game, dice, style)
    assert run("moves", "--style", style, *words).output.splitlines() == [p["play"] for p in expected["plays"]]
    assert json.loads(run("moves", "--json", "--style", style, *words).output) == expected


def test_no_legal_play_through_the_quick_reading(run):
    # a checker on the bar, the opponent holding every point of its home board
    assert read_id_and_dice(["27YBBwDg/wcAQA", "66"]) is not None
    result = run("moves", "27YBBwDg/wcAQA", "66")
    assert result.exit_code == 0 and result.stdout == ""
    assert "no legal play for 27YBBwDg/wcAQA with 66" in result.stderr


# --- moves --batch - before click -------------------------------------------------------

BATCH = ("4HPwATDgc/ABMA 31\nstart 66\n# a comment\n\nXGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10\n"
         "4HPwATDgc/ABMA 3 1\nnot a position 31\n4HPwATDgc/ABMA 77\n").encode() + b"\xff\xfe 31\n" + b"sOfBFQCKz8EBBg 6-6"


def batch_process(args: list[str], stdin: bytes, stdout=subprocess.PIPE, code: str | None = None):
    command = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "bgcli", *args]
    return subprocess.run(command, input=stdin, stdout=stdout, stderr=subprocess.PIPE,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT, timeout=120)


def test_the_batch_before_click_writes_what_the_command_writes():
    quick = batch_process(["moves", "--batch", "-"], BATCH)
    through_click = batch_process(["moves", "--style", "gnubg", "--batch", "-"], BATCH)   # an option: click's way
    assert quick.returncode == through_click.returncode == 1   # the bad lines
    assert quick.stdout == through_click.stdout and quick.stderr == through_click.stderr == b""
    assert quick.stdout.count(b"\n") == 9 and b'"error": "line 7: ' in quick.stdout


def test_the_batch_of_ids_and_dice_imports_no_click():
    lines = "".join(f"{words[0]} {''.join(words[1:])}\n" for words in QUICK_WORDS if words[0] != "start").encode()
    done = batch_process(["moves", "--batch", "-"], lines, code=SHOW_MODULES)
    modules = set(done.stderr.decode().split())
    assert done.returncode == 0 and done.stdout.count(b"\n") == 4
    assert "bgcli.core.generator" in modules and "click" not in modules and "bgcli.cli.common" not in modules
    assert "json" not in modules   # imported for an error line only
    if accelerator is not None:   # the C line writes gnubg's play texts: the notation module is not needed
        assert "bgcli.core.notation" not in modules
    # a line of another notation takes the command's reader, click and all, and is answered the same
    done = batch_process(["moves", "--batch", "-"], lines + b"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10\n",
                         code=SHOW_MODULES)
    assert done.returncode == 0 and "bgcli.core.ids" in set(done.stderr.decode().split())


@pytest.mark.parametrize("args", [["moves", "--batch", "-"], ["moves", "--style", "gnubg", "--batch", "-"]],
                         ids=["before click", "through click"])
def test_the_batch_to_a_closed_pipe_or_a_full_disk(args):
    reader, writer = os.pipe()
    os.close(reader)
    try:
        closed = batch_process(args, BATCH * 50, stdout=writer)
    finally:
        os.close(writer)
    assert closed.returncode == 141 and closed.stderr == b""
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            done = batch_process(args, BATCH * 50, stdout=full)
        assert done.returncode == 2
        assert done.stderr.decode() == "Error: cannot write standard output: no space left on device\n"


@pytest.mark.parametrize("args", [["moves", "--batch", "-"], ["moves", "--style", "gnubg", "--batch", "-"]],
                         ids=["before click", "through click"])
def test_a_terminated_batch_says_so(args):
    # SIGTERM arrives as the batch starts reading, as a kill from outside would
    code = ("import os, signal, sys\n"
            "import bgcli.cli.batch as batch\n"
            "real = batch.batch_lines\n"
            "def lines(stream):\n"
            "    os.kill(os.getpid(), signal.SIGTERM)\n"
            "    yield from real(stream)\n"
            "batch.batch_lines = lines\n"
            "from bgcli.cli import main\n"
            "main()\n")
    done = batch_process(args, BATCH, code=code)
    assert done.returncode == 143 and done.stderr == b"Error: terminated\n"


# the audit of .mat files reads their rows without the grammar, writes no file and keeps no digest; without --db
# it opens no database (SQLite, the JSON of its key), without --jobs no pool, without a glob no glob; it reads
# no position ID and no other command's words, and a path is a str (pathlib is imported by no module it needs)
NOT_ON_THE_AUDIT_PATH = ["lark", "tempfile", "hashlib", "bgcli.engines", "bgcli.judging", "bgcli.render",
                         "sqlite3", "json", "glob", "pathlib", "bgcli.scale.pool",
                         "bgcli.core.ids", "bgcli.formats.positionfile", "bgcli.cli.batch", "bgcli.cli.positions",
                         "bgcli.cli.matches", "dask", "scipy"]
SHOW_MODULES_AT_THE_END = (
    "import os, sys\nimport bgcli.cli.common as common\n"
    "def end(status):\n    sys.stderr.write(' '.join(sorted(sys.modules)))\n    sys.stderr.flush()\n    os._exit(status)\n"
    "common.end_process = end\nfrom bgcli.cli import main\nmain()\n")


@pytest.mark.parametrize("pure", ["0", "1"])
def test_the_audit_of_match_files_imports_only_what_it_uses(pure):
    """``bgcli audit`` of gnubg's .mat files (with the C accelerator and without it): no parser, no
    temporary file, no digest, no engine: an audit of many small files pays each import in its start-up."""
    files = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "tests" / "data" / "oracle" / "selfplay").glob("*.mat"))
    assert len(files) > 10
    # without site (-S), as an installed bgcli starts: an editable install's path finder imports pathlib itself
    path = os.pathsep.join([str(ROOT), *dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))])
    done = subprocess.run([sys.executable, "-S", "-c", SHOW_MODULES_AT_THE_END, "audit", *files],
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=path, BGCLI_PURE=pure),
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    modules = set(done.stderr.split())
    assert "bgcli.formats.mat" in modules   # the check sees what the command uses
    assert [name for name in NOT_ON_THE_AUDIT_PATH if name in modules] == []


_SUFFIXES = [s for f in registry.FORMATS for s in f.suffixes]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["/", ".", "..", "a", "b.", ".c", "x.y", os.sep, os.altsep or "/",
                                            *_SUFFIXES, *(s.upper() for s in _SUFFIXES)]),
                          st.text(max_size=4)), max_size=6).map("".join))
def test_suffix_of_names_the_format_pathlib_names(path):
    """registry.suffix_of, the audit's copy of PurePath(path).suffix (pathlib is not imported to start an
    audit), names the format that pathlib's suffix names, for any path."""
    from pathlib import PurePath

    assert registry.of_name(path) is registry._BY_SUFFIX.get(PurePath(path).suffix.lower())
