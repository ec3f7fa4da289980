"""Make ``odd.jsonl``: GNU Backgammon's Position ID, GNUbg ID, FIBS board and legal plays of odd states.

Run with bgcli's Python from the project root (it needs GNU Backgammon):

    python tests/data/odd/make_odd.py tests/data/odd/odd.jsonl

``oracle/ids_sample.jsonl`` and ``oracle/legal_sample.jsonl`` hold states of
self-play and of ordinary synthetic positions; a held-out check found none
with 15 checkers on one point, four or more on the bar, or a side with all
its checkers off. This script draws such boards (a fixed seed): all 15 of a
side on one point (either side), many checkers on the bar, bear-offs, 14
checkers off a side, a side with none left (the game over), checkers on both
bars; each with a match context of gnubg's own (``gnubg.cubeinfo`` and
``gnubg.matchid``): money with the Jacoby rule on or off, matches of 1 to 64
points, scores at match point, the Crawford game, cubes up to 64 owned by
either side, dice or none. gnubg, given the GNUbg ID (``set gnubgid``), writes
its own ID back (``gnubg_id``) and its FIBS board (``fibs``: ``show board``
with ``set output rawboard on``); for a board with checkers of both sides,
``legal`` holds, for every roll where the player on roll has 12 checkers or
more on one point or the bar, and three rolls of the others (``dice`` "ab"), gnubg's plays: its text and the Position ID after the play,
the opponent on roll (``hint``, as ``oracle/tools/gnubg_legal.py`` does).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")
DRIVER = str(Path(__file__).resolve().parents[3] / "bgcli" / "engines")   # gnubg_driver.py's folder

GNUBG_SCRIPT = r'''
import json, os, random, sys
import gnubg

sys.path.insert(0, os.environ["ODD_DRIVER"])
from gnubg_driver import after_play as after   # bgcli's own: the board after a play, the opponent on roll

rng = random.Random(4127)
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
for command in ("set player 0 human", "set player 1 human", "set output rawboard on", "set display off",
                "set evaluation chequerplay evaluation plies 0"):
    gnubg.command(command)


def side(off, bar, points):
    s = [0] * 25
    s[24] = bar
    for _ in range(15 - off - bar):
        s[rng.choice(points)] += 1
    return s


def board():
    kind = rng.choice(["stack15", "stack15", "bar", "borneoff", "alloff", "stackbar", "mixed", "fourteen_off"])
    anywhere, home = list(range(24)), list(range(6))
    while True:
        if kind == "stack15":
            me = [0] * 25
            me[rng.randrange(24)] = 15
            opp = side(rng.randrange(0, 15), rng.choice([0, 0, 2]), anywhere)
            if rng.random() < .5:
                me, opp = opp, me
        elif kind == "stackbar":
            me = side(0, rng.randrange(5, 16), anywhere)
            opp = side(rng.randrange(0, 10), rng.randrange(0, 4), home)
        elif kind == "bar":
            me = side(rng.randrange(0, 4), rng.randrange(1, 5), anywhere)
            opp = side(rng.randrange(0, 4), rng.randrange(1, 5), anywhere)
        elif kind == "borneoff":
            me = side(rng.randrange(5, 15), 0, home)
            opp = side(rng.randrange(0, 15), rng.choice([0, 0, 1]), anywhere)
        elif kind == "fourteen_off":
            me = side(14, 0, home)
            opp = side(14, 0, home) if rng.random() < .5 else side(rng.randrange(0, 3), 0, anywhere)
        elif kind == "alloff":
            me = side(rng.randrange(0, 15), rng.choice([0, 1]), anywhere)
            opp = [0] * 25
            if rng.random() < .5:
                me, opp = opp, me
        else:
            me = side(rng.randrange(0, 3), rng.choice([0, 1]), anywhere)
            opp = side(rng.randrange(0, 3), rng.choice([0, 1]), anywhere)
        if all(not (me[i] and opp[23 - i]) for i in range(24)):
            return kind, [opp, me]   # gnubg's board: [1] is the player on roll


out = open(os.environ["ODD_OUT"], "w")
for number in range(int(os.environ["ODD_N"])):
    kind, b = board()
    length = rng.choice([0, 0, 0, 1, 2, 3, 5, 7, 9, 25, 64])
    score, crawford, jacoby = [0, 0], 0, 0
    if length:
        score = [rng.randrange(length), rng.randrange(length)]
        if rng.random() < .4:
            score[rng.randrange(2)] = length - 1
        crawford = int(length - 1 in score and score[0] != score[1] and rng.random() < .5)
    else:
        jacoby = rng.choice([0, 1])
    cube = 1 if crawford else rng.choice([1, 1, 2, 4, 8, 16, 32, 64])   # gnubg.cubeinfo fails past 64
    owner = -1 if cube == 1 else rng.choice([-1, 0, 1])
    turn = rng.choice([0, 1])
    dice = rng.choice(ROLLS) if rng.random() < .5 else (0, 0)
    gnubg.command("new match %d" % length if length else "new session")
    gnubg.command("set jacoby %s" % ("on" if jacoby else "off"))
    pid = gnubg.positionid(b)
    given = pid + ":" + gnubg.matchid(gnubg.cubeinfo(cube, owner, turn, length, tuple(score), crawford, 0),
                                       gnubg.posinfo(turn, 0, 0, 1, dice))
    gnubg.command("set gnubgid " + given)
    written = gnubg.gnubgid()
    sys.stdout.write("\n<<<FIBS %d>>>\n" % number)   # the first board line after it is this state's
    sys.stdout.flush()
    gnubg.command("show board")
    sys.stdout.flush()
    legal = {}
    if sum(b[0]) and sum(b[1]):
        gnubg.command("new session")
        # every roll where the player on roll has a stack of 12 or more (the bar too): few plays each
        for d in (ROLLS if max(b[1]) >= 12 else rng.sample(ROLLS, 3)):
            gnubg.command("set turn 0")
            gnubg.command("set board " + pid)
            gnubg.command("set dice %d %d" % d)
            found = gnubg.hint(100000) or {}
            legal["%d%d" % d] = [[m["move"], gnubg.positionid(after(b, gnubg.parsemove(m["move"])))]
                                 for m in found.get("hint", [])]
    out.write(json.dumps({"kind": kind, "given": given, "gnubg_id": written, "legal": legal}) + "\n")
    out.flush()
out.close()
'''


def main() -> None:
    target, count = Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 120
    with tempfile.TemporaryDirectory() as folder:
        script, answers = Path(folder, "odd.py"), Path(folder, "odd.jsonl")
        script.write_text(GNUBG_SCRIPT)
        run = subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(script)], capture_output=True, text=True, check=True,
                             env=dict(os.environ, ODD_OUT=str(answers), ODD_N=str(count), ODD_DRIVER=DRIVER))
        rows = [json.loads(line) for line in answers.read_text().splitlines()]
    for number, row in enumerate(rows):
        block = run.stdout.split("<<<FIBS %d>>>" % number, 1)[1]
        row["fibs"] = next(line for line in block.splitlines() if line.startswith("board:"))
    target.write_text("".join(json.dumps(row, sort_keys=True) + "\n" for row in rows))
    print(f"{len(rows)} states written to {target}")


if __name__ == "__main__":
    main()
