"""The speed targets on work never seen before, each beside its peer, in one run.

    python benchmarks/bench_targets.py               # 3 rounds, taking turns
    python benchmarks/bench_targets.py --rounds 5 --queries 20000 --copies 40

1. ``bgcli moves --batch -``, one process, start to exit (start-up and JSON
   included), over ``--queries`` position-roll queries it has never seen:
   one pass, no line repeated. The queries are every turn of random games
   played from the start with bgcli's generator (a fixed seed, so the same
   set each run; each turn's position with a fresh roll, distinct queries
   only), shuffled: contact, races, bear-offs, bar entries and doubles in
   the shares they have in games, printed with the figures. Beside it, in
   the same rounds, gym-backgammon's generator over the same queries (as
   bench_batch.py runs it: in this process, boards set from precomputed
   lists, writing nothing; installed from PyPI for the run only).
2. ``bgcli audit DIR``, start to exit, first over 200 match files never
   seen (``unseen_matches``, a file each, plays written as gnubg's .mat export
   writes them; then the same in gnubg's display spelling), then over ``--copies`` copies of gnubg's
   self-play matches (tests/data/oracle/selfplay), every rule checked,
   beside GNU Backgammon importing the same files (``gnubg -t -q -r -p``
   running ``import mat FILE`` for each, start to exit), when
   /usr/games/gnubg is there. Target: at least half of gnubg's speed (issue 31; a quarter before).
   Also ``bgcli audit --jobs 2 DIR`` (both cores; gnubg's import uses one).
3. ``bgcli view FILE -o page.html`` of one file of 200 matches never seen
   (random legal plays from the start, fixed seed: ``unseen_matches``), beside
   ``bgcli audit FILE``; then of one file holding the self-play
   matches five times (200 matches), beside ``bgcli audit FILE``; and the
   page's size. Target: the view within three times the audit
   (``bench_view.py`` runs this one alone, and for the matches once too).
4. ``bgcli moves start 31``, start to exit. Target: under 100 ms.

With ``--compiled PYTHON`` (an interpreter whose installed bgcli has the
compiled core: ``BGCLI_COMPILE=1 pip install .``), 1. and 2. are also run
with it in the same rounds, beside the pure Python core of this checkout.
With ``--gnubg-nn PYTHON`` (an interpreter with PyPI's gnubg-nn, GNU
Backgammon's C code as a module: ``pip install gnubg-nn``), 1. also times
gnubg's C generator over the same queries in the same rounds (``moves``,
in that process, boards made from the IDs before the clock starts, writing
nothing), the mark of the compiled build.

Each figure is the best of the rounds (the least disturbed on a busy
machine); the medians are printed too.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_batch import bgcli_run, gym_module, gym_pass, gym_states  # noqa: E402
from bgcli.analysis.counts import position_class  # noqa: E402
from bgcli.core.generator import legal_plays  # noqa: E402
from bgcli.core.notation import play_text  # noqa: E402
from bgcli.core.position import BAR, OFF, Position  # noqa: E402

SELFPLAY = ROOT / "tests" / "data" / "oracle" / "selfplay"
GNUBG = Path("/usr/games/gnubg")
GAME = re.compile(r"^ *Game [0-9]+ *$", re.M)
TARGETS = ("batch", "audit", "view", "start")
# gnubg's C generator over the queries file given (a Position ID and a roll a line): the seconds of the loop alone
GNUBG_GENERATOR = """
import sys, time
import gnubg_nn
queries = []
for line in open(sys.argv[1]):
    pid, roll = line.split()
    queries.append((gnubg_nn.board_from_position_id(pid), int(roll[0]), int(roll[1])))
moves = gnubg_nn.moves
start = time.perf_counter()
for board, high, low in queries:
    moves(board, high, low)
print(time.perf_counter() - start)
"""

GNUBG_IMPORT = """
import glob, os
import gnubg
for path in sorted(glob.glob(os.environ["BENCH_FOLDER"] + "/*.mat")):
    gnubg.command("import mat " + path)
