"""Real files of the second hunt (tests/data/real, PROVENANCE.md there): each
read as its program means it, and what the audit finds in each explained."""
from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import replace

import pytest

from conftest import DATA, committed_glob, invoke

from bgcli.cli.common import read_position
from bgcli.core.ids import match_id, parse_position, position_kind
from bgcli.core.position import Position
from bgcli.errors import InvalidPositionError
from bgcli.formats.files import replay_file

REAL = DATA / "real"
GNUBG_108 = committed_glob(REAL / "gnubg-1.08-mat", "*.mat")
XG_TEXT = committed_glob(REAL / "xg-text-export", "*.txt")


def audit(path) -> list[tuple[int, str, str]]:
    return [(p.line, p.kind.value, p.severity.value) for replay in replay_file(str(path)) for p in replay.problems]


def test_the_real_files_are_all_there():
    assert len(GNUBG_108) == 3 and len(XG_TEXT) == 5


# --- GNU Backgammon 1.08's own .mat export ---------------------------------------------


@pytest.mark.parametrize("path", GNUBG_108, ids=os.path.basename)
def test_gnubg_108_mat_exports_audit_clean(path):
    assert audit(path) == []


def results(path) -> list[tuple]:
    [replay] = replay_file(str(path))
    return [(r.winner_side, r.result.value, r.cube, r.points) for r in replay.games()] + [replay.score]


def test_gnubg_108_results_are_read_as_gnubg_wrote_them():
    # "N/0" bear-offs, a trailing space after the plays, a drop and its Wins on one row
    assert results(REAL / "gnubg-1.08-mat" / "charlot1-charlot2_7p_2025-11-08-2305.mat") == [
        (1, "resignation", 2, 2), (0, "drop", 2, 2), (0, "gammon", 2, 4), (0, "resignation", 1, 3), (9, 2)]
    assert results(REAL / "gnubg-1.08-mat" / "gnubg_selfplay_drops_7p.mat") == [
        (0, "drop", 1, 1), (1, "drop", 1, 1), (1, "resignation", 2, 2), (1, "drop", 2, 2),
        (0, "single", 2, 2), (1, "single", 2, 2), (3, 7)]


def test_gnubg_108_roll_then_resign_is_no_dance():
    # "51: " (a roll, 51 could be played) then "Wins 1 point": charlot2 rolled, then resigned
    path = REAL / "gnubg-1.08-mat" / "gnubg_roll_then_resign_1p.mat"
    [replay] = replay_file(str(path))
    assert replay.problems == []
    assert [e.kind.value for e in replay.events][-2:] == ["roll", "resign"]   # a roll, as XG's "51: ????" is
    assert replay.events[-2].dice == (5, 1) and replay.score == (1, 0)


# --- eXtreme Gammon's text export of a position, in four languages ----------------------


@pytest.mark.parametrize("path", XG_TEXT, ids=os.path.basename)
def test_xg_text_export_reads_as_its_xgid_in_every_language(path):
    text = open(path, encoding="utf-8").read()
    xgid = text.splitlines()[0]
    pasted = parse_position(text)
    assert position_kind(text) == "xgid"
    assert replace(pasted, match=replace(pasted.match, names=("", ""))) == parse_position(xgid)


@pytest.mark.parametrize("name, names", [
    ("01_checkerPosition_EN.txt", ("Player 2", "Player 1")),
    ("01_checkerPosition_DE.txt", ("Spieler 2", "Spieler 1")),
    ("07_RP_EN.txt", ("プレーヤー 2", "プレーヤー 1")),     # a Japanese XG's names in an English export
])
def test_xg_text_export_keeps_the_players_names(name, names):
    text = (REAL / "xg-text-export" / name).read_text(encoding="utf-8")
    assert parse_position(text).match.names == names      # (O at the top, X at the bottom)


# --- BGBlitz's text export of a position (the corpus's EN/DE/FR/JP, two more in French) -------

BGBLITZ = committed_glob(DATA / "corpus" / "bgblitz-text-export", "*.txt") + committed_glob(REAL / "bgblitz-text-export",
                                                                                             "*.txt")
