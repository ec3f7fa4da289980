"""Audit throughput and memory, side by side in one run.

    python benchmarks/bench_audit.py                       # games/s: in one process, --jobs 2, a local Dask cluster
    python benchmarks/bench_audit.py --compare ../bgcli-before    # and another checkout of bgcli, taking turns
    python benchmarks/bench_audit.py --archive 100000      # a synthetic archive of 10k, 50k and 100k files
    python benchmarks/bench_audit.py --big 100             # peak memory auditing one 100 MB file
    python benchmarks/bench_audit.py --profile             # cProfile of one pass in one process

Games per second, every rule checked (the play of every roll, the cube, the
results, the scores), over the self-play matches of tests/data/oracle/selfplay:

- in one process, the library call that ``bgcli audit`` makes for each file
  (bgcli.scale.archive.audit_file), in a fresh interpreter after the imports: the
  first pass, and the best of the passes after it (warm: the caches of play
  texts and cells, and the interpreter's own specialisation, filled);
  each root (this checkout, and ``--compare``'s) in its own process, taking
  turns, so that a busy machine slows them alike;
- the command from start to exit over ``--copies`` copies of the files, in
  one process, with ``--jobs 2`` and with ``--scheduler local:2`` (a Dask
  cluster of two worker processes, started by the command: its start-up is
  in the time, and measured alone on one file), taking turns with
  ``--compare``'s checkouts (one process and ``--jobs 2``).

``--archive N`` generates a synthetic archive of N match files (the
self-play matches under varied names, in a tree of site/year/month folders,
in a temporary folder deleted afterwards) and audits its first 10%, 50% and
all of it with ``--jobs 2`` and on the local cluster, printing games per
second and the peak resident memory of the whole process tree (the command
and its workers, summed, sampled from /proc), which should stay flat as the
archive grows. ``--big MB`` concatenates the matches into one file of that
size and reports the peak resident memory of auditing it (read as a stream).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SELFPLAY = ROOT / "tests" / "data" / "oracle" / "selfplay"
GAME = re.compile(r"^ *Game [0-9]+ *$", re.M)

IN_PROCESS = r'''
import glob, sys, time
sys.path.insert(0, sys.argv[1])
import bgcli.scale.archive, bgcli.core.notation
from bgcli.scale.archive import audit_file
from bgcli.core.rules import Rules
paths = sorted(glob.glob(sys.argv[2] + "/*.mat"))
rules = {p: Rules(jacoby="money" in p) for p in paths}
times = []
for _ in range(int(sys.argv[3])):
    start = time.process_time()
    results = [audit_file(p, rules[p]) for p in paths]
    times.append(time.process_time() - start)
    if any(getattr(r, "error", None) for r in results):
        sys.exit(f"the audit failed: {[r.error for r in results if r.error][:1]}")
print(times[0], min(times[1:]))
'''
IN_PROCESS_OLD = IN_PROCESS.replace("import bgcli.scale.archive, bgcli.core.notation\nfrom bgcli.scale.archive import audit_file", """\
import bgcli.formats.files, bgcli.core.notation
from bgcli.formats.files import replay_file
def audit_file(path, rules):
    return [p.to_dict() for m in replay_file(path, rules, keep_events=False) for p in m.problems]""")


def games_in(paths) -> int:
    return sum(len(GAME.findall(Path(p).read_text())) for p in paths)


def in_process(roots: list[Path], rounds: int, passes: int) -> None:
    paths = sorted(SELFPLAY.glob("*.mat"))
    games = games_in(paths)
    best = {root: [0.0, 0.0] for root in roots}
    for _ in range(rounds):
        for root in roots:
            code = IN_PROCESS if (root / "bgcli" / "archive.py").exists() else IN_PROCESS_OLD
            run = subprocess.run([sys.executable, "-c", code, str(root), str(SELFPLAY), str(passes)],
                                 capture_output=True, text=True, cwd=tempfile.gettempdir())
            if run.returncode:
                sys.exit(f"in-process run of {root} failed:\n{run.stderr}")
            first, warm = map(float, run.stdout.split())
            best[root][0] = max(best[root][0], games / first)
            best[root][1] = max(best[root][1], games / warm)
    for root in roots:
        name = "this checkout" if root == ROOT else str(root)
        print(f"in one process ({name}): {best[root][1]:7.0f} games/s warm, {best[root][0]:7.0f} first pass "
              f"({games} games, CPU time, best of {rounds} processes)")


def command(args, root: Path = ROOT) -> float:
    """Seconds from start to exit of ``bgcli audit --json ARGS`` run from ``root``'s checkout."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "bgcli", "audit", "--json", *args], cwd=root, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f"bgcli audit {' '.join(args)} failed:\n{run.stderr[-2000:]}")
    return time.perf_counter() - start


