"""The proof of the rating: with the gnubg engine at 2-ply, bgcli's figures per
player (total checker and cube error, luck, in equity and in match winning
chance) are GNU Backgammon's own ``analyse match`` figures on the same match,
and so is the error and the luck of every checker play.

The stored golden data (tests/data/rating/*.golden.json, made by
tests/data/rating/make_golden.py inside gnubg) needs only the gnubg backend;
the live comparison runs gnubg's analyse match now. Both skip where GNU
Backgammon is not installed; the fake-engine tests (test_rating.py) check
every formula everywhere."""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from fake_engine import RollByRoll

from bgcli.core.rules import Rules
from bgcli.formats.files import visit_file
from bgcli.judging.rating import CubeError, DecisionKind, rate_replay

DATA = Path(__file__).parent / "data" / "rating"
# gnubg.match()'s names of its kinds of cube error
GNUBG_CUBE_ERRORS = {"missed-double-below-cp": CubeError.MISSED_BELOW_CASH, "missed-double-above-cp": CubeError.MISSED_ABOVE_CASH,
                     "wrong-double-below-dp": CubeError.WRONG_BELOW_DOUBLE,
                     "wrong-double-above-tg": CubeError.WRONG_ABOVE_TOO_GOOD, "wrong-take": CubeError.WRONG_TAKE,
                     "wrong-drop": CubeError.WRONG_PASS}
GNUBG_CUBE_ERROR_NAMES = {kind: name for name, kind in GNUBG_CUBE_ERRORS.items()}
CUBE_ERROR_VALUES = {kind: kind.value for kind in CubeError}
GNUBG = shutil.which("gnubg") or next((p for p in ("/usr/games/gnubg", "/usr/bin/gnubg") if os.access(p, os.X_OK)), None)
needs_gnubg = pytest.mark.skipif(GNUBG is None or importlib.util.find_spec("bgcli.engines.gnubg") is None,
                                 reason="GNU Backgammon (or bgcli's gnubg backend) is not installed")
TOLERANCE = 2e-4   # gnubg's figures are single-precision floats summed
# gnubg's own figures differ from machine to machine (its network code takes the SIMD instructions the
# processor has): the stored figures, made on another machine, hold to this for each decision
ACROSS_MACHINES = 2e-3


@pytest.fixture(scope="module")
def engines():
    from bgcli.engines import open_engine

    judge, luck = open_engine("gnubg", 2, timeout=120), open_engine("gnubg", 0, timeout=120)
    yield judge, luck
    judge.close()
    luck.close()


def rated(path: Path, engines):
    rules = Rules(jacoby=True) if "money" in path.name else None
    rating, = rate_replay(engines[0], lambda v: visit_file(str(path), v, rules), luck_engine=engines[1])
    return rating