BGBLITZ_NAMES = {"EN": ("Green", "Red"), "DE": ("Grün", "Rot"), "FR": ("Vert", "Rouge"), "JP": ("緑", "赤")}


@pytest.mark.parametrize("path", BGBLITZ, ids=lambda p: os.path.relpath(p, DATA))
def test_habit_bgblitz_text_export_reads_as_its_xgid_and_its_ids(path):
    # the board drawing first (its frame's "+13-14-..." read as a board of numbers: refused), then
    # "Position-ID: ...    Match-ID: ..." and the XGID, which say the same (the dice in either order)
    text = open(path, encoding="utf-8").read()
    [xgid] = re.findall(r"XGID=\S+", text)
    pid, mid = re.search(r"Position-ID:\s*(\S+)\s+Match-ID:\s*(\S+)", text).groups()
    pasted = parse_position(text)
    assert position_kind(text) == "xgid"
    assert replace(pasted, match=replace(pasted.match, names=("", ""))) == parse_position(xgid)
    ids = parse_position(f"{pid}:{mid}")
    assert ids.position == pasted.position and sorted(ids.match.dice) == sorted(pasted.match.dice)
    # the names beside the frame, in the user's language (O at the top, X at the bottom)
    assert pasted.match.names == BGBLITZ_NAMES[os.path.basename(path)[-6:-4]]


def test_bgblitz_text_export_whose_ids_disagree_with_its_xgid_is_refused():
    text = (REAL / "bgblitz-text-export" / "06_RT_FR.txt").read_text(encoding="utf-8")
    with pytest.raises(InvalidPositionError, match="its XGID and its Position-ID and Match-ID describe different"):
        parse_position(text.replace("cxzwAA7gbjADEw", "cxzwAA7gbjADEA"))


def test_two_positions_exported_in_one_text_are_refused():
    # two of XG's exports in one file (as a collection of them is kept): never the first silently
    one = (REAL / "xg-text-export" / "07_RP_EN.txt").read_text(encoding="utf-8")
    other = (REAL / "xg-text-export" / "01_checkerPosition_EN.txt").read_text(encoding="utf-8")
    with pytest.raises(InvalidPositionError, match="2 XGIDs in one text"):
        parse_position(one + "\n" + other)
    assert parse_position(one + "\n" + one) == parse_position(one)     # the same one twice is one


# --- OpenGammon: a forfeited match ----------------------------------------------------------

FORFEIT = REAL / "opengammon" / "forfeit_before_a_play.mat"


def test_habit_opengammon_forfeit_is_the_points_still_needed(tmp_path):
    # "Wins 5 points and the match" at 0-0, cube 1, no play: the match forfeited
    [replay] = replay_file(str(FORFEIT))
    assert replay.problems == []
    assert replay.score == (5, 0) and replay.winner == "alice"
    # an export that writes the result as gnubg does, without "and the match", keeps the forfeit
    worded = tmp_path / "worded.mat"
    worded.write_text(FORFEIT.read_text(encoding="utf-8").replace(" and the match", ""), encoding="utf-8")
    assert audit(worded) == []
    # without OpenGammon's site tag it is no result the rules give
    elsewhere = tmp_path / "f.mat"
    elsewhere.write_text(FORFEIT.read_text(encoding="utf-8").replace("OpenGammon", "somewhere"), encoding="utf-8")
    assert [(kind, severity) for _, kind, severity in audit(elsewhere)] == [
        ("points", "error"), ("incomplete", "warning")]


OPENGAMMON_MATCH = REAL / "opengammon" / "vireo_vs_tester_2026-09-30.mat"
FOXAMON_MATCH = REAL / "foxamon" / "tester_vs_Osprey12_2026-08-10.mat"


