"""Engines are untrusted input too: whatever an engine answers (not JSON, JSON
nested deeper than a parser can follow, a flood without a newline), bgcli gives
one line naming the engine and the position, never a traceback, and never holds
more of an answer than any real answer takes (bgcli.engines.trust.answer,
trust.ANSWER_LIMIT)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.cli import cli
from bgcli.core.position import Position
from bgcli.core.state import GameState
from bgcli.engines import trust
from bgcli.engines.gnubg import GnubgEngine
from bgcli.engines.protocol import Level
from bgcli.errors import EngineError
from fake_engine import fake_gnubg

DEEP = '"[" * 200_000 + "]" * 200_000'


def hint_with(monkeypatch, program: str, *args: str):
    import bgcli.engines.gnubg as backend

    monkeypatch.setattr(backend, "find_gnubg", lambda: program)
    return CliRunner().invoke(cli, ["hint", "--engine", "gnubg", "--timeout", "30", *args])


def one_error(result) -> str:
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.mark.parametrize("args", [("start", "31"), ("start",)])
def test_deeply_nested_json_from_the_engine_is_one_line(monkeypatch, tmp_path, args):
    # was a RecursionError traceback (hint) while rate worded the same answer in one line
    program = fake_gnubg(tmp_path, f"out.write(({DEEP} + '\\n').encode())")
    result = hint_with(monkeypatch, program, *args)
    assert result.exit_code != 0
    assert one_error(result).startswith("Error: gnubg gave an answer nested deeper than any answer is, on "
                                        "4HPwATDgc/ABMA")


def test_an_engine_flooding_its_pipe_without_a_newline_is_refused_at_the_bound(tmp_path):
    # was a buffer grown until the time limit (161 MB in 20 s); now refused when it passes the bound,
    # long before the time limit, having held about the bound
    program = fake_gnubg(tmp_path, "while True:\n    out.write(b'x' * 65536)")
    engine = GnubgEngine(Level(0), timeout=20, program=program)
    with pytest.raises(EngineError, match=f"an answer longer than {trust.ANSWER_LIMIT:,} bytes"):
        engine.cube_decision(GameState(Position.start()))
    engine.close()


def test_the_engine_works_again_after_a_flood(tmp_path):
    flood = fake_gnubg(tmp_path, "out.write(b'x' * (3 << 20))")
    engine = GnubgEngine(Level(0), timeout=60, program=flood)
    with pytest.raises(EngineError, match="longer than"):
        engine.cube_decision(GameState(Position.start()))
    answer = {"probs": [0.5, 0.1, 0.0, 0.1, 0.0], "optimal": 0.0, "no_double": 0.0, "double_take": -0.5,
              "double_pass": 1.0}
    (tmp_path / "sane").mkdir()
    engine.program = fake_gnubg(tmp_path / "sane", f"out.write(({json.dumps(json.dumps(answer))} + '\\n').encode())")
    assert engine.cube_decision(GameState(Position.start())).double_pass == 1.0
    engine.close()


def test_a_real_answer_is_far_below_the_bound():
    # gnubg's most plays for one roll (3,060) at the size of a real play's entry in its answer
    item = {"move": "bar/22* 13/10(2) 6/3*", "result": "4HPwATDgc/ABMA", "equity": -0.12345678901234567,
            "probs": [0.12345678901234567] * 5, "plies": 2}
    assert len(json.dumps({"plays": [item] * 3060})) * 2 < trust.ANSWER_LIMIT


@pytest.mark.parametrize("line, says", [
    (b"[" * 100_000, "nested deeper than any answer"),
    (b"not json", "not JSON"),
    (b"\xff\xfe", "not JSON"),
    (b"[1, 2]", "not an object"),
    (b'{"error": "' + b"e" * 1000 + b'"}', "failed on X: eee"),
    (b'{"a": "' + b"x" * (trust.ANSWER_LIMIT) + b'"}', "longer than"),
])
def test_every_bad_answer_is_one_engine_error(line, says):
    with pytest.raises(EngineError, match=says) as caught:
        trust.answer(line, "gnubg", "X")
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 300


json_values = st.recursive(st.none() | st.booleans() | st.floats() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                           max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.binary(max_size=200), json_values.map(lambda v: json.dumps(v).encode()),
                 st.integers(1, 50_000).map(lambda n: b'{"a": ' + b"[" * n + b"]" * n + b"}")))
def test_any_line_is_an_answer_or_an_engine_error(line):
    try:
        found = trust.answer(line, "gnubg", "X")
    except EngineError:
        return
    assert isinstance(found, dict)


# --- answers that are JSON objects but not answers ----------------------------------------------------

BIG = int("1" + "0" * 400)   # a whole number float() cannot hold: OverflowError, not ValueError
CUBE = {"probs": [0.5, 0.1, 0.0, 0.1, 0.0], "optimal": 0.0, "no_double": 0.0, "double_take": -0.5, "double_pass": 1.0}


def all_plays(**changed) -> dict:
    """A complete answer for the start with 31 (every legal play, at 2-ply), the first play's fields changed."""
    from bgcli.core.generator import legal_plays

    plays = [{"move": str(p), "result": p.result.swap().id(), "equity": -0.1 * n, "probs": CUBE["probs"], "plies": 2}
             for n, p in enumerate(legal_plays(Position.start(), (3, 1)))]
    plays[0].update(changed)
    return {"plays": plays}