def have_dask() -> bool:
    return subprocess.run([sys.executable, "-c", "import distributed"], capture_output=True).returncode == 0


MODES = {"one process": [], "--jobs 2": ["--jobs", "2"], "--scheduler local:2": ["--scheduler", "local:2"]}


def modes() -> dict[str, list[str]]:
    return MODES if have_dask() else {k: v for k, v in MODES.items() if "scheduler" not in k}


def commands(copies: int, rounds: int, others: list[Path]) -> None:
    """The command, start to exit, in every mode, taking turns; ``others``
    (older checkouts) in one process and with --jobs 2."""
    paths = sorted(SELFPLAY.glob("*.mat"))
    with tempfile.TemporaryDirectory() as tmp:
        for copy in range(copies):
            for path in paths:
                shutil.copy(path, os.path.join(tmp, f"{copy:03d}_{path.name}"))
        games = games_in(paths) * copies
        one = [str(paths[0])]
        runs = [(ROOT, name, args) for name, args in modes().items()]
        runs += [(root, name, args) for root in others for name, args in MODES.items() if "scheduler" not in name]
        results: dict = {run[:2]: [] for run in runs}
        startup: dict = {run[:2]: [] for run in runs}
        for _ in range(rounds):
            for root, name, args in runs:
                results[root, name].append(command([*args, tmp], root))
                startup[root, name].append(command([*args, *one], root))
        for root, name, _ in runs:
            seconds, fixed = min(results[root, name]), min(startup[root, name])
            where = "" if root == ROOT else f" ({root})"
            print(f"bgcli audit, {name}{where}: {games / seconds:7.0f} games/s start to exit ({games} games, "
                  f"{seconds:.2f} s; one file takes {fixed:.2f} s), {games / max(seconds - fixed, 1e-9):7.0f} without that")


# --- a synthetic archive ---------------------------------------------------------------------

SITES = ("fibs", "galaxy", "gridgammon", "heroes", "studio")
PLAYERS = ("ann", "bob", "cho", "dee", "eve", "fay", "gus", "hal", "ivy", "jon", "kai", "lea")


