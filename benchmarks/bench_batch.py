"""``bgcli moves --batch`` against gym-backgammon's legal-move generator, side by side in one run.

    python benchmarks/bench_batch.py                      # 10 copies of the oracle queries, 5 rounds
    python benchmarks/bench_batch.py --copies 1           # the 2,892 queries once: start-up weighs most
    python benchmarks/bench_batch.py --compare ../bgcli-before   # and another checkout of bgcli, taking turns
    python benchmarks/bench_batch.py --gym DIR            # gym-backgammon already unpacked in DIR

The queries are every position and roll of GNU Backgammon's oracle sample
(``tests/data/oracle/legal_sample.jsonl``, 2,892 lines), written as
``POSITION_ID DICE`` lines and repeated ``--copies`` times. Each round times,
one after the other, so that a busy machine slows them alike:

- gym-backgammon (https://pypi.org/project/gym-backgammon/, 0.0.1, the
  fastest pure-Python generator found; it lists plays, not distinct
  results, so it is not exact): ``Backgammon.get_valid_plays`` over the same
  queries, in this process, with its board set from precomputed lists before
  each call (boards built and IDs read before the clock starts); it writes
  nothing;
- ``bgcli moves --batch -`` in a fresh process, the lines on standard input
  and the JSON lines written to a file, from process start to exit: in one
  process and with ``--jobs 2``;
- the same for each ``--compare`` checkout (run with its root first on
  PYTHONPATH).

It prints queries per second, best and median over the rounds, by the wall
clock and by CPU time (the process's own for gym; user and system time of
the bgcli process for one process: steadier on a busy machine), and the
start-up of one ``bgcli moves start 31`` (start to exit). gym-backgammon is
downloaded with ``pip install --no-deps --target`` into a temporary folder
for the run (it is never a dependency of bgcli), and its generator module,
``gym_backgammon/envs/backgammon.py``, is loaded from that file as it is:
the package's ``__init__`` imports gym to register an environment, which
the generator does not use.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ORACLE = ROOT / "tests" / "data" / "oracle" / "legal_sample.jsonl"

sys.path.insert(0, str(ROOT))
from bgcli.core.position import parse_position_id  # noqa: E402
from bgcli.core.generator import legal_plays  # noqa: E402


def load_queries(path: Path) -> list[tuple[str, tuple[int, int]]]:
    with path.open() as f:
        return [(r["position_id"], (max(r["dice"]), min(r["dice"]))) for r in map(json.loads, f)]


# --- gym-backgammon -------------------------------------------------------------

def gym_module(where: Path | None, scratch: Path):
    """gym-backgammon's generator module, from ``where`` or installed from PyPI into ``scratch``."""
    if where is None:
        where = scratch / "gym"
        done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(where),
                               "gym-backgammon==0.0.1"], capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"cannot install gym-backgammon: {done.stderr.strip()[-500:]}")
    source = where / "gym_backgammon" / "envs" / "backgammon.py"
    spec = importlib.util.spec_from_file_location("gym_backgammon_generator", source)
    if spec is None or spec.loader is None:
        sys.exit(f"no gym-backgammon generator at {source}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def gym_states(gym, queries):
    """Each query as gym's state: the player on roll is WHITE, moving from
    index 23 to 0 (its point p is index p - 1, the opponent's point q index
    24 - q), with WHITE's negative dice, as gym's environment rolls them."""
    white, black = gym.WHITE, gym.BLACK
    states = []
    for position_id, (high, low) in queries:
        position = parse_position_id(position_id)
        board = [(0, None)] * 24
        for p in range(1, 25):
            if position.player[p]:
                board[p - 1] = (position.player[p], white)
            if position.opponent[p]:
                board[24 - p] = (position.opponent[p], black)
        game = gym.Backgammon()
        game.board = board
        states.append((board, [position.player[25], position.opponent[25]], [position.player[0], position.opponent[0]],
                       game.get_players_positions(), (-high, -low)))
    return states


def gym_pass(gym, states) -> int:
    """One pass of gym's generator over the states; the number of plays it lists."""
    game = gym.Backgammon()
    white = gym.WHITE
    plays = 0
    for board, bar, off, positions, roll in states:
        game.board, game.bar, game.off = board[:], bar[:], off[:]
        game.players_positions = [positions[0][:], positions[1][:]]
        plays += len(game.get_valid_plays(white, roll))
    return plays


# --- bgcli ------------------------------------------------------------------------

def bgcli_run(root: Path, args: list[str], stdin: Path | None, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user and system, its worker processes included)
    of one ``python -m bgcli ARGS`` from start to exit, ``root`` first on the path."""
    env = dict(os.environ, PYTHONPATH=str(root))
    with open(stdin or os.devnull, "rb") as source, open(out, "wb") as sink:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "bgcli", *args], stdin=source, stdout=sink,
                              stderr=subprocess.PIPE, env=env, cwd=tempfile.gettempdir())
        seconds = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"bgcli {' '.join(args)} from {root} failed: {done.stderr.decode().strip()[-500:]}")
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def imported_from(root: Path) -> None:
    """Stop unless ``python -m bgcli`` run as bgcli_run runs it imports the package under ``root``."""
    done = subprocess.run([sys.executable, "-c", "import bgcli; print(bgcli.__file__)"], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(root)), cwd=tempfile.gettempdir())
    if not done.stdout.strip().startswith(str(root)):
        sys.exit(f"PYTHONPATH={root} imports bgcli from {done.stdout.strip() or done.stderr.strip()[-300:]}")


def check_output(out: Path, queries, copies: int) -> None:
    """The JSON lines are one per query, each with the oracle's position and dice."""
    lines = out.read_bytes().splitlines()
    if len(lines) != len(queries) * copies:
        sys.exit(f"{out}: {len(lines)} lines, not {len(queries) * copies}")
    for line, (position_id, dice) in zip(lines[:len(queries)], queries):
        record = json.loads(line)
        if tuple(record["dice"]) != dice or len(record["plays"]) != len(legal_plays(parse_position_id(position_id), dice)):
            sys.exit(f"{out}: a wrong line for {position_id} {dice}: {line[:200]!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=10, help="repeat the 2,892 queries this many times (default 10)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--oracle", type=Path, default=ORACLE)
    ap.add_argument("--compare", type=Path, action="append", default=[], metavar="ROOT",
                    help="another checkout of bgcli to time the same way")
    ap.add_argument("--gym", type=Path, help="a folder holding gym_backgammon/ (default: pip install it for the run)")
    opts = ap.parse_args()
    queries = load_queries(opts.oracle)
    n = len(queries) * opts.copies
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as scratch_name:
        scratch = Path(scratch_name)
        gym = gym_module(opts.gym, scratch)
        states = gym_states(gym, queries) * opts.copies
        lines = scratch / "queries.txt"
        lines.write_text("".join(f"{p} {d[0]}{d[1]}\n" for p, d in queries) * opts.copies)
        out = scratch / "out.jsonl"
        roots = [ROOT, *[r.resolve() for r in opts.compare]]
        names = ["bgcli" if r == ROOT else f"bgcli@{r}" for r in roots]
        print(f"{n:,} queries ({len(queries):,} oracle queries x {opts.copies}), {opts.rounds} rounds, "
              f"Python {sys.version.split()[0]}, {os.cpu_count()} cores")
        for root in roots:
            imported_from(root)
        wall: dict[str, list[float]] = {}
        cpu: dict[str, list[float]] = {}
        for _ in range(opts.rounds):
            label = "gym-backgammon get_valid_plays (in process, no output)"
            start, start_cpu = time.perf_counter(), time.process_time()
            gym_pass(gym, states)
            wall.setdefault(label, []).append(time.perf_counter() - start)
            cpu.setdefault(label, []).append(time.process_time() - start_cpu)
            for root, name in zip(roots, names):
                for jobs in (1, 2):
                    seconds, cpu_seconds = bgcli_run(root, ["moves", "--batch", "-", "--jobs", str(jobs)], lines, out)
                    check_output(out, queries, opts.copies)
                    label = f"{name} moves --batch - " + ("(one process)" if jobs == 1 else "--jobs 2")
                    wall.setdefault(label, []).append(seconds)
                    if jobs == 1:  # two processes' CPU time is no measure of their speed
                        cpu.setdefault(label, []).append(cpu_seconds)
                seconds, _ = bgcli_run(root, ["moves", "start", "31"], None, out)
                wall.setdefault(f"{name} moves start 31 (start-up)", []).append(seconds)
        width = max(map(len, wall))
        print(f"{'':{width}}  {'wall clock: best':>16} {'median':>10}   {'CPU time: best':>14} {'median':>10}")
        for label, seconds in wall.items():
            if "start-up" in label:
                print(f"{label:{width}}  {min(seconds) * 1000:13,.0f} ms {statistics.median(seconds) * 1000:7,.0f} ms")
                continue
            line = f"{label:{width}}  {n / min(seconds):12,.0f} q/s {n / statistics.median(seconds):6,.0f} q/s"
            if label in cpu:
                line += f"   {n / min(cpu[label]):10,.0f} q/s {n / statistics.median(cpu[label]):6,.0f} q/s"
            print(line)


if __name__ == "__main__":
    main()
