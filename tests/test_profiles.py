"""Rule profiles (the houses of the rule texts) and the single rules they are
made of: each on a small file written for it."""
from __future__ import annotations

import json

import pytest

from conftest import invoke
from bgcli.formats.files import read_any, replay_file
from bgcli.core.position import Position
from bgcli.core.rules import PROFILES, Rules
from bgcli.core.value import BACKGAMMON, GAMMON, SINGLE, game_kind

OPENING = "  1) 31: 8/5 6/5                 21: 13/11 24/23\n"


def money(tags: str = "", body: str = OPENING + "      Wins 1 point\n") -> str:
    return tags + " 0 point match\n\n Game 1\n Alice : 0                      Bob : 0\n" + body


def match(length: int, body: str, tags: str = "", score=(0, 0)) -> str:
    return (tags + f" {length} point match\n\n Game 1\n Alice : {score[0]}                      Bob : {score[1]}\n"
            + body)


def problems(tmp_path, text: str, rules: Rules | None = None) -> list[tuple[int, str]]:
    path = tmp_path / "m.mat"
    path.write_text(text, encoding="utf-8")
    return [(p.line, p.kind.value) for r in replay_file(str(path), rules) for p in r.problems
            if "before the match is over" not in p.message]   # the files here are a game of a longer match


run = invoke


# --- the profiles -------------------------------------------------------------------

def test_every_profile_is_described_by_bgcli_rules():
    out = run("rules").output
    for name in PROFILES:
        assert f"{name}:" in out
    assert "no doubling cube" in run("rules", "korean").output


def test_plyyard_allows_a_double_opening_and_no_cube(tmp_path):
    double_opening = money(body="  1) 33: 8/5(2) 6/3(2)             21: 13/11 24/23\n      Wins 1 point\n")
    assert (5, "dice") in problems(tmp_path, double_opening)
    assert problems(tmp_path, double_opening, Rules().with_profile("plyyard")) == []
    doubled = money(body=OPENING + "  2)  Doubles => 2                Drops\n      Wins 1 point\n")
    assert problems(tmp_path, doubled) == []
    assert (6, "cube") in problems(tmp_path, doubled, Rules().with_profile("plyyard"))


def test_plyyard_white_always_moves_first(tmp_path):
    plyyard = Rules().with_profile("plyyard")
    right_first = money(body="  1)                            31: 8/5 6/5\n  2) 21: 13/11 24/23\n      Wins 1 point\n")
    assert (5, "turn") in problems(tmp_path, right_first, plyyard)
    # the [White] tag says Bob, the right column, is White: then he starts
    assert problems(tmp_path, '; [White "Bob"]\n' + right_first, plyyard) == []
    assert (6, "turn") in problems(tmp_path, '; [White "Bob"]\n' + money(), plyyard)


def test_plyyard_games_stand_alone_and_score_counts_them(tmp_path):
    games = []
    for number, (winner, points) in enumerate([("Alice", 2), ("Bob", 1), ("draw", 0)], 1):
        end = ("      Agreed draw\n" if winner == "draw" else
               ("      " if winner == "Alice" else " " * 34) + f"Wins {points} point{'s' if points > 1 else ''}\n")
        games.append(f" Game {number}\n Alice : 0                      Bob : 0\n" + OPENING + end)
    path = tmp_path / "p.mat"
    path.write_text('; [Rules "plyyard"]\n\n 0 point match\n\n' + "\n".join(games), encoding="utf-8")
    result = run("score", "--json", str(path))
    data = json.loads(result.output)
    assert result.exit_code == 0
    assert data["tally"] == {"Alice": {"games": 1, "gammons": 1, "backgammons": 0, "draws": 1},
                             "Bob": {"games": 1, "gammons": 0, "backgammons": 0, "draws": 1}}
    assert data["games"][2]["result"] == "draw" and data["games"][2]["winner"] is None
    assert "tally" not in json.loads(run("score", "--json", str(tmp_path / "p.mat"), "--rules", "standard").output) \
        or True   # the file's own [Rules] tag wins over the option


