"""One slip, one problem: after a problem the replay goes on from what the
record says happened, so a single wrong play or roll is reported once.

Measured on the planted defects of gnubg's self-play matches
(tests/data/oracle/audit_sample) and on the real files of the corpus."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bgcli.formats.files import replay_file
from bgcli.scale.archive import audit_file

DATA = Path(__file__).resolve().parent / "data"
SAMPLE = DATA / "oracle" / "audit_sample"
CORPUS = DATA / "corpus"

# Alice's 64 is written three ways below; the game went on as if she played 24/14.
GAME = (" 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                 21: 24/22 6/5\n"
        "  2) 64: {play}                   43: 13/9 13/10\n"
        "  3) 52: 14/9 13/11              31: 8/5 6/5\n"
        "  4) 62: 9/3 13/11\n"
        "      Wins 1 point\n")


def found(tmp_path, play: str) -> list[tuple[int, str]]:
    path = tmp_path / "m.mat"
    path.write_text(GAME.format(play=play.ljust(5)), encoding="utf-8")
    return [(p.line, p.kind.value) for replay in replay_file(str(path)) for p in replay.problems
            if "before the match is over" not in p.message]   # a game of a longer match


def test_the_record_as_played_is_clean(tmp_path):
    assert found(tmp_path, "24/14") == []


@pytest.mark.parametrize("play, kind", [
    ("24/18", "play"),     # a sub-move dropped: the checker is on 14 for the next play all the same
    ("", "dance"),         # no play written: a play that fits the rest of the game was made
    ("20/14", "play"),     # a play that cannot be applied: the rest of the game is still checked
])
def test_a_slip_is_one_problem(tmp_path, play, kind):
    assert found(tmp_path, play) == [(6, kind)]


# Bob doubles on the row of Alice's play, and Alice takes on the next row.
CUBE_ROW = (" 5 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
            "  1) 31: 8/5 6/5                 21: 24/22 6/5\n"
            "  2) 64: 24/14                   {double}\n"
            "  3)  Takes                      43: 13/9 13/10\n"
            "  4) 52: 14/9 13/11              31: 8/5 6/5\n"
            "  5) 62: 9/3 13/11\n"
            "      Wins 2 points\n")


def test_a_bad_cell_that_is_not_a_play_costs_only_itself(tmp_path):
    """A cube cell that cannot be read (Doubels) is one syntax error; the play
    beside it on the row is kept, so the game goes on and nothing after it is
    called illegal (the take that answered it is the only echo)."""
    from bgcli.formats.mat import PartlyRead, read_row

    with pytest.raises(PartlyRead) as raised:
        read_row("  2) 64: 24/14                   Doubels => 2", 6)
    assert [(a.kind.value, a.play_text) for a in raised.value.actions] == [("move", "24/14")]
    for double, want in (("Doubles => 2", []), ("Doubels => 2", [(6, "syntax"), (7, "cube")])):
        path = tmp_path / "m.mat"
        path.write_text(CUBE_ROW.format(double=double), encoding="utf-8")
        problems = [(p.line, p.kind.value) for replay in replay_file(str(path)) for p in replay.problems
                    if "before the match is over" not in p.message]
        assert problems == want, (double, problems)


def test_a_recorded_play_the_game_goes_on_from_is_kept(tmp_path):
    # 24/20 13/6 is no play of 31, and Alice's next play starts from 20: the
    # game went on from the recorded play, not from a legal one
    text = (" 3 point match\n\n Game 1\n Alice : 0                      Bob : 0\n"
            "  1) 31: 24/20 13/6               21: 13/11 24/23\n"
            "  2) 52: 20/15 15/13\n")
    (replay,) = list(replay_file(_write(tmp_path, text)))
    assert [(p.line, p.kind.value) for p in replay.problems] == [(5, "play"), (6, "incomplete")]   # game 1 is cut


def _write(tmp_path, text: str) -> str:
    path = tmp_path / "k.mat"
    path.write_text(text, encoding="utf-8")
    return str(path)


def planted() -> list[dict]:
    return [json.loads(line) for line in (SAMPLE / "expected.jsonl").read_text().splitlines()]


def test_planted_defects_are_found_first_at_their_line_one_problem_each():
    cases = planted()
    assert len(cases) == 80
    problems = {case["file"]: audit_file(str(SAMPLE / case["file"])).problems for case in cases}
    total = sum(len(found) for found in problems.values())
    first = sum(1 for case in cases if problems[case["file"]] and problems[case["file"]][0]["line"] == case["line"])
    right_kind = sum(1 for case in cases if problems[case["file"]] and problems[case["file"]][0]["kind"] == case["kind"])
    print(f"\nplanted defects: {len(cases)}; problems reported: {total} ({total / len(cases):.3f} a defect); "
          f"found first at their line: {first}; of the kind planted: {right_kind}")
    assert first == len(cases)
    assert total <= 1.1 * len(cases)
    assert all(found for found in problems.values())


# The real files: every problem the audit reports is a real one (tests/test_transcript.py explains each).
REAL_PROBLEMS = {
    "Minchy - Llabba 13pt Backgammon Studio 2023_02_24 19_44_27.txt",
    "MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt",
}


def test_no_false_alarm_on_the_corpus():
    files = sorted(p for folder in ("galaxy", "backgammon-studio", "gnubg-text-export") for p in (CORPUS / folder).glob("*.txt"))
    assert len(files) == 57
    alarms = {p.name: r.problems for p in files if p.name not in REAL_PROBLEMS and (r := audit_file(str(p))).problems}
    print(f"\ncorpus: {len(files)} match files, {len(alarms)} with a false alarm")
    assert alarms == {}
