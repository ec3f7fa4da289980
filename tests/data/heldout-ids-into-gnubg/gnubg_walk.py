"""Run inside GNU Backgammon: gnubg -t -q -r -p gnubg_walk.py
For each SGF (`load match`) or .mat (`import mat`) of WK_FILES (comma list), gnubg's state at each step of each game
(`first game`, `next game`, `next`): lines `@@ FILE GAME POSITION_ID MATCH_ID`."""
import json
import os

import gnubg

gnubg.command("set display off")
for path in os.environ["WK_FILES"].split(","):
    gnubg.command("set variation standard")
    gnubg.command(("import mat " if path.endswith(".mat") else "load match ") + path)
    rec = gnubg.match(0, 0, 0, 0)
    for g, game in enumerate(rec["games"]):
        gnubg.command("first game")
        for _ in range(g):
            gnubg.command("next game")
        last = None
        for k in range(len(game["game"]) + 2):
            gnubg.command("next")
            try:
                now = (gnubg.positionid(gnubg.board()), gnubg.matchid())
            except Exception:
                continue
            if now == last:
                break
            print("@@", os.path.basename(path), g + 1, now[0], now[1], flush=True)
            last = now
