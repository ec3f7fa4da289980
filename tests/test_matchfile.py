"""Tests of the Jellyfish match-file reader (bgcli/formats/mat.py)."""
from __future__ import annotations

import glob
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli import grammar
from bgcli.formats import mat as matchfile
from bgcli.errors import BgcliError, MatchFileError

from conftest import CORPUS, committed
from conftest import DATA as SHARED

DATA = SHARED / "matchfiles"
AUDIT = SHARED / "oracle" / "audit_sample"

STARTS = ("tag_line", "match_header", "game_header", "score_line", "row")


def shared_files(*patterns: str) -> list[str]:
    files = sorted(f for p in patterns for f in glob.glob(str(SHARED / p)))
    if not files:
        pytest.fail(f"committed data not found: {patterns}", pytrace=False)
    return files


def match_files() -> list[str]:
    return shared_files("corpus/galaxy/*", "corpus/backgammon-studio/*", "oracle/selfplay/*.mat", "oracle/audit_sample/*.mat")


# --- grammar -----------------------------------------------------------------


@pytest.mark.parametrize("start", STARTS)
def test_grammar_builds_strict(start):
    grammar.parser(matchfile.GRAMMAR, start, strict=True)


# --- the shared corpus and gnubg's own files ----------------------------------


def test_every_corpus_and_oracle_match_file_reads_cleanly():
    files = match_files()
    games = 0
    for path in files:
        result = matchfile.read_file(path)
        assert result.errors == [], (path, result.errors[:3])
        assert result.matches and all(m.games for m in result.matches), path
        games += sum(len(m.games) for m in result.matches)
    assert games > 500


def test_corpus_game_counts_agree_with_provenance():
    # PROVENANCE.md records "games=N" for every galaxy and studio file.
    provenance = committed(CORPUS / "PROVENANCE.md")
    checked = 0
    for row in provenance.read_text(encoding="utf-8").splitlines():
        found = re.match(r"\| (.+?) \| lassehjorthmadsen.* games=(\d+)", row)
        if not found:
            continue
        name, games = found.group(1), int(found.group(2))
        paths = [p for folder in ("galaxy", "backgammon-studio") if (p := CORPUS / folder / name).exists()]
        assert paths, name
        result = matchfile.read_file(paths[0])
        assert sum(len(m.games) for m in result.matches) == games, name
        checked += 1
    assert checked >= 50


SIDE = {"X": 0, "O": 1}


def gnubg_actions(game: dict) -> list[tuple]:
    """gnubg's record of a game as (kind, side, dice, steps); resignations are
    written as a "Wins" line and compared separately."""
    out = []
    for record in game["game"]:
        action, side = record["action"], SIDE[record["player"]]
        if action == "move":
            dice = tuple(sorted(record["dice"], reverse=True))
            steps = tuple(tuple(step) for step in record["move"] or ())
            out.append(("move" if steps else "dance", side, dice, steps))
        elif action in ("double", "take", "drop"):
            out.append((action, side, None, ()))
    return out


def our_actions(game: matchfile.GameRecord) -> list[tuple]:
    out = []
    for a in game.actions:
        if a.kind in ("move", "dance"):
            dice = tuple(sorted(a.dice, reverse=True))
            steps = tuple(tuple(int(x) for x in step.rstrip("*").split("/")) for step in a.play_text.split())
            out.append((a.kind, a.side, dice, steps))
        elif a.kind in ("double", "take", "drop"):
            out.append((a.kind, a.side, None, ()))
    return out


