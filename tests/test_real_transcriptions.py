"""Habits of old tournament transcriptions and of the sites, read as their
writers mean them (tests/data/real/tournament-transcriptions and opengammon;
PROVENANCE.md there): a title box without the ';' before 'N point match',
'Resign normal', '31: Illegal play' with no position after it, '0/0' for a
die with nothing left to move. Each was an error of a legal record, or an
accusation of the plays after it."""
from __future__ import annotations

from conftest import DATA

from bgcli.core.notation import parse_play_text
from bgcli.formats.files import export, read_any, replay_file

REAL = DATA / "real"
TRANSCRIPTION = REAL / "tournament-transcriptions" / "title_box_resign_normal_illegal_play_7pt.mat"
STARLING = REAL / "opengammon" / "Starling9_vs_tester_2026-09-27.mat"


def audit(path) -> list[tuple[int, str, str]]:
    return [(p.line, p.kind.value, p.severity.value) for replay in replay_file(str(path)) for p in replay.problems]


def results(path) -> list[tuple]:
    [replay] = replay_file(str(path))
    return [(r.winner_side, r.result.value, r.cube, r.points) for r in replay.games()] + [replay.score]


def test_habit_old_transcriptions_read_as_written():
    # the title box: no error (4 before); 'Resign normal': charlot2's resignation (a syntax error before, and
    # game 2's score then wrong); '42: Illegal play': one error at its line, the rest of game 3 checked from
    # the legal play it fits (a syntax error before, then charlot2's legal play after it called illegal)
    assert audit(TRANSCRIPTION) == [(44, "play", "error"), (53, "incomplete", "warning")]
    assert results(TRANSCRIPTION) == [(0, "resignation", 1, 1), (1, "drop", 1, 1), (1, "resignation", 2, 2), (1, 3)]


def test_habit_a_title_box_before_the_match_header_is_kept_as_comments():
    text, _ = export(read_any(str(TRANSCRIPTION)), "mat")
    assert "; |  Monte Carlo 1993                    |" in text.splitlines()
    assert text.index("Monte Carlo") < text.index("7 point match")


def test_a_preface_before_a_game_with_no_match_header_is_still_an_error(tmp_path):
    # with no 'N point match' after it the match has no length: the text before is no preface, and the
    # match is not silently a money session
    text = TRANSCRIPTION.read_text(encoding="utf-8").replace(" 7 point match\n", "", 1)
    path = tmp_path / "no_header.mat"
    path.write_text(text, encoding="utf-8")
    found = audit(path)
    assert [(line, kind) for line, kind, _ in found if kind == "syntax"] == [(2, "syntax"), (3, "syntax"),
                                                                              (4, "syntax"), (5, "syntax")]


def test_an_illegal_play_marker_with_no_position_accuses_no_play_after_it(tmp_path):
    # the marker on a roll with no legal play: no play fits, the rest of the game is not checked, said once
    text = TRANSCRIPTION.read_text(encoding="utf-8").replace(
        " 16) 21:                         53:", " 16) 21: Illegal play             53:", 1)
    path = tmp_path / "dance_marked.mat"
    path.write_text(text, encoding="utf-8")
    assert audit(path) == [(44, "play", "error"), (45, "play", "error"), (45, "unchecked", "warning"),
                           (53, "incomplete", "warning")]


def test_a_real_opengammon_match_with_rows_past_nine_reads_clean():
    # rows 10 and after one column to the right, '   Wins 1 points' after an empty numbered row,
    # 'Resigned Game' in the winner's column
    assert audit(STARLING) == []
    assert results(STARLING) == [(1, "drop", 2, 2), (0, "drop", 1, 1), (1, "single", 1, 1), (0, "drop", 1, 1),
                                 (0, "drop", 1, 1), (1, "resignation", 2, 2), (3, 5)]


def test_habit_zero_zero_for_a_die_with_nothing_left_to_move(tmp_path):
    # tester's last checker off with the 4 of 64, the 6 with nothing to move: '64: 1/0 0/0'
    text = STARLING.read_text(encoding="utf-8").replace("  64: 1/0        ", "  64: 1/0 0/0    ", 1)
    assert "1/0 0/0" in text
    path = tmp_path / "zero_zero.mat"
    path.write_text(text, encoding="utf-8")
    assert audit(path) == []
    assert results(path) == results(STARLING)
    assert str(parse_play_text("21: 2/0 0/0")) == "21: 2/off"


def test_zero_zero_alone_where_a_play_exists_is_still_an_illegal_play(tmp_path):
    text = STARLING.read_text(encoding="utf-8").replace("  64: 1/0        ", "  64: 0/0        ", 1)
    path = tmp_path / "zero_zero_alone.mat"
    path.write_text(text, encoding="utf-8")
    assert (100, "play", "error") in audit(path)


def test_a_second_real_foxamon_match_reads_clean():
    # Foxamon's narrow columns, rows from 10 on pushed right, '   Wins 2 points and the match' for a gammon
    # at cube 4 (the points tester still needed: the game is scored at its worth, 8)
    path = REAL / "foxamon" / "tester_vs_jackdaw1_2026-08-18.mat"
    assert audit(path) == []
    assert results(path) == [(1, "single", 2, 2), (0, "drop", 2, 2), (0, "drop", 1, 1), (0, "gammon", 4, 8), (11, 2)]


FOXAMON = REAL / "foxamon" / "tester_vs_jackdaw1_2026-08-18.mat"
LAST_ROW = "  28) 46: 1/0 1/0                         \n   Wins 2 points and the match\n"


def test_habit_wins_in_the_free_cell_of_the_winners_last_bear_off(tmp_path):
    # old transcriptions write the result on the row of the last bear-off, in the other column
    # ('53) 55: 1/0 1/0 1/0      Wins 2 points'): the bear-off says whose game it is, silently
    text = FOXAMON.read_text(encoding="utf-8")
    assert LAST_ROW in text
    path = tmp_path / "wins_on_the_row.mat"
    path.write_text(text.replace(LAST_ROW, "  28) 46: 1/0 1/0                       Wins 2 points and the match\n"),
                    encoding="utf-8")
    assert audit(path) == []
    assert results(path) == results(FOXAMON)


def test_wins_in_the_other_column_after_the_last_bear_off_row_is_still_an_error(tmp_path):
    # on a row of its own the result names the player of its column: the record contradicts itself
    text = FOXAMON.read_text(encoding="utf-8").replace(
        LAST_ROW, "  28) 46: 1/0 1/0                         \n                                          Wins 2 points and the match\n")
    path = tmp_path / "wins_on_a_row_of_its_own.mat"
    path.write_text(text, encoding="utf-8")
    assert [(kind, severity) for _, kind, severity in audit(path)] == [("points", "error")]
