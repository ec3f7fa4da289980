"""bgcli rate against GNU Backgammon's analyse match, side by side in one run.

    python benchmarks/bench_rate.py                   # the matches of tests/data/rating
    python benchmarks/bench_rate.py --level 1 FILE... # other matches, another level for bgcli

On the same matches, one after the other:

- GNU Backgammon (``gnubg -t -q -r -p``) imports each match and runs
  ``analyse match`` with chequer play and cube decisions at 2-ply (luck at its
  default 0-ply): the time of the analyses alone (measured inside gnubg), and
  of the whole program from start to exit;
- ``bgcli rate --json`` with each engine of ``--engines`` (sage, the default
  engine, and gnubg) at ``--level`` (2 by default: gnubg's 2-ply, XG's
  3-ply), from start to exit (the engine's start-up included);

then the agreement: the per-play errors of bgcli against gnubg's (Pearson's
correlation over every checker play both judged, and the mean absolute
difference), and each player's PR, bgcli's against the PR of gnubg's errors
(500 x gnubg's checker and cube error over the same decisions counted).
Money sessions (a name with "money") are played with the Jacoby rule, as the
self-play sessions were.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "rating"

GNUBG_SCRIPT = r'''
import json, os, time
import gnubg
files = os.environ["BENCH_FILES"].split("\n")
out = {}
gnubg.command("set analysis chequerplay evaluation plies 2")
gnubg.command("set analysis cubedecision evaluation plies 2")
for path in files:
    gnubg.command("set jacoby " + ("on" if "money" in os.path.basename(path) else "off"))
    gnubg.command("import mat " + path)
    start = time.perf_counter()
    gnubg.command("analyse match")
    seconds = time.perf_counter() - start
    match = gnubg.match(analysis=1, boards=0, statistics=1, verbose=0)
    players = []
    for side in ("X", "O"):
        error = 0.0
        for game in match["games"]:
            stats = game["stats"][side]
            error += stats["moves"]["error-skill"]
            for kind in ("missed-double-below-cp", "missed-double-above-cp", "wrong-double-below-dp",
                         "wrong-double-above-tg", "wrong-take", "wrong-drop"):
                error += stats["cube"]["err-" + kind + "-skill"]
        players.append(error)
    moves = []
    for number, game in enumerate(match["games"], 1):
        for record in game["game"]:
            analysis = record.get("analysis") or {}
            if record["action"] == "move" and "moves" in analysis and "imove" in analysis:
                ranked = analysis["moves"]
                moves.append([number, record["player"] == "O", ranked[0]["score"] - ranked[analysis["imove"]]["score"]])
    out[path] = {"seconds": seconds, "errors": players, "moves": moves}
with open(os.environ["BENCH_OUT"], "w") as handle:
    json.dump(out, handle)
'''


def gnubg_program() -> str:
    found = shutil.which("gnubg") or next((p for p in ("/usr/games/gnubg", "/usr/bin/gnubg") if os.access(p, os.X_OK)), None)
    if found is None:
        sys.exit("GNU Backgammon is needed: apt-get install gnubg")
    return found


def run_gnubg(files: list[Path]) -> tuple[dict, float, float]:
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "analyse.py"
        script.write_text(GNUBG_SCRIPT)
        out = Path(folder) / "out.json"
        env = dict(os.environ, BENCH_FILES="\n".join(str(f) for f in files), BENCH_OUT=str(out))
        start, cpu = time.perf_counter(), children_cpu()
        subprocess.run([gnubg_program(), "-t", "-q", "-r", "-p", str(script)], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        return json.loads(out.read_text()), wall, children_cpu() - cpu


def children_cpu() -> float:
    """The processor time (user and system) of the finished child processes so far, theirs included: on a
    machine shared with other work the wall time moves with the load, this much less."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def bgcli() -> list[str]:
    here = Path(sys.executable).with_name("bgcli")
    return [str(here)] if here.exists() else [sys.executable, "-m", "bgcli"]


