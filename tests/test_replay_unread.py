"""Work the replay leaves out for a visitor that does not read it (MatchVisitor.reads_judgement False:
the dice audit's), each piece with a test that the replay is otherwise the same: the same plays
judged legal, the same positions, the same rolls counted."""
from __future__ import annotations

from pathlib import Path

import pytest

from bgcli.core.rules import Rules
from bgcli.formats import mat
from bgcli.judging import dice
from bgcli.match import replay_match, resync
from bgcli.match.events import ProblemKind

ROOT = Path(__file__).resolve().parents[1]
# a real file whose game 12 has a play no roll makes ('33: 13/3 7/4', line 232) that the rest of the game fits
# as written: the replay goes on from it, and the audit searches the roll's legal plays for a rival
GAMMONVIEW = ROOT / "tests" / "data" / "gammonview" / "mat" / "rK7pXm4TqLb9NzWd.mat"


class _Tally(dice.DiceTally):
    """The dice tally, reading the judgement or not, that keeps each roll event (the position before it)
    and the problems it is told."""

    def __init__(self, judges: bool) -> None:
        super().__init__("test")
        self.reads_judgement = judges
        self.rolls: list[tuple] = []
        self.problems: list = []

    def event(self, event) -> None:
        self.rolls.append((event.kind, event.side, event.dice, event.before.position))
        super().event(event)

    def problem(self, problem) -> None:
        self.problems.append(problem)


def _tallied(text: str, judges: bool) -> tuple[_Tally, tuple]:
    tally = _Tally(judges)
    for record in mat.iter_matches(text.splitlines(keepends=True)):
        replay_match(record, 1, Rules(match_length=11), visitor=tally)
    return tally, ([unit.to_dict() for unit in tally.finish()], tally.rolls)


def _fits(monkeypatch) -> list[int]:
    """The look-aheads' fits the replay asks for, each noted by the budget it starts with."""
    asked: list[int] = []
    real = resync.Resync.fit
    monkeypatch.setattr(resync.Resync, "fit", lambda self, *args: asked.append(self.budget) or real(self, *args))
    return asked


def test_a_visitor_that_reads_no_problem_leaves_out_the_rivals_of_a_play_the_rest_fits(monkeypatch):
    """A wrong play that the rest of the game fits as written is where the replay goes on from, whatever
    the legal plays of its roll fit (none can fit further); the audit tries them only to word its
    problem (whether another roll fits the play: Resync.written_fits_best). A visitor that reads no
    problem is spared them: one fit (the play as written) in place of one for each rival tried, and the
    same rolls in the same positions."""
    text = GAMMONVIEW.read_text()
    asked = _fits(monkeypatch)
    judging, counted = _tallied(text, True)
    judged = len(asked)
    assert any(p.line == 232 and p.kind is ProblemKind.PLAY for p in judging.problems)
    asked.clear()
    _, spared = _tallied(text, False)
    assert judged > 10 and len(asked) == 1
    assert spared == counted


@pytest.mark.parametrize("budget", [12, 15, 20])
def test_the_rivals_left_out_leave_the_next_look_ahead_its_budget(monkeypatch, budget):
    """The rivals a visitor that reads no problem is spared still take their part of the game's
    look-ahead budget, before the game's next look-ahead (Resync.owed): with a budget that runs out
    there (a look-ahead of 5 plays, a budget of a few, a second wrong play in the game whose look-ahead
    decides where the game goes on), the replay goes on from the same positions either way. Without the
    budget taken, the second look-ahead goes further than the audit's and the bear-off is counted in
    other positions."""
    monkeypatch.setattr(resync, "LOOKAHEAD", 5)
    monkeypatch.setattr(resync, "BUDGET", budget)
    text = GAMMONVIEW.read_text()
    assert text.count("13: 6/5 6/3") == 1
    text = text.replace("13: 6/5 6/3", "13: 6/5 6/2")   # line 237: a second wrong play in game 12
    judging, counted = _tallied(text, True)
    assert {232, 237} <= {p.line for p in judging.problems}
    _, spared = _tallied(text, False)
    assert spared == counted


def test_a_visitor_that_reads_no_judgement_is_spared_the_score_lines_checks(monkeypatch):
    """The checks of the tags and of the score lines (a score line against the games before it, the
    Crawford mark, a game after the match's end) and the running score's bookkeeping that only they read
    (what a writer's running score leaves out: the automatic doubles of each game counted) make nothing
    but problems and the score: a visitor that reads none of these (the dice tally) is spared them, and
    counts the same rolls in the same positions. Here game 2's score line is a slip (gnubg 2, not 1)."""
    from bgcli.match import replay

    source = (ROOT / "tests" / "data" / "oracle" / "selfplay" / "sp05001_3pt.mat").read_text()
    games = source.split(" Game ")
    assert games[2].count(" gnubg : 1 ") == 1
    games[2] = games[2].replace(" gnubg : 1 ", " gnubg : 2 ")
    text = " Game ".join(games)
    asked: list[str] = []
    for name in ("score_leaves_out", "tag_problems"):
        real = getattr(replay, name)
        monkeypatch.setattr(replay, name, lambda *args, _name=name, _real=real: asked.append(_name) or _real(*args))
    real_written = replay.MatchReplayer.written_score
    monkeypatch.setattr(replay.MatchReplayer, "written_score",
                        lambda self: asked.append("written_score") or real_written(self))
    judging, counted = _tallied(text, True)
    assert any(p.kind is ProblemKind.SCORE for p in judging.problems)
    assert {"score_leaves_out", "tag_problems", "written_score"} <= set(asked)
    asked.clear()
    _, spared = _tallied(text, False)
    assert asked == []
    assert spared == counted
