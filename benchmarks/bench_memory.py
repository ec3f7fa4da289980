"""Peak memory of every command that reads a record, over long money sessions.

    python benchmarks/bench_memory.py                 # 10,000, 50,000 and 100,000 games
    python benchmarks/bench_memory.py --games 20000   # one size
    python benchmarks/bench_memory.py --gnubg         # the session as gnubg's export writes it

A money session of N games is made from game 1 of
tests/data/oracle/selfplay/sp05007_money.mat, repeated with the running
score on every score line (so the audit finds nothing), in a temporary
folder that is deleted afterwards. Each command runs in a process of its own;
its peak resident set size (the kernel's ru_maxrss of that child) and its
time are printed. The reader and the replay hold one game at a time, so the
peak should stay flat as the session grows. Target: every command under
150 MB on the session of 10,000 games (12.6 MB).
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "tests" / "data" / "oracle" / "selfplay" / "sp05007_money.mat"


def one_game() -> tuple[str, int, int]:
    """The rows of game 1, the winner's column and the points it won."""
    sys.path.insert(0, str(ROOT))
    from bgcli.formats.files import replay_file

    text = SOURCE.read_text(encoding="utf-8")
    game = text.split(" Game 1\n", 1)[1].split("\n Game 2\n", 1)[0]
    rows = game.split("\n", 1)[1].rstrip("\n") + "\n"
    (replay,) = list(replay_file(str(SOURCE)))
    first = replay.results[0]
    return rows, first.winner_side, first.points


def session(path: Path, games: int, gnubg: bool = False) -> None:
    """The session; ``gnubg``: with gnubg's export's head (its date) and score lines, so that it reads as
    gnubg's (bgcli.formats.mat: its habits, the beaver rule among them)."""
    rows, winner, points = one_game()
    score = [0, 0]
    with path.open("w", encoding="utf-8") as out:
        out.write('; [EventDate "2026.12.07"]\n\n 0 point match\n\n' if gnubg else " 0 point match\n\n")
        for number in range(1, games + 1):
            if gnubg:
                out.write(f" Game {number}\n " + f"gnubg : {score[0]}".ljust(31) + f"root : {score[1]}\n" + rows + "\n")
            else:
                out.write(f" Game {number}\n gnubg : {score[0]}".ljust(32) + f"root : {score[1]}\n" + rows + "\n")
            score[winner] += points


MEASURE = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
           "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode; "
           "print(code, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def measure(command: list[str]) -> tuple[int, float, float]:
    out = subprocess.run([sys.executable, "-c", MEASURE, *command], capture_output=True, text=True, check=True).stdout
    code, seconds, kib = out.split()
    return int(code), float(seconds), int(kib) / 1024


# each command with the options that make it write its whole result to standard output
COMMANDS = [("score",), ("replay",), ("audit",), ("export", "--to", "json"), ("export", "--to", "sgf"),
            ("export", "--to", "mat"), ("view", "-o", "-")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, action="append", help="session sizes (default 10000 50000 100000)")
    parser.add_argument("--gnubg", action="store_true", help="the session with gnubg's export's head and score lines")
    args = parser.parse_args()
    sizes = args.games or [10_000, 50_000, 100_000]
    bgcli = [sys.executable, "-m", "bgcli"]
    print(f"{'games':>8} {'MB':>6}  {'command':<26} {'peak MiB':>9} {'seconds':>8}")
    with tempfile.TemporaryDirectory() as folder:
        for games in sizes:
            path = Path(folder) / f"session{games}.mat"
            session(path, games, args.gnubg)
            size = path.stat().st_size / 1e6
            for name, *options in COMMANDS:
                code, seconds, peak = measure(bgcli + [name, str(path), *options])
                name = " ".join([name, *options])
                flag = "" if code == 0 else f"  (exit {code})"
                print(f"{games:>8} {size:>6.1f}  {'bgcli ' + name:<26} {peak:>9.1f} {seconds:>8.1f}{flag}")
            path.unlink()


if __name__ == "__main__":
    main()