def test_selfplay_games_and_actions_agree_with_gnubg_record():
    for path in shared_files("oracle/selfplay/*.mat"):
        record = json.loads(Path(path).with_suffix(".json").read_text())
        result = matchfile.read_file(path)
        assert result.errors == []
        [match] = result.matches
        assert match.length == record["match-info"]["match-length"]
        assert len(match.games) == len(record["games"]), path
        for ours, theirs in zip(match.games, record["games"]):
            assert our_actions(ours) == gnubg_actions(theirs), (path, ours.number)
            info = theirs["info"]
            assert ours.scores == (info["score-X"], info["score-O"])
            assert ours.players == (record["match-info"]["X"]["name"], record["match-info"]["O"]["name"])
            # every game ends with one "Wins" cell, on the winner's side
            wins = [a for a in ours.actions if a.kind == "win"]
            assert len(wins) == 1 and wins[0].side == SIDE[info["winner"]] and wins[0].points == info["points-won"]


def test_audit_sample_defects_are_syntax_clean_and_lines_match():
    expected = [json.loads(line) for line in committed(AUDIT / "expected.jsonl").read_text().splitlines()]
    assert expected
    for case in expected:
        result = matchfile.read_file(AUDIT / case["file"])
        assert result.errors == []
        lines = {a.line for m in result.matches for g in m.games for a in g.actions}
        assert case["line"] in lines, case


@pytest.mark.parametrize("folder", ["bgblitz-text-export", "gnubg-text-export"])
def test_position_exports_are_not_match_files(folder):
    for path in shared_files(f"corpus/{folder}/*"):
        with pytest.raises(MatchFileError, match="not a match file") as info:
            matchfile.read_file(path)
        assert info.value.path == path and info.value.line >= 1


# --- dialect fixtures ------------------------------------------------------------


def kinds(result: matchfile.ReadResult) -> list[tuple]:
    return [(a.kind, a.side) for m in result.matches for g in m.games for a in g.actions]


def test_xg_bom_crlf_tags_cannot_move_and_question_marks():
    raw = (DATA / "xg_bom_crlf.mat").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw
    result = matchfile.read_file(DATA / "xg_bom_crlf.mat")
    assert result.errors == []
    [match] = result.matches
    assert match.length == 3 and match.tags["Site"] == "eXtremeGammon"
    assert matchfile.parse_elo(match.tags["Player 2 Elo"]) == 1712.5
    first, second = match.games
    moves = first.actions
    assert moves[1].dice == (1, 6) and moves[1].play_text == "13/7 8/7"      # dice as written
    assert moves[3].kind == "dance" and moves[3].dice == (5, 5) and moves[3].side == 1
    assert moves[7].kind == "roll" and moves[7].dice == (2, 1)
    assert second.scores == (0, 2)
    assert second.actions[2].kind == "roll" and second.actions[2].dice == (4, 4)
    assert (second.actions[-1].kind, second.actions[-1].points, second.actions[-1].and_match) == ("win", 2, True)
    # the same text read as str (BOM decoded into the first line) gives the same records
    again = matchfile.read_matches(raw.decode("utf-8"), str(DATA / "xg_bom_crlf.mat"))
    assert again.matches == result.matches


def test_ratings_on_names_and_you():
    [match] = matchfile.read_file(DATA / "gridgammon_ratings.mat").matches
    [game] = match.games
    assert game.players == ("Alice", "You") and game.ratings == ("1623", "1488")
    assert game.actions[0].side == 1 and game.actions[0].move_number == 1     # empty left cell


def test_galaxy_losses_and_second_part_of_a_row():
    result = matchfile.read_file(DATA / "galaxy_losses.txt")
    assert result.errors == []
    [match] = result.matches
    assert matchfile.parse_elo(match.tags["Player 1 Elo"]) == pytest.approx(1523.45)
    last = match.games[0].actions[-3:]
    assert [(a.kind, a.side, a.line, a.move_number) for a in last] == [
        ("move", 0, 13, 2), ("loses", 0, 13, 2), ("win", 1, 13, 2)]
    assert last[2].and_match and last[1].points == 1 and last[2].column == 100


