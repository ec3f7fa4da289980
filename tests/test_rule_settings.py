"""Rule settings are described once (bgcli.core.rules.SETTINGS): their tags,
JSON keys and options read and write the same rules in every format."""
from __future__ import annotations

import json
from dataclasses import fields, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.cli.common import rules_from
from bgcli.core.rules import PROFILES, RULE_TAGS, SETTINGS, Rules, Variation, tag_problems
from bgcli.formats.files import export_text, read_any, replay_file
from bgcli.formats.mat import read_matches

MONEY = (" 0 point match\n\n Game 1\n Ann : 0                              Bob : 0\n"
         "  1) 31: 8/5 6/5                      Doubles => 2\n"
         "  2)  Beavers => 4                    21: 13/11 24/23\n"
         "  3)  Doubles => 8                    Drops\n"
         "      Wins 4 points\n")


def value_of(setting):
    if setting.kind is Variation:
        return st.sampled_from(list(Variation))
    if setting.kind is bool:
        return st.booleans()
    # a cube limit of 1024 and more says "no limit" in files: tags() leaves it out
    high = 1023 if setting.field == "cube_limit" else setting.high
    return st.integers(setting.low, high)


@st.composite
def any_rules(draw):
    length = draw(st.sampled_from([0, 0, 1, 5, 7]))
    rules = Rules(match_length=length).with_profile(draw(st.sampled_from(sorted(PROFILES))))
    return replace(rules, **{s.field: draw(value_of(s)) for s in SETTINGS})


def stated(rules: Rules) -> dict:
    """What a file can say of ``rules``: the settings that can matter."""
    return {s.field: getattr(rules, s.field) for s in SETTINGS if s.matters(rules)} | {"profile": rules.profile}


@settings(max_examples=300)
@given(any_rules())
def test_tags_round_trip(rules):
    tags = rules.tags()
    assert tag_problems(tags) == []
    assert {key.lower() for key in tags} <= RULE_TAGS
    assert stated(Rules(match_length=rules.match_length).with_tags(tags)) == stated(rules)


@settings(max_examples=300)
@given(any_rules(), st.data())
def test_every_tag_reads_what_it_writes(rules, data):
    for setting in SETTINGS:
        value = getattr(rules, setting.field)
        assert setting.read(setting.write(value)) == value
        assert setting.read(setting.write(value).upper()) == value


def test_json_keys_are_the_fields_and_every_setting_has_a_tag():
    assert list(Rules().to_dict()) == [f.name for f in fields(Rules) if f.name != "match_length"]
    assert {s.field for s in SETTINGS} | {"profile"} == set(Rules().to_dict())
    assert len({s.tag.lower() for s in SETTINGS}) == len(SETTINGS)


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.option], ids=lambda s: s.option)
def test_every_option_sets_its_setting(setting):
    name = setting.option.lstrip("-").replace("-", "_")
    if setting.flag:
        given_value, expected = True, setting.option_sets
    elif setting.words:
        given_value, expected = setting.words[0], True
    else:
        given_value = expected = setting.high
    assert getattr(rules_from(**{name: given_value}), setting.field) == expected
    assert rules_from() == Rules()


def test_unknown_rule_options_are_refused():
    with pytest.raises(TypeError):
        rules_from(beaver=True)
    with pytest.raises(ValueError):
        Rules.from_options(beaver=True)


ROUND_TRIPS = [
    Rules(beavers=True), Rules(auto_doubles=2), Rules(white_first=True), Rules(beavers=True, auto_doubles=3, jacoby=True),
    Rules(backgammon_counts=2, cube_limit=64, draws=True), Rules().with_profile("plyyard"),
    replace(Rules().with_profile("korean"), white_first=True),
]


@pytest.mark.parametrize("to", ["json", "mat", "sgf"])
@pytest.mark.parametrize("rules", ROUND_TRIPS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.tags().items()))
def test_the_rules_a_file_is_written_with_read_back_in_every_format(tmp_path, to, rules):
    # the drift: a JSON document written with beavers, automatic doubles or
    # White first read back without them (the .mat file had no tag for them)
    records = read_matches(MONEY).matches
    path = tmp_path / f"out.{to}"
    path.write_text(export_text(records, to, rules=rules), encoding="utf-8")
    (replay,) = replay_file(str(path))
    assert stated(replay.rules) == stated(rules)


def test_a_json_document_with_beavers_reads_back_without_problems(tmp_path):
    records = read_matches(MONEY).matches
    text = export_text(records, "json", rules=Rules(beavers=True))
    assert json.loads(text)["rules"]["beavers"] is True
    path = tmp_path / "m.json"
    path.write_text(text, encoding="utf-8")
    (replay,) = replay_file(str(path))
    assert replay.rules.beavers and replay.problems == []
    assert [r.points for r in replay.results] == [4]
    (record,) = read_any(str(path))
    assert record.tags.get("Beavers") == "On"


# --- one Rules value, carried by the match state -----------------------------------------

def test_the_match_state_has_no_setting_of_its_own():
    """Each rule setting is one field with one default: the match state
    carries a Rules value, and no field of its own repeats one of its
    settings (Jacoby, beavers, the cube limit and the match length were once
    fields of both, with other defaults)."""
    from bgcli.core.state import MatchState

    state_fields = {f.name for f in fields(MatchState)}
    settings_ = {f.name for f in fields(Rules)} - {"crawford"}   # MatchState.crawford: this game is the Crawford game
    assert not state_fields & settings_
    assert MatchState().rules == Rules()
    assert MatchState(rules=Rules(match_length=7)).match_length == 7


def test_a_position_alone_is_read_with_gnubg_session_rules_and_a_match_with_the_file_rules(tmp_path):
    """A bare position is gnubg's new money session (Jacoby on, as its Match
    ID cAkAAAAAAAAA says); a recorded session starts from Rules() (Jacoby off)
    and its events' states carry the replay's rules."""
    from bgcli.core.ids import match_id, parse_position

    alone = parse_position("4HPwATDgc/ABMA")
    assert alone.match.rules == Rules(jacoby=True) and match_id(alone.match) == "cAkAAAAAAAAA"
    path = tmp_path / "money.mat"
    path.write_text(MONEY)
    replay = next(replay_file(path, Rules(beavers=True)))
    states = {event.before.match.rules for event in replay.events}
    assert states == {replay.rules} and replay.rules.beavers and not replay.rules.jacoby


@pytest.mark.parametrize("limit,max_cube", [(0, 10), (1, 0), (64, 6), (2048, 11)])
def test_the_xgid_maxcube_is_the_rules_cube_limit(limit, max_cube):
    from bgcli.core.ids import describe, parse_xgid, xgid
    from bgcli.core.position import Position
    from bgcli.core.state import GameState, MatchState

    game = GameState(Position.start(), MatchState(rules=Rules(cube_limit=limit)))
    text = xgid(game)
    assert text.endswith(f":{max_cube}")
    assert parse_xgid(text).match.rules.cube_limit == limit
    assert describe(parse_xgid(text))["cube_limit"] == limit


def test_no_cube_limit_writes_an_xgid_that_holds_a_cube_above_1024():
    """No limit is XG's maxcube 10, or the cube's own above it: an XGID of a
    4096 cube is read back (it once said maxcube 10 and could not be)."""
    from bgcli.core.ids import parse_xgid, xgid
    from bgcli.core.position import Position
    from bgcli.core.state import GameState, MatchState

    game = GameState(Position.start(), MatchState(cube=4096, cube_owner=0))
    assert xgid(game).endswith(":12:-1:1:00:0:0:0:0:12")
    assert parse_xgid(xgid(game)).match.cube == 4096