def run_bgcli(files: list[Path], level: int, engine: str = "sage") -> tuple[dict, float, float]:
    """bgcli rate over the files (money sessions apart, with --jacoby): results by path, the wall time and
    the processor time (a gnubg the engine runs included)."""
    found: dict = {}
    wall = 0.0
    cpu = children_cpu()
    for group, extra in (([f for f in files if "money" not in f.name], []), ([f for f in files if "money" in f.name], ["--jacoby"])):
        if not group:
            continue
        start = time.perf_counter()
        done = subprocess.run([*bgcli(), "rate", "--json", "--engine", engine, "--level", str(level), *extra,
                               *map(str, group)],
                              capture_output=True, text=True)
        wall += time.perf_counter() - start
        if done.returncode not in (0, 1):
            sys.exit(f"bgcli rate failed: {done.stderr.strip()}")
        for line in done.stdout.splitlines():
            data = json.loads(line)
            found[data["file"]] = data
    return found, wall, children_cpu() - cpu


def pearson(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (sx * sy) if sx and sy else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--level", type=int, default=2, help="bgcli's level (gnubg's numbering); gnubg is at 2-ply")
    parser.add_argument("--engines", default="sage,gnubg", help="bgcli's engines, comma separated (sage,gnubg)")
    args = parser.parse_args()
    files = [f.resolve() for f in args.files] or sorted(p for p in DATA.iterdir() if p.suffix in (".mat", ".txt"))

    theirs, gnubg_wall, gnubg_cpu = run_gnubg(files)
    analyse = sum(v["seconds"] for v in theirs.values())
    print(f"{len(files)} matches, {sum(len(v['moves']) for v in theirs.values())} checker plays")
    print(f"gnubg analyse match 2-ply : {analyse:7.1f} s analysing ({gnubg_wall:.1f} s with start-up and import, "
          f"{gnubg_cpu:.1f} s of processor time)")
    runs = []
    for engine in args.engines.split(","):
        ours, bgcli_wall, bgcli_cpu = run_bgcli(files, args.level, engine)
        runs.append((engine, ours))
        print(f"bgcli rate {engine} {args.level}-ply   : {bgcli_wall:7.1f} s from start to exit: "
              f"{bgcli_wall / gnubg_wall:.2f} of gnubg's whole run, {bgcli_wall / analyse:.2f} of its analyses alone; "
              f"{bgcli_cpu:.1f} s of processor time, {bgcli_cpu / gnubg_cpu:.2f} of gnubg's")
    for engine, ours in runs:
        print(f"\n--- {engine} against gnubg's analyse match")
        agreement(files, ours, theirs)


def agreement(files: list[Path], ours: dict, theirs: dict) -> None:
    mine_all, theirs_all = [], []
    rows = []
    for path in files:
        key = str(path)
        data, golden = ours.get(key), theirs[key]
        if data is None or "error" in data:
            print(f"{path.name}: bgcli could not rate it: {data and data.get('error')}")
            continue
        plays = [d for d in data["decisions"] if d["kind"] in ("play", "forced", "illegal") and d["played"]]
        for mine, (game, side, error) in zip(plays, golden["moves"]):
            if mine["error"] is not None and mine["game"] == game:
                mine_all.append(mine["error"])
                theirs_all.append(error)
        for side, player in enumerate(data["players"]):
            gnubg_pr = 500 * golden["errors"][side] / player["decisions"] if player["decisions"] else float("nan")
            rows.append((path.name, player["name"], player["pr"], gnubg_pr))
    if mine_all:
        diff = sum(abs(a - b) for a, b in zip(mine_all, theirs_all)) / len(mine_all)
        print(f"per-play errors: correlation {pearson(mine_all, theirs_all):.3f} over {len(mine_all)} plays, "
              f"mean absolute difference {diff:.4f}")
    print(f"{'match':<34} {'player':<10} {'PR bgcli':>8} {'PR gnubg':>8}")
    for name, player, pr, gnubg_pr in rows:
        print(f"{name[:34]:<34} {player[:10]:<10} {pr if pr is not None else float('nan'):8.2f} {gnubg_pr:8.2f}")
    both = [(a, b) for _, _, a, b in rows if a is not None and not math.isnan(b)]
    if len(both) > 2:
        print(f"PR correlation {pearson([a for a, _ in both], [b for _, b in both]):.3f}, mean absolute difference "
              f"{sum(abs(a - b) for a, b in both) / len(both):.2f}")


if __name__ == "__main__":
    main()
