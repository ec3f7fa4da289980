""".gam files with no header (bgcli/formats/mat.py), judged against GNU
Backgammon's ``import gam`` / ``import empire`` (both its .gam reader).

gnubg's ``export game gam`` writes one game: a line of the two names, then
the move rows and the result. GammonEmpire's game file is such games one
after another (``empire/sp05007_money.gam``: the first three games of a
self-play session, each as gnubg exports it; gnubg_export.py made it in gnubg,
read it back with ``import empire`` and exported it as .mat,
``sp05007_money.gnubg.mat``). bgcli reads every game, a money session.
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from conftest import DATA, committed
from test_real_files import replayed

from bgcli.formats.files import read_any, replay_file

EMPIRE = committed(DATA / "imports" / "empire" / "sp05007_money.gam")


def test_a_gammonempire_file_replays_as_gnubg_imports_it():
    mine = replayed(str(EMPIRE))
    assert mine == replayed(str(committed(EMPIRE.with_name("sp05007_money.gnubg.mat"))))
    assert [p.message for replay in replay_file(str(EMPIRE)) for p in replay.problems] == []
    [record] = read_any(str(EMPIRE))
    assert record.length == 0 and [g.players for g in record.games] == [("gnubg", "root")] * 3


def _games(text: str) -> list[str]:
    """The games of the sample, each as gnubg's ``export game gam`` wrote it (from its line of names)."""
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.strip() == lines[0].strip()]
    return ["".join(lines[a:b]) for a, b in zip(starts, starts[1:] + [len(lines)])]


GAMES = _games(EMPIRE.read_text(encoding="utf-8"))


@settings(max_examples=30, deadline=None)
@given(order=st.lists(st.sampled_from(range(len(GAMES))), min_size=1, max_size=5),
       between=st.sampled_from(["", "\n", "\n\n"]))
def test_each_line_of_names_after_a_result_starts_the_next_game(tmp_path_factory, order, between):
    path = tmp_path_factory.mktemp("gam") / "session.gam"
    path.write_text(between.join(GAMES[i] for i in order), encoding="utf-8")
    [record] = read_any(str(path))
    assert not record.errors
    assert len(record.games) == len(order)
    # each game reads as it does alone: the same plays, cube actions and result
    alone = [_actions(tmp_path_factory.mktemp("one"), GAMES[i]) for i in order]
    assert [[(a.side, a.kind, a.dice, a.play_text, a.points) for a in game.actions] for game in record.games] == alone


def _actions(folder, text: str) -> list:
    path = folder / "game.gam"
    path.write_text(text, encoding="utf-8")
    [record] = read_any(str(path))
    [game] = record.games
    return [(a.side, a.kind, a.dice, a.play_text, a.points) for a in game.actions]


def test_a_line_of_names_in_the_middle_of_a_game_is_still_an_error(tmp_path):
    # only a game's result ends it: two names before it are a row that does not read
    rows = GAMES[0].splitlines(keepends=True)
    path = tmp_path / "a.gam"
    path.write_text("".join(rows[:4]) + GAMES[1].splitlines(keepends=True)[0] + "".join(rows[4:]), encoding="utf-8")
    [record] = read_any(str(path))
    assert len(record.games) == 1 and [e.line for e in record.errors] == [5]
