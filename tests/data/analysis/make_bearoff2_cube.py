"""Make bearoff2_cube.jsonl: GNU Backgammon's cube decisions in bear-offs of up to six checkers a side.

Run from the project root with bgcli installed and gnubg on the machine:

    python tests/data/analysis/make_bearoff2_cube.py > tests/data/analysis/bearoff2_cube.jsonl

bgcli draws the positions and the match context (a fixed seed): money play with the cube centred, owned
by the player on roll or by the opponent, and matches of 3 to 11 points at drawn scores, cubes and
owners, Crawford and post-Crawford games; each as a GNU Backgammon ID. A script run inside gnubg
(``gnubg -t -q -r -p``) sets each (``set gnubgid``) and writes ``gnubg.cfevaluate`` at 2-ply: the
optimal equity, no double, double/take, double/pass (normalised) and its decision number. In money play
gnubg answers these positions from its two-sided bear-off database, whose cubeful equities are exact
(kept in 16 bits); in match play its figures come from its evaluation, not from a table.
Each line: ``{"gnubgid", "on_roll", "opponent", "kind": "money"|"match", "cf": [optimal, nd, dt, dp, decision]}``.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

GNUBG_SCRIPT = r'''
import json, os
import gnubg
for command in ("set player 0 human", "set player 1 human", "set display off", "new session", "set beavers 0"):
    gnubg.command(command)
for kind in ("chequerplay", "cubedecision"):
    gnubg.command("set evaluation %s evaluation plies 2" % kind)
out = open(os.environ["B2_OUT"], "w")
for line in open(os.environ["B2_IN"]):
    item = json.loads(line)
    gnubg.command("set gnubgid " + item["gnubgid"])
    info = gnubg.cubeinfo()
    item["cf"] = list(gnubg.cfevaluate(gnubg.board(), info, gnubg.evalcontext(1, 2, 1, 1, 0.0)))
    out.write(json.dumps(item) + "\n")
    out.flush()
out.close()
'''


def sides(rng: random.Random) -> list[int]:
    n = rng.randint(1, 6)
    counts = [0] * 6
    for _ in range(n):
        counts[rng.randrange(6)] += 1
    return counts


def context(rng: random.Random, number: int):
    from bgcli.core.rules import Rules
    from bgcli.core.state import MatchState

    if number % 2 == 0:   # money: the cube centred, owned by the player on roll, owned by the opponent
        owner = (-1, 0, 1)[number // 2 % 3]
        return "money", MatchState(cube=1 if owner < 0 else 2, cube_owner=owner, on_roll=0, turn=0,
                                   rules=Rules(jacoby=False, beavers=False))
    length = rng.choice((3, 5, 7, 9, 11))
    score = (rng.randrange(length), rng.randrange(length))
    crawford = max(score) == length - 1 and rng.random() < 0.5
    cube, owner = 1, -1
    if not crawford:
        cube = rng.choice((1, 2, 4))
        owner = -1 if cube == 1 else rng.choice((0, 1))
    return "match", MatchState(cube=cube, cube_owner=owner, on_roll=0, turn=0, score=score, crawford=crawford,
                               rules=Rules(match_length=length))


def main() -> None:
    from bgcli.core.ids import gnubg_id
    from bgcli.core.position import Position
    from bgcli.core.state import GameState

    rng = random.Random(2029)
    items = []
    for number in range(int(sys.argv[1]) if len(sys.argv) > 1 else 160):
        a, b = sides(rng), sides(rng)
        kind, match = context(rng, number)
        state = GameState(Position.from_sides([*a, *[0] * 19], [*b, *[0] * 19]), match)
        items.append({"gnubgid": gnubg_id(state), "on_roll": a, "opponent": b, "kind": kind})
    with tempfile.TemporaryDirectory() as work:
        given, got, script = (Path(work, name) for name in ("in.jsonl", "out.jsonl", "b2c.py"))
        given.write_text("".join(json.dumps(item) + "\n" for item in items))
        script.write_text(GNUBG_SCRIPT)
        subprocess.run(["gnubg", "-t", "-q", "-r", "-p", str(script)], check=True, stdout=subprocess.DEVNULL,
                       stdin=subprocess.DEVNULL, env=dict(os.environ, B2_IN=str(given), B2_OUT=str(got),
                                                          PATH=os.environ.get("PATH", "") + ":/usr/games"))
        sys.stdout.write(got.read_text())


if __name__ == "__main__":
    main()
