"""The sage engine against GNU Backgammon's 2-ply hint: agreement and speed, in one run.

Usage: python benchmarks/bench_engine.py [--count N] [--level PLIES] [--sage-filter MOVES THRESHOLD]

Positions: every k-th checker play with at least two legal plays from the
self-play matches of tests/data/oracle/selfplay (money sessions and matches
of 1 to 25 points, replayed by bgcli), ``--count`` of them (300 by default),
so that they spread over all the games: openings, middle games, races,
bear-offs, and every match score.

For each position, bgcli's ``sage`` backend at ``--level`` (the default, 2)
and its ``gnubg`` backend at 2-ply (gnubg's own ``hint``, with gnubg's move
filters) rank the same legal plays. It prints:

1. how often sage's best play is gnubg's best (the same play, or one gnubg
   gives the same equity), and for the others the equity gnubg says sage's
   choice gives up (gnubg's 2-ply equity of its best minus that of sage's
   play, evaluated at 2-ply): mean, median and worst;
2. the time each engine takes to rank the plays, in positions per second
   (each engine opened and warmed on one position before the clock starts;
   gnubg's time includes bgcli's round trip to its process, which is small).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bgcli.core.generator import legal_plays  # noqa: E402
from bgcli.engines import open_engine, sage  # noqa: E402
from bgcli.formats.files import replay_file  # noqa: E402
from bgcli.match.replay import EventKind  # noqa: E402

SELFPLAY = ROOT / "tests" / "data" / "oracle" / "selfplay"


def positions(count: int) -> list:
    found = []
    for path in sorted(SELFPLAY.glob("*.mat")):
        for replay in replay_file(path):
            for event in replay.events:
                if event.kind is EventKind.MOVE and event.dice:
                    plays = legal_plays(event.before.position, event.dice)
                    if len(plays) >= 2:
                        state = replace(event.before, match=replace(event.before.match, dice=event.dice))
                        found.append((state, event.dice, plays))
    return found[::max(1, len(found) // count)][:count]


def timed(engine, sample) -> tuple[float, list]:
    engine.evaluate_plays(*sample[0])  # warm: networks loaded, the process started
    start = time.perf_counter()
    ranked = [engine.evaluate_plays(state, dice, plays) for state, dice, plays in sample]
    return time.perf_counter() - start, ranked


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--level", type=int, default=2)
    parser.add_argument("--sage-filter", nargs=2, type=float, metavar=("MOVES", "THRESHOLD"),
                        help=f"sage's move filter (default {sage.FILTER_MOVES} plays within {sage.FILTER_THRESHOLD})")
    args = parser.parse_args()
    if args.sage_filter:
        sage.FILTER_MOVES, sage.FILTER_THRESHOLD = int(args.sage_filter[0]), args.sage_filter[1]
    sample = positions(args.count)
    lengths = sorted({state.match.match_length for state, _, _ in sample})
    print(f"{len(sample)} positions from {len(list(SELFPLAY.glob('*.mat')))} self-play files "
          f"(match lengths {', '.join(map(str, lengths))}; 0 = money)")
    sage_engine = open_engine("sage", args.level)
    gnubg_engine = open_engine("gnubg", 2, timeout=120)
    sage_time, sage_ranked = timed(sage_engine, sample)
    gnubg_time, gnubg_ranked = timed(gnubg_engine, sample)
    same, lost = 0, []
    for (state, dice, plays), ours, theirs in zip(sample, sage_ranked, gnubg_ranked):
        equity = {p.play: p.evaluation.equity for p in theirs}
        choice = ours[0].play
        if choice == theirs[0].play or abs(equity[choice] - theirs[0].evaluation.equity) < 1e-9:
            same += 1
            continue
        # sage's play at gnubg's 2-ply (asked by name), against gnubg's best of the same answer
        again = gnubg_engine.evaluate_plays(state, dice, plays, force=[choice])
        mine = next(p for p in again if p.play == choice).evaluation.equity
        lost.append(again[0].evaluation.equity - mine)
    sage_engine.close()
    gnubg_engine.close()
    n = len(sample)
    print(f"best play the same as gnubg's 2-ply hint: {same} of {n} ({100 * same / n:.1f}%) "
          f"(sage at {args.level}-ply, XG's {args.level + 1}-ply; filter {sage.FILTER_MOVES} plays within "
          f"{sage.FILTER_THRESHOLD})")
    if lost:
        print(f"the other {len(lost)}: gnubg's equity given up mean {statistics.mean(lost):.4f}, "
              f"median {statistics.median(lost):.4f}, worst {max(lost):.4f}; "
              f"per position over all {n}: {sum(lost) / n:.4f}")
    print(f"speed: sage {n / sage_time:.1f} positions/s ({1000 * sage_time / n:.0f} ms each), "
          f"gnubg 2-ply {n / gnubg_time:.1f} positions/s ({1000 * gnubg_time / n:.0f} ms each)")


if __name__ == "__main__":
    main()
