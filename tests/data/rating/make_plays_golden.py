"""Run inside GNU Backgammon: gnubg -t -q -r -p make_plays_golden.py

Makes tests/data/rating/plays.golden.json, the golden data of
tests/test_rating_gnubg.py's single-play checks: for each case of
PLAYS_CASES (a JSON file: a list of {"gnubgid": position and match ID with
the dice rolled, "play": the play made in gnubg's notation}), gnubg sets the
position, makes the play, runs ``analyse game`` with chequer play and cube
decisions at 2-ply, and keeps its analysis of that play: every play it lists
(gnubg's steps, and the Position ID it leaves, the opponent on roll), its
equity ("score") and the level it was evaluated at
(2 unless gnubg says otherwise), and which one was made.
"""
import json
import os
import sys

import gnubg

# bgcli's own: the board after the play (gnubg's steps), the opponent on roll (run from this folder: gnubg gives a
# script no __file__)
sys.path.insert(0, os.path.join(os.getcwd(), os.pardir, os.pardir, os.pardir, "bgcli", "engines"))
from gnubg_driver import after_play as after  # noqa: E402


cases = json.load(open(os.environ["PLAYS_CASES"]))
for command in ("set player 0 human", "set player 1 human", "set analysis chequerplay evaluation plies 2",
                "set analysis cubedecision evaluation plies 2"):
    gnubg.command(command)
out = []
for case in cases:
    gnubg.command("new game")
    gnubg.command("set gnubgid " + case["gnubgid"])
    board = gnubg.board()
    gnubg.command("move " + case["play"])
    gnubg.command("analyse game")
    records = gnubg.match(analysis=1, boards=0, statistics=0, verbose=0)["games"][-1]["game"]
    record = [r for r in records if r["action"] == "move"][-1]
    analysis = record["analysis"]
    plays = [{"play": m["move"], "result": gnubg.positionid(after(board, m["move"])), "equity": m["score"],
              "plies": m.get("evalcontext", {}).get("plies", 2)} for m in analysis["moves"]]
    out.append(dict(case, made=analysis["imove"], plays=plays))
with open(os.path.join(os.path.dirname(os.environ["PLAYS_CASES"]), "plays.golden.json"), "w") as handle:
    json.dump(out, handle, indent=1)
    handle.write("\n")
