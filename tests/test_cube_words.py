"""The words of a .mat cell, cube words first: grammars/matchfile.lark owns
them, and they are the words GNU Backgammon's ``import mat`` reads (its
importer, 1.07: a cell that starts ``double``, ``beavers``, ``raccoon``,
``take`` or ``drop``, any case, with or without ``=> N``; ``Accepts``,
``Rejects`` and ``Passes`` are FIBS words that it calls unrecognised).
The reader's other lists of words are built from the grammar
(bgcli.formats.mat._cell_start); the live tests ask gnubg itself.
"""
from __future__ import annotations

import itertools
import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import SELFPLAY, committed
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli import grammar
from bgcli.errors import MatchFileError
from bgcli.formats import mat
from bgcli.match.records import ActionKind
from bgcli.match.replay import replay_match

DOUBLE, BEAVER, RACCOON, TAKE, DROP, MOVE = (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON, ActionKind.TAKE,
                                             ActionKind.DROP, ActionKind.MOVE)


@pytest.mark.parametrize("cell, kind, cube", [
    ("Doubles => 2", DOUBLE, 2), ("Doubles", DOUBLE, None), ("Double", DOUBLE, None), ("double => 4", DOUBLE, 4),
    ("DOUBLES ==> 8", DOUBLE, 8), ("Beavers => 4", BEAVER, 4), ("Beavers", BEAVER, None), ("Raccoon", RACCOON, None),
    ("Raccoons => 8", RACCOON, 8), ("Takes", TAKE, None), ("Take", TAKE, None), ("Drops", DROP, None),
    ("drop", DROP, None),
])
def test_each_cube_word_gnubg_reads_is_read(cell, kind, cube):
    """Each in the right column after a play, and alone on a row."""
    (left, right) = mat.read_row(f"  3) 42: 24/22 22/18              {cell}")
    assert (left.kind, right.kind, right.cube, right.side) == (MOVE, kind, cube, 1)
    (alone,) = mat.read_row(f" 11)  {cell}")
    assert (alone.kind, alone.cube, alone.side) == (kind, cube, 0)


@pytest.mark.parametrize("word", ["Accepts", "Rejects", "Passes"])
def test_a_fibs_answer_is_no_mat_word(word):
    """gnubg's import calls these unrecognised in a .mat (``Unrecognised move
    "Accepts"``); they are FIBS's words, read by the oldmoves reader."""
    with pytest.raises(MatchFileError, match=f"unexpected '{word[0]}' at column 7"):
        mat.read_row(f" 11)  {word}                      52: 13/8 13/11")


# --- the words that start a cell: built from the grammar -----------------------------------

def cell_firsts() -> dict[str, str]:
    """The grammar's terminals that start a ``cell`` rule, and their patterns."""
    built = grammar.parser(mat.GRAMMAR, "row")
    patterns = {terminal.name: terminal.pattern.to_regexp() for terminal in built.terminals}
    return {rule.expansion[0].name: patterns[rule.expansion[0].name]
            for rule in built.rules if rule.origin.name == "cell"}


def test_the_cube_words_start_cells_in_the_grammar():
    assert {"DOUBLES", "BEAVERS", "RACCOONS", "TAKES", "DROPS", "WINS", "LOSES", "ROLL"} <= set(cell_firsts())


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_every_word_that_starts_a_cell_in_the_grammar_ends_a_play(data):
    """Property: whatever one of the grammar's cell-starting terminals reads
    starts a cell for ``_cell_start`` (where a bad play ends)."""
    name = data.draw(st.sampled_from(sorted(cell_firsts())))
    word = data.draw(st.from_regex(re.compile(cell_firsts()[name]), fullmatch=True).filter(lambda w: w[:1].strip()))
    found = mat._cell_start().search(f"13/9x {word}")
    assert found is not None and found.start() == len("13/9x "), (name, word)


@pytest.mark.parametrize("word", ["Accepts", "Rejects", "Passes", "Cannot", "Hello"])
def test_a_word_the_grammar_does_not_read_starts_no_cell(word):
    assert mat._cell_start().search(f"13/9x {word}") is None


@pytest.mark.parametrize("cell, kind", [("Double", DOUBLE), ("Doubles", DOUBLE), ("Take", TAKE), ("Drop", DROP),
                                        ("Beavers", BEAVER)])
def test_a_bad_play_ends_where_a_cube_word_starts(cell, kind):
    """A play the grammar cannot read (``22/18x``) is taken out up to the next
    cell; before the cell starts were the grammar's, ``Double``, ``Take``, a
    bare ``Doubles`` ran on into the play and the cube action was lost."""
    (play, cube) = mat.read_row(f"  3) 42: 24/22x 22/18  {cell}")
    assert (play.kind, play.play_text, cube.kind, cube.side) == (MOVE, "24/22x 22/18", kind, 1)