@pytest.mark.parametrize("path, expected", [
    # dice in the order rolled, 25 for the bar and 0 for off, no "*" for a hit, one step a checker,
    # "Drops" on a row of its own, "Wins 1 points"; the last game, a gammon, capped at the 1 point needed
    (OPENGAMMON_MATCH, [(1, "drop", 1, 1), (1, "drop", 1, 1), (1, "gammon", 1, 2), (1, "gammon", 1, 2), (0, 6)]),
    # Foxamon: the same export, narrower: a game worth 4 at cube 4 written as the 3 points needed
    (FOXAMON_MATCH, [(0, "single", 4, 4), (4, 0)]),
], ids=["opengammon", "foxamon"])
def test_habit_opengammon_and_foxamon_write_the_match_winning_game_as_the_points_needed(path, expected, tmp_path):
    assert audit(path) == []
    assert results(path) == expected
    # the cap is the sites' habit: elsewhere the figure cannot be checked, a warning
    elsewhere = tmp_path / "elsewhere.mat"
    elsewhere.write_text(re.sub(r'Site "\w+"', 'Site "somewhere"', path.read_text(encoding="utf-8")), encoding="utf-8")
    assert [(kind, severity) for _, kind, severity in audit(elsewhere)] == [("points", "warning")]


def test_an_illegal_play_xg_declares_in_its_remarks_is_the_one_error():
    # XG's .mat export of a live match names the illegal play the players made in a box of remarks
    # ("Game 6, Move 19 of Simon Lockwood --> 11: 3/2 1/Off(2) was illegal"): that play, and nothing else
    path = REAL / "xg-mat" / "illegal-play-declared-in-remarks_7pt.txt"
    [replay] = replay_file(str(path))
    assert [(p.line, p.game, p.move, p.player, p.kind.value, p.severity.value) for p in replay.problems] == [
        (149, 6, 19, "Simon Lockwood", "play", "error")]
    assert "'3/2 1/Off(2)'" in replay.problems[0].message and replay.score == (3, 7)


def test_a_game_xg_starts_from_a_set_position_replays_from_it(tmp_path):
    # XG's .mat export of a match whose first game starts from a position set up ("; Set Pos=" and an
    # XGID board after the score line): game 1 replays from that board (tests/test_setup.py), with no
    # problem; it was three errors and a warning from line 19 on, game 1 replayed from the opening
    path = REAL / "xg-mat" / "set-position-start_11pt.mat"
    [replay] = replay_file(str(path))
    assert replay.problems == []
    assert [r.game for r in replay.games()] == [1, 2, 3, 4, 5, 6] and replay.score == (8, 11)
    # the opening's board set up is a position set up too: the same board, so the same first problem
    opening = tmp_path / "opening.mat"
    opening.write_text(path.read_text().replace("----cBD-D-B--A--Abcdc---A-/0", "-b----E-C---eE---c-e----B-/0"))
    [replay] = replay_file(str(opening))
    assert replay.problems[0].line == 19 and "no checker on 16" in replay.problems[0].message


def test_snowies_illegal_play_dump_is_the_position_after_it_and_the_game_goes_on():
    # Snowie's .mat export: "11: Illegal play (15;0;1;0;0;Morley;Tanguay;...;1;6;)", a Snowie position
    # with the next player (Morley) on roll and his next roll: the board after the illegal play. The
    # illegal play is the one error, and the rest of the game is checked from that board; it was
    # replayed from a legal play of 11, then "no checker on 10" seven rows on and the game unchecked
    path = REAL / "snowie-mat" / "illegal-play-marker-midgame_15pt_game12.txt"
    [replay] = replay_file(str(path))
    assert [(p.line, p.kind.value, p.severity.value) for p in replay.problems] == [
        (14, "play", "error"), (36, "incomplete", "warning")]
    assert results(path) == [(1, "single", 4, 4), (9, 13)]


