"""TrueMoneyGames's match files (bgcli/formats/tmg.py), judged against GNU
Backgammon's ``import tmg``.

The samples (tests/data/imports/*.tmg) are gnubg's self-play matches written
as TrueMoneyGames files by tests/data/imports/make_samples.py; gnubg read
each with ``import tmg`` and exported it as .mat (gnubg_export.py, run in
gnubg: ``NAME.gnubg.mat``). bgcli's reading of each must replay as its
reading of gnubg's .mat, and as the self-play match it was made from.
"""
from __future__ import annotations

import pytest

from conftest import DATA, SELFPLAY, committed, committed_glob, invoke
from test_real_files import replayed

from bgcli.errors import MatchFileError
from bgcli.formats import registry
from bgcli.formats.files import export, read_any, replay_file
from bgcli.match.records import ActionKind

IMPORTS = DATA / "imports"
FILES = committed_glob(IMPORTS, "*.tmg")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.rsplit("/", 1)[-1])
def test_a_file_replays_as_gnubg_reads_it(path):
    stem = path[:-len(".tmg")]
    mine = replayed(path)
    assert mine == replayed(str(committed(stem + ".gnubg.mat")))
    assert mine == replayed(str(committed(SELFPLAY / (stem.rsplit("/", 1)[-1] + ".mat"))))
    assert [p.message for replay in replay_file(path) for p in replay.problems] == []


def write(tmp_path, text: str, name: str = "match.tmg") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


MATCH = ("MatchID: 42\nPlayer1: 7 ann 1612.5\nPlayer2: 9 bob 1500.0\nStake: 10\nStartdate: 2004-05-06 20:00:00\n"
         "Jacoby: 0\nCube: 1\nLength: 3\n\nGame 1: 1-0\n"
         "1 1 31:\n1 4 8/5 6/5\n-2 1 66:\n-2 4 0/0\n3 5 Double to 2\n-3 7 Take\n"
         "Beavers: 1\n"                               # an option changed during play: a comment
         "4 1 43:\n-4 15 4 bob wins 4 points\n")


def test_player2_is_the_first_column_as_gnubg_reads_it(tmp_path):
    record = read_any(write(tmp_path, MATCH))[0]
    game = record.games[0]
    assert record.length == 3 and record.tags == {"Site": "TrueMoneyGames", "MatchID": "42", "EventDate": "2004.05.06",
                                                   "Jacoby": "Off", "Cubeless": "Off"}
    assert [text for _, text in record.comments] == ["Player1: 7 ann 1612.5", "Player2: 9 bob 1500.0", "Stake: 10",
                                                     "Beavers: 1"]
    assert game.players == ("bob", "ann") and game.scores == (0, 1)
    assert [(a.side, a.kind, a.dice, a.play_text, a.cube, a.points) for a in game.actions] == [
        (1, ActionKind.MOVE, (3, 1), "8/5 6/5", None, None), (0, ActionKind.DANCE, (6, 6), "", None, None),
        (1, ActionKind.DOUBLE, None, "", 2, None), (0, ActionKind.TAKE, None, "", None, None),
        (1, ActionKind.ROLL, (4, 3), "", None, None), (0, ActionKind.WIN, None, "", None, 4)]


def test_a_file_is_known_by_its_suffix_and_standard_input_by_its_head():
    head = (IMPORTS / "sp05003_7pt.tmg").read_bytes()[:registry.HEAD_SIZE]
    assert registry.choose("x.tmg", head).name == "tmg" and registry.choose("-", head).name == "tmg"
    assert registry.choose("x.mat", head).name == "mat"


@pytest.mark.parametrize("good, bad, line", [
    ("-2 4 0/0", "-2 99 0/0", 14),                    # a record type no file holds
    ("-2 1 66:", "-2 1 6x:", 13),                    # a roll that is no roll
])
def test_a_bad_record_is_one_error_at_its_line(tmp_path, good, bad, line):
    record = read_any(write(tmp_path, MATCH.replace(good, bad)))[0]
    assert record.errors and record.errors[0].line == line


@pytest.mark.parametrize("text", ["", "MatchID: 1\n", "1 1 31:\n1 4 8/5 6/5\n", "Game 1: 0-" + "9" * 5000 + "\n"])
def test_what_is_no_match_file_is_one_error(tmp_path, text):
    with pytest.raises(MatchFileError):
        read_any(write(tmp_path, text))
    result = invoke("audit", write(tmp_path, text))
    assert result.exit_code == 2 and result.output.count("Error:") == 1 and "Traceback" not in result.output


@pytest.mark.parametrize("to", ["mat", "sgf", "json"])
def test_a_file_exports_to_every_written_format_and_reads_back_the_same(tmp_path, to):
    text, left_out = export(read_any(FILES[0]), to)
    assert left_out == []
    back = tmp_path / f"back.{to}"
    back.write_text(text, encoding="utf-8")
    assert replayed(str(back)) == replayed(FILES[0])