"""


def unseen_queries(n: int, seed: int = 19) -> list[tuple[Position, tuple[int, int]]]:
    """``n`` distinct queries: every turn of random games, each with a fresh roll, shuffled."""
    rng = random.Random(seed)
    seen: set = set()
    found: list = []
    while len(found) < n:
        position = Position.start()
        while position_class(position) != "over" and len(found) < n:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            query = (position.id(), dice)
            if query not in seen:
                seen.add(query)
                found.append((position, dice))
            plays = legal_plays(position, dice)
            position = rng.choice(plays).after if plays else position.swap()
    rng.shuffle(found)
    return found


def unseen_matches(count: int, length: int = 3, seed: int = 20, style: str = "mat") -> str:
    """``count`` matches to ``length`` points that repeat nothing: random legal plays from the
    start (a fixed seed), written as GNU Backgammon's .mat text, no cube, gammons and
    backgammons counted in full as gnubg writes them. Plays are written in ``style``:
    ``mat``, as gnubg's .mat export writes them (a step a die, 25 the bar and 0 off:
    ``13/9 13/9 6/2 5/1*``), or ``gnubg``, as gnubg shows them (``13/9(2) 6/2 5/1*``,
    ``bar/19*/18``), which other programs write."""
    rng = random.Random(seed)
    out = []
    for number in range(count):
        names = (f"ann{number}", f"bob{number}")
        out.append(f" {length} point match\n\n")
        score, game = [0, 0], 0
        while max(score) < length:
            game += 1
            out.append(f" Game {game}\n {names[0]} : {score[0]:<23}{names[1]} : {score[1]}\n")
            position, side, cells = Position.start(), 0, []
            dice = (rng.randint(2, 6), 0)
            dice = (dice[0], rng.randint(1, dice[0] - 1))   # the opening roll: no double, the first column starts
            while True:
                plays = legal_plays(position, dice)
                play = rng.choice(plays) if plays else None
                cells.append(f"{max(dice)}{min(dice)}: {play_text(play, style) if play else ''}")
                if play is not None and play.result.player[OFF] == 15:
                    loser = play.result.opponent
                    points = 1 if loser[OFF] else 3 if loser[BAR] or any(loser[p] for p in range(19, 25)) else 2
                    break
                position = play.after if play else position.swap()
                side = 1 - side
                dice = (rng.randint(1, 6), rng.randint(1, 6))
            rows = [cells[i:i + 2] for i in range(0, len(cells), 2)]
            for n, row in enumerate(rows, 1):
                out.append(f"{n:3}) {row[0]:28}" + (f" {row[1]}" if len(row) > 1 else "") + "\n")
            pad = 6 if side == 0 else 34
            out.append(f"{'':{pad}}Wins {points} point{'s' if points > 1 else ''}\n\n")
            score[side] += points
    return "".join(out)


def kinds(queries) -> str:
    counted = collections.Counter("bar entry" if p.player[BAR] else position_class(p) for p, _ in queries)
    doubles = sum(1 for _, (a, b) in queries if a == b)
    return ", ".join(f"{n:,} {kind}" for kind, n in counted.most_common()) + f"; {doubles:,} doubles"


def timed(args: list[str], env: dict | None = None, cwd: str | None = None) -> float:
    start = time.perf_counter()
    done = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          env=env, cwd=cwd or tempfile.gettempdir())
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(args[:6])} failed: {done.stderr.decode(errors='replace').strip()[-500:]}")
    return seconds


def bgcli(*args: str) -> float:
    return timed([sys.executable, "-m", "bgcli", *args], env=dict(os.environ, PYTHONPATH=str(ROOT)))


def compiled_core(python: str) -> str:
    """``python``, stopping unless its installed bgcli (away from this checkout) is compiled."""
    done = subprocess.run([python, "-I", "-c", "import bgcli; print(bgcli.build)"], capture_output=True, text=True)
    if not done.stdout.strip().startswith("compiled (mypyc"):
        sys.exit(f"--compiled {python}: its bgcli is {done.stdout.strip() or done.stderr.strip()[-300:]}, not compiled "
                 "(BGCLI_COMPILE=1 pip install . with that python builds it)")
    print(f"--compiled: {done.stdout.strip()}")
    return python


def installed_bgcli(python: str, args: list[str], stdin: Path | None = None, out: Path | None = None) -> float:
    """Seconds of ``python -m bgcli ARGS``, start to exit, with that python's installed bgcli."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    with open(stdin or os.devnull, "rb") as source, open(out or os.devnull, "wb") as sink:
        start = time.perf_counter()
        done = subprocess.run([python, "-m", "bgcli", *args], stdin=source, stdout=sink,
                              stderr=subprocess.PIPE, env=env, cwd=tempfile.gettempdir())
        seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"{python} -m bgcli {' '.join(args[:3])} failed: {done.stderr.decode(errors='replace').strip()[-500:]}")
    return seconds