def test_games_left_out_of_an_excerpt_by_their_numbers_are_a_warning_not_a_score_error(tmp_path):
    # an excerpt of a 21-point match: each game's score line moves on past what the games before give.
    # Numbered 1 to 4, the file says the games follow each other: the score lines are errors. Numbered
    # with gaps, the file says the games between are not in it: a warning naming them (they were errors)
    path = REAL / "extmatchdb" / "excerpt-games-missing_19pt.mat"
    assert [(p.line, p.kind.value, p.severity.value) for p in list(replay_file(str(path)))[0].problems][:2] == [
        (38, "score", "error"), (51, "score", "error")]
    gaps = tmp_path / "gaps.mat"
    gaps.write_text(path.read_text().replace(" Game 3\n", " Game 6\n").replace(" Game 4\n", " Game 9\n"))
    [replay] = replay_file(str(gaps))
    assert [(p.line, p.kind.value, p.severity.value) for p in replay.problems][:2] == [
        (38, "score", "warning"), (51, "score", "warning")]
    assert "games 3-5 are not in the file" in replay.problems[0].message
    assert "games 7-8 are not in the file" in replay.problems[1].message
    # a score line that goes back is still an error, gaps or not
    back = tmp_path / "back.mat"
    back.write_text(gaps.read_text().replace("Gordon Phillips : 8 ", "Gordon Phillips : 5 "))
    assert list(replay_file(str(back)))[0].problems[0].severity.value == "error"


def test_a_record_with_plays_missing_is_one_error_at_the_first_missing_play():
    # a FIBS-era transcription (names with ratings, "albatros,1800"; 25/0; dice as rolled) whose bear-off
    # plays are missing ("24: " with nothing after it): one error at the first roll with no play where
    # one was legal, naming the other such rolls of the game, and no repair that is not convincing
    from conftest import invoke

    path = REAL / "fibs-client" / "damaged-missing-plays_9pt_game1.txt"
    [replay] = replay_file(str(path))
    assert [(p.line, p.kind.value, p.severity.value) for p in replay.problems] == [
        (31, "dance", "error"), (38, "incomplete", "warning")]
    assert "2 more rolls of this game with no play recorded" in replay.problems[0].message
    repaired = invoke("repair", str(path))
    assert "no convincing repair" in repaired.output and "still has 1 error: line 31 dance" in repaired.output


def test_habit_choue_net_doubles_with_a_long_arrow():
    # choue.net's export: "Doubles ==> 2", "Game 1" at column 0, "Bot1: 0" with no blank before the colon
    path = REAL / "choue-net" / "chouehandle-vs-Bot-all-games-s4020-2026-10-04.txt"
    [replay] = replay_file(str(path))
    assert [(e.line, e.kind.value, e.cube) for e in replay.events if e.kind.value in ("double", "take")] == [
        (23, "double", 2), (24, "take", None)]
    assert results(path)[0] == (1, "single", 2, 2)


def test_habit_choue_net_writes_a_resigned_backgammon_with_more_than_it_is_worth(tmp_path):
    # game 2 ends "53: ????" then Bot1's "Wins 4 point" at cube 1, more than any resignation there is
    # worth; the site's gnubg save of the same match (the .sgf beside it) gives "RE[B+3R]": a warning,
    # scored as the most a resignation at cube 1 is worth, and no error
    path = REAL / "choue-net" / "chouehandle-vs-Bot-all-games-s4020-2026-10-04.txt"
    [replay] = replay_file(str(path))
    assert [(p.line, p.kind.value, p.severity.value) for p in replay.problems] == [
        (69, "points", "warning"), (69, "incomplete", "warning")]
    assert "choue.net" in replay.problems[0].message
    assert results(path)[1:] == [(1, "resignation", 1, 3), (0, 5)]
    # the same figure in a file of another site is still an error
    other = tmp_path / "elsewhere.txt"
    other.write_text(path.read_text(encoding="utf-8").replace('; [Site "choue.net"]\n', ""), encoding="utf-8")
    [plain] = replay_file(str(other))
    assert [(p.line, p.kind.value, p.severity.value) for p in plain.problems][0] == (68, "points", "error")


CUT_SHORT = REAL / "opengammon" / "game-ends-play-cut-after-one-die.mat"


def test_habit_a_turn_cut_short_before_a_resignation_is_no_illegal_play():
    # "64: 22/16", one die of two, then the opponent's "Wins 4 points": the loser made one step and
    # resigned; the site records the step made (twice in this file, games 3 and 4)
    [replay] = replay_file(str(CUT_SHORT))
    assert replay.problems == []
    cut = [(e.line, e.dice, e.play) for e in replay.events if e.kind.value == "move" and e.line in (80, 117)]
    assert cut == [(80, (6, 4), "22/16"), (117, (5, 3), "16/11")]
    assert [e.kind.value for e in replay.events if e.line in (81, 118)] == ["resign", "resign"]


