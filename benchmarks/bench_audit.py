"""Audit throughput and memory.

    python benchmarks/bench_audit.py              # games/s over the self-play matches, 1 and 2 jobs
    python benchmarks/bench_audit.py --big 100    # also peak memory auditing a 100 MB file

Games per second: every self-play match of tests/data/oracle/selfplay is
audited with every rule checked (the legal plays of every roll, the cube,
the results, the scores), in one process and with ``bgcli audit --jobs 2``
(the files copied a few times so that both cores have work). Memory: the
matches are concatenated into one file of the given size, which
``bgcli audit`` reads as a stream; the peak resident set size of that process
is reported (from ``/usr/bin/time -v`` when present, else getrusage).
"""
from __future__ import annotations

import argparse
import glob
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SELFPLAY = ROOT / "tests" / "data" / "oracle" / "selfplay"


def count_games(paths) -> int:
    return sum(Path(p).read_text().count("\n Game ") for p in paths)


def in_process(paths) -> float:
    sys.path.insert(0, str(ROOT))
    from bgcli.scoring import Rules
    from bgcli.match.files import replay_file

    start = time.perf_counter()
    for path in paths:
        for replay in replay_file(path, Rules(jacoby="money" in path)):
            pass
    return time.perf_counter() - start


def command(args) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bgcli", "audit", "--json", *args], cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=4, help="copies of the self-play files for the command runs")
    parser.add_argument("--big", type=int, default=0, metavar="MB", help="also measure memory on a file of MB megabytes")
    args = parser.parse_args()
    paths = sorted(glob.glob(str(SELFPLAY / "*.mat")))
    if not paths:
        sys.exit(f"no self-play matches in {SELFPLAY}")
    games = count_games(paths)
    best = min(in_process(paths) for _ in range(3))
    print(f"in process, 1 core:      {games / best:8.0f} games/s  ({games} games, best of 3)")

    with tempfile.TemporaryDirectory() as tmp:
        for copy in range(args.copies):
            for path in paths:
                shutil.copy(path, os.path.join(tmp, f"{copy}_{os.path.basename(path)}"))
        total = games * args.copies
        for jobs in (1, 2):
            seconds = min(command(["--jobs", str(jobs), tmp]) for _ in range(2))
            print(f"bgcli audit --jobs {jobs}:    {total / seconds:8.0f} games/s  ({total} games, start to exit)")

        if args.big:
            big = os.path.join(tmp, "big.mat")
            text = "".join(Path(p).read_text() + "\n" for p in paths)
            size = 0
            with open(big, "w") as out:
                while size < args.big * 1_000_000:
                    out.write(text)
                    size += len(text)
            start = time.perf_counter()
            timer = shutil.which("time") or "/usr/bin/time"
            if os.path.exists(timer):
                run = subprocess.run([timer, "-v", sys.executable, "-m", "bgcli", "audit", "--json", big], cwd=ROOT,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                peak = next((int(l.split()[-1]) for l in run.stderr.splitlines() if "Maximum resident" in l), 0)
            else:
                subprocess.run([sys.executable, "-m", "bgcli", "audit", "--json", big], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            seconds = time.perf_counter() - start
            print(f"{size / 1e6:.0f} MB file:            peak {peak / 1024:.0f} MiB resident, {seconds:.0f} s")


if __name__ == "__main__":
    main()
