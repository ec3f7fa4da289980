"""Start-up of the command line: what one small command costs from start to exit, side by side with another tree.

    python benchmarks/bench_startup.py --base ../main-before      # this tree and a checkout of the code before
    python benchmarks/bench_startup.py --runs 30 --site           # more runs; with site (an editable install's finder)

Each command runs as its own process, the trees taking turns (this tree, the base, this tree, ...), after one
warm-up run each that fills a bytecode cache of the benchmark's own (``PYTHONPYCACHEPREFIX``: a user's install
has its ``__pycache__``; ``PYTHONDONTWRITEBYTECODE`` is dropped for the children). Without ``--site`` the
children run ``python -S`` with ``PYTHONPATH`` the tree and the interpreter's site-packages: an installed bgcli
starts so, while an editable install's path finder imports pathlib and more into every process, bgcli's or not.

For each command and tree it prints the median over the runs of
- the process's CPU time (user + system, from the kernel's accounting of the finished child): steady on a busy
  machine, the figure to compare;
- the same less the bare interpreter's (``python -S -c pass``, run in the same turns): bgcli's start-up and
  work, nearly all of it imports (an audit of the small file does about 1 ms of work once imported);
- its wall time (start to exit), which a busy machine stretches;
and, with ``--base``, the median of the ratios this tree / base, run by run. The load average is printed
before and after: on a shared machine quote the CPU ratios. Where the imports' time goes:
``python -X importtime -m bgcli audit FILE`` (a wall clock too).

The commands: ``audit`` of one small match file (a self-play game of gnubg's, the case of an archive of many
small files, where start-up is most of the work), ``--version``, ``check`` of a play and ``moves`` with an
option (through click; ``moves start 31`` alone is answered before click is imported).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SMALL_FILE = "tests/data/oracle/selfplay/sp05000_1pt.mat"   # 1.2 KB: a 1-point match of gnubg self-play
COMMANDS = {
    "audit": ["audit", SMALL_FILE],
    "version": ["--version"],
    "check": ["check", "start", "31", "8/5", "6/5"],
    "moves": ["moves", "--style", "gnubg", "start", "31"],
}


def environment(tree: Path, cache: str, site: bool) -> tuple[list[str], dict[str, str]]:
    """The interpreter's words and the environment that run bgcli from ``tree``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    if site:
        env["PYTHONPATH"] = str(tree)
        return [sys.executable], env
    packages = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    env["PYTHONPATH"] = os.pathsep.join([str(tree), *packages])
    return [sys.executable, "-S"], env


def run(python: list[str], env: dict[str, str], tree: Path, words: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one ``python -m bgcli WORDS`` process run from ``tree`` (``WORDS``
    starting with ``-c``: that Python code instead)."""
    start = time.perf_counter()
    child = subprocess.Popen([*python, *(words if words[0] == "-c" else ["-m", "bgcli", *words])], cwd=tree, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):   # 1: the audit's problems
        raise SystemExit(f"{' '.join(words)} in {tree} ended with status {os.waitstatus_to_exitcode(status)}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, help="another checkout of bgcli to compare with (its C accelerator built)")
    parser.add_argument("--runs", type=int, default=15, help="counted runs of each command in each tree (default 15)")
    parser.add_argument("--site", action="store_true", help="run with site (python, not python -S)")
    parser.add_argument("--only", choices=list(COMMANDS), action="append", help="only this command (repeatable)")
    args = parser.parse_args()
    trees = {"this tree": ROOT, **({"base": args.base.resolve()} if args.base else {})}
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} before; "
          f"{'with' if args.site else 'without'} site; {args.runs} runs each, taking turns")
    with tempfile.TemporaryDirectory() as cache:
        for name, words in COMMANDS.items():
            if args.only and name not in args.only:
                continue
            setups = {label: environment(tree, cache, args.site) for label, tree in trees.items()}
            figures: dict[str, list[tuple[float, float, float]]] = {label: [] for label in trees}
            for label, tree in trees.items():
                run(*setups[label], tree, words)   # warm-up: fills the bytecode cache
            for _ in range(args.runs):
                bare, _ = run(*setups["this tree"], ROOT, ["-c", "pass"])
                for label, tree in trees.items():
                    cpu, wall = run(*setups[label], tree, words)
                    figures[label].append((cpu, cpu - bare, wall))
            print(f"\nbgcli {' '.join(words)}")
            for label, rows in figures.items():
                cpu, own, wall = (statistics.median(column) for column in zip(*rows))
                print(f"  {label:10s} CPU {cpu * 1e3:6.1f} ms   less the bare interpreter {own * 1e3:6.1f} ms   "
                      f"wall {wall * 1e3:6.1f} ms")
            if "base" in figures:
                ratios = [statistics.median(a / b for a, b in zip(column_a, column_b) if b > 0)
                          for column_a, column_b in zip(zip(*figures["this tree"]), zip(*figures["base"]))]
                print(f"  this/base  CPU {ratios[0]:6.2f}      less the bare interpreter {ratios[1]:6.2f}      "
                      f"wall {ratios[2]:6.2f}")
    print(f"\nload average {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
