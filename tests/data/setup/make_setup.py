"""Run inside GNU Backgammon from this folder: gnubg -t -q -r -p make_setup.py

Makes the set-up games of tests/test_setup.py: for each case below, a new
5-point match, ``set board`` (a Position ID), ``set turn``, the cube when
given, then gnubg's best play (0-ply) of seeded random rolls until the game
ends (gnubg then starts the next game, rolled for it); ``save match`` writes NAME.sgf (gnubg's set-up node: AE[a:y] AW AB PL,
CV CP). The Position ID before each play (gnubg.positionid(), the mover's
side, in the session that played it) is written to setup_ids.json: the
golden positions a replay of the file from its set-up must meet.

The IDs are the session's, not a reload's: gnubg 1.07 loading these files
back (gnubg.match(boards=1)) agrees for the game where White is on roll
after the set-up, but where Black is (PL[B]) it starts from the board the
other way round (its first ID is the swap of the session's; the later ones are
neither): the plays the session made (gnubg's own best plays, legal there)
say which is right.
"""
import json
import os
import random
import sys

import gnubg

sys.path.insert(0, os.getcwd())   # gnubg runs the script from this folder, but not with it on the path
from gnubg_play import begin, play  # noqa: E402

CASES = [   # name, Position ID, side on roll (gnubg's turn), cube, cube owner, seed
    ("setup_black_on_roll", "cO8GAAew5xkRIA", 1, None, None, 3),
    ("setup_white_cube_2", "cO8GAAew5xkRIA", 0, 2, 0, 5),
    ("setup_bar_black_owns_4", "sOczEAhw7wYABw", 1, 4, 1, 7),
]

begin()

golden = {}
for name, board, turn, cube, owner, seed in CASES:
    rng = random.Random(seed)
    gnubg.command("new match 5")
    gnubg.command("set board " + board)
    gnubg.command("set turn %d" % turn)
    if cube:
        gnubg.command("set cube value %d" % cube)
        gnubg.command("set cube owner %d" % owner)
    ids = []
    play(rng, ids, 300)
    gnubg.command("save match %s.sgf" % name)
    golden[name] = ids
with open("setup_ids.json", "w") as out:
    json.dump(golden, out, indent=1)
    out.write("\n")
