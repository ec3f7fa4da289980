"""Speed of the position analysis and of the bear-off table, pure Python.

Usage: python benchmarks/bench_analysis.py [--repeat N] [--no-cli]

Measures:

1. the time to build the exact bear-off table (54,264 positions) from
   scratch, and to read and check it back from its cache file's bytes;
2. ``analyze`` throughput, in positions per second, over the 1,173 positions
   of ``tests/data/analysis/counts.jsonl`` (contact, races, bear-offs,
   crashed sides, games over), with the bear-off odds and without them
   (``analyze(position, bearoff=False)``), and over its contact positions
   only (where the shots are counted: 21 rolls of legal plays each);
3. ``bgcli analyze --batch`` over ten copies of those positions, one
   process and ``--jobs 2``, start to exit (the table read from the cache);
4. one ``bgcli analyze`` of the opening position and of a bear-off, start to
   exit (the second reads the table from the cache file).

Positions are parsed before the clock starts. Each figure is the best and
the median of ``--repeat`` runs.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bgcli.analysis import bearoff  # noqa: E402
from bgcli.analysis.counts import analyze  # noqa: E402
from bgcli.core.position import Position  # noqa: E402

COUNTS = ROOT / "tests" / "data" / "analysis" / "counts.jsonl"


def timed(work, repeat: int) -> tuple[float, float]:
    """Best and median seconds of ``work()`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def per_second(count: int, seconds: tuple[float, float]) -> str:
    return f"{count / seconds[0]:,.0f} positions/s (median {count / seconds[1]:,.0f})"


def cli_seconds(args: list[str], repeat: int, stdin: str | None = None) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "bgcli", *args], input=stdin, capture_output=True, text=True,
                              cwd=ROOT)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(f"bgcli {' '.join(args)} failed: {done.stderr}")
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-cli", action="store_true", help="skip the bgcli process timings")
    options = parser.parse_args()
    repeat = options.repeat

    records = [json.loads(line) for line in COUNTS.read_text().splitlines()]
    positions = [Position.from_id(r["position_id"]) for r in records]
    contact = [p for p, r in zip(positions, records) if r["class"] in (9, 10)]
    home = [p for p in positions if bearoff.home_counts(p.player) or bearoff.home_counts(p.opponent)]

    build = timed(bearoff.build, max(1, min(repeat, 3)))
    print(f"bear-off table, built from scratch:   {build[0]:.2f} s (median {build[1]:.2f} s)")
    data = bearoff.dumps(bearoff.build())
    load = timed(lambda: bearoff.loads(data), repeat)
    print(f"bear-off table, read and checked:      {1000 * load[0]:.0f} ms (median {1000 * load[1]:.0f} ms), "
          f"{len(data) / 2**20:.1f} MiB file")

    bearoff.table()  # loaded (or built) once, as a process does
    with_table = timed(lambda: [analyze(p) for p in positions], repeat)
    without = timed(lambda: [analyze(p, bearoff=False) for p in positions], repeat)
    only_contact = timed(lambda: [analyze(p, bearoff=False) for p in contact], repeat)
    only_home = timed(lambda: [analyze(p) for p in home], repeat)
    print(f"analyze, all {len(positions)} positions, with the bear-off:  {per_second(len(positions), with_table)}")
    print(f"analyze, all {len(positions)} positions, without it:         {per_second(len(positions), without)}")
    print(f"analyze, the {len(contact)} contact positions (shots):       {per_second(len(contact), only_contact)}")
    print(f"analyze, the {len(home)} with a side home (bear-off odds): {per_second(len(home), only_home)}")

    if options.no_cli:
        return
    bearoff.table()  # make sure the cache file exists before the processes read it
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        for _ in range(10):
            handle.write("\n".join(r["position_id"] for r in records) + "\n")
        batch = handle.name
    lines = 10 * len(records)
    one = cli_seconds(["analyze", "--batch", batch], max(1, repeat // 2))
    two = cli_seconds(["analyze", "--batch", batch, "--jobs", "2"], max(1, repeat // 2))
    print(f"bgcli analyze --batch, {lines} lines, one process:  {per_second(lines, one)}")
    print(f"bgcli analyze --batch, {lines} lines, --jobs 2:     {per_second(lines, two)}")
    start = cli_seconds(["analyze", "start"], repeat)
    bear = cli_seconds(["analyze", "tyYAAPx+AAAAAA"], repeat)
    moves = cli_seconds(["moves", "start", "31"], repeat)
    print(f"one bgcli analyze start:            {1000 * start[0]:.0f} ms (median {1000 * start[1]:.0f} ms)")
    print(f"one bgcli analyze of a bear-off:    {1000 * bear[0]:.0f} ms (median {1000 * bear[1]:.0f} ms)")
    print(f"one bgcli moves start 31 (for scale): {1000 * moves[0]:.0f} ms (median {1000 * moves[1]:.0f} ms)")


if __name__ == "__main__":
    main()
