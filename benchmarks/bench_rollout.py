"""Rollout speed, side by side in one run: trials per second on one core at 0-ply, cubeful, played to
the end, with variance reduction, of the same position (the opening 31 played 8/5 6/5, the opponent
on roll), by

- bgcli's own trial loop over the engine protocol with the default engine (sage 0-ply), with and
  without variance reduction (the luck of every roll costs the evaluation of the 21 rolls' plays);
- GNU Backgammon's own rollout (``--engine gnubg``: gnubg's ``rollout``, one thread);
- bgcli's loop on ``--jobs 2`` against one process (the wall-clock ratio; the figures are the same).

    python benchmarks/bench_rollout.py                 # 36 trials each
    python benchmarks/bench_rollout.py --trials 72 --no-jobs

The issue's target: bgcli's rollouts at least as many trials per second per core as gnubg's own;
this prints the ratios as measured (the machine's other load counts: run it on a quiet machine).
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bgcli.core.generator import legal_plays  # noqa: E402
from bgcli.core.ids import parse_gnubg_id  # noqa: E402
from bgcli.engines import open_engine  # noqa: E402
from bgcli.engines.gnubg import find_gnubg  # noqa: E402
from bgcli.judging.rollout import RolloutSettings, rollout  # noqa: E402
from bgcli.scale.rollout import spread  # noqa: E402

START = "4HPwATDgc/ABMA:cAkAAAAAAAAA"


def cpu_and_wall(work) -> tuple[float, float, object]:
    import resource

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    began, began_cpu = time.perf_counter(), cpu()
    found = work()
    return time.perf_counter() - began, cpu() - began_cpu, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=36)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-jobs", action="store_true", help="skip the --jobs 2 run")
    args = parser.parse_args()
    state = parse_gnubg_id(START)
    play = next(p for p in legal_plays(state.position, (3, 1)) if str(p) == "8/5 6/5")
    settings = RolloutSettings(trials=args.trials, seed=args.seed)
    engine = open_engine("sage", 0)
    rows = []

    def ours(label, settings, blocks=None):
        wall, cpu, found = cpu_and_wall(lambda: rollout(state, engine, (3, 1), plays=[play], settings=settings,
                                                        blocks=blocks))
        line = found.lines[0]
        rows.append((label, found.trials, wall, cpu, line.equity.mean, line.equity.se))
        return wall

    # a first rollout in a process builds what later ones reuse (the engine's bear-off tables): not timed
    rollout(state, engine, (3, 1), plays=[play], settings=replace(settings, trials=2))
    ours("bgcli loop, sage 0-ply, VR", settings)
    ours("bgcli loop, sage 0-ply, no VR", replace(settings, variance_reduction=False))
    if find_gnubg():
        from bgcli.judging.rollout import engine_rollout

        gnubg = open_engine("gnubg", 0)
        wall, cpu, found = cpu_and_wall(lambda: engine_rollout(state, gnubg, (3, 1), plays=[play], settings=settings,
                                                               threads=1))
        line = found.lines[0]
        rows.append(("gnubg's own rollout, 0-ply, VR, 1 thread", found.trials, wall, cpu, line.equity.mean,
                     line.equity.se))
        gnubg.close()
    one = rows[0][2]
    if not args.no_jobs:
        two = ours("bgcli loop, sage 0-ply, VR, --jobs 2", settings, spread(2))
        rows[-1] = rows[-1][:3] + (rows[-1][3],) + rows[-1][4:]
        jobs_ratio = one / two
    print(f"{'rollout of 8/5 6/5 after the opening 31':<44} {'trials':>6} {'wall s':>7} {'cpu s':>7} "
          f"{'trials/s/core':>13} {'equity':>7} {'s.e.':>6}")
    for label, trials, wall, cpu, mean, se in rows:
        per_core = trials / max(cpu, wall if "jobs" not in label else cpu, 1e-9) if "gnubg" not in label else trials / wall
        print(f"{label:<44} {trials:>6} {wall:>7.1f} {cpu:>7.1f} {per_core:>13.2f} {mean:>+7.3f} {se:>6.3f}")
    if find_gnubg():
        gnubg_rate = rows[2][1] / rows[2][2]
        ours_rate = rows[0][1] / rows[0][2]
        print(f"bgcli loop / gnubg's own, trials per second on one core: {ours_rate / gnubg_rate:.2f}")
    if not args.no_jobs:
        print(f"--jobs 2 / --jobs 1, wall-clock speed-up: {jobs_ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