def compare(rating, golden: dict, stored: bool = False) -> None:
    """``stored``: golden figures made on another machine: each decision holds to ACROSS_MACHINES and a
    player's totals, sums of their decisions, to that for each decision summed. Live: TOLERANCE.
    A golden with cube actions (``cubes``: a money session's SGF) has each of them compared too
    (:func:`compare_cubes`), and the players' totals less what gnubg does not judge or judges wrong."""
    match_play = bool(golden["length"])
    each = ACROSS_MACHINES if stored else TOLERANCE
    apart = compare_cubes(rating, golden, each) if "cubes" in golden else {}
    for side, (player, theirs) in enumerate(zip(rating.ratings, golden["players"])):
        if side in apart:
            # the cube decisions gnubg's analysis leaves out or judges wrong (compare_cubes), taken out of both
            mine_out, theirs_out = apart[side]
            player = replace(player, cube_error=player.cube_error - mine_out["error"],
                             close_cube=player.close_cube - mine_out["count"],
                             cube_errors={k: [v[0] - mine_out["kinds"].get(k, [0, 0.0])[0],
                                              v[1] - mine_out["kinds"].get(k, [0, 0.0])[1]]
                                          for k, v in player.cube_errors.items()})
            theirs = dict(theirs, cube_error=theirs["cube_error"] - theirs_out["error"],
                          close_cube=theirs["close_cube"] - theirs_out["count"],
                          cube_errors={k: [v[0] - theirs_out["kinds"].get(k, [0, 0.0])[0],
                                           v[1] - theirs_out["kinds"].get(k, [0, 0.0])[1]]
                                       for k, v in theirs["cube_errors"].items()})
        summed = sum(1 for d in rating.decisions if d.side == side) if stored else 1
        total = each * summed
        assert player.unforced == theirs["unforced"]
        assert player.close_cube == theirs["close_cube"]   # gnubg's count of cube decisions, beside XG's
        assert player.checker_error == pytest.approx(theirs["checker_error"], abs=total)
        assert player.cube_error == pytest.approx(theirs["cube_error"], abs=total)
        assert player.luck == pytest.approx(theirs["luck"], abs=total)
        for kind, (count, error) in theirs.get("cube_errors", {}).items():
            # gnubg's kinds of cube error: how many and the error of each
            mine = player.cube_errors[GNUBG_CUBE_ERRORS[kind].value]
            assert mine[0] == count, kind
            assert mine[1] == pytest.approx(error, abs=total)
        if match_play:
            assert player.checker_error_mwc == pytest.approx(theirs["checker_error_mwc"], abs=total)
            assert player.cube_error_mwc == pytest.approx(theirs["cube_error_mwc"], abs=total)
            assert player.luck_mwc == pytest.approx(theirs["luck_mwc"], abs=total)
    # every checker play gnubg analysed (it skips the rolls with no legal play)
    plays = [d for d in rating.decisions
             if d.kind in (DecisionKind.PLAY, DecisionKind.FORCED, DecisionKind.ILLEGAL) and d.played]
    assert len(plays) == len(golden["moves"])
    for mine, theirs in zip(plays, golden["moves"]):
        assert (mine.game, mine.side) == (theirs["game"], theirs["player"])
        assert mine.error == pytest.approx(-theirs["error"], abs=each)
        assert mine.luck == pytest.approx(theirs["luck"], abs=each)


# gnubg's analysis of a money session's cube actions (tests/data/rating/make_golden.py's ``cubes``): its error and
# kind from the cubeful equities it stored (double/pass is +1), as analysis.c's updateStatcontext works them out
def gnubgs_cube_figure(label: str, nd: float, dt: float) -> tuple[float, CubeError | None] | None:
    """gnubg's error and kind of cube error of a cube action labelled as :func:`cube_labels` labels them, or None
    where gnubg's analysis judges none (a beaver, a raccoon, a take of either: 'Cannot analyse beaver nor
    raccoons!'). gnubg judges every take and drop, of a beaver or raccoon too, by the double's figures, as if
    the doubled player answered the double."""
    dp = 1.0
    best = max(nd, min(dt, dp))
    if label == "turn":
        error = best - nd
        return error, (CubeError.MISSED_ABOVE_CASH if dt > 1.0 else CubeError.MISSED_BELOW_CASH) if error > 0 else None
    if label == "double":
        error = best - min(dt, dp)
        return error, (CubeError.WRONG_ABOVE_TOO_GOOD if nd > 1.0 else CubeError.WRONG_BELOW_DOUBLE) if error > 0 else None
    if label.startswith("take@"):
        return max(0.0, dt - dp), CubeError.WRONG_TAKE if dt > dp else None
    if label.startswith("drop@"):
        return max(0.0, dp - dt), CubeError.WRONG_PASS if dp > dt else None
    return None


def cube_labels(rating) -> list[tuple[tuple[int, int, str], object]]:
    """bgcli's cube decisions as (game, side, label) and the decision: ``turn``, ``double``, ``beaver``,
    ``raccoon``, and ``take@X``/``drop@X`` for the answer to X (the double, the beaver or the raccoon)."""
    found, answered = [], "double"
    for decision in rating.decisions:
        if decision.kind == DecisionKind.NO_DOUBLE:
            label = "turn"
        elif decision.kind == DecisionKind.DOUBLE:
            label = answered = "double"
        elif decision.kind in (DecisionKind.TAKE, DecisionKind.DROP):
            if decision.played in ("beaver", "raccoon"):
                label = answered = decision.played
            else:
                label = f"{'take' if decision.kind == DecisionKind.TAKE else 'drop'}@{answered}"
        else:
            continue
        found.append(((decision.game, decision.side, label), decision))
    return found