CUT_MATCH = """ 3 point match

 Game 1
 alice : 0                          bob : 0
  1) 31: 8/5 6/5                    64: 24/18
{after}"""


@pytest.mark.parametrize("after, problems", [
    ("      Wins 1 point\n", []),                                               # then bob resigns: the turn he gave up
    ("  2) 42: 8/4 6/4                    21: 13/11 6/5\n", [(5, "play", "error")]),   # the game goes on: illegal
    ("", [(5, "play", "error"), (5, "incomplete", "warning")]),                # the record stops there: illegal
], ids=["resigned", "game-goes-on", "record-stops"])
def test_a_turn_cut_short_is_illegal_unless_a_resignation_follows(tmp_path, after, problems):
    path = tmp_path / "cut.mat"
    path.write_text(CUT_MATCH.format(after=after), encoding="utf-8")
    assert [p for p in audit(path) if p[1] != "incomplete" or after == ""] == problems


RESIGNED = REAL / "opengammon" / "resigned_game_and_match.mat"


def test_habit_opengammon_resigned_game_is_a_resignation():
    # OpenGammon writes "Resigned Game" ("Resigned Match" when it ends the match) where Jellyfish
    # writes "Resigns", in the winner's column, then the winner's Wins line: read as a resignation
    [replay] = replay_file(str(RESIGNED))
    assert replay.problems == []
    assert results(RESIGNED) == [(1, "resignation", 1, 2), (1, "resignation", 1, 1), (0, 3)]
    assert replay.winner == "bob"


def test_a_real_opengammon_match_that_ends_resigned_reads_clean():
    # "Resigned Match" in the winner's column, then "Wins 3 points and the match" at cube 2: a
    # resignation, written as the 3 points tester still needed
    path = REAL / "opengammon" / "toucanBG_vs_tester_2026-08-04.mat"
    assert audit(path) == []
    assert results(path) == [(1, "drop", 1, 1), (1, "drop", 1, 1), (1, "resignation", 2, 4), (0, 6)]


def test_opengammon_result_that_is_neither_worth_nor_needed_is_an_error(tmp_path):
    # 4 points: neither a resignation at cube 1 (1, 2 or 3) nor the 5 alice needed
    path = tmp_path / "f.mat"
    path.write_text(FORFEIT.read_text(encoding="utf-8").replace("Wins 5 points", "Wins 4 points"), encoding="utf-8")
    assert ("points", "error") in [(kind, severity) for _, kind, severity in audit(path)]


def test_replay_names_gnubgs_roll_before_a_resignation_a_roll_then_a_resignation():
    # gnubg's "51: " before the resignation: 51 could be played, so it is no dance but a roll, then a
    # resignation, in the words and shape of XG's "51: ????" (not a move with an empty play)
    import json

    from click.testing import CliRunner

    from bgcli.cli import cli

    path = str(REAL / "gnubg-1.08-mat" / "gnubg_roll_then_resign_1p.mat")
    out = CliRunner().invoke(cli, ["replay", path]).output
    assert "51: (rolled, then resigned)" in out and "no legal play" not in out and "no play recorded" not in out
    actions = [json.loads(line) for line in CliRunner().invoke(cli, ["replay", "--json", path]).output.splitlines()]
    assert [(a["action"], a.get("dice"), "play" in a) for a in actions[-2:]] == [("roll", [5, 1], False),
                                                                                  ("resign", None, False)]
    # a real dance is still said to be one: charlot2's "65: " on the bar in game 3 of the 7-point match
    out = CliRunner().invoke(cli, ["replay", str(REAL / "gnubg-1.08-mat" / "charlot1-charlot2_7p_2025-11-08-2305.mat")]).output
    assert "65: (no legal play)" in out and "no play recorded" not in out


# --- GNU Backgammon 1.08's SGF after "analyse match": the analysis is passed over -------------