def test_snowie_illegal_play_pushes_right_column():
    [match] = matchfile.read_file(DATA / "snowie_illegal.mat").matches
    illegal, right = match.games[0].actions[:2]
    assert illegal.kind == "illegal" and illegal.dice == (3, 1) and illegal.play_text.startswith("7;0;0")
    assert right.side == 1 and right.play_text == "8/4 6/4" and right.column > 100


def test_money_session_with_beaver():
    [match] = matchfile.read_file(DATA / "money_beaver.mat").matches
    assert match.length == 0
    actions = match.games[0].actions
    assert [(a.kind, a.cube) for a in actions if a.cube] == [("double", 2), ("beaver", 4), ("double", 8)]
    assert actions[-1].points == 4


def test_several_matches_in_one_file_with_comments():
    result = matchfile.read_file(DATA / "bbgt_two_matches.mat")
    assert result.errors == []
    first, second = result.matches
    assert (first.length, second.length) == (1, 3)
    assert first.tags["Event"] == "BBGT round 1" and second.tags["Player 2"] == "Ivy"
    assert [line for line, _ in first.comments] == [9, 11]
    assert kinds(matchfile.ReadResult([second], []))[0] == ("move", 1)


def test_bad_lines_are_reported_and_the_rest_is_read():
    result = matchfile.read_file(DATA / "bad_lines.mat")
    # line 7's bad play cell (13/x1) does not cost the row: it is read as a
    # move of its roll, which the replay judges, and Kim's 55 beside it is kept
    assert [(e.line, e.column) for e in result.errors] == [(6, 6), (10, 1)]
    assert all(str(e).startswith(str(DATA / "bad_lines.mat")) for e in result.errors)
    lines = [a.line for m in result.matches for g in m.games for a in g.actions]
    assert sorted(set(lines)) == [5, 7, 8, 9, 11]
    row = [(a.side, a.dice, a.play_text) for m in result.matches for g in m.games for a in g.actions if a.line == 7]
    assert row == [(0, (6, 2), "24/18 13/x1"), (1, (5, 5), "13/3(2)")]


def test_streaming_yields_a_match_before_reading_the_rest():
    text = (DATA / "bbgt_two_matches.mat").read_text()
    consumed = []

    def lines():
        for number, line in enumerate(text.splitlines(True), 1):
            consumed.append(number)
            yield line

    stream = matchfile.iter_matches(lines(), "two.mat")
    first = next(stream)
    assert first.length == 1 and max(consumed) < len(text.splitlines())
    assert next(stream).length == 3


def test_empty_or_foreign_text_is_one_file_error():
    with pytest.raises(MatchFileError, match="not a match file"):
        matchfile.read_matches("hello\nworld\n", "x.txt")
    with pytest.raises(MatchFileError, match="not a match file"):
        matchfile.read_matches("", "empty.mat")


# --- the fast path agrees with the grammar ------------------------------------------


def grammar_row(text: str):
    error = lambda message, line, column: MatchFileError(message, "-", line, column)
    return grammar.parse(matchfile.GRAMMAR, text, error, matchfile._line_transformer(text), start="row")


def row_lines(paths) -> list[str]:
    rows = []
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8-sig").splitlines():
            if re.match(r"\s*\d+\)", line) or re.match(r"\s+(Wins|Losses)", line):
                rows.append(line)
    return rows


def test_fast_path_agrees_with_grammar_on_every_row():
    rows = row_lines(match_files() + sorted(glob.glob(str(DATA / "*"))))
    fast = 0
    for text in rows:
        segments = matchfile._row_segments(text)
        try:
            slow = grammar_row(text)
        except MatchFileError:
            assert segments is None, text
            continue
        if segments is not None:
            fast += 1
            assert segments == slow, text
    assert fast > 0.9 * len(rows)


