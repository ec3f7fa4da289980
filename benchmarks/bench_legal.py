"""Speed of the legal-play generator, single process, pure Python.

Usage: python benchmarks/bench_legal.py [--repeat N] [--oracle FILE] [--no-cli] [--cpu] [--profile]

Measures, over every position and roll of GNU Backgammon's oracle sample
(``tests/data/oracle/legal_sample.jsonl``, 2,892 queries):

1. ``legal_plays`` alone, in position-roll queries per second;
2. ``legal_plays`` plus every play's result Position ID (what ``bgcli moves
   --batch`` needs for its JSON output);
3. the wall time of one ``bgcli moves`` call, from process start to exit;
4. ``bgcli moves --batch`` over the same queries (one process, JSON lines out),
   in queries per second from process start to exit.

Parsing the Position IDs is done before the clock starts. Each measurement is
repeated; the best and the median run are printed (the best is the least
disturbed by other work on the machine).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bgcli.core.position import Position  # noqa: E402
from bgcli.core.generator import legal_plays  # noqa: E402

ORACLE = Path(__file__).resolve().parents[1] / "tests" / "data" / "oracle" / "legal_sample.jsonl"


def load(path: Path) -> list[tuple[Position, tuple[int, int]]]:
    queries = []
    with path.open() as f:
        for line in f:
            record = json.loads(line)
            queries.append((Position.from_id(record["position_id"]), tuple(record["dice"])))
    return queries


def plays_only(queries) -> int:
    total = 0
    for position, dice in queries:
        total += len(legal_plays(position, dice))
    return total


def plays_and_ids(queries) -> int:
    total = 0
    for position, dice in queries:
        for play in legal_plays(position, dice):
            play.result_id()
            total += 1
    return total


def rate(work, queries, repeat: int, clock=time.perf_counter) -> tuple[float, float, int]:
    """Best and median queries per second over ``repeat`` runs."""
    rates = []
    plays = 0
    for _ in range(repeat):
        start = clock()
        plays = work(queries)
        rates.append(len(queries) / (clock() - start))
    return max(rates), statistics.median(rates), plays


def cli_wall_time(args: list[str], repeat: int) -> tuple[float, float] | None:
    """Best and median seconds of one ``python -m bgcli ...`` run, or None if it fails."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "bgcli", *args], capture_output=True,
                              cwd=Path(__file__).resolve().parent.parent)
        times.append(time.perf_counter() - start)
        if done.returncode:
            print(f"  bgcli {' '.join(args)} failed: {done.stderr.decode().strip().splitlines()[-1:]}")
            return None
    return min(times), statistics.median(times)


def batch_rate(path: Path, repeat: int, copies: int = 1, jobs: int = 1) -> tuple[float, float] | None:
    """Best and median queries per second of ``bgcli moves --batch`` over the
    oracle queries (repeated ``copies`` times, so that start-up weighs less)."""
    import tempfile

    with path.open() as f, tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as out:
        lines = [f"{r['position_id']} {r['dice'][0]}{r['dice'][1]}\n" for r in map(json.loads, f)]
        out.write("".join(lines) * copies)
        n = len(lines) * copies
    timed = cli_wall_time(["moves", "--batch", out.name, "--jobs", str(jobs)], repeat)
    Path(out.name).unlink()
    return (n / timed[0], n / timed[1]) if timed else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--oracle", type=Path, default=ORACLE)
    ap.add_argument("--no-cli", action="store_true", help="skip the bgcli moves wall-time measurement")
    ap.add_argument("--profile", action="store_true", help="run cProfile over one pass instead")
    ap.add_argument("--cpu", action="store_true", help="time with the process's CPU clock (steadier on a busy machine)")
    opts = ap.parse_args()
    if not opts.oracle.exists():
        sys.exit(f"oracle file {opts.oracle} not found")
    queries = load(opts.oracle)
    if opts.profile:
        import cProfile
        import pstats
        import tempfile

        profile = str(Path(tempfile.gettempdir()) / "bench_legal.prof")
        cProfile.runctx("plays_and_ids(queries)", globals(), {"queries": queries}, profile)
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
        return
    clock = time.process_time if opts.cpu else time.perf_counter
    print(f"{len(queries)} position-roll queries from {opts.oracle}, Python {sys.version.split()[0]}"
          f"{', CPU time' if opts.cpu else ''}")
    best, median, plays = rate(plays_only, queries, opts.repeat, clock)
    print(f"legal_plays:               best {best:9,.0f} q/s   median {median:9,.0f} q/s   ({plays} plays)")
    best, median, _ = rate(plays_and_ids, queries, opts.repeat, clock)
    print(f"legal_plays + result IDs:  best {best:9,.0f} q/s   median {median:9,.0f} q/s")
    if not opts.no_cli:
        for args in (["moves", "4HPwATDgc/ABMA", "31"],):
            timed = cli_wall_time(args, 5)
            if timed:
                print(f"bgcli {' '.join(args)}:  best {timed[0] * 1000:.0f} ms   median {timed[1] * 1000:.0f} ms")
        rates = batch_rate(opts.oracle, 3)
        if rates:
            print(f"bgcli moves --batch (whole process):  best {rates[0]:,.0f} q/s   median {rates[1]:,.0f} q/s")
        for jobs in (1, 2):
            rates = batch_rate(opts.oracle, 3, copies=10, jobs=jobs)
            if rates:
                print(f"bgcli moves --batch --jobs {jobs}, 10 x the queries:  best {rates[0]:,.0f} q/s   "
                      f"median {rates[1]:,.0f} q/s")


if __name__ == "__main__":
    main()
