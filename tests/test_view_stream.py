"""bgcli view as its files are replayed: the page of a long match holds a few games at a time.

The rows of the games replayed are written out each time a page holds ``held`` actions
(bgcli.render.view.Page); whatever the split, the page is the one built from the whole replays,
byte for byte, even when a problem comes after its row was written (the lines a file cannot
read are reported at its end) or a second match makes the page name every match."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, settings, strategies as st

import bgcli.render.view as view
from bgcli.formats.files import iter_parts, replay_parts
from bgcli.match.events import Problem, ProblemKind
from bgcli.render.view import Page, match_html
from conftest import DATA, SAMPLES
from test_view import replays_of, steps_of

# files whose pages, written a game at a time, meet every case: problems that come after their
# row was written (one after a problem the row was written with), several matches, plays judged
FILES = [DATA / "matchfiles" / "bad_lines.mat", DATA / "matchfiles" / "bbgt_two_matches.mat",
         DATA / "matchfiles" / "snowie_illegal.mat", DATA / "gammonview" / "xg" / "hQ8sVn2LbTdF4wRm.xg",
         SAMPLES / "flawed_5pt.mat", SAMPLES / "sp05001_3pt.mat"]


def streamed(paths, held: int, title: str = "t", home: str = "right") -> tuple[str, Page]:
    page = Page(title, home, held=held)
    for path in paths:
        for _ in replay_parts(iter_parts(str(path)), page.visitor):
            pass
    pieces: list[str] = []
    page.write(pieces.append)
    return "".join(pieces), page


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("held", [1, 40, 10**9])
def test_a_page_written_a_few_games_at_a_time_is_the_page_of_the_whole_replay(path, held):
    text, page = streamed([path], held)
    assert text == match_html(replays_of(path), "t")
    assert page.actions == sum(len(r.events) for r in replays_of(path))


def test_the_cases_the_streamed_pages_meet_are_met():
    """The files above do meet what they are there for (else the test before proves less)."""
    late = {path.name: streamed([path], 1)[1].late for path in FILES}
    assert late["hQ8sVn2LbTdF4wRm.xg"] and any(late["hQ8sVn2LbTdF4wRm.xg"].values())   # written with one, given more
    assert late["bad_lines.mat"]
    assert len(streamed([DATA / "matchfiles" / "bbgt_two_matches.mat"], 1)[1].matches) == 2


def test_several_files_on_one_page_written_a_game_at_a_time():
    paths = [SAMPLES / "flawed_5pt.mat", SAMPLES / "sp05001_3pt.mat"]
    text, _ = streamed(paths, 1, "several", "left")
    assert text == match_html([r for path in paths for r in replays_of(path)], "several", home="left")


def test_a_page_holds_at_most_its_actions_and_a_game(monkeypatch):
    """The rows of the games replayed are written out once ``held`` actions are reached: the
    page never holds more than that and one game's actions (what keeps a session's page small)."""
    sizes = []
    real = Page._rows

    def rows(self, match, events, final):
        sizes.append(len(events))
        return real(self, match, events, final)

    monkeypatch.setattr(Page, "_rows", rows)
    path = SAMPLES / "sp05001_3pt.mat"
    longest = max(sum(1 for e in r.events if e.game == g) for r in replays_of(path) for g in {e.game for e in r.events})
    streamed([path], 30)
    assert len(sizes) > 2 and max(sizes) < 30 + longest and sum(sizes) == sum(len(r.events) for r in replays_of(path))


KINDS = st.sampled_from(list(ProblemKind))
TEXTS = st.text(st.characters(blacklist_categories=["Cs"]), max_size=30)
PROBLEMS = st.lists(st.builds(Problem, st.integers(1, 99), st.integers(0, 9), st.integers(0, 9), TEXTS, KINDS, TEXTS),
                    min_size=1, max_size=4)
STEPS = steps_of(replays_of(SAMPLES / "flawed_5pt.mat")) + steps_of(replays_of(SAMPLES / "sp05001_3pt.mat"))[:200]


def judged_as(step, mark: str) -> dict:
    """A rating's decision on a step's row, marked ``mark`` ('' for no error)."""
    event = step.event
    decision = SimpleNamespace(kind=SimpleNamespace(value="play"), error=0.1 if mark else 0.0,
                               mark=SimpleNamespace(value=mark), verdict="error", is_cube=False, action="",
                               best="24/18", played="13/7", equity=0.25)
    return {view._judged_key(step.replay.number, event): [decision]} if event is not None else {}


@settings(max_examples=200, deadline=None)
@given(index=st.integers(0, len(STEPS) - 1), written=st.integers(0, 4), problems=PROBLEMS,
       mark=st.sampled_from(["", "doubtful", "bad", "very bad"]))
def test_a_row_given_more_problems_reads_as_the_row_written_with_them(index, written, problems, mark):
    """view._marked against its owner, view._row: a row written with some problems, given more,
    reads as the row _row writes with them all (every kind of row, with and without a mark)."""
    from dataclasses import replace

    step = STEPS[index]
    names = ("gnubg", "root")
    judged = judged_as(step, mark) if mark else None
    first = problems[:written]
    before = view._row(replace(step, problems=list(first)), names, judged)
    after = view._row(replace(step, problems=list(problems)), names, judged)
    assert view._marked(before, first, problems) == after
