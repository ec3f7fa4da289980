"""Make bearoff2.jsonl: GNU Backgammon's chance that the player on roll bears off first, for pairs of
bear-offs of up to six checkers a side (its two-sided bear-off database answers these exactly).

Run from the project root with bgcli installed and gnubg on the machine:

    python tests/data/analysis/make_bearoff2.py > tests/data/analysis/bearoff2.jsonl

bgcli draws the pairs (a fixed seed) and writes each as a Position ID; a script run inside gnubg
(``gnubg -t -q -r -p``) evaluates each at 0-ply, cubeless (``gnubg.evaluate``), and writes the
win chance. Each line: ``{"on_roll": six counts, "opponent": six counts, "position_id", "win"}``.
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
for command in ("set player 0 human", "set player 1 human", "new session"):
    gnubg.command(command)
gnubg.command("set gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA")
info = gnubg.cubeinfo()
out = open(os.environ["B2_OUT"], "w")
for line in open(os.environ["B2_IN"]):
    item = json.loads(line)
    board = gnubg.positionfromid(item["position_id"])
    item["win"] = gnubg.evaluate(board, info, gnubg.evalcontext(0, 0, 1, 0, 0.0))[0]
    out.write(json.dumps(item) + "\n")
out.close()
'''


def sides(rng: random.Random) -> list[int]:
    n = rng.randint(1, 6)
    counts = [0] * 6
    for _ in range(n):
        counts[rng.randrange(6)] += 1
    return counts


def main() -> None:
    from bgcli.core.position import Position

    rng = random.Random(2027)
    items = []
    for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 200):
        a, b = sides(rng), sides(rng)
        pid = Position.from_sides([*a, *[0] * 19], [*b, *[0] * 19]).id()
        items.append({"on_roll": a, "opponent": b, "position_id": pid})
    with tempfile.TemporaryDirectory() as work:
        given, got, script = (Path(work, name) for name in ("in.jsonl", "out.jsonl", "b2.py"))
        given.write_text("".join(json.dumps(item) + "\n" for item in items))
        script.write_text(GNUBG_SCRIPT)
        subprocess.run(["gnubg", "-t", "-q", "-r", "-p", str(script)], check=True, stdout=subprocess.DEVNULL,
                       stdin=subprocess.DEVNULL, env=dict(os.environ, B2_IN=str(given), B2_OUT=str(got),
                                                          PATH=os.environ.get("PATH", "") + ":/usr/games"))
        sys.stdout.write(got.read_text())


if __name__ == "__main__":
    main()