def compare_cubes(rating, golden: dict, each: float) -> dict[int, tuple[dict, dict]]:
    """Every cube action of the golden's ``cubes`` is bgcli's, in order; where gnubg judges it, with its error
    and kind of cube error. Returns, for each side, what each program counted of the actions gnubg does not
    judge or judges wrong (docs/gnubg-differences.md): bgcli's and gnubg's error, close decisions and kinds."""
    mine = cube_labels(rating)
    theirs = []
    for cube in golden["cubes"]:
        label = cube["action"] if cube["action"] not in ("take", "drop") else f"{cube['action']}@{cube['answers']}"
        theirs.append(((cube["game"], cube["player"], label), cube))
    assert [key for key, _ in mine] == [key for key, _ in theirs]
    apart: dict[int, tuple[dict, dict]] = {}
    for (key, decision), (_, cube) in zip(mine, theirs):
        label = key[2]
        figure = gnubgs_cube_figure(label, cube["nd"], cube["dt"])
        if figure is not None and label in ("turn", "double", "take@double", "drop@double"):
            error, kind = figure
            assert decision.error == pytest.approx(error, abs=each), key
            assert decision.cube_error == kind, key
            continue
        # gnubg judges none (a beaver, a raccoon, the take of either), or judges the drop of one wrong
        out = apart.setdefault(key[1], ({"error": 0.0, "count": 0, "kinds": {}}, {"error": 0.0, "count": 0, "kinds": {}}))
        for side_out, found, names in ((out[0], (decision.error or 0.0, decision.cube_error), CUBE_ERROR_VALUES),
                                       (out[1], figure, GNUBG_CUBE_ERROR_NAMES)):
            if found is None:
                continue
            side_out["error"] += found[0]
            side_out["count"] += 1
            if found[1] is not None:
                counted = side_out["kinds"].setdefault(names[found[1]], [0, 0.0])
                counted[0] += 1
                counted[1] += found[0]
    return apart


@needs_gnubg
@pytest.mark.parametrize("name", ["sp05025_3pt.mat", "galaxy_match12031463_game5.txt"])
def test_bgcli_gives_gnubgs_analyse_match_figures_stored(name, engines):
    golden = json.loads((DATA / name).with_suffix(".golden.json").read_text())
    compare(rated(DATA / name, engines), golden, stored=True)


@needs_gnubg
@pytest.mark.parametrize("name", [
    # a game of a real match where the cube changes hands (double, take, redouble, take) at 4-5 to 7
    "galaxy_match12031463_game5.txt",
    # a double whose no double is 1e-6 above +1 without gammons: in words a double the opponent passes,
    # in gnubg's analysis a wrong double above the too good point (live: the tie is a rounding, and
    # another processor's gnubg may round it the other way, so both sides are asked on this one)
    "sp31004_9pt_game3.mat",
])
def test_bgcli_gives_gnubgs_analyse_match_figures_live(name, tmp_path, engines):
    match = tmp_path / name
    shutil.copy(DATA / name, match)
    subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(DATA / "make_golden.py")], check=True, timeout=600,
                   env=dict(os.environ, GOLDEN_FILES=str(match)), capture_output=True)
    golden = json.loads(match.with_suffix(".golden.json").read_text())
    assert golden["moves"]
    compare(rated(match, engines), golden)


# money sessions of gnubg's self-play with cube actions taken by hand (beavers/make_sessions.py): doubles gnubg
# would not make, takes of passes, passes of takes, Jacoby on and off, beavers and raccoons
SESSIONS = DATA / "beavers"


def rated_session(path: Path, golden: dict, engines):
    rules = Rules(beavers=bool(golden["beavers"]))   # the SGF says Jacoby (RU), not how many beavers gnubg allowed
    rating, = rate_replay(engines[0], lambda v: visit_file(str(path), v, rules), luck_engine=engines[1])
    return rating


