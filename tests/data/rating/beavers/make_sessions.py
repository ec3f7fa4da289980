"""Run inside GNU Backgammon: gnubg -t -q -r -p make_sessions.py

Makes the money sessions of tests/data/rating/beavers: gnubg (0-ply) plays both
sides, and at random moments a cube action is taken by hand instead, so the
record has the cube decisions gnubg's self-play never makes: a double where
gnubg would not double, a take where it would pass and a pass where it would
take, a beaver (of a take or of a pass), a raccoon, each legal (gnubg itself
accepts or refuses the command). The session is saved as gnubg's SGF, with
its rules (Jacoby, beavers) in its RU property.

The golden analysis beside each session (NAME.golden.json: every play's error
and luck, every cube action with gnubg's cubeful equities, each player's
statistics) is gnubg's analyse match at 2-ply, by ../make_golden.py:
  GOLDEN_BEAVERS=N GOLDEN_FILES=NAME.sgf gnubg -t -q -r -p ../make_golden.py
with N the count of beavers the session's name gives. The .mat file is gnubg's
own 'export match mat' of one session (seed 33007).

  SESSION_OUT    output folder
  SESSION_SEEDS  first:count   (one session per seed: gnubg's dice seed)
  SESSION_GAMES  games per session (default 4)

A seed's rules follow from it: Jacoby on for an odd seed, and gnubg's count
of instant redoubles allowed 2 (a beaver and a raccoon), 1 (a beaver only)
and 0 (none) in turn (seed % 3: 0 -> 2, 1 -> 1, 2 -> 0; bgcli's rules have
no third one); the hand's choices are drawn from Python's random seeded by
the same seed.
"""
import os
import random

import gnubg

out = os.environ["SESSION_OUT"]
first, count = (int(x) for x in os.environ.get("SESSION_SEEDS", "33001:1").split(":"))
games = int(os.environ.get("SESSION_GAMES", "4"))
os.makedirs(out, exist_ok=True)

for command in ("set player 0 human", "set player 1 human",
                "set player 0 chequerplay evaluation plies 0", "set player 1 chequerplay evaluation plies 0",
                "set player 0 cubedecision evaluation plies 0", "set player 1 cubedecision evaluation plies 0",
                "set display off", "set automatic game off", "set automatic roll off"):
    gnubg.command(command)


def gnubg_acts(side):
    """gnubg's own action for ``side`` (its turn: cube, roll and play; or its answer to a double)."""
    gnubg.command("set player %d gnubg" % side)
    gnubg.command("play")
    gnubg.command("set player %d human" % side)


def records():
    return gnubg.match(0, 0, 0, 0)["games"][-1]["game"]


def instant_redoubles():
    """How many doubles end the game's record: 1 a double waits, 2 it was beavered, 3 raccooned."""
    count = 0
    for record in reversed(records()):
        if record["action"] != "double":
            break
        count += 1
    return count


for seed in range(first, first + count):
    hand = random.Random(seed)
    jacoby = "on" if seed % 2 else "off"
    beavers = {0: 2, 1: 1, 2: 0}[seed % 3]
    for command in ("set jacoby " + jacoby, "set beavers %d" % beavers, "set seed %d" % seed):
        gnubg.command(command)
    gnubg.command("new session")
    played = 1
    for _ in range(20000):
        info = gnubg.posinfo()
        if info["gamestate"] != 1:
            if played == games:
                break
            played += 1
            gnubg.command("new game")
            continue
        side = info["turn"]
        if info["doubled"]:
            before = len(records())
            doubles = instant_redoubles()
            draw = hand.random()
            if draw < 0.35:
                gnubg_acts(side)
            elif draw < 0.55:
                gnubg.command("take")
            elif draw < 0.72:
                gnubg.command("drop")
            elif doubles < 3:
                gnubg.command("redouble")   # a beaver (or, after one, a raccoon) where the rules allow it
            if len(records()) == before:
                gnubg_acts(side)              # refused: gnubg answers
        elif info["dice"] == (0, 0) and hand.random() < 0.10:
            before = len(records())
            gnubg.command("double")            # refused where the player may not double
            if len(records()) == before:
                gnubg_acts(side)
        else:
            gnubg_acts(side)
    name = "session%05d_jacoby-%s_beavers-%d" % (seed, jacoby, beavers)
    gnubg.command("save match %s/%s.sgf" % (out, name))
