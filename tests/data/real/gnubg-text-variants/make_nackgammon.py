"""Run inside GNU Backgammon 1.07.001: OUT=nackgammon_1pt_seed20 gnubg -t -q -r -p make_nackgammon.py
then gzip -9n nackgammon_1pt_seed20.txt

A 1-point match of nackgammon (`set variation nackgammon`), gnubg against
gnubg at 0-ply from seed 20, and its text export (`export match text`). The
same match every run but for the date.
"""
import os

import gnubg

for command in ("set player 0 gnubg", "set player 1 gnubg",
                "set player 0 chequerplay evaluation plies 0", "set player 1 chequerplay evaluation plies 0",
                "set player 0 cubedecision evaluation plies 0", "set player 1 cubedecision evaluation plies 0",
                "set display off", "set automatic game on", "set automatic roll on", "set variation nackgammon",
                "set seed 20", "new match 1"):
    gnubg.command(command)
for _ in range(3000):
    match = gnubg.match(0, 0, 0, 0)
    if match and match["match-info"].get("result"):
        break
    gnubg.command("play")
gnubg.command("export match text %s.txt" % os.environ["OUT"])