@needs_gnubg
@pytest.mark.parametrize("name", sorted(p.name for p in SESSIONS.glob("*.sgf")))
def test_every_cube_action_of_a_money_session_is_judged_as_gnubgs_analyse_match_judges_it_stored(name, engines):
    golden = json.loads((SESSIONS / name).with_suffix(".golden.json").read_text())
    compare(rated_session(SESSIONS / name, golden, engines), golden, stored=True)


@needs_gnubg
def test_every_cube_action_of_a_money_session_is_judged_as_gnubgs_analyse_match_judges_it_live(tmp_path, engines):
    """Jacoby on, takes of passes and passes of takes: gnubg's analyse match now, every play and cube action."""
    name = "session33005_jacoby-on_beavers-0.sgf"
    session = tmp_path / name
    shutil.copy(SESSIONS / name, session)
    subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(DATA / "make_golden.py")], check=True, timeout=900,
                   env=dict(os.environ, GOLDEN_FILES=str(session), GOLDEN_BEAVERS="0"), capture_output=True)
    golden = json.loads(session.with_suffix(".golden.json").read_text())
    assert golden["cubes"] and golden["rules"] == ["Jacoby"]
    compare(rated_session(session, golden, engines), golden)


@needs_gnubg
@pytest.mark.parametrize("case", json.loads((DATA / "plays.golden.json").read_text()), ids=lambda c: c["play"])
def test_a_play_made_is_scored_as_gnubgs_analysis_scores_it(case, engines):
    """Each play gnubg's analysis took to 2-ply has its equity and level in bgcli's ranking, and the error
    of the play made is gnubg's: the filter that kept one play only (the play made and the best both
    taken to 2-ply), the play made left shallow (it alone taken deeper), either side owning the cube."""
    from bgcli.core.generator import legal_plays
    from bgcli.core.ids import parse_gnubg_id
    from bgcli.core.position import Position

    state = parse_gnubg_id(case["gnubgid"])
    dice = state.match.dice
    plays = legal_plays(state.position, dice)
    by_result = {p.result.id(): p for p in plays}
    theirs = [(by_result[Position.from_id(g["result"]).swap().id()], g) for g in case["plays"]]
    made = theirs[case["made"]][0]
    ranked = engines[0].evaluate_plays(state, dice, plays, force=[made])
    mine = {r.play.result.id(): r for r in ranked}
    for play, golden in theirs:
        if golden["plies"] == 2:
            assert mine[play.result.id()].ply == 2
            assert mine[play.result.id()].evaluation.equity == pytest.approx(golden["equity"], abs=ACROSS_MACHINES)
    error = ranked[0].evaluation.equity - mine[made.result.id()].evaluation.equity
    assert error == pytest.approx(theirs[0][1]["equity"] - theirs[case["made"]][1]["equity"], abs=ACROSS_MACHINES)


@needs_gnubg
def test_a_rolls_luck_in_one_call_is_the_luck_roll_by_roll(engines):
    """The 21 rolls' best plays asked in one call give exactly the figures asked roll by roll."""
    from bgcli.core.ids import parse_gnubg_id
    from bgcli.judging.rating import ROLLS, _Judge

    # a cube owned by the opponent, a bear-off, the opening position, two checkers on the bar (some rolls dance)
    for text in ("5nrABwAzzgkARw:EoHyAEAAKAAE", "bbcFAAzfxwYAAA:UglnAAAACAAE", "4HPwATDgc/ABMA:cAnlAAAAAAAE",
                 "5nrABwAzzgEIYw:EoHlAEAAKAAE"):
        state = parse_gnubg_id(text)
        batched = _Judge(engines[0], engines[1]).best_after_rolls(state, ROLLS)
        alone = _Judge(engines[0], RollByRoll(engines[1])).best_after_rolls(state, ROLLS)  # type: ignore[arg-type]
        assert batched == alone


def test_the_golden_data_is_there():
    names = sorted(p.name for p in DATA.glob("*.golden.json") if p.name != "plays.golden.json")
    assert len(names) == 8
    for name in names:
        data = json.loads((DATA / name).read_text())
        assert len(data["players"]) == 2 and data["moves"]
