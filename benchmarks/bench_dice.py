"""The dice audit against the audit on the same files, in one run.

    python benchmarks/bench_dice.py                      # tests/data: self-play, corpus, gammonview, match files
    python benchmarks/bench_dice.py --rounds 5 FOLDER... # any files, folders or globs audit takes
    python benchmarks/bench_dice.py --profile            # cProfile of one dice pass, by own time
    python benchmarks/bench_dice.py --instructions       # instructions of one pass each (valgrind), no noise

Both read the same records through the formats' registry and replay them;
the dice audit also works out, for every roll, the chances the position
before it gives (entering, hitting, bearing off, saving the gammon: in C for
the runs of plays the audit's short path settles, bgcli.judging.dice), then
the statistics once at the end. Target (issue 29): the dice audit at the
audit's speed or better.

Each round starts a fresh process for each command (so every file is unseen:
no cache of play texts, positions or hitting rolls carries over), the two in
turn, the order swapped every round so that a busy machine slows both alike.
A process imports what the command imports, and bgcli's reading modules
(either pass loads them: the audit's module at once, the dice's on the first
file; their import is start-up, counted apart), then times in CPU seconds the
library call each command makes for each file (bgcli.scale.archive.audit_file;
bgcli.scale.dice.DiceJob), and for the dice the report over all the files'
counts (bgcli.judging.dicereport.build), which is paid once a run, whatever
the number of files. As the command, the dice imports scipy once the files
are read, before the report (its import, in wall time, is counted with the
start-up): imported before, its objects would be scanned by the garbage
collector's full collections while the files are read. Then it reads the same files a second time (warm: the
caches filled) for comparison. Reported: the median of the rounds for each,
and the ratios of the medians (the files alone, and with the report).

With --instructions each command's cold pass is counted in instructions
instead (valgrind's cachegrind, which a busy machine does not disturb): a
process that imports bgcli's modules (every format's, compiled beforehand,
so that no import falls in the pass), less the same process that then reads
the files once. scipy is not imported (the pass does not use it).
"""
from __future__ import annotations

import argparse
import cProfile
import json
import os
import pkgutil
import pstats
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

STARTED = time.perf_counter()   # the start-up a process pays before its first file: bgcli's and scipy's imports

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DATA = ROOT / "tests" / "data"
DEFAULT = [DATA / "oracle" / "selfplay", DATA / "corpus", DATA / "gammonview", DATA / "matchfiles"]


def files(given: list[str]) -> list[str]:
    from bgcli.scale.archive import find_files

    return sorted(find_files(given or [str(p) for p in DEFAULT]))


def rules_of(path: str):
    from bgcli.core.rules import Rules

    return Rules(jacoby="money" in Path(path).name)   # gnubg's money sessions were played with the Jacoby rule


def import_modules() -> None:
    """bgcli's modules either pass may load, imported before it (start-up, counted apart): the reading
    modules come at once with the audit's module (bgcli.scale.archive) but on the first file with the dice's,
    so a cold pass would otherwise time the dice's imports and not the audit's."""
    import importlib

    import bgcli.formats

    for module in pkgutil.walk_packages(bgcli.formats.__path__, "bgcli.formats."):
        importlib.import_module(module.name)
    for name in ("bgcli.grammars", "bgcli.formats.files", "bgcli.judging.dice", "json", "datetime"):
        importlib.import_module(name)


def child(which: str, paths: list[str]) -> dict:
    """One command over the files in this (fresh) process: the cold pass, then a warm one."""
    import_modules()
    if which == "audit":
        from bgcli.scale.archive import audit_file

        def one_pass() -> tuple[float, float, int]:
            start = time.process_time()
            for path in paths:
                audit_file(path, rules_of(path))
            return time.process_time() - start, 0.0, 0
    else:
        from bgcli.judging.dicereport import build
        from bgcli.judging.dicestats import require_stats, scipy_stats
        from bgcli.scale.dice import DiceJob
        from bgcli.scale.jobs import FileTask, run_file

        require_stats()   # as the command: scipy found before the files, imported for the report after them

        def one_pass() -> tuple[float, float, int]:
            start = time.process_time()
            units = []
            for path in paths:
                units.extend(run_file(DiceJob(rules_of(path)), FileTask(path)).units)
            read = time.process_time()
            importing = time.perf_counter()
            scipy_stats()   # the command's one-off import (wall time, with the start-up)
            later[0] += time.perf_counter() - importing
            imported = time.process_time()
            report = build(units)
            rolls = report.groups[0].rolls if report.groups else 0
            return read - start, time.process_time() - imported, rolls
    later = [0.0]
    imports = time.perf_counter() - STARTED
    cold, report, rolls = one_pass()
    imports += later[0]
    warm, _, _ = one_pass()
    return {"imports": imports, "cold": cold, "report": report, "warm": warm, "rolls": rolls}