CELL = st.sampled_from([
    "21: 13/11 24/23", "66:", "55: Cannot Move", "31: ???", "64: bar/18* 6/off(2)", " Doubles => 2",
    " Takes", " Drops", "Wins 1 point", "Wins 3 points and the match", "Losses 2 point", "Beavers => 4",
    "43: 24-20 B/22", "52: 13/8*/6", "Double => 4", "take", "16: 13/7 8/7",
])


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.one_of(st.none(), st.integers(1, 120)), left=st.one_of(st.none(), CELL),
       right=st.one_of(st.none(), CELL), gap=st.integers(1, 40))
def test_generated_rows_fast_and_grammar_agree(number, left, right, gap):
    head = "" if number is None else f"{number:3d}) "
    text = head + (left or "") + " " * gap + (right or "")
    segments = matchfile._row_segments(text)
    try:
        slow = grammar_row(text)
    except MatchFileError:
        assert segments is None
        return
    if segments is not None:
        assert segments == slow
    actions = matchfile.read_row(text, 7, "gen.mat")
    assert len(actions) == (left is not None) + (right is not None)
    if left is not None and right is not None:
        assert [a.side for a in actions] == [0, 1]


# --- mutated files: only our errors, with line numbers, and the rest still read ---------------


def sample_text() -> str:
    files = shared_files("oracle/selfplay/sp0500[0-4]_*.mat")
    return Path(files[3]).read_text()


def action_keys(result: matchfile.ReadResult) -> set:
    return {(a.line, a.column, a.kind, a.dice, a.play_text) for m in result.matches for g in m.games for a in g.actions}


@settings(deadline=None, max_examples=60)
@given(data=st.data())
def test_garbled_line_is_reported_alone(data):
    text = sample_text()
    lines = text.split("\n")
    rows = [i for i, line in enumerate(lines) if re.match(r"\s*\d+\) ", line)]
    index = data.draw(st.sampled_from(rows))
    line = lines[index]
    position = data.draw(st.integers(0, len(line) - 1))
    char = data.draw(st.sampled_from(list("x:?/)(*9 \t;#=>")))
    lines[index] = line[:position] + char + line[position + 1:]
    original = matchfile.read_matches(text)
    mutated = matchfile.read_matches("\n".join(lines))
    assert all(isinstance(e, MatchFileError) and e.line == index + 1 for e in mutated.errors)
    untouched = {key for key in action_keys(original) if key[0] != index + 1}
    assert untouched <= action_keys(mutated)


@settings(deadline=None, max_examples=60)
@given(data=st.data())
def test_cut_swapped_and_garbled_files_raise_only_our_errors(data):
    lines = sample_text().split("\n")
    for _ in range(data.draw(st.integers(1, 4))):
        operation = data.draw(st.sampled_from(["cut", "swap", "dup", "garble", "truncate"]))
        i = data.draw(st.integers(0, len(lines) - 1))
        j = data.draw(st.integers(0, len(lines) - 1))
        if operation == "cut":
            del lines[i]
        elif operation == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif operation == "dup":
            lines.insert(j, lines[i])
        elif operation == "garble":
            lines[i] = data.draw(st.text(max_size=40))
        else:
            lines = lines[: max(i, 1)]
        if not lines:
            lines = [""]
    text = "\n".join(lines)
    try:
        result = matchfile.read_matches(text, "mutated.mat")
    except MatchFileError as exc:
        assert "not a match file" in str(exc)
        return
    count = len(text.splitlines())
    for error in result.errors:
        assert isinstance(error, BgcliError) and 1 <= error.line <= max(count, 1) and error.path == "mutated.mat"


def lark_rows():
    from hypothesis.extra.lark import from_lark

    return from_lark(grammar.parser(matchfile.GRAMMAR, "row"), start="row")


@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_grammar_generated_rows_raise_only_our_errors(data):
    text = data.draw(lark_rows()).replace("\n", " ")
    try:
        actions = matchfile.read_row(text, 3, "gen.mat")
    except MatchFileError as exc:
        assert exc.line == 3 and exc.path == "gen.mat"
        return
    assert all(a.kind in matchfile.KINDS and a.side in (0, 1) for a in actions)
