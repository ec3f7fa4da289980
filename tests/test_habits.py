"""Habits of real files from real programs, each read as its program means it.

An audit that accuses a clean record is worse than no audit: each test below
is named for a habit found in files that servers and programs write, and
checks that bgcli reads it as that program means it (with a warning that
names the habit where it hides something a careful reader should know), and
that a real defect beside it is still found. docs/formats.md lists them.
"""
from __future__ import annotations

import pytest
from conftest import DATA, committed, invoke
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.core.position import Position
from bgcli.core.rules import Variation
from bgcli.formats.files import replay_file



def audit_lines(path) -> tuple[int, list[str]]:
    result = invoke("audit", str(path))
    return result.exit_code, [line for line in result.output.splitlines() if line.startswith(str(path))]


def cut_after_a_roll(tmp_path):
    """A gnubg self-play match cut off right after a roll, as a FIBS export
    whose last row is ``57) 53:``: the roll is written, its play is not."""
    lines = committed(DATA / "oracle/selfplay/sp05001_3pt.mat").read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("  3) 53:"))
    path = tmp_path / "cut.mat"
    path.write_text("\n".join(lines[:row] + ["  3) 53:"]) + "\n")
    return path


def test_habit_record_cut_off_right_after_a_roll_is_only_incomplete(tmp_path):
    path = cut_after_a_roll(tmp_path)
    status, lines = audit_lines(path)
    assert status == 0, lines
    assert len(lines) == 1 and "warning: incomplete" in lines[0], lines


def test_a_dance_claimed_in_the_middle_of_a_game_is_still_an_error(tmp_path):
    # the same empty cell with the game going on after it is a dance the record claims
    lines = committed(DATA / "oracle/selfplay/sp05001_3pt.mat").read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("  3) 53:"))
    lines[row] = "  3) 53:" + lines[row][lines[row].index("61:") - 8:]
    path = tmp_path / "dance.mat"
    path.write_text("\n".join(lines) + "\n")
    status, found = audit_lines(path)
    assert status == 1 and any(": dance: " in line for line in found), found


LIVE_EVENT = """; [Site ""]
; [Event "A live event, transcribed"]

 9 point match

 Game 1
 Alice : 5                      Bob : 7
  1) 31: 8/5 6/5                 21: 13/11 24/23
  2)  Doubles => 2               Takes
  3) 62: ????                    Wins {points} point and the match
"""


def test_habit_galaxy_wins_the_match_length_and_the_match_is_a_warning_anywhere(tmp_path):
    # a resignation that wins the match written with the match length, the
    # winner's final score (Galaxy's habit, here with an empty Site tag)
    path = tmp_path / "live.mat"
    path.write_text(LIVE_EVENT.format(points=9))
    status, lines = audit_lines(path)
    assert status == 0, lines
    assert len(lines) == 1 and "warning: points" in lines[0] and "match length" in lines[0], lines
    (replay,) = replay_file(str(path))
    assert replay.score == (5, 9) and replay.winner == "Bob"


def test_a_wins_line_that_is_neither_the_worth_nor_the_final_score_is_an_error(tmp_path):
    path = tmp_path / "live.mat"
    path.write_text(LIVE_EVENT.format(points=7))
    status, lines = audit_lines(path)
    assert status == 1 and any(": points: " in line and "warning" not in line for line in lines), lines


def slipped(tmp_path, cell: str, column: int = 0):
    """sp05001_3pt.mat with one cell of its second row mistyped."""
    lines = committed(DATA / "oracle/selfplay/sp05001_3pt.mat").read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("  2) 41: 11/7 8/7"))
    lines[row] = lines[row].replace(*cell)
    path = tmp_path / "slip.mat"
    path.write_text("\n".join(lines) + "\n")
    return path, row + 1


def test_habit_one_mistyped_cell_is_one_problem_and_the_row_is_kept(tmp_path):
    # "13/7x 8/7": a mistyped hit mark; the row's other play is still read
    # and judged, and the game goes on from the position the record implies
    path, line = slipped(tmp_path, ("41: 11/7 8/7 ", "41: 11/7x 8/7"))
    status, lines = audit_lines(path)
    errors = [found for found in lines if "warning" not in found]
    assert status == 1 and len(errors) == 1, lines
    assert errors[0].startswith(f"{path}:{line}: game 1 move 2 (gnubg): play: invalid play '11/7x 8/7'")
    (replay,) = replay_file(str(path))
    (bob,) = [e for e in replay.events if e.kind == "move" and e.game == 1 and e.move == 2 and e.side == 1]
    assert sorted(bob.play.split()) == ["13/7", "13/8"] and bob.legal is not None


