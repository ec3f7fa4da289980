"""Ways to choose sage's play, tried against GNU Backgammon 2-ply's choice on a set of ranked positions.

    python benchmarks/tune_agreement.py                        # benchmarks/data/tune.jsonl, 1,000 positions
    python benchmarks/tune_agreement.py --cube-aware           # and bgsage's cube-aware tree for the candidates
    python benchmarks/tune_agreement.py --stage9               # and bgsage's older (stage 9) networks
    python benchmarks/tune_agreement.py --ranked FILE --count 300
    python benchmarks/tune_agreement.py --cube-aware --only "Crawford game"   # one kind or match context
    python benchmarks/tune_agreement.py --deeper 0.01 --cube-aware   # near-ties looked at again: 3-ply, the tree

The settings of the default engine are tried here on ``data/tune.jsonl`` (made by make_ranked.py from
seeds nothing else uses), never on the two held-out sets, which bench_agreement.py measures a chosen
setting on. For each position outside bgcli's bear-off tables, sage's values are asked once: every
legal play at the raw network, and the ten best of them at 1-ply and 2-ply (and, with
``--cube-aware``, the default candidates in bgsage's cube-aware tree); then each way of choosing is
scored as bench_agreement.py scores an engine (within 0.001 of gnubg 2-ply's best, mean and worst
given up). With ``--deeper MARGIN``, where two or more candidates are within MARGIN of the best at 2-ply (a
near-tie by sage's own values), those (at most three) are asked again at sage's 3-ply, the one level deeper
bgcli offers; the rows choosing among them by 3-ply, by the mean of 2-ply and 3-ply, and (with
``--cube-aware``) by the cube-aware tree show what a second look at near-ties gives. The default's row can
differ from bench_agreement.py's by a position or two: here a play whose raw value sits above every deep one
is not taken deeper.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_agreement import play_cases  # noqa: E402
from bgcli.engines import exact, met, open_engine, sage  # noqa: E402

TUNE = ROOT / "benchmarks" / "data" / "tune.jsonl"
DEEPEST = 10   # the plays (best at the raw network) asked at 1-ply and 2-ply


def values(cases, cube_aware: bool, stage9: bool = False, deeper: float | None = None) -> list[dict]:
    """For each position: gnubg's equities and sage's raw, 1-ply and 2-ply (and cube-aware, and bgsage's
    stage 9 networks' 2-ply) equities. Uses the engine's own calls (its private ``_post``), so the values are
    those it ranks by."""
    one, two = open_engine("sage", 1), open_engine("sage", 2)
    other = stage9_tree() if stage9 else None
    three = open_engine("sage", 3) if deeper is not None else None
    out = []
    for state, dice, plays, equity in cases:
        item: dict = {"gnubg": equity}
        if exact.inside(state):   # answered from the tables: exact, whatever the choosing
            item["exact"] = {r.play.result.id(): r.evaluation.equity for r in two.evaluate_plays(state, dice, plays)}
            out.append(item)
            continue
        keys = [p.result.id() for p in plays]
        raw = two._post(state, dice, [p.result for p in plays], two._raw, keys)
        item["raw"] = {k: v.equity for k, v in raw.items()}
        order = sorted(keys, key=lambda k: -item["raw"][k])[:DEEPEST]
        chosen = [plays[keys.index(k)].result for k in order]
        item["1"] = {k: v.equity for k, v in one._post(state, dice, chosen, one._deep, order).items()}
        item["2"] = {k: v.equity for k, v in two._post(state, dice, chosen, two._deep, order).items()}
        if cube_aware:
            item["tree"] = {k: tree_equity(two, state, plays[keys.index(k)].result) for k in candidates(item)}
        if other is not None:
            item["stage9"] = {k: v.equity for k, v in two._post(state, dice, chosen, other, order).items()}
        if three is not None and deeper is not None:
            near = near_ties(item, deeper)
            if near:
                found = three._post(state, dice, [plays[keys.index(k)].result for k in near], three._deep, near)
                item["3"] = {k: v.equity for k, v in found.items()}
        out.append(item)
    return out


def stage9_tree():
    """bgsage's 2-ply (gnubg's numbering) with its stage 9 model, which its wheel also carries: the default (stage
    11) uses the same networks outside backgames and routes backgames to networks of its own."""
    import bgbot_cpp
    from bgsage.weights import WeightConfig, bearoff_db_path

    weights = WeightConfig.from_model("stage9")
    deep = bgbot_cpp.create_multipy(weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list,
                                    n_plies=3, parallel_evaluate=False, parallel_threads=0)
    database = bgbot_cpp.BearoffDB()
    if database.load(bearoff_db_path()):
        bgbot_cpp.multipy_set_bearoff_db(deep, database)
    return deep


def tree_equity(engine, state, result) -> float:
    """The equity after a play in bgsage's cube-aware tree (cube decisions at every ply, the opponent's plays
    chosen by match equity), as bgsage's own analyser asks it: the opponent's pre-roll position, negated."""
    import bgbot_cpp
    from bgsage.weights import bearoff_db_path

    owners = bgbot_cpp.CubeOwner
    flipped = {owners.CENTERED: owners.CENTERED, owners.PLAYER: owners.OPPONENT, owners.OPPONENT: owners.PLAYER}
    side = met.MatchSide.of(state)
    flags = engine._flags(state)
    if not hasattr(tree_equity, "database"):
        tree_equity.database = bgbot_cpp.BearoffDB()   # type: ignore[attr-defined]
        tree_equity.database.load(bearoff_db_path())   # type: ignore[attr-defined]
    extra = {} if side.is_money else {"away1": side.opponent_away, "away2": side.away, "is_crawford": side.crawford}
    found = bgbot_cpp.cubeful_probs_and_equity_nply(
        bgbot_cpp.flip_board(sage.board(result)), flipped[engine._owner(state, state.match.on_roll)], engine._raw,
        engine.level.ply + 1, n_threads=1, cube_value=state.match.cube, jacoby=flags["jacoby"],
        beaver=flags["beaver"], bearoff_db=tree_equity.database, root_board=sage.board(state.position), **extra)
    return -float(found["equity"])


def candidates(item: dict, moves: int = sage.FILTER_MOVES, threshold: float = sage.FILTER_THRESHOLD) -> list[str]:
    """The plays taken deeper (the engine's filter, :func:`bgcli.engines.sage.candidates`), at most DEEPEST."""
    return sage.candidates(item["raw"], min(moves, DEEPEST), threshold)


def near_ties(item: dict, margin: float, most: int = 3) -> list[str]:
    """The candidates within ``margin`` of the best at 2-ply, best first (at most ``most``); none unless two."""
    chosen = candidates(item)
    best = max(item["2"][k] for k in chosen)
    near = sorted((k for k in chosen if best - item["2"][k] <= margin), key=lambda k: -item["2"][k])[:most]
    return near if len(near) >= 2 else []


def second_look(value: Callable[[dict, str], float], margin: float) -> Callable[[dict], str]:
    """Choose by 2-ply, except among the near-ties (within ``margin``), which ``value`` decides."""
    def choose(item: dict) -> str:
        near = near_ties(item, margin)
        if not near:
            return max(candidates(item), key=lambda k: item["2"][k])
        return max(near, key=lambda k: value(item, k))
    return choose


def score(items: list[dict], value: Callable[[dict, str], float] | None, moves: int = sage.FILTER_MOVES,
          threshold: float = sage.FILTER_THRESHOLD, choose: Callable[[dict], str] | None = None) -> tuple[str, str, str, str]:
    """Each position's choice, the best of its candidates by ``value`` (or ``choose``'s), judged by gnubg 2-ply's
    equities."""
    lost = []
    for item in items:
        gnubg = item["gnubg"]
        if "exact" in item:
            choice = max(item["exact"], key=item["exact"].__getitem__)
        elif choose is not None:
            choice = choose(item)
        else:
            assert value is not None
            choice = max(candidates(item, moves, threshold), key=lambda k: value(item, k))
        lost.append(max(gnubg.values()) - gnubg[choice])
    n = len(lost)
    return (f"{100 * sum(x <= 0.001 for x in lost) / n:.1f}%", f"{sum(lost) / n:.4f}", f"{max(lost):.3f}",
            str(sum(x > 0.1 for x in lost)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ranked", type=Path, default=TUNE, help="positions ranked by make_ranked.py")
    parser.add_argument("--count", type=int, default=None, help="the first N positions only")
    parser.add_argument("--cube-aware", action="store_true", help="also bgsage's cube-aware tree (slower)")
    parser.add_argument("--only", default="", metavar="CLASS",
                        help="the positions of one kind or match context only (bench_agreement.py --only)")
    parser.add_argument("--deeper", type=float, default=None, metavar="MARGIN",
                        help="ask sage's 3-ply for the candidates within MARGIN of the best at 2-ply (slow)")
    parser.add_argument("--stage9", action="store_true", help="also bgsage's stage 9 networks at 2-ply, and their mean with the default's")
    args = parser.parse_args()
    start = time.perf_counter()
    items = values(play_cases(args.count, args.ranked, args.only), args.cube_aware, args.stage9, args.deeper)
    print(f"{len(items)} positions of {args.ranked.name}; sage's values asked in {time.perf_counter() - start:.0f} s")

    def blend(weights: dict[str, float]) -> Callable[[dict, str], float]:
        return lambda item, k: sum(w * item[level][k] for level, w in weights.items())

    def best_by_gnubg(item: dict, k: str) -> float:
        return item["gnubg"][k]

    rows = [("2-ply, 5 within 0.08 (the default)", score(items, blend({"2": 1})))]
    for moves, threshold in ((3, 0.04), (8, 0.16), (10, 0.32)):
        rows.append((f"2-ply, {moves} within {threshold}", score(items, blend({"2": 1}), moves, threshold)))
    for label, weights in (("1-ply", {"1": 1}), ("mean of 1-ply and 2-ply", {"1": 0.5, "2": 0.5}),
                           ("0.3 of 1-ply, 0.7 of 2-ply", {"1": 0.3, "2": 0.7}),
                           ("2-ply + 0.2 (2-ply - 1-ply)", {"1": -0.2, "2": 1.2}),
                           ("2-ply + 0.3 (2-ply - raw)", {"raw": -0.3, "2": 1.3})):
        rows.append((label, score(items, blend(weights))))
    if args.cube_aware:
        rows.append(("cube-aware tree (bgsage's), the same candidates", score(items, lambda item, k: item["tree"][k])))
    if args.stage9:
        rows.append(("2-ply with bgsage's stage 9 networks, the same candidates", score(items, blend({"stage9": 1}))))
        rows.append(("mean of the two networks' 2-ply", score(items, blend({"2": 0.5, "stage9": 0.5}))))
    if args.deeper is not None:
        margin = args.deeper
        looked = sum("3" in item for item in items)
        rows.append((f"near-ties within {margin} ({looked} positions) by 3-ply",
                     score(items, None, choose=second_look(blend({"3": 1}), margin))))
        rows.append((f"near-ties within {margin} by the mean of 2-ply and 3-ply",
                     score(items, None, choose=second_look(blend({"2": 0.5, "3": 0.5}), margin))))
        if args.cube_aware:
            rows.append((f"near-ties within {margin} by the cube-aware tree",
                         score(items, None, choose=second_look(lambda item, k: item["tree"][k], margin))))
    rows.append(("gnubg 2-ply's best of the 5 candidates (the filter's ceiling)", score(items, best_by_gnubg)))
    head = ("sage's choice by", "within 0.001 of gnubg 2-ply's best", "mean given up", "worst", "> 0.1")
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    for label, figures in rows:
        print(" | ".join((label,) + figures))


if __name__ == "__main__":
    main()