def count_child(which: str, paths: list[str], read: bool) -> None:
    """The process --instructions counts: bgcli's modules imported, then (``read``) one cold pass."""
    from bgcli.scale.archive import audit_file
    from bgcli.scale.dice import DiceJob
    from bgcli.scale.jobs import FileTask, run_file

    import_modules()
    if read:
        for path in paths:
            if which == "audit":
                audit_file(path, rules_of(path))
            else:
                run_file(DiceJob(rules_of(path)), FileTask(path))


def instructions(which: str, paths: list[str]) -> int:
    """The instructions of one cold pass of ``which`` over the files (cachegrind: with the pass less without)."""
    counts = []
    for read in ("0", "1"):
        done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                               sys.executable, __file__, "--count", which, read, *paths], check=True,
                              capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": "0"})
        found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        if found is None:
            raise SystemExit(f"valgrind gave no count: {done.stderr[-500:]}")
        counts.append(int(found.group(1).replace(",", "")))
    return counts[1] - counts[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="*", help="files, folders or globs (default: folders of tests/data)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="cProfile of one dice pass, by own time")
    parser.add_argument("--instructions", action="store_true", help="instructions of one pass each (valgrind)")
    parser.add_argument("--child", choices=("audit", "dice"), help=argparse.SUPPRESS)
    parser.add_argument("--count", nargs=2, metavar=("WHICH", "READ"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    paths = files(args.paths)
    if args.child:
        print(json.dumps(child(args.child, paths)))
        return
    if args.count:
        count_child(args.count[0], paths, args.count[1] == "1")
        return
    if args.instructions:
        counted = {which: instructions(which, args.paths) for which in ("audit", "dice")}
        for which, count in counted.items():
            print(f"{which:<6} one cold pass over {len(paths)} files: {count / 1e6:11,.1f} M instructions")
        print(f"dice / audit, files unseen, in instructions: {counted['dice'] / counted['audit']:.3f}")
        return
    if args.profile:
        from bgcli.scale.dice import DiceJob
        from bgcli.scale.jobs import FileTask, run_file

        profile = cProfile.Profile()
        profile.runcall(lambda: [run_file(DiceJob(rules_of(p)), FileTask(p)) for p in paths])
        pstats.Stats(profile).sort_stats("tottime").print_stats(30)
        return
    runs: dict[str, list[dict]] = {"audit": [], "dice": []}
    for round_ in range(args.rounds):
        order = ("audit", "dice") if round_ % 2 == 0 else ("dice", "audit")
        for which in order:
            out = subprocess.run([sys.executable, __file__, "--child", which, *args.paths], check=True,
                                 capture_output=True, text=True, cwd=ROOT).stdout
            runs[which].append(json.loads(out))
    rolls = runs["dice"][0]["rolls"]

    def median(which: str, key: str) -> float:
        return statistics.median(run[key] for run in runs[which])

    print(f"{len(paths)} files, {rolls:,} rolls (opening rolls apart), {args.rounds} rounds, a fresh process each "
          f"(medians, CPU seconds)")
    for which in ("audit", "dice"):
        cold, warm = median(which, "cold"), median(which, "warm")
        line = (f"{which:<6} files unseen {cold:7.3f} s ({rolls / cold:9,.0f} rolls/s)   read again {warm:7.3f} s"
                f"   start-up {median(which, 'imports'):5.2f} s (wall)")
        if which == "dice":
            line += f"   report {median(which, 'report'):6.3f} s"
        print(line)
    audit, dice = median("audit", "cold"), median("dice", "cold")
    print(f"dice / audit, files unseen: {dice / audit:.2f} times the audit's time (target: 1 or less); "
          f"with the report: {(dice + median('dice', 'report')) / audit:.2f}; "
          f"read again: {median('dice', 'warm') / median('audit', 'warm'):.2f}")


if __name__ == "__main__":
    main()