def test_a_mistyped_cell_beside_a_wrong_play_is_two_problems(tmp_path):
    # the other cell is judged: its own mistake is found
    path, line = slipped(tmp_path, ("41: 11/7 8/7                65: 13/7 13/8",
                                    "41: 11/7x 8/7               65: 13/7 13/2"))
    status, lines = audit_lines(path)
    assert status == 1 and [found.split(": ")[2] for found in lines if f":{line}:" in found] == ["play", "play"], lines


def test_habit_old_log_with_a_run_of_missing_plays_is_one_summary_line(tmp_path):
    # an old FIBS log that lost one player's plays for five rows of a game:
    # one line for the run, not five near-identical ones
    lines = committed(DATA / "oracle/selfplay/sp05001_3pt.mat").read_text().splitlines()
    game = 0
    for index, line in enumerate(lines):
        game += line.startswith(" Game")
        number = line[:4].strip().rstrip(")")
        if game == 2 and number.isdigit() and 3 <= int(number) <= 7:
            lines[index] = line[:9] + " " * 23 + line[32:]
    path = tmp_path / "lost.mat"
    path.write_text("\n".join(lines) + "\n")
    status, found = audit_lines(path)
    dances = [line for line in found if ": dance: " in line]
    assert status == 1 and len(dances) == 1, found
    assert "and 4 more rolls of this game with no play recorded" in dances[0] and "(lines 23-26)" in dances[0]


def test_messages_agree_in_number_and_mark_a_cut_list():
    from bgcli.core.position import Position
    from bgcli.match.plays import SHOWN_PLAYS, judge_play

    many = judge_play(Position.start(), (4, 3), "", 0, False).dance
    assert "legal plays exist" in many and many.endswith(", …)") and many.count(",") == SHOWN_PLAYS
    # one checker on the bar, fourteen off; the opponent holds the 20 and the
    # 14 (their 5 and 11 points): 65 enters with the 6 and the 5 cannot move
    mine, theirs = [0] * 26, [0] * 26
    mine[25], mine[0] = 1, 14
    theirs[5], theirs[11], theirs[0] = 2, 2, 11
    one = judge_play(Position(tuple(mine), tuple(theirs)), (6, 5), "", 0, False).dance
    assert one == "no play is recorded for 65 but 1 legal play exists (bar/19)"


def test_score_of_a_record_that_breaks_the_rules_exits_1_and_says_see_audit():
    flawed = committed(DATA.parent.parent / "samples" / "flawed_5pt.mat")
    result = invoke("score", str(flawed))
    assert result.exit_code == 1
    assert f"{flawed}:44:" in result.output and "see `bgcli audit`" in result.output
    assert invoke("score", str(committed(DATA / "oracle/selfplay/sp05001_3pt.mat"))).exit_code == 0


def test_a_mistyped_play_kept_as_written_is_not_lost_by_an_sgf_export(tmp_path):
    # .mat and JSON keep the cell as written; SGF's steps cannot hold it: said, not dropped
    path, line = slipped(tmp_path, ("41: 11/7 8/7 ", "41: 11/7x 8/7"))
    assert invoke("export", str(path), "--to", "mat", "-o", str(tmp_path / "out.mat")).exit_code == 0
    assert "11/7x 8/7" in (tmp_path / "out.mat").read_text()
    refused = invoke("export", str(path), "--to", "sgf", "-o", str(tmp_path / "out.sgf"))
    assert refused.exit_code == 1 and f"line {line}: the play '11/7x 8/7'" in refused.output


def test_habit_money_session_headers_restart_at_0_0_the_games_win(tmp_path):
    # gnubg's money session with every game header rewritten to 0-0, as some
    # programs write a session (gnubg and Jellyfish write running totals)
    import re

    source = committed(DATA / "oracle/selfplay/sp05007_money.mat")
    path = tmp_path / "restart.mat"
    path.write_text(re.sub(r"(?m)^ gnubg : \d+( +)root : \d+$", r" gnubg : 0\1root : 0", source.read_text()))
    status, lines = audit_lines(path)
    assert status == 0 and len(lines) == 1 and "warning: score" in lines[0] and "restart at 0-0" in lines[0], lines
    (replay,) = replay_file(str(path))
    (original,) = replay_file(str(source))
    assert replay.score == original.score and replay.score != (0, 0)
    result = invoke("score", str(path))
    assert result.exit_code == 0 and f"{original.score[0]} - {original.score[1]}" in result.output


def test_a_money_header_that_disagrees_otherwise_is_still_an_error(tmp_path):
    source = committed(DATA / "oracle/selfplay/sp05007_money.mat")
    path = tmp_path / "wrong.mat"
    path.write_text(source.read_text().replace(" gnubg : 2 ", " gnubg : 5 ", 1))
    status, lines = audit_lines(path)
    assert status == 1 and any(": score: " in line and "warning" not in line for line in lines), lines