def test_gnubg_108_analysed_sgf_reads_its_plays():
    [path] = committed_glob(REAL / "gnubg-1.08-sgf", "*.sgf")
    [replay] = replay_file(path)
    plays = [(e.player, e.dice, e.play) for e in replay.events if e.kind.value == "move"]
    assert plays == [("charlot1", (4, 2), "8/4 6/4"), ("charlot2", (6, 1), "13/7 8/7"),
                     ("charlot1", (6, 1), "13/7 8/7"), ("charlot2", (4, 1), "24/23 24/20"),
                     ("charlot1", (5, 1), "13/8 6/5*")]
    # the game is cut short (its RE left out): that, and nothing else
    assert [(p.kind.value, p.severity.value) for p in replay.problems] == [("incomplete", "warning")]


# --- PlayOK (an excerpt written with its habits: PROVENANCE.md) --------------------------------

PLAYOK = REAL / "playok" / "playok_excerpt.mat"


def test_playok_export_reads_clean_with_its_cube_limit(tmp_path):
    # the site's names in the game header (the tags name the players), dice in
    # the order rolled ("36:"), CubeLimit "64"
    [replay] = replay_file(str(PLAYOK))
    assert replay.problems == [] and replay.score == (0, 3) and replay.winner == "benb"
    assert replay.rules.cube_limit == 64
    # the limit is the file's: a redouble past 64 is an error there
    beyond = tmp_path / "b.mat"
    beyond.write_text(PLAYOK.read_text(encoding="utf-8").replace('CubeLimit "64"', 'CubeLimit "2"'), encoding="utf-8")
    assert ("cube", "error") in [(kind, severity) for _, kind, severity in audit(beyond)]


# --- the third hunt: DailyGammon, XG Mobile, BMAB transcriptions (read, not copied: PROVENANCE.md) ----------


def relaid(text: str, header_indent: str, score_gap: int, names: tuple[str, str]) -> str:
    """A gnubg .mat laid out as another program writes it: its 'N point match'
    and 'Game N' lines indented by ``header_indent``, its score lines with
    ``names`` and ``score_gap`` blanks between the two columns."""
    out = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.endswith("point match") or stripped.startswith("Game "):
            line = header_indent + stripped
        elif score := re.fullmatch(r"\s*[^:;]+ : ([0-9]+)\s+[^:]+ : ([0-9]+)\s*", line):
            line = f" {names[0]} : {score.group(1)}" + " " * score_gap + f"{names[1]} : {score.group(2)}"
        out.append(line)
    return "\n".join(out) + "\n"


SELFPLAY_MATCH = DATA / "oracle" / "selfplay" / "sp05002_5pt.mat"


@pytest.mark.parametrize("indent, gap, names", [
    ("", 26, ("hape42", "darkhelmet")),                              # DailyGammon: headers at column 0
    (" ", 2, ("Suzuki_Taro_(JPN)", "Yamada_Hanako_(JPN)")),          # BMAB transcriptions: two blanks between columns
], ids=["dailygammon", "bmab"])
def test_habit_other_programs_layouts_read_as_gnubgs(tmp_path, indent, gap, names):
    """DailyGammon's export writes 'N point match' and 'Game N' at column 0;
    the Japanese BMAB transcriptions write names with underscores and a
    country, two blanks between the score line's columns. The same match
    laid out either way replays as gnubg's own file: the same plays, results
    and score, clean."""
    original = SELFPLAY_MATCH.read_text(encoding="utf-8")
    path = tmp_path / "relaid.mat"
    path.write_text(relaid(original, indent, gap, names), encoding="utf-8")
    assert f"\n{indent}Game 1\n {names[0]} : 0" + " " * gap in path.read_text(encoding="utf-8")
    [expected] = replay_file(str(SELFPLAY_MATCH))
    [replay] = replay_file(str(path))
    assert replay.problems == [] and replay.players == names
    assert [(e.kind, e.dice, e.play) for e in replay.events] == [(e.kind, e.dice, e.play) for e in expected.events]
    assert replay.score == expected.score and len(replay.results) == len(expected.results)