def report(label: str, seconds: list[float], count: int, unit: str) -> float:
    best = count / min(seconds)
    print(f"  {label:58} {best:10,.0f} {unit} (median {count / statistics.median(seconds):,.0f})")
    return best


def ratios(ours: list[float], peer: list[float], target: str) -> str:
    """bgcli's speed over its peer's: of the best times, and the median of each round's ratio (the
    two ran side by side in a round, so a busy moment slows both: steadier on a shared machine)."""
    rounds = statistics.median(theirs / mine for mine, theirs in zip(ours, peer))
    return f"{min(peer) / min(ours):.2f}, median of the rounds' {rounds:.2f} (target {target})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--queries", type=int, default=10_000)
    ap.add_argument("--copies", type=int, default=20, help="copies of the 40 self-play files for the audit")
    ap.add_argument("--gym", type=Path, help="a folder holding gym_backgammon/ (default: pip install it for the run)")
    ap.add_argument("--only", action="append", choices=TARGETS, help="run only this target (may be repeated)")
    ap.add_argument("--compiled", metavar="PYTHON", help="also time moves --batch and audit with this python's compiled bgcli")
    ap.add_argument("--gnubg-nn", metavar="PYTHON", help="also time gnubg's C generator (PyPI gnubg-nn) with this python")
    opts = ap.parse_args()
    only = set(opts.only or TARGETS)
    compiled = compiled_core(opts.compiled) if opts.compiled else None
    queries = unseen_queries(opts.queries)
    paths = sorted(SELFPLAY.glob("*.mat"))
    games = sum(len(GAME.findall(p.read_text())) for p in paths)
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, {opts.rounds} rounds")
    with tempfile.TemporaryDirectory(prefix="bench-targets-") as scratch_name:
        scratch = Path(scratch_name)
        gym = gym_module(opts.gym, scratch)
        states = gym_states(gym, [(p.id(), d) for p, d in queries])
        lines = scratch / "queries.txt"
        lines.write_text("".join(f"{p.id()} {max(d)}{min(d)}\n" for p, d in queries))
        folder = scratch / "matches"
        folder.mkdir()
        for copy in range(opts.copies):
            for path in paths:
                shutil.copy(path, folder / f"{copy:03d}_{path.name}")
        many = scratch / "many.mat"
        many.write_text("".join(p.read_text() for p in paths * 5))
        fresh = scratch / "unseen.mat"
        fresh.write_text(unseen_matches(200))
        # the same 200 matches, a file each, for the audit beside gnubg; then in gnubg's display spelling
        fresh_folder, shown_folder = scratch / "unseen", scratch / "unseen-shown"
        for folder_of, text in ((fresh_folder, fresh.read_text()), (shown_folder, unseen_matches(200, style="gnubg"))):
            folder_of.mkdir()
            for number, match in enumerate(text.split(" 3 point match\n")[1:]):
                (folder_of / f"u{number:03d}.mat").write_text(" 3 point match\n" + match)
        script = scratch / "import.py"
        script.write_text(GNUBG_IMPORT)
        page = scratch / "page.html"
        out = scratch / "out.jsonl"
        times: dict[str, list[float]] = collections.defaultdict(list)
        # bgcli runs with its bytecode compiled, as an install leaves it (pip
        # compiles on install; PYTHONDONTWRITEBYTECODE in a checkout would
        # compile every module on every run): once, outside the clock, into
        # a folder of this run's own
        os.environ["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
        os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
        bgcli("--help")
        bgcli("moves", "start", "31")
        for _ in range(opts.rounds):
            if "batch" in only:
                start = time.perf_counter()
                gym_pass(gym, states)
                times["gym"].append(time.perf_counter() - start)
                times["batch"].append(bgcli_run(ROOT, ["moves", "--batch", "-"], lines, out)[0])
                if compiled:
                    times["batch compiled"].append(installed_bgcli(compiled, ["moves", "--batch", "-"], lines, out))
                if opts.gnubg_nn:
                    done = subprocess.run([opts.gnubg_nn, "-c", GNUBG_GENERATOR, str(lines)], capture_output=True,
                                          text=True, check=True)
                    times["gnubg generator"].append(float(done.stdout))
            if "audit" in only:
                times["audit"].append(bgcli("audit", str(folder)))
                times["audit jobs"].append(bgcli("audit", "--jobs", "2", str(folder)))
                if compiled:
                    times["audit compiled"].append(installed_bgcli(compiled, ["audit", str(folder)]))
                if GNUBG.exists():
                    times["gnubg"].append(timed([str(GNUBG), "-t", "-q", "-r", "-p", str(script)],
                                                env=dict(os.environ, BENCH_FOLDER=str(folder))))
                times["audit fresh files"].append(bgcli("audit", str(fresh_folder)))
                if GNUBG.exists():
                    times["gnubg fresh"].append(timed([str(GNUBG), "-t", "-q", "-r", "-p", str(script)],
                                                      env=dict(os.environ, BENCH_FOLDER=str(fresh_folder))))
                if compiled:
                    times["audit fresh compiled"].append(installed_bgcli(compiled, ["audit", str(fresh_folder)]))
                times["audit shown files"].append(bgcli("audit", str(shown_folder)))
                if GNUBG.exists():
                    times["gnubg shown"].append(timed([str(GNUBG), "-t", "-q", "-r", "-p", str(script)],
                                                      env=dict(os.environ, BENCH_FOLDER=str(shown_folder))))
            if "view" in only:
                times["audit fresh"].append(bgcli("audit", str(fresh)))
                times["view fresh"].append(bgcli("view", str(fresh), "-o", str(page)))
                fresh_page = page.stat().st_size
                times["audit one"].append(bgcli("audit", str(many)))
                times["view"].append(bgcli("view", str(many), "-o", str(page)))
            if "start" in only:
                times["start"].append(bgcli("moves", "start", "31"))
                times["python"].append(timed([sys.executable, "-c", "pass"]))
                times["click"].append(timed([sys.executable, "-c", "import click"]))
        n = len(queries)
        if "batch" in only:
            print(f"\n1. {n:,} queries never seen, one pass ({kinds(queries)})")
            ours = report("bgcli moves --batch -, one process, start to exit", times["batch"], n, "q/s")
            peer = report("gym-backgammon get_valid_plays, in process, no output", times["gym"], n, "q/s")
            print(f"  bgcli / gym-backgammon: {ours / peer:.2f} (target 1, aim 2)")
            if compiled:
                fast = report("the same, compiled core (mypyc and C)", times["batch compiled"], n, "q/s")
                print(f"  compiled / gym-backgammon: {fast / peer:.2f}; compiled / pure: {fast / ours:.2f}")
            if opts.gnubg_nn:
                c = report("GNU Backgammon's C generator (gnubg-nn moves), in process", times["gnubg generator"], n, "q/s")
                print(f"  bgcli / gnubg's C: {ours / c:.3f}" + (f"; compiled / gnubg's C: {fast / c:.3f} (target 0.25, aim 0.5)"
                                                             if compiled else ""))
        if "audit" in only:
            fresh_games = len(GAME.findall(fresh.read_text()))
            print(f"\n2. 200 match files never seen ({fresh_games:,} games of random legal plays: longer, more hits and "
                  "bar entries), plays written as gnubg's .mat export writes them")
            ours = report("bgcli audit, start to exit", times["audit fresh files"], fresh_games, "games/s")
            if times["gnubg fresh"]:
                peer = report("gnubg importing the same files, start to exit", times["gnubg fresh"], fresh_games, "games/s")
                print(f"  bgcli / gnubg: {ratios(times['audit fresh files'], times['gnubg fresh'], '0.5')}")
            if compiled:
                fast = report("the same, compiled core", times["audit fresh compiled"], fresh_games, "games/s")
                print(f"  compiled / pure: {fast / ours:.2f}" + (f"; compiled / gnubg: {fast / peer:.2f}" if times["gnubg fresh"] else ""))
            print("   the same matches, plays in gnubg's display spelling (13/9(2), bar/19*/18)")
            ours = report("bgcli audit, start to exit", times["audit shown files"], fresh_games, "games/s")
            if times["gnubg shown"]:
                peer = report("gnubg importing the same files, start to exit", times["gnubg shown"], fresh_games, "games/s")
                print(f"  bgcli / gnubg: {ratios(times['audit shown files'], times['gnubg shown'], '0.5')}")
            every = games * opts.copies
            print(f"   {len(paths) * opts.copies:,} copies of gnubg's self-play files, {every:,} games (the caches meet each play again)")
            ours = report("bgcli audit, start to exit", times["audit"], every, "games/s")
            if times["gnubg"]:
                peer = report("gnubg importing the same files, start to exit", times["gnubg"], every, "games/s")
                print(f"  bgcli / gnubg: {ratios(times['audit'], times['gnubg'], '0.5')}")
            both = report("the same, --jobs 2 (both cores; gnubg uses one)", times["audit jobs"], every, "games/s")
            if times["gnubg"]:
                print(f"  --jobs 2 / gnubg: {both / peer:.2f}")
            if compiled:
                fast = report("the same, compiled core (mypyc and C)", times["audit compiled"], every, "games/s")
                print(f"  compiled / pure: {fast / ours:.2f}" + (f"; compiled / gnubg: {fast / peer:.2f}" if times["gnubg"] else ""))
        if "view" in only:
            fresh_games = len(GAME.findall(fresh.read_text()))
            audit, view = min(times["audit fresh"]), min(times["view fresh"])
            print(f"\n3. one file of 200 matches never seen ({fresh_games:,} games, random legal plays)")
            print(f"  bgcli audit {audit:.2f} s, bgcli view {view:.2f} s: view / audit {view / audit:.1f} (target 3); "
                  f"the page {fresh_page / 1e6:.1f} MB")
            print(f"   one file of the 40 self-play matches five times ({games * 5:,} games; the audit's caches meet each play five times)")
            audit, view = min(times["audit one"]), min(times["view"])
            print(f"  bgcli audit {audit:.2f} s, bgcli view {view:.2f} s: view / audit {view / audit:.1f} (target 3); "
                  f"the page {page.stat().st_size / 1e6:.1f} MB")
        if "start" in only:
            start = sorted(times["start"])
            print(f"\n4. bgcli moves start 31: {start[0] * 1000:.0f} ms best, {statistics.median(start) * 1000:.0f} ms "
                  f"median (target 100 ms); in the same rounds python -c pass {min(times['python']) * 1000:.0f} ms, "
                  f"python -c 'import click' {min(times['click']) * 1000:.0f} ms")

if __name__ == "__main__":
    main()
