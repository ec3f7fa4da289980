"""Run inside GNU Backgammon from this folder: gnubg -t -q -r -p make_midgame.py

Makes the games of tests/test_setup_midgame.py: games gnubg 1.07 played
from the opening in which the board, the cube, the turn or the dice were set
by hand part-way through, as a teaching or analysis session edits a game.
For each case below: a new 5-point match, then its steps in turn, each a
number of gnubg's best plays (0-ply) of seeded random rolls, or one of
gnubg's commands ('set board', 'set cube value', 'set cube owner', 'set
turn', 'set dice'); after the last step gnubg plays on until the game ends
(gnubg then starts the next game, rolled for it). ``save match`` writes
NAME.sgf; ``export match mat`` writes NAME.mat (gnubg warns that an edited
game "cannot be exported correctly in this format": the .mat shows the
plays, not the edit). The Position ID before each play (gnubg.positionid(),
the mover's side, in the session that played it) is written to
midgame_ids.json: the golden positions a replay of the file must meet, edits
and all.
export_text.py then writes gnubg's text export of each NAME.sgf (NAME.txt).

gnubg writes a board set as a node ``;PL[W]AE[a:y]AW[..]AB[..]`` after the
plays before it, a cube set as ``;CV[2]`` and ``;CP[b]``, the dice set as
``;PL[B]DI[31]``; 'set turn' leaves no node: the side set on roll plays twice
in a row. The IDs are the session's, not a reload's: gnubg 1.07's reload of
such a file does not meet them after a turn set by hand or a board set with
Black on roll (make_setup.py says the same of a set-up game's PL[B]).
"""
import json
import os
import random
import sys

import gnubg

sys.path.insert(0, os.getcwd())   # gnubg runs the script from this folder, but not with it on the path
from gnubg_play import begin, play  # noqa: E402

CASES = [   # name, seed, steps: a number of plays, "flip" (set the other side on roll), or a gnubg command
    ("midgame_board_white", 11, [4, "set board sOczEAhw7wYABw"]),
    ("midgame_board_black_cube", 12, [6, "set turn 1", "set board cO8GAAew5xkRIA", "set cube value 2",
                                      "set cube owner 0"]),
    ("midgame_turn_dice_bar", 13, [3, "flip", 2, "set dice 53", "set board sOczEAhw7wYABw", 2, "flip",
                                   "set board sOczEEBw7wKAQw", 1, "set cube value 4", "set cube owner 1"]),
    ("midgame_board_then_turn", 14, [5, "set board sOczEEBw7wKAQw", "flip", 3, "set cube value 2", "flip"]),
]

begin()

golden = {}
for name, seed, steps in CASES:
    rng = random.Random(seed)
    gnubg.command("new match 5")
    ids = []
    for step in steps:
        if isinstance(step, int):
            play(rng, ids, step, opening=True)
        elif step == "flip":
            gnubg.command("set turn %d" % (1 - gnubg.posinfo()["turn"]))
        else:
            gnubg.command(step)
    play(rng, ids, 300, opening=True)
    gnubg.command("save match %s.sgf" % name)
    gnubg.command("export match mat %s.mat" % name)
    golden[name] = ids
with open("midgame_ids.json", "w") as out:
    json.dump(golden, out, indent=1)
    out.write("\n")