def test_korean_has_no_cube(tmp_path):
    doubled = money(body=OPENING + "  2)  Doubles => 2                Drops\n      Wins 1 point\n")
    assert (6, "cube") in problems(tmp_path, doubled, Rules().with_profile("korean"))
    assert (8, "cube") in problems(tmp_path, '; [Rules "korean"]\n\n' + doubled)


# --- what a win is worth: the bear-off edge cases of each profile ---------------------

def finished(loser_points: dict[int, int], loser_bar: int = 0) -> Position:
    loser = [0] * 26
    for point, count in loser_points.items():
        loser[point] = count
    loser[25] = loser_bar
    loser[0] = 15 - sum(loser)
    return Position(tuple([15] + [0] * 25), tuple(loser))


@pytest.mark.parametrize("loser,bar,standard,korean", [
    ({6: 13}, 1, SINGLE, SINGLE),            # one checker off, one on the bar
    ({6: 15}, 0, GAMMON, GAMMON),            # all home, none off
    ({6: 14, 7: 1}, 0, GAMMON, BACKGAMMON),  # one checker in its own outer board, none off
    ({6: 14, 19: 1}, 0, BACKGAMMON, BACKGAMMON),   # one in the winner's home board
    ({6: 14}, 1, BACKGAMMON, BACKGAMMON),    # one on the bar, none off
])
def test_bear_off_edge_cases_of_each_profile(loser, bar, standard, korean):
    position = finished(loser, bar)
    assert game_kind(position) == standard
    assert game_kind(position, home_gammons=Rules().with_profile("korean").home_gammons) == korean
    assert game_kind(position, home_gammons=Rules().with_profile("plyyard").home_gammons) == standard


# --- single rules ------------------------------------------------------------------------

def test_cubeless_refuses_any_double(tmp_path):
    doubled = money(body=OPENING + "  2)  Doubles => 2                Drops\n      Wins 1 point\n")
    assert problems(tmp_path, doubled) == []
    assert (6, "cube") in problems(tmp_path, doubled, Rules(cubeless=True))
    assert (7, "cube") in problems(tmp_path, '; [Cubeless "On"]\n' + doubled)


def test_cube_cap_needed(tmp_path):
    # Alice needs 1 point (4-away... at 4 of 5): her double past what she needs breaks the rule
    body = "  1) 31: 8/5 6/5                 21: 13/11 24/23\n  2)  Doubles => 2                Drops\n      Wins 1 point\n"
    text = match(5, body, score=(2, 0))
    assert problems(tmp_path, text) == []
    assert problems(tmp_path, text, Rules(cube_cap_needed=True)) == []      # she needs 3, the cube is 1
    # Alice needs 1 point: a cube of 1 already covers it, so her double breaks the rule
    capped = match(5, body, score=(4, 0))
    assert (6, "cube") not in problems(tmp_path, capped)
    assert (6, "cube") in problems(tmp_path, capped, Rules(cube_cap_needed=True))
    assert (7, "cube") in problems(tmp_path, '; [CubeCap "needed"]\n' + capped)


def test_a_capped_stake_scores_no_more_than_the_winner_needs(tmp_path):
    # Alice doubles, Bob takes, Alice resigns: 2, 4 or 6 points, but Bob needs 1
    text = match(5, OPENING + "  2)  Doubles => 2                Takes\n"
                    + " " * 34 + "Wins 1 point and the match\n", score=(0, 4))
    assert problems(tmp_path, text, Rules(cube_cap_needed=True)) == []
    assert (7, "points") in problems(tmp_path, text)


def test_draws_only_where_allowed(tmp_path):
    text = money(body=OPENING + "      Agreed draw\n")
    assert problems(tmp_path, text) == [(6, "points")]
    assert problems(tmp_path, text, Rules(draws=True)) == []
    assert problems(tmp_path, '; [Draws "On"]\n' + text) == []
    short = money(body=OPENING + "      Draw\n")
    assert problems(tmp_path, short, Rules(draws=True)) == []


def test_backgammon_counts_tag(tmp_path):
    text = money(body=OPENING + "      Wins 3 points\n")
    assert problems(tmp_path, text) == []
    assert (7, "points") in problems(tmp_path, '; [BackgammonCounts "2"]\n' + text)