# --- gnubg's own reading ----------------------------------------------------------------------

ORIGINAL = SELFPLAY / "sp05003_7pt.mat"   # gnubg's self-play, written by gnubg: "Doubles => N", "Takes", "Drops"


def variant(text: str) -> str:
    """``text`` with its cube words in other spellings gnubg reads, in turn."""
    doubles = itertools.cycle(["Doubles", "Double", "double => {}", "DOUBLES => {}"])
    takes, drops = itertools.cycle(["Take", "takes"]), itertools.cycle(["Drop", "drops"])
    text = re.sub(r"Doubles => ([0-9]+)", lambda m: next(doubles).format(m.group(1)).ljust(len(m.group(0))), text)
    text = re.sub(r"Takes", lambda m: next(takes).ljust(5), text)
    return re.sub(r"Drops", lambda m: next(drops).ljust(5), text)


def summary(path: str | Path) -> list:
    """bgcli's reading: per game its events (kind, side, dice, position before, cube) and result."""
    (record,) = mat.read_file(path).matches
    replay = replay_match(record)
    return [[(e.game, e.kind, e.side, e.dice, e.play, e.before.position, e.before.match.cube) for e in replay.events],
            [(r.game, r.winner_side, r.written_points) for r in replay.results], replay.problems]


def test_bgcli_reads_the_spellings_as_the_plain_words(tmp_path):
    original = committed(ORIGINAL)
    text = variant(original.read_text(encoding="utf-8"))
    assert len(re.findall(r"(?m)Double +$|Take |Drop |double =>", text)) >= 4
    changed = tmp_path / "words.mat"
    changed.write_text(text, encoding="utf-8")
    assert summary(changed) == summary(original)


INSIDE = '''
import gnubg, json
gnubg.command("set display off")
out = {}
for path in FILES:
    gnubg.command('import mat "%s"' % path)
    games = []
    for g in gnubg.match(0, 1, 0, 0)["games"]:
        info = g["info"]
        games.append([info.get("winner"), info.get("points-won"),
                      [(a.get("player"), a.get("action"), a.get("dice"), a.get("board")) for a in g["game"]]])
    out[path] = games
json.dump(out, open(RESULT, "w"))
'''


def gnubg_imports(tmp_path: Path, files: list[Path]) -> dict[str, list]:
    """gnubg's ``import mat`` of each file: per game the winner, points and actions with the board."""
    from bgcli.engines.gnubg import find_gnubg

    program = find_gnubg()
    if program is None:
        pytest.skip("GNU Backgammon is not installed")
    script, result = tmp_path / "inside.py", tmp_path / "result.json"
    script.write_text(f"FILES = {[str(f) for f in files]!r}\nRESULT = {str(result)!r}\n" + INSIDE, encoding="utf-8")
    subprocess.run([program, "-t", "-q", "-r", "-p", str(script)], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=300, check=False)
    return json.loads(result.read_text(encoding="utf-8"))


BEAVER_FILE = Path(__file__).parent / "data" / "matchfiles" / "money_beaver.mat"


def test_gnubg_reads_the_spellings_as_bgcli_does(tmp_path):
    """gnubg's import of the spellings is its import of the plain words
    (positions, cube actions, results), as bgcli's reading is
    (test_bgcli_reads_the_spellings_as_the_plain_words); a bare ``Beavers``
    and ``Double`` likewise; ``Accepts`` gnubg does not read as a take."""
    original, beaver = committed(ORIGINAL), committed(BEAVER_FILE)
    changed = tmp_path / "words.mat"
    changed.write_text(variant(original.read_text(encoding="utf-8")), encoding="utf-8")
    bare = tmp_path / "beaver_bare.mat"
    bare.write_text(beaver.read_text(encoding="utf-8").replace("Doubles => 2", "Double")
                    .replace("Beavers => 4", "Beavers     ").replace("Doubles => 8", "Doubles"), encoding="utf-8")
    accepts = tmp_path / "accepts.mat"
    accepts.write_text(beaver.read_text(encoding="utf-8").replace("Beavers => 4", "Accepts     "), encoding="utf-8")
    read = gnubg_imports(tmp_path, [original, changed, beaver, bare, accepts])
    assert read[str(changed)] == read[str(original)] and len(read[str(original)]) >= 5
    assert read[str(bare)] == read[str(beaver)]
    assert [kind for _, kind, _, _ in read[str(accepts)][0][2]][:3] == ["move", "double", "move"]   # no take
    assert summary(bare) == summary(beaver)
    with pytest.raises(MatchFileError, match="unexpected 'A'"):
        mat.read_row(accepts.read_text(encoding="utf-8").splitlines()[5])