def test_habit_studio_wins_4016_points_at_a_resignation_that_ends_the_match(tmp_path):
    source = committed(DATA / "corpus/backgammon-studio/MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt")
    status, lines = audit_lines(source)
    assert status == 0 and len(lines) == 1 and "warning: points: Wins 4016 points" in lines[0], lines
    assert "Backgammon Studio" in lines[0]
    (replay,) = replay_file(str(source))
    assert replay.score == (0, 5) and replay.winner == "Lasse"
    # the same figure in a game that does not end the match is an error
    path = tmp_path / "mid.mat"
    path.write_text(source.read_text().replace("3 point match", "25 point match"))
    status, lines = audit_lines(path)
    assert status == 1 and any("points: Wins 4016" in line and "warning" not in line for line in lines), lines


ROWS = [line for line in committed(DATA / "oracle/selfplay/sp05003_7pt.mat").read_text().splitlines()
        if line[:5].strip().rstrip(")").isdigit() and line.count(":") == 2 and "/" in line.split(":")[1]]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ROWS), st.integers(0, 40), st.sampled_from("xX#?!q"))
def test_a_stray_character_in_a_play_cell_costs_that_cell_only(row, at, letter):
    from bgcli.formats import mat

    clean = mat.read_row(row)
    left = clean[0]
    start = left.column - 1 + 4   # inside the left play, after "NN: "
    end = start + len(left.play_text)
    place = start + at % max(1, len(left.play_text))
    # the letter takes one of the spaces after the cell (when it has two: the column stays where it was)
    slipped = row[:place] + letter + row[place:end] + row[end + 1:] if row[end:end + 2] == "  " else None
    if slipped is None:
        return
    actions = mat.read_row(slipped)
    # the other player's cell is read as it was; the slipped one keeps its roll and side
    assert [(a.side, a.kind, a.dice, a.play_text) for a in actions[1:]] == \
        [(a.side, a.kind, a.dice, a.play_text) for a in clean[1:]]
    assert (actions[0].side, actions[0].dice) == (left.side, left.dice)


# --- Jellyfish's .gam: no 'N point match' line ---------------------------------------------------

JELLYFISH = DATA / "jellyfish"   # gnubg's export game gam of self-play games, and its .mat of each match (make_gam.py)


def game_of(replay, number: int):
    """The plays, cube actions and result of game ``number`` of a replay."""
    events = [(e.kind, e.player, e.dice, e.play) for e in replay.events if e.game == number]
    result = next(r for r in replay.results if r.game == number)
    return events, (result.winner, result.winner_side, result.result, result.written_points)


def test_habit_jellyfish_gam_without_a_header_reads_as_gnubg_wrote_it():
    """gnubg's ``export game gam`` writes one game: a line of the two names
    (no score, no length, no 'Game N'), the rows and the result. gnubg does
    not import it back; its own .mat export of the match is the judge: each
    .gam reads, clean, as that game of the .mat (a money session of one game)."""
    files = sorted(JELLYFISH.glob("*_game*.gam"))
    assert len(files) >= 10, "tests/data/jellyfish holds them (make_gam.py)"
    for path in files:
        match, number = path.stem.rsplit("_game", 1)
        (whole,) = list(replay_file(str(committed(JELLYFISH / f"{match}.mat"))))
        (alone,) = list(replay_file(str(path)))
        assert alone.problems == [], (path.name, alone.problems)
        assert alone.length == 0 and alone.players == whole.players
        (events, result), (expected_events, expected_result) = game_of(alone, 1), game_of(whole, int(number))
        assert events == expected_events and result == expected_result, path.name


def test_habit_jellyfish_money_session_starting_at_game_1_or_at_a_row_is_silent(tmp_path):
    lines = committed(JELLYFISH / "sp05007_money.mat").read_text(encoding="utf-8").splitlines()
    games = lines[next(i for i, line in enumerate(lines) if line.strip() == "Game 1"):]
    (whole,) = list(replay_file(str(JELLYFISH / "sp05007_money.mat")))
    session = tmp_path / "session.gam"
    session.write_text("; a money session saved by Jellyfish\n" + "\n".join(games) + "\n", encoding="utf-8")
    (read,) = list(replay_file(str(session)))
    assert read.problems == [] and read.score == whole.score and len(read.results) == len(whole.results) == 5
    rows = tmp_path / "rows.gam"   # the first game's rows alone: no names line either
    rows.write_text("\n".join(games[2:games.index("", 2)]) + "\n", encoding="utf-8")
    (alone,) = list(replay_file(str(rows)))
    assert alone.problems == [] and [e[2:] for e in game_of(alone, 1)[0]] == [e[2:] for e in game_of(whole, 1)[0]]