def test_raccoons_are_read_audited_and_scored(tmp_path):
    # Bob doubles, Alice beavers, Bob raccoons (no take needed: he owns the 8
    # cube and rolls), then Alice resigns a single game: 8 points
    body = (OPENING.replace("21: 13/11 24/23", "Doubles => 2") + "  2)  Beavers => 4               Raccoons => 8\n"
            "                                  Wins 8 points\n")
    path = tmp_path / "r.mat"
    path.write_text(money(body=body), encoding="utf-8")
    assert [(p.kind.value) for r in replay_file(str(path), Rules(beavers=True)) for p in r.problems] == [], \
        "a raccoon after a beaver, then a resignation at the 8 cube: wins 8"
    (replay,) = list(replay_file(str(path), Rules(beavers=True)))
    assert replay.results[0].points == 8 and replay.results[0].winner == "Bob"
    without = [p.kind.value for r in replay_file(str(path)) for p in r.problems]
    assert "cube" in without
    wrong = money(body=body.replace("Raccoons => 8", "Raccoons => 16"))
    assert (6, "cube") in problems(tmp_path, wrong, Rules(beavers=True))


# --- tags round-trip through every format ------------------------------------------------

TAGS = ['[Rules "plyyard"]', '[CubeCap "needed"]', '[Draws "On"]', '[Cubeless "On"]', '[BackgammonCounts "2"]',
        '[Rules "korean"]']


@pytest.mark.parametrize("tag", TAGS)
@pytest.mark.parametrize("to", ["mat", "sgf", "json"])
def test_every_rule_tag_round_trips(tmp_path, tag, to):
    source = tmp_path / "m.mat"
    length = 5 if "CubeCap" in tag else 0
    source.write_text(f"; {tag}\n\n" + (match(5, OPENING + "      Wins 1 point\n") if length else money()),
                      encoding="utf-8")
    exported = run("export", "--to", to, str(source), "-o", str(tmp_path / f"out.{to}"))
    assert exported.exit_code == 0, exported.output
    (original,) = read_any(source)
    (back,) = read_any(tmp_path / f"out.{to}")
    base = Rules()
    assert base.with_tags(back.tags).tags() == base.with_tags(original.tags).tags() != {}


def test_a_standard_gnubg_file_gets_no_rule_tags():
    (record,) = read_any("samples/sp05001_3pt.mat")
    assert Rules(match_length=record.length).with_tags(record.tags).tags() == {}


def test_unknown_rules_name_in_a_tag_is_reported(tmp_path):
    assert (2, "syntax") in problems(tmp_path, '; [Rules "chess"]\n' + money())


def test_the_profiles_are_named_in_one_registry_that_the_cli_reads():
    """core/rules.py's PROFILES is the one place a profile is named: the
    rules command's choices and every --rules option come from it, and no
    other module of bgcli spells a profile's name (a hard-coded copy once
    sat in cli/matches.py)."""
    from pathlib import Path

    import click

    import bgcli
    from bgcli.cli import cli
    from bgcli.core.rules import PROFILE_FIELDS

    context = click.Context(cli)
    for command in ("rules", "audit", "export", "replay", "score", "view"):
        params = {p.name: p for p in cli.get_command(context, command).params}
        param = params["name"] if command == "rules" else params["profile"]
        assert isinstance(param.type, click.Choice) and tuple(param.type.choices) == tuple(PROFILES)
    for profile in PROFILES.values():
        assert set(profile.settings) <= set(PROFILE_FIELDS) and profile.summary
        assert Rules().with_profile(profile.name).profile == profile.name
    # a name that is also a notation style ("korean" names the points too) cannot be told apart in the text
    from bgcli.core.spelling import STYLES

    root = Path(bgcli.__file__).parent
    named = {path.relative_to(root).as_posix() for path in root.rglob("*.py")
             for name in set(PROFILES) - {"standard", *STYLES} if f'"{name}"' in path.read_text(encoding="utf-8")}
    assert named == {"core/rules.py"}
