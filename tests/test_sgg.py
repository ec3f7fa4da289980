"""GamesGrid's saved games (bgcli/formats/sgg.py), judged against GNU
Backgammon's ``import sgg``.

The samples (tests/data/imports/*.sgg) are gnubg's self-play matches written
as saved games by tests/data/imports/make_samples.py; gnubg read each with
``import sgg`` and exported it as .mat (gnubg_export.py, run in gnubg:
``NAME.gnubg.mat``). bgcli's reading of each must replay as its reading of
gnubg's .mat, and as the self-play match it was made from.
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
SAVED = committed_glob(IMPORTS, "*.sgg")


@pytest.mark.parametrize("path", SAVED, ids=lambda p: p.rsplit("/", 1)[-1])
def test_a_saved_game_replays_as_gnubg_reads_it(path):
    stem = path[:-len(".sgg")]
    mine = replayed(path)
    assert mine == replayed(str(committed(stem + ".gnubg.mat")))
    assert mine == replayed(str(committed(SELFPLAY / (stem.rsplit("/", 1)[-1] + ".mat"))))
    assert [p.message for replay in replay_file(path) for p in replay.problems] == []


def test_the_options_are_rule_tags_and_the_date_and_site_tags():
    record = read_any(SAVED[0])[0]
    assert record.tags == {"EventDate": "2026.11.29", "Site": "GridGammon", "Jacoby": "Off", "Crawford": "On",
                           "Cubeless": "Off"}
    assert [text for _, text in record.comments] == ["Sunday, November 29, 2026 12:00:00", "Rated: No"]


def write(tmp_path, text: str, name: str = "saved.sgg") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


GAME = ("ann vs. bob\nDoubling Cube: No\nGame 1. 1-0/3\n"
        "1\t31:\n1\t31: 8/5, 6/5\n1\t31: 8/5, 6/5\n"      # the play written twice: read once
        "1\t\t62:\n1\t\t62: 24/18, 13/11\n"
        "2\t66: O-O\n"                                    # a roll with no play
        "ann says hello\n"                                # chat: a comment
        "2\t\t43:\n2\t\tResign\nann wins 2 points.\n")


def test_the_second_player_is_the_first_column_as_gnubg_reads_it(tmp_path):
    record = read_any(write(tmp_path, GAME))[0]
    game = record.games[0]
    assert record.tags == {"Cubeless": "On"} and record.length == 3
    assert record.comments == ((10, "ann says hello"),)
    assert game.players == ("bob", "ann") and game.scores == (0, 1)
    assert [(a.side, a.kind, a.dice, a.play_text) for a in game.actions] == [
        (1, ActionKind.MOVE, (3, 1), "8/5, 6/5"), (0, ActionKind.MOVE, (6, 2), "24/18, 13/11"),
        (1, ActionKind.DANCE, (6, 6), ""), (0, ActionKind.RESIGN, (4, 3), ""),
        (1, ActionKind.WIN, None, "")]


def test_a_saved_game_is_known_by_its_suffix_and_standard_input_by_its_head():
    head = (IMPORTS / "sp05017_3pt.sgg").read_bytes()[:registry.HEAD_SIZE]
    assert registry.choose("x.sgg", head).name == "sgg" and registry.choose("-", head).name == "sgg"
    assert registry.choose("x.mat", head).name == "mat"


def test_a_line_that_is_no_action_is_one_error_at_its_line(tmp_path):
    path = write(tmp_path, GAME.replace("2\t66: O-O", "2\tDoubels"))
    problems = [(p.line, p.kind.value) for r in replay_file(path) for p in r.problems]
    assert problems and problems[0][0] == 9


def test_a_play_with_no_roll_before_it_is_an_error_at_its_line(tmp_path):
    record = read_any(write(tmp_path, GAME.replace("1\t\t62:\n", "")))[0]
    assert [e.line for e in record.errors] == [7]


@pytest.mark.parametrize("text", ["", "ann vs. bob\n", "1\t31: 8/5, 6/5\n",
                                  "ann vs. bob\nGame 1. 0-0/" + "9" * 5000 + "\n"])
def test_what_is_no_saved_game_is_one_error(tmp_path, text):
    with pytest.raises(MatchFileError):
        read_any(write(tmp_path, text))
    result = invoke("audit", write(tmp_path, text))
    assert result.exit_code == 2 and result.output.count("Error:") == 1 and "Traceback" not in result.output


@pytest.mark.parametrize("to", ["mat", "sgf", "json"])
def test_a_saved_game_exports_to_every_written_format_and_reads_back_the_same(tmp_path, to):
    text, left_out = export(read_any(SAVED[0]), to)
    assert left_out == []
    back = tmp_path / f"back.{to}"
    back.write_text(text, encoding="utf-8")
    assert replayed(str(back)) == replayed(SAVED[0])