def make_archive(folder: Path, start: int, stop: int) -> int:
    """Add files ``start`` .. ``stop`` - 1 of the synthetic archive under
    varied names; the number of games they hold."""
    sources = [(path.read_bytes(), games_in([path])) for path in sorted(SELFPLAY.glob("*.mat"))]
    games = 0
    for n in range(start, stop):
        data, count = sources[n % len(sources)]
        site, year, month = SITES[n % 5], 2010 + (n // 5) % 14, 1 + (n // 70) % 12
        name = f"{PLAYERS[n % 12]}_vs_{PLAYERS[(n * 7 + 3) % 12]}_{n:07d}.{'mat' if n % 3 else 'txt'}"
        target = folder / site / str(year) / f"{month:02d}" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        games += count
    return games


def tree_rss(pid: int) -> int:
    """Resident memory of a process and all its descendants, in bytes."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                ppid = int(handle.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/statm") as handle:
                rss[int(entry)] = int(handle.read().split()[1]) * page
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        total += rss.get(current, 0)
        todo += children.get(current, [])
    return total


def measured(args: list[str]) -> tuple[float, int]:
    """Seconds and peak resident memory (whole process tree) of one bgcli audit."""
    process = subprocess.Popen([sys.executable, "-m", "bgcli", "audit", "--json", *args], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = [0]

    def sample() -> None:
        while process.poll() is None:
            peak[0] = max(peak[0], tree_rss(process.pid))
            time.sleep(0.2)

    start = time.perf_counter()
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    process.wait()
    seconds = time.perf_counter() - start
    sampler.join()
    if process.returncode not in (0, 1):
        sys.exit(f"bgcli audit {' '.join(args[:3])} ... exited {process.returncode}")
    return seconds, peak[0]


def archive_benchmark(count: int) -> None:
    """The archive grows to 10%, 50% and all of ``count`` files; each time the
    whole of it is audited with --jobs 2 and on the local cluster."""
    with tempfile.TemporaryDirectory(prefix="bgcli-archive-") as tmp:
        folder = Path(tmp) / "archive"
        made = games = 0
        for size in sorted({max(1, count // 10), max(1, count // 2), count}):
            start = time.perf_counter()
            games += make_archive(folder, made, size)
            made = size
            print(f"synthetic archive of {size} files, {games} games (made in {time.perf_counter() - start:.0f} s):")
            for name, args in modes().items():
                if not args:
                    continue
                seconds, peak = measured([*args, str(folder)])
                print(f"    {name:<21} {games / seconds:7.0f} games/s, peak {peak / 2**20:5.0f} MiB resident "
                      f"(the command and its workers), {seconds:.0f} s")


def big_file(megabytes: int) -> None:
    paths = sorted(SELFPLAY.glob("*.mat"))
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "big.mat")
        text = "".join(Path(p).read_text() + "\n" for p in paths)
        size = 0
        with open(big, "w") as out:
            while size < megabytes * 1_000_000:
                out.write(text)
                size += len(text)
        seconds, peak = measured([big])
        print(f"{size / 1e6:.0f} MB file:            peak {peak / 2**20:.0f} MiB resident, {seconds:.0f} s")


def profile() -> None:
    import cProfile
    import pstats

    sys.path.insert(0, str(ROOT))
    from bgcli.scale.archive import audit_file
    from bgcli.core.rules import Rules

    paths = sorted(str(p) for p in SELFPLAY.glob("*.mat"))
    for path in paths:   # warm
        audit_file(path, Rules(jacoby="money" in path))
    profiler = cProfile.Profile()
    profiler.enable()
    for path in paths:
        audit_file(path, Rules(jacoby="money" in path))
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, default=20, help="copies of the self-play files for the command runs")
    parser.add_argument("--rounds", type=int, default=3, help="turns of each measurement (the best is kept)")
    parser.add_argument("--compare", type=Path, action="append", default=[], metavar="ROOT",
                        help="another checkout of bgcli to measure in one process beside this one")
    parser.add_argument("--archive", type=int, default=0, metavar="N", help="also audit a synthetic archive of N files")
    parser.add_argument("--big", type=int, default=0, metavar="MB", help="also measure memory on a file of MB megabytes")
    parser.add_argument("--profile", action="store_true", help="only profile one warm pass in this process")
    args = parser.parse_args()
    if not list(SELFPLAY.glob("*.mat")):
        sys.exit(f"no self-play matches in {SELFPLAY}")
    if args.profile:
        profile()
        return
    in_process([ROOT, *args.compare], max(args.rounds, 3), 6)
    commands(args.copies, args.rounds, args.compare)
    if args.archive:
        archive_benchmark(args.archive)
    if args.big:
        big_file(args.big)


if __name__ == "__main__":
    main()