def test_habit_xg_mobile_money_session_tags_are_kept():
    # XG Mobile's .mat: Site "XG Mobile", the players in tags, EventTime, Variation, a money session
    text = ('; [Site "XG Mobile"]\n; [Player 1 "Ken"]\n; [Player 2 "XG-Pro"]\n; [EventDate "2025.09.19"]\n'
            '; [EventTime "00.00"]\n; [Variation "Backgammon"]\n\n 0 point match\n\n Game 1\n'
            ' Ken : 0                              XG-Pro : 0\n'
            '  1) 41: 13/9 24/23                   Doubles => 2\n  2)  Takes                           61: 13/7 8/7\n')
    from bgcli.formats.mat import read_matches

    [record] = read_matches(text).matches
    assert record.tags["Site"] == "XG Mobile" and record.tags["Variation"] == "Backgammon" and record.length == 0
    assert record.games[0].players == ("Ken", "XG-Pro") and not record.errors


# --- backgammonhub (a site's own SGF in gnubg's dialect: PROVENANCE.md) -------------------------

def test_habit_backgammonhub_sgf_reads_as_gnubgs():
    """www.backgammonhub.com saves a match as gnubg's SGF with its own
    application name (``AP[www.backgammonhub.com]``), ``[bs:..][ws:..]`` in the
    other order, ``double``/``take``/``drop`` nodes, a roll with no play
    (``;W[43]``) and a last bear-off of one step (``;W[62az]``): read as gnubg's,
    silently, each game's result the one its RE gives."""
    [path] = committed_glob(REAL / "backgammonhub", "*.sgf")
    [replay] = replay_file(path)
    assert replay.problems == []
    assert [(r.winner_side, r.points) for r in replay.results] == [(0, 2), (0, 2), (1, 1), (1, 1), (1, 1),
                                                                   (1, 1), (0, 1)]
    assert replay.score == (5, 4)


# --- GNU Backgammon's rollout log (gnubg's SGF of each trial, made by make_rollout_logs.gnubg there) ----

ROLLOUT_LOG = committed_glob(REAL / "gnubg-rollout-log", "*.sgf")


def test_habit_gnubg_rollout_trial_from_the_opening_board_may_roll_a_double_first():
    """GNU Backgammon's rollout log (``set rollout log on``) writes each trial
    as an SGF game that sets the board up, each part a node of its own
    (``;PL[W]`` ``;CP[c]`` ``;CV[1]`` ``;AE[a:y]AW[..]AB[..]``), the opening's
    board too, then the trial's plays, no RE (the log never writes one) and
    ``[wtime:0]...`` in MI. A trial rolls out a position, not a game's start:
    its first roll may be a double (trial 3's 22), which bgcli called "the
    opening roll 22 is a double"; a board set up, the opening's too, is a
    position. What is left is true of every trial: it stops after 7 plies
    (the rollout is truncated), with no result."""
    assert len(ROLLOUT_LOG) == 6
    for path in ROLLOUT_LOG:
        [replay] = replay_file(path)
        assert [(p.kind.value, p.severity.value) for p in replay.problems] == [("incomplete", "warning")], path
    [replay] = replay_file(next(p for p in ROLLOUT_LOG if p.endswith("-0000003-a.sgf")))
    first = next(e for e in replay.events if e.kind.value == "move")
    assert first.dice == (2, 2) and first.before.position == Position.start()


# --- GNU Backgammon's `save position` (made by make_positions.py there, with gnubg's own IDs) -----------

SAVED_IDS = json.loads((REAL / "gnubg-save-position" / "positions.json").read_text(encoding="utf-8"))
SAVED = [path for path in committed_glob(REAL / "gnubg-save-position", "*.sgf") if os.path.basename(path) in SAVED_IDS]
SET_BOARD_MATCH = REAL / "gnubg-save-position" / "set_board_one_play_match_7pt.sgf"


