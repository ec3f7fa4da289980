"""The library's objects as text and pictures: ``str()`` of a play, a
position and a match is their canonical text; a notebook draws a position
(``_repr_svg_``) and a match's summary (``_repr_html_``), as python-chess does."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, strategies as st

import bgcli
from bgcli.core.generator import legal_plays
from bgcli.core.notation import parse_play_text, play_text
from bgcli.core.position import Position

from conftest import SAMPLES

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


@st.composite
def positions(draw):
    """Positions reached from the start by a few legal plays, each side in turn."""
    position = Position.start()
    for _ in range(draw(st.integers(0, 8))):
        plays = legal_plays(position, draw(st.sampled_from(ROLLS)))
        if plays:
            position = draw(st.sampled_from(plays)).result
        position = position.swap()
    return position


def test_str_of_a_play_is_its_canonical_notation():
    plays = legal_plays(Position.start(), (2, 1))
    assert "24/23 24/22" in [str(p) for p in plays] and "24/21" in [str(p) for p in plays]
    assert str(plays[0]) == bgcli.play_text(plays[0])


@given(positions(), st.sampled_from(ROLLS))
def test_str_of_every_play_is_play_text(position, dice):
    for play in legal_plays(position, dice):
        assert str(play) == play_text(play)
        assert f"{play}" == play_text(play, "gnubg")


def _chains(text: str, separator: str) -> list[tuple[str, str]]:
    """The (first, last) points of each checker's path, hit marks dropped, repeats written out."""
    out = []
    for move in text.replace("*", "").split():
        count = 1
        found = re.fullmatch(r"(.*)\((\d)\)", move)
        if found:
            move, count = found.group(1), int(found.group(2))
        points = move.split(separator)
        out += [(points[0], points[-1])] * count
    return out


@given(positions(), st.sampled_from(ROLLS))
def test_fibs_style_writes_the_checkers_in_the_order_the_gnubg_style_does(position, dice):
    for play in legal_plays(position, dice):
        fibs = play_text(play, "fibs").split()
        # one checker's consecutive steps, as gnubg merges them
        merged: list[list[str]] = []
        for step in fibs:
            start, end = step.split("-")
            if merged and merged[-1][-1] == start and start != "off":
                merged[-1].append(end)
            else:
                merged.append([start, end])
        gnubg = _chains(str(play), "/")
        # gnubg merges a step onto a chain only from the point where it ended; the FIBS steps in the same order
        assert [(m[0], m[-1]) for m in merged] == gnubg, (play_text(play, "fibs"), str(play))
        assert sorted(parse_play_text(play_text(play, "fibs")).hops()) == sorted((s.start, s.end) for s in play.steps)


def test_fibs_of_the_start_with_21_follows_gnubg():
    texts = {str(p): play_text(p, "fibs") for p in legal_plays(Position.start(), (2, 1))}
    assert texts["24/23 24/22"] == "24-23 24-22"
    assert texts["24/23 13/11"] == "24-23 13-11"
    assert texts["24/21"] == "24-22 22-21"


@given(positions())
def test_str_of_a_position_is_its_position_id(position):
    assert str(position) == position.id()
    assert Position.from_id(str(position)) == position


def test_str_of_a_match_is_the_mat_file_and_reads_back_the_same():
    record = bgcli.read_any(SAMPLES / "sp05001_3pt.mat")[0]
    text = str(record)
    assert text == bgcli.export_text([record], "mat") and " 3 point match" in text
    from bgcli.formats.mat import read_matches

    again = read_matches(text).matches[0]
    assert [g.actions and [a.play_text for a in g.actions] for g in again.games] == \
        [g.actions and [a.play_text for a in g.actions] for g in record.games]


def test_a_notebook_draws_a_position_and_a_game_state():
    from bgcli.render.board import svg_board

    start = Position.start()
    assert start._repr_svg_() == svg_board(start) and start._repr_svg_().startswith("<svg")
    state = bgcli.parse_position("4HPwATDgc/ABMA:cAkAAAAAAAAA")
    assert state._repr_svg_() == svg_board(state)


def test_a_notebook_shows_a_matchs_summary():
    record = bgcli.read_any(SAMPLES / "sp05001_3pt.mat")[0]
    html = record._repr_html_()
    assert html.startswith("<table") and "gnubg - root, 3 point match, 4 games" in html
    assert html.count("<tr>") == 1 + len(record.games) and "gnubg wins 1 point" in html


@pytest.mark.parametrize("name", ["<b>x</b>"])
def test_the_summary_escapes_names(name):
    from dataclasses import replace

    record = bgcli.read_any(SAMPLES / "sp05001_3pt.mat")[0]
    games = tuple(replace(g, players=(name, "root")) for g in record.games)
    assert "<b>" not in replace(record, games=games)._repr_html_()


def test_a_notebook_shows_a_replayed_matchs_summary():
    replay = next(iter(bgcli.replay_file(SAMPLES / "flawed_5pt.mat")))
    html = replay._repr_html_()
    assert html.startswith("<table") and f"{replay.score[0]}-{replay.score[1]}, gnubg wins; 1 problem" in html
    assert html.count("<tr>") == 1 + len(replay.games())
