"""Tests of bgcli.core.ids: Match ID, GNUbg ID, XGID, FIBS and the position grammar.

Golden data comes from GNU Backgammon (``tests/data/oracle/ids_sample.jsonl``
and ``tests/data/gnubg_printouts.jsonl``, board printouts made by gnubg's
``show board``); states are compared from the side of the player on roll with
the oracle's own ``canonical()``.
"""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli import grammar
from bgcli.errors import InvalidPositionError
from bgcli.core.ids import (
    describe,
    fibs,
    gnubg_id,
    match_id,
    parse_fibs,
    parse_gnubg_id,
    parse_match_id,
    parse_position,
    parse_xgid,
    position_kind,
    xgid,
)
from bgcli.core.position import Position
from bgcli.core.rules import Rules
from bgcli.core.state import GNUBG_MONEY_SESSION, GameState, MatchState

from conftest import DATA, ORACLE, committed, gnubgid_norm

PRINTOUTS = DATA / "gnubg_printouts.jsonl"
FAST = settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])


def oracle_rows() -> list[dict]:
    path = ORACLE / "ids_sample.jsonl"
    committed(path)
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def canonical_function():
    return gnubgid_norm().canonical


# --- the grammar --------------------------------------------------------------

def test_grammar_builds_in_strict_mode():
    pytest.importorskip("interegular", reason="lark's strict mode needs interegular")
    grammar.parser("position", strict=True)


