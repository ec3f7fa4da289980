"""The dice audit against the audit on the same files, in one run.

    python benchmarks/bench_dice.py                 # the self-play matches of tests/data/oracle/selfplay
    python benchmarks/bench_dice.py --passes 5 --profile

Both read the same records through the formats' registry and replay them;
the dice audit also builds the events (the position before every roll) and
works out, for every roll, the chances the position gives (entering, hitting,
bearing off), then the statistics once at the end. Target (issue 29): the dice
audit at the audit's speed or better.

Each pass runs, in this process and taking turns (so that a busy machine slows
both alike), the library call that each command makes for each file
(bgcli.scale.archive.audit_file; bgcli.scale.dice.DiceJob) and, for the dice,
the report over all the files' counts (bgcli.judging.dicereport.build; scipy
imported before, once, as the command does). The
first pass is reported apart (cold: the caches of play texts and hitting rolls
empty), then the best of the others. Rolls per second of CPU time.
"""
from __future__ import annotations

import argparse
import cProfile
import glob
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SELFPLAY = ROOT / "tests" / "data" / "oracle" / "selfplay"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", default=str(SELFPLAY), help="the match files (*.mat) to read")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile of one dice pass")
    args = parser.parse_args()

    from bgcli.core.rules import Rules
    from bgcli.judging.dicereport import build
    from bgcli.scale.archive import audit_file
    from bgcli.scale.dice import DiceJob
    from bgcli.scale.jobs import FileTask, run_file

    paths = sorted(glob.glob(str(Path(args.folder) / "*.mat")))
    rules = {p: Rules(jacoby="money" in p) for p in paths}

    def audit_pass() -> float:
        start = time.process_time()
        for path in paths:
            audit_file(path, rules[path])
        return time.process_time() - start

    def dice_pass() -> tuple[float, int]:
        start = time.process_time()
        units = []
        for path in paths:
            units.extend(run_file(DiceJob(rules[path]), FileTask(path)).units)
        report = build(units)
        rolls = report.groups[0].rolls if report.groups else 0
        return time.process_time() - start, rolls

    import scipy.stats  # noqa: F401  (the command's one-off import, about a second: not in the passes)

    if args.profile:
        dice_pass()   # warm: the profile is of a pass after the first
        profile = cProfile.Profile()
        profile.runcall(dice_pass)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
        return
    audits, dices = [], []
    rolls = 0
    for _ in range(args.passes):
        audits.append(audit_pass())
        seconds, rolls = dice_pass()
        dices.append(seconds)
    print(f"{len(paths)} files, {rolls:,} rolls (opening rolls apart)")
    for name, times in (("audit", audits), ("dice", dices)):
        warm = min(times[1:]) if len(times) > 1 else times[0]
        print(f"{name:<6} first pass {times[0]:7.2f} s ({rolls / times[0]:9,.0f} rolls/s)   best after it "
              f"{warm:7.2f} s ({rolls / warm:9,.0f} rolls/s)")
    ratio = (min(dices[1:]) if len(dices) > 1 else dices[0]) / (min(audits[1:]) if len(audits) > 1 else audits[0])
    print(f"dice / audit: {ratio:.2f} times the audit's time (target: 1 or less)")


if __name__ == "__main__":
    main()
