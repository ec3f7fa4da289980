"""Run inside GNU Backgammon: gnubg -t -q -r -p gnubg_states.py

Prints, for a match gnubg saved (its SGF), gnubg's own state at each step of
each game as it walks the record (``first game``, ``next game``, ``next``):
one line ``@@ GAME POSITION_ID MATCH_ID`` per state, the player on roll first.
The first state of a game is the one after its first action; a game's last,
after its result (the game over). Environment: F (the .sgf), J (gnubg's JSON
of the match, gnubg.match(), for the number of records of each game).
"""
import json
import os

import gnubg

gnubg.command("set display off")
gnubg.command("load match " + os.environ["F"])
rec = json.load(open(os.environ["J"]))
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
        print("@@", g + 1, now[0], now[1], flush=True)
        last = now