@pytest.mark.parametrize(
    "text, kind",
    [
        ("start", "start_position"),
        ("  START\n", "start_position"),
        ("4HPwATDgc/ABMA", "position_id"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAAA", "gnubg_id"),
        ("cAkAAAAAAAAA 4HPwATDgc/ABMA", "pasted"),
        ("GNUbg ID: 4HPwATDgc/ABMA:cAkAAAAAAAAA please", "pasted"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "xgid"),
        ("xgid=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0", "xgid"),
        ("0 -2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0", "board26"),
        ("0,-2,0,0,0,0,5,0,3,0,0,0,-5,5,0,0,0,-3,0,-5,0,0,0,0,2,0", "board26"),
        ("0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0", "board26"),
    ],
)
def test_every_form_is_recognised(text, kind):
    assert position_kind(text) == kind
    assert parse_position(text).position == Position.start()


def test_start_gives_default_match_state():
    game = parse_position("start")
    assert game == GameState(Position.start()) == GameState(Position.start(), GNUBG_MONEY_SESSION)
    assert game.match.match_length == 0 and game.match.cube_owner == -1 and game.match.dice == (0, 0)


def test_bare_position_id_gives_money_centred_no_dice():
    game = parse_position("AAAA6W4XACgAAA")
    assert game.match == GNUBG_MONEY_SESSION
    assert game.position.id() == "AAAA6W4XACgAAA"


def test_plain_board_is_seen_from_the_player_on_roll():
    board = [-1, 2, 2, 2, 3, 3, 3] + [0] * 16 + [-2, -2, 0]
    game = parse_position(" ".join(map(str, board)))
    assert game.position.board26() == board
    assert game.position.player[1] == 2 and game.position.opponent[25] == 1
    assert game.position.opponent[1] == 2  # the player's point 24 is the opponent's 1


# --- Match ID -------------------------------------------------------------------

def test_match_id_example_from_the_spec():
    # formats.md: 9-point match, 2-4, player 0 owns a 2-cube, player 1 has rolled 5-2
    state = parse_match_id("QYkqASAAIAAA")
    assert (state.match_length, state.score, state.cube, state.cube_owner) == (9, (2, 4), 2, 0)
    assert (state.on_roll, state.dice, state.game_state) == (1, (5, 2), 1)
    assert match_id(state) == "QYkqASAAIAAA"


def test_money_match_id_keeps_no_score():
    state = MatchState(score=(3, 7))
    assert parse_match_id(match_id(state)).score == (0, 0)


@pytest.mark.parametrize(
    "mid, problem",
    [
        ("cAkAAAAAAAA", "12 base64"),
        ("cAkAAAAAAA!A", "12 base64"),
        ("YAkAAAAAAAAA", "cube owner"),
        ("cA0AAAAAAAAA", "game state"),
        ("cIkBAAAAAAAA", "dice"),
        ("cIkPAAAAAAAA", "dice"),
        ("cAmgAFAAEAAA", "reached the match length"),
        ("cAkAAAAAAAA/", "bits set"),
    ],
)
def test_bad_match_ids_say_why(mid, problem):
    with pytest.raises(InvalidPositionError) as info:
        parse_match_id(mid)
    message = str(info.value)
    assert mid in message and problem in message and "\n" not in message


# --- golden data from gnubg -------------------------------------------------------

def test_oracle_gnubg_ids_round_trip_exactly():
    for row in oracle_rows():
        game = parse_gnubg_id(row["gnubg_id"])
        assert gnubg_id(game) == row["gnubg_id"]
        assert parse_position(row["gnubg_id"]) == game
        # the fields the oracle set, in gnubg's player numbers
        m = game.match
        assert (m.match_length, m.cube, m.on_roll, m.crawford) == (row["length"], row["cube"], row["turn"], bool(row["crawford"]))
        assert m.cube_owner == row["owner"]
        assert sorted(m.dice, reverse=True) == sorted(row["dice"], reverse=True)
        if row["length"]:
            assert list(m.score) == row["score"]


def test_oracle_xgid_and_fibs_read_as_the_same_state():
    canonical = canonical_function()
    for row in oracle_rows():
        expected = canonical(row["gnubg_id"])
        from_xgid = parse_xgid(row["xgid"])
        assert canonical(gnubg_id(from_xgid)) == expected, row["xgid"]
        assert parse_position(row["xgid"]) == from_xgid
        from_fibs = parse_fibs(row["fibs"])
        # FIBS cannot say whether the Jacoby rule is on (the last canonical field)
        assert canonical(gnubg_id(from_fibs))[:-1] == expected[:-1], row["fibs"]
        assert parse_position(row["fibs"]) == from_fibs


def test_oracle_fibs_with_spaces_after_colons():
    canonical = canonical_function()
    for row in oracle_rows()[:30]:
        spaced = row["fibs"].replace(":", ": ")
        assert canonical(gnubg_id(parse_fibs(spaced)))[:-1] == canonical(row["gnubg_id"])[:-1]


def test_written_xgid_and_fibs_match_gnubg_and_read_back():
    canonical = canonical_function()
    for row in oracle_rows():
        game = parse_gnubg_id(row["gnubg_id"])
        expected = canonical(row["gnubg_id"])
        ours_x, ours_f = xgid(game), fibs(game)
        assert canonical(gnubg_id(parse_xgid(ours_x))) == expected
        assert canonical(gnubg_id(parse_fibs(ours_f)))[:-1] == expected[:-1]
        # gnubg's own strings, except what a GNUbg ID cannot know:
        # a money game's score (XGID) and the players' names (FIBS)
        theirs_x = row["xgid"].split(":")
        mine_x = ours_x.split(":")
        if not row["length"]:
            theirs_x[5:7] = mine_x[5:7]
        assert mine_x == theirs_x
        assert ours_f.split(":")[3:] == row["fibs"].split(":")[3:]


def test_gnubg_board_printouts():
    committed(PRINTOUTS)
    rows = [json.loads(line) for line in PRINTOUTS.read_text().splitlines() if line.strip()]
    assert rows
    for row in rows:
        expected = parse_gnubg_id(row["gnubg_id"])
        assert "Position ID" in row["text"]
        assert parse_position(row["text"]) == expected
        assert parse_gnubg_id(row["text"]) == expected
        # the two ID lines in the other order, inside other text
        lines = row["text"].splitlines()
        flipped = "\n".join(["see this:", lines[1], *lines[2:], lines[0], "thanks"])
        assert parse_position(flipped) == expected


# --- hypothesis: random valid states round-trip through every format -------------

@st.composite
def positions(draw) -> Position:
    player = [0] * 26
    opponent = [0] * 26
    for slot in draw(st.lists(st.integers(0, 25), min_size=15, max_size=15)):
        player[slot] += 1
    # the opponent may not use a point the player holds (its point q is the player's 25 - q)
    free = [q for q in range(26) if q in (0, 25) or not player[25 - q]]
    for slot in draw(st.lists(st.sampled_from(free), min_size=15, max_size=15)):
        opponent[slot] += 1
    return Position(tuple(player), tuple(opponent))


@st.composite
def match_states(draw) -> MatchState:
    length = draw(st.sampled_from([0, 0, 1, 3, 5, 7, 11, 25]))
    if length:
        score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    else:
        score = (draw(st.integers(0, 40)), draw(st.integers(0, 40)))
    on_roll = draw(st.integers(0, 1))
    # the Crawford game: a player one point from winning, and nobody may double
    crawford = bool(length) and length - 1 in score and draw(st.booleans())
    doubled = not crawford and draw(st.booleans())
    dice = (0, 0) if doubled else draw(st.sampled_from([(0, 0)] + [(a, b) for a in range(1, 7) for b in range(1, 7)]))
    cube_log = 0 if crawford else draw(st.integers(0, 12))
    return MatchState(
        cube=1 << cube_log,
        cube_owner=-1 if crawford else draw(st.sampled_from([-1, 0, 1])),
        on_roll=on_roll,
        crawford=crawford,
        game_state=draw(st.sampled_from([1, 1, 1, 0, 2, 3, 4])),
        turn=1 - on_roll if doubled else draw(st.sampled_from([on_roll, on_roll, 1 - on_roll])),
        doubled=doubled,
        resign=draw(st.integers(0, 3)),
        dice=dice,
        score=score,
        # XGID's maxcube holds the cube; 0 is no limit
        rules=Rules(match_length=length, jacoby=draw(st.booleans()), beavers=draw(st.booleans()),
                    cube_limit=draw(st.sampled_from([0, *(1 << k for k in range(cube_log, 13))]))),
        names=(draw(st.sampled_from(["gnubg", "Bob", "x_y"])), draw(st.sampled_from(["root", "Alice", "12"]))),
    )


@st.composite
def games(draw) -> GameState:
    return GameState(draw(positions()), draw(match_states()))


def as_gnubg_id_carries(m: MatchState) -> MatchState:
    # the higher die first, as gnubg's MatchID() writes them (tests/test_heldout_matchid_states.py)
    return replace(m, rules=Rules(match_length=m.match_length, jacoby=m.rules.jacoby), names=("", ""),
                   score=m.score if m.match_length else (0, 0), dice=(max(m.dice), min(m.dice)))


def as_xgid_carries(m: MatchState) -> MatchState:
    money = not m.match_length
    return replace(
        m,
        turn=m.turn if m.doubled else m.on_roll,
        game_state=1,
        resign=0,
        crawford=m.crawford and not money,
        # XG's maxcube 10 (a cube of 1024) is no limit; with none, a higher cube is written as the maxcube
        rules=Rules(match_length=m.match_length, jacoby=m.rules.jacoby and money, beavers=m.rules.beavers and money,
                    cube_limit=0 if m.rules.cube_limit == 1024 else m.rules.cube_limit or (m.cube if m.cube > 1024 else 0)),
        names=("", ""),
    )


def as_fibs_carries(m: MatchState) -> MatchState:
    one_away = bool(m.match_length) and m.match_length - 1 in m.score
    return replace(
        m,
        turn=1 - m.on_roll if m.doubled else m.on_roll,
        game_state=1,
        resign=0,
        crawford=m.crawford and one_away,  # FIBS can tell the Crawford game only when someone is 1-away
        rules=Rules(match_length=m.match_length, jacoby=not m.match_length),
    )


@FAST
@given(games())
def test_round_trip_gnubg_id(game):
    text = gnubg_id(game)
    expected = GameState(game.position, as_gnubg_id_carries(game.match))
    assert parse_gnubg_id(text) == expected
    assert parse_position(text) == expected
    assert parse_match_id(match_id(game.match)) == expected.match


@FAST
@given(games())
def test_round_trip_xgid(game):
    text = xgid(game)
    expected = GameState(game.position, as_xgid_carries(game.match))
    assert parse_xgid(text) == expected
    assert parse_xgid(text[len("XGID="):]) == expected
    assert parse_position(text) == expected


@FAST
@given(games())
def test_round_trip_fibs(game):
    text = fibs(game)
    expected = GameState(game.position, as_fibs_carries(game.match))
    assert parse_fibs(text) == expected
    assert parse_position(text.replace(":", ": ")) == expected


@FAST
@given(positions())
def test_round_trip_position_id_and_board(position):
    assert parse_position(position.id()).position == position
    assert parse_position(" ".join(map(str, position.board26()))).position == position
    assert parse_position(",".join(map(str, position.board26()))).position == position


@FAST
@given(games())
def test_describe_is_plain_data_and_consistent(game):
    d = describe(game)
    json.dumps(d)
    assert d["gnubg_id"] == gnubg_id(game)
    assert (d["player"]["pips"], d["opponent"]["pips"]) == game.position.pips()
    for side in ("player", "opponent"):
        assert sum(d[side]["points"].values()) + d[side]["bar"] + d[side]["off"] == 15
    assert parse_position(d["xgid"]).position == game.position


# --- hypothesis: odd input raises only our error -----------------------------------

def _only_our_error(text: str) -> None:
    try:
        parse_position(text)
    except InvalidPositionError as exc:
        message = str(exc)
        assert "\n" not in message and message.startswith("invalid ")
        assert message == message[:1].lower() + message[1:]


def _grammar_text_strategy():
    from hypothesis.extra.lark import from_lark

    b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    word = st.text(alphabet="abcdXYZ0123:/-=", min_size=1, max_size=8)
    explicit = {
        "START": st.sampled_from(["start", "START"]),
        "POSITION_ID": st.text(alphabet=b64, min_size=14, max_size=14),
        "MATCH_ID": st.text(alphabet=b64, min_size=12, max_size=12),
        "GNUBG_ID": st.builds(lambda a, b: a + ":" + b, st.text(alphabet=b64, min_size=14, max_size=14),
                              st.text(alphabet=b64, min_size=12, max_size=12)),
        "XG_POS": st.text(alphabet="-AaBbCcEeOoPp", min_size=26, max_size=26),
        "XG_DICE": st.sampled_from(["00", "43", "66", "D", "B", "r", "07", "60"]),
        "INT": st.integers(-20, 40).map(str),
        "NAME": st.text(alphabet="abXY12_", min_size=1, max_size=6),
        "WORD": word,
    }
    return from_lark(grammar.parser("position"), explicit=explicit)


@settings(deadline=None, max_examples=100, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_text_from_the_grammar_raises_only_our_error(data):
    text = data.draw(_grammar_text_strategy())
    _only_our_error(text)


def _mutations(text: str, rng: random.Random) -> list[str]:
    out = []
    for _ in range(12):
        i = rng.randrange(len(text))
        c = rng.choice("A/+:-0195aZ ,=\n")
        out += [text[:i] + text[i + 1:], text[:i] + c + text[i + 1:], text[:i] + c + text[i:], text[:i]]
        j = rng.randrange(len(text))
        chars = list(text)
        chars[i], chars[j] = chars[j], chars[i]
        out.append("".join(chars))
    return out


def test_mutated_real_ids_raise_only_our_error():
    rng = random.Random(7)
    rows = oracle_rows()
    for row in rows[:40]:
        for text in (row["gnubg_id"], row["xgid"], row["fibs"]):
            for mutated in _mutations(text, rng):
                _only_our_error(mutated)


@FAST
@given(st.text(max_size=60))
def test_arbitrary_text_raises_only_our_error(text):
    _only_our_error(text)


# --- messages for positions that break the rules -----------------------------------

@pytest.mark.parametrize(
    "text, problem",
    [
        ("XGID=-b----E-C---eE---c-e----BB:0:0:1:00:0:0:0:0:10", "17 checkers"),
        (Position((1,) + (0,) * 25, (0, 16) + (0,) * 24).id(), "16 checkers"),
        ("1 " * 25 + "1", "player on roll has 25 checkers"),
        ("0 -2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2", "end of input"),
        ("4HPwATDgc/ABM", "a Position ID has 14 characters (A-Z, a-z, 0-9, + and /), this has 13"),
        ("4HPwATDgc/ABMA:cAkAAAAAAA!A", "expected start, a position id"),
        ("hello", "expected start, a position id"),
        ("hello world", "no valid position id"),
        ("", "empty"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", "cube owner"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:06:0:0:0:0:10", "dice"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:5:0:0:5:10", "reached the match length"),
        ("board:a:b:5:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0", "a FIBS board has 52 fields after board:, the two names and 50 numbers, separated by ':'; this has 51"),
        ("board:a:b:5:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:3:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1", "cube 3"),
    ],
)
def test_rule_breaking_input_names_input_and_problem(text, problem):
    with pytest.raises(InvalidPositionError) as info:
        parse_position(text)
    message = str(info.value)
    assert problem in message, message
    assert "\n" not in message
    assert repr(text.strip()[:20])[1:-1] in message or repr(text[:20])[1:-1] in message


def test_point_held_by_both_sides():
    # bottom checkers (A) and a top checker on the same XGID point cannot be written
    # in XGID, but a plain board or an ID can still break the rule through the model
    player = [0] * 26
    opponent = [0] * 26
    player[6], player[0] = 1, 14
    opponent[19], opponent[0] = 1, 14  # the player's point 6
    bad = Position(tuple(player), tuple(opponent))
    with pytest.raises(InvalidPositionError) as info:
        parse_position(bad.id())
    assert "held by both sides" in str(info.value) and bad.id() in str(info.value)


def test_specific_readers_refuse_other_forms():
    with pytest.raises(InvalidPositionError, match="not an xgid"):
        parse_xgid(fibs(parse_position("start")))
    with pytest.raises(InvalidPositionError, match="not a fibs board"):
        parse_fibs("start")
    with pytest.raises(InvalidPositionError, match="not a gnubg id"):
        parse_gnubg_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10")


def test_double_offered_in_xgid():
    game = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:0:-1:D:2:3:0:7:10")
    m = game.match
    assert m.doubled and m.turn == 0 and m.on_roll == 1 and m.dice == (0, 0)
    assert xgid(game) == "XGID=-b----E-C---eE---c-e----B-:1:0:-1:D:2:3:0:7:10"