@pytest.mark.parametrize("path", SAVED, ids=os.path.basename)
def test_gnubg_saved_position_is_the_position_gnubg_saved(path):
    """gnubg's ``save position`` writes an SGF game of set-up nodes alone (the
    board, the cube, the dice if rolled), no play and no RE: read as a match it
    was a game with no result (and its dice a roll 'rolled, then resigned').
    It is a position wherever one is taken: gnubg's own Position ID and Match ID
    of it (the score, cube, Crawford game, dice, the side on roll). After a
    ``hint`` gnubg saves the hint as a last node (``B[65aggl]``, ``B[double]``,
    ``W[take]``, with its analysis): nothing played, the roll to play or the
    double to answer (a hint's take was 'a double that was not offered')."""
    assert len(SAVED) == len(SAVED_IDS) == 8
    state = read_position(path)
    assert [state.position.id(), match_id(state.match)] == SAVED_IDS[os.path.basename(path)]


def test_gnubg_saved_position_is_no_match(tmp_path):
    """The audit claims no missing result: named, the file is a position, as a
    position's text is (exit 2, `bgcli show` named); in a folder it is skipped
    with a note beside the matches, which are audited."""
    path = SAVED[0]
    named = invoke("audit", path)
    assert named.exit_code == 2 and "incomplete" not in named.output
    assert f"not a match file but a position (GNU Backgammon's saved position): `bgcli show {path}`" in named.output
    for saved in SAVED:
        shutil.copy(saved, tmp_path)
    shutil.copy(REAL / "backgammonhub" / "2026-01-22T18-31-58-avocet-tester.sgf", tmp_path)
    walked = invoke("audit", str(tmp_path))
    assert walked.exit_code == 0 and f"skipped {len(SAVED)} files" in walked.output
    assert "1 file checked, no problems" in walked.output
    assert "not a match file" in invoke("audit", SAVED_IDS and next(p for p in SAVED if "take_hint" in p)).output


def test_a_game_set_up_and_played_is_no_saved_position():
    # gnubg's rollout trials set the board up too, then play: a match (its one game stops short)
    from bgcli.formats.sgf import position_of

    assert all(position_of(open(path, encoding="utf-8").read(), path) is None for path in ROLLOUT_LOG)
    # a game begun with `set board` and saved as a match: the opening roll's dice come before the board
    assert position_of(SET_BOARD_MATCH.read_text(encoding="utf-8"), str(SET_BOARD_MATCH)) is None
    assert [p for p in audit(SET_BOARD_MATCH) if p[2] == "error"] == []


# --- bgdb (a public archive of submitted matches, CC0: PROVENANCE.md) --------------------------------

BGDB = REAL / "bgdb"


@pytest.mark.parametrize("name, length, score, results", [
    # HedgeHog's 1-point match as bgdb writes it again: dice as rolled (25:), 22: 13/11(4), 55: Cannot Move
    ("0e16f258e242fbd2.mat", 1, (0, 1), [(1, 1)]),
    # a cubeless money session: 0 point match, [CubeLimit "1"] (XG's way of saying no cube), Crawford "Off"
    ("d25988a51d5ed5a9.mat", 0, (1, 0), [(0, 1)]),
    # an 11-point match of 11 games: plays of a double written out of order (33: 5/2 6/3(2) 3/off), a bear-off
    # before the last checkers come home in the same roll (11: 3/2 2/1 1/off 4/3)
    ("087ff8643ed34d0a.mat", 11, (11, 6), [(1, 1), (1, 2), (0, 1), (0, 2), (0, 1), (1, 1), (0, 2), (1, 2), (0, 2),
                                           (0, 2), (0, 1)]),
    # its own SGF: no AP, CA[UTF-8], one game-tree a game, MI[length:17][game:N][bs:..][ws:..], a dance ;W[53]
    ("94dc979b74772943.sgf", 17, (8, 17), [(0, 1), (1, 1), (1, 1), (1, 2), (1, 1), (1, 1), (1, 1), (1, 2), (0, 4),
                                           (1, 1), (1, 1), (0, 1), (1, 1), (0, 1), (1, 1), (0, 1), (1, 2), (1, 2)]),
])
def test_bgdb_archive_matches_read_clean(name, length, score, results):
    """Matches submitted to a public archive (HedgeHog's and XG's among
    them), as the archive writes them again in .mat and SGF: read clean,
    every result as written."""
    [replay] = replay_file(str(BGDB / name))
    assert replay.problems == [] and replay.length == length and replay.score == score
    assert [(r.winner_side, r.points) for r in replay.results] == results