@pytest.mark.parametrize("answer", [
    dict(CUBE, optimal=BIG, no_double=BIG),
    dict(CUBE, probs=[BIG, 0.1, 0.0, 0.1, 0.0]),
    dict(CUBE, probs="01000"),                    # five characters, not five numbers
    dict(CUBE, probs={"win": 0.5}),
    dict(CUBE, probs=[0.5] * 200_000),            # quoted cut short in the message
    {"plays": 5},
    {"plays": {"a": 1}},
    all_plays(plies="deep"),                      # compared with the other plays' levels: a TypeError
    all_plays(plies=[2]),
    all_plays(plies=99),
    all_plays(equity=BIG),
    all_plays(result=None, move="x" * 100_000),
], ids=["huge-equity", "huge-probability", "probabilities-text", "probabilities-object", "probabilities-long",
        "plays-number", "plays-object", "level-text", "level-list", "level-99", "play-huge-equity", "play-no-result"])
def test_an_answer_of_the_wrong_shape_is_one_engine_error(tmp_path, answer):
    program = fake_gnubg(tmp_path, f"out.write(({json.dumps(json.dumps(answer))} + '\\n').encode())")
    engine = GnubgEngine(Level(2), timeout=60, program=program)
    try:
        with pytest.raises(EngineError) as caught:
            if "plays" in answer:
                from bgcli.core.generator import legal_plays

                engine.evaluate_plays(GameState(Position.start()), (3, 1), legal_plays(Position.start(), (3, 1)))
            else:
                engine.cube_decision(GameState(Position.start()))
    finally:
        engine.close()
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 300, str(caught.value)[:300]


def test_the_complete_answer_the_shapes_above_change_is_read(tmp_path):
    from bgcli.core.generator import legal_plays

    program = fake_gnubg(tmp_path, f"out.write(({json.dumps(json.dumps(all_plays()))} + '\\n').encode())")
    engine = GnubgEngine(Level(2), timeout=60, program=program)
    found = engine.evaluate_plays(GameState(Position.start()), (3, 1), legal_plays(Position.start(), (3, 1)))
    engine.close()
    assert len(found) == 16 and found[0].evaluation.equity == 0.0


@pytest.mark.parametrize("ending, says", [("os._exit(139)", "it stopped with exit status 139"),
                                          ("os.kill(os.getpid(), 9)", "it stopped, killed by SIGKILL"),
                                          ("os.kill(os.getpid(), 11)", "it stopped, killed by SIGSEGV")])
def test_an_engine_that_dies_says_how(monkeypatch, tmp_path, ending, says):
    """A gnubg that crashed or was killed (an out-of-memory killer) was only 'it stopped': how it ended
    tells a user which."""
    program = fake_gnubg(tmp_path, ending)
    result = hint_with(monkeypatch, program, "start", "31")
    assert result.exit_code == 2
    assert one_error(result) == f"Error: gnubg failed on 4HPwATDgc/ABMA:cIkFAAAAAAAA with 31: {says}"