def test_a_gam_that_breaks_a_rule_is_still_judged(tmp_path):
    text = committed(JELLYFISH / "sp05001_3pt_game1.gam").read_text(encoding="utf-8")
    path = tmp_path / "bad.gam"
    assert "21: 24/23 13/11" in text
    path.write_text(text.replace("21: 24/23 13/11", "21: 24/21 13/11", 1), encoding="utf-8")
    status, lines = audit_lines(path)
    assert status == 1 and len(lines) == 1 and ":2:" in lines[0], lines


NACKGAMMON = DATA / "variants"


@pytest.mark.parametrize("name", ["nackgammon_3pt.gnubg.mat", "nackgammon_3pt.gnubg.sgf"])
def test_habit_gnubg_nackgammon_match_replays_from_nackgammons_opening(name):
    """GNU Backgammon writes a match of nackgammon with the tag ``; [Variation
    "NackGammon"]`` (.mat) or ``RU[Crawford:Nackgammon]`` (SGF), and its import
    replays every game from nackgammon's opening: so does bgcli (it replayed
    them from the standard one, and called gnubg's plays illegal)."""
    path = NACKGAMMON / name
    status, lines = audit_lines(path)
    assert status == 0 and lines == [], lines
    (replay,) = replay_file(str(path))
    assert replay.rules.variation == Variation.NACKGAMMON
    firsts = [next(e for e in replay.events if e.game == game) for game in (1, 2, 3)]
    assert all(e.before.position == Position.start(Variation.NACKGAMMON) for e in firsts)
    # the games gnubg's .mat export says (2 to the left column, then 1 and 4 to the right)
    assert [(r.winner_side, r.points) for r in replay.results] == [(0, 2), (1, 1), (1, 4)]


def test_a_nackgammon_match_read_as_the_standard_game_breaks_the_rules(tmp_path):
    # the tag is what says the variant: without it the same plays are illegal, and a play
    # that breaks the rules of nackgammon is still an error with it
    text = committed(NACKGAMMON / "nackgammon_3pt.gnubg.mat").read_text()
    path = tmp_path / "standard.mat"
    path.write_text(text.replace('; [Variation "NackGammon"]\n', ""))
    status, lines = audit_lines(path)
    assert status == 1 and any(": play: illegal play " in line for line in lines), lines
    path = tmp_path / "wrong.mat"
    path.write_text(text.replace("  1)                             21: 24/22 23/22 ",
                                 "  1)                             21: 7/5 7/6 ", 1))
    status, lines = audit_lines(path)
    assert status == 1 and ":8: game 1 move 1 (root): play: illegal play" in lines[0], lines


@pytest.mark.parametrize("to", ["mat", "sgf", "json"])
def test_habit_nackgammon_survives_every_export(tmp_path, to):
    # .mat writes the tag as gnubg does, SGF gnubg's RU[...:Nackgammon], JSON the rule
    out = tmp_path / f"out.{to}"
    result = invoke("export", str(NACKGAMMON / "nackgammon_3pt.gnubg.sgf"), "--to", to, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert {"mat": '; [Variation "NackGammon"]', "sgf": "RU[Crawford:Nackgammon]",
            "json": '"variation": "nackgammon"'}[to] in out.read_text()
    (again,) = replay_file(str(out))
    (source,) = replay_file(str(NACKGAMMON / "nackgammon_3pt.gnubg.sgf"))
    def results(replay):
        return [(r.winner_side, r.result, r.cube, r.points, r.score) for r in replay.results]
    assert again.problems == [] and results(again) == results(source)


def test_habit_gnubg_sgf_no_cube_is_the_cubeless_rule(tmp_path):
    """GNU Backgammon's SGF of a match played with ``set cube use off`` says
    ``RU[NoCube:Crawford]``: the cubeless rule (it was passed over, and an
    export to .mat or JSON lost it); a double in such a game breaks it."""
    path = NACKGAMMON / "nocube_3pt.gnubg.sgf"
    status, lines = audit_lines(path)
    assert status == 0 and lines == [], lines
    (replay,) = replay_file(str(path))
    assert replay.rules.cubeless
    for to, said in (("mat", '; [Cubeless "On"]'), ("sgf", "RU[NoCube:Crawford]"), ("json", '"cubeless": true')):
        out = tmp_path / f"out.{to}"
        result = invoke("export", str(path), "--to", to, "-o", str(out))
        assert result.exit_code == 0 and said in out.read_text(), result.output
        (again,) = replay_file(str(out))
        assert again.rules.cubeless and again.problems == []
    text = committed(path).read_text()
    first = text.index("\n;", text.index("\n;") + 1)   # after the first play of game 1
    doubled = tmp_path / "doubled.sgf"
    doubled.write_text(text[:first] + "\n;B[double]\n;W[take]" + text[first:])
    status, lines = audit_lines(doubled)
    assert status == 1 and ": cube: " in lines[0], lines
