"""Check by hand that GNU Backgammon loads our SGF to the same match.

    python tests/gnubg_check_sgf.py [FILE ...]

For every match file given (default: the gnubg self-play matches and the
Galaxy and Backgammon Studio corpus files), writes our SGF export, then runs
gnubg (``/usr/games/gnubg``) to import the original and load our SGF, and
compares ``gnubg.match()`` of the two: per game the player, action, dice,
the position before each action and the (sorted) steps of each move, and the
winner, points and resignation flag. Prints one line per file and exits 1 if
any differs. Needs gnubg; the pytest suite runs it on a few files when
gnubg is installed (tests/test_sgf.py).
"""
from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bgcli.formats.files import read_any  # noqa: E402
from bgcli.formats.sgf import sgf_text  # noqa: E402

GNUBG = "/usr/games/gnubg"
ORACLE = Path(__file__).resolve().parent / "data" / "oracle" / "selfplay"
CORPUS = Path(__file__).resolve().parent / "data" / "corpus"

# Runs inside gnubg: import each original, load each SGF, dump both.
INSIDE = r'''
import gnubg, json
gnubg.command("set display off")
jobs = json.load(open(JOBS))
out = {}


def summary():
    m = gnubg.match(0, 1, 0, 0)
    games = []
    for g in m["games"]:
        info = g["info"]
        acts = [(a.get("player"), a.get("action"), a.get("dice"), a.get("board"),
                 sorted(tuple(s) for s in a.get("move", []) or [])) for a in g["game"]
                if a.get("action") in ("move", "double", "take", "drop")]
        games.append({"winner": info.get("winner"), "points": info.get("points-won"),
                      "resigned": info.get("resigned"), "actions": acts})
    return {"length": m["match-info"].get("match-length"), "games": games}


for original, ours in jobs:
    gnubg.command('import mat "%s"' % original)
    a = summary()
    gnubg.command('load match "%s"' % ours)
    b = summary()
    out[original] = [a, b]
json.dump(out, open(RESULT, "w"), default=str)
'''


def default_files() -> list[str]:
    files = sorted(glob.glob(str(ORACLE / "*.mat")))
    for folder in ("galaxy", "backgammon-studio"):
        files += sorted(glob.glob(str(CORPUS / folder / "*.txt")))
    return files


def check(files: list[str]) -> dict[str, str]:
    """{file: "same" or the first difference}."""
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for index, original in enumerate(files):
            ours = os.path.join(tmp, f"{index:03d}.sgf")
            Path(ours).write_text("".join(sgf_text(r) for r in read_any(original)), encoding="utf-8")
            jobs.append((original, ours))
        jobs_path, result_path, script = (os.path.join(tmp, n) for n in ("jobs.json", "result.json", "inside.py"))
        Path(jobs_path).write_text(json.dumps(jobs))
        Path(script).write_text(f"JOBS = {jobs_path!r}\nRESULT = {result_path!r}\n" + INSIDE)
        subprocess.run([GNUBG, "-t", "-q", "-r", "-p", script], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=600, check=False)
        results = json.loads(Path(result_path).read_text())
    verdicts = {}
    for original in files:
        if original not in results:
            verdicts[original] = "gnubg gave no result"
            continue
        a, b = results[original]
        verdicts[original] = _difference(a, b)
    return verdicts


def _difference(a: dict, b: dict) -> str:
    if a["length"] != b["length"]:
        return f"match length {a['length']} != {b['length']}"
    if len(a["games"]) != len(b["games"]):
        return f"{len(a['games'])} games != {len(b['games'])}"
    for number, (x, y) in enumerate(zip(a["games"], b["games"]), 1):
        for index, (p, q) in enumerate(zip(x["actions"], y["actions"]), 1):
            if p != q:
                return f"game {number} action {index}: {p} != {q}"
        if len(x["actions"]) != len(y["actions"]):
            return f"game {number}: {len(x['actions'])} actions != {len(y['actions'])}"
        for key in ("winner", "points", "resigned"):
            if x[key] != y[key]:
                return f"game {number} {key}: {x[key]} != {y[key]}"
    return "same"


def main(argv: list[str]) -> int:
    files = argv or default_files()
    verdicts = check(files)
    for name, verdict in verdicts.items():
        print(f"{verdict:>6}  {name}" if verdict == "same" else f"DIFFERS {name}: {verdict}")
    return 0 if all(v == "same" for v in verdicts.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
