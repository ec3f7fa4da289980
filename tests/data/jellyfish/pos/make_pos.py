"""Jellyfish position files (.pos) written by GNU Backgammon (``export
position pos``), and gnubg's reading of each (``import pos``): the golden
Position and Match IDs of ``pos_ids.json``.

Run inside gnubg 1.07, from this folder:

    gnubg -t -q -r -p make_pos.py

Each case sets up a position in a new match or session (the board by its
Position ID, the score, the Crawford game, the cube, the side on roll, the
dice), exports it as NAME.pos, imports NAME.pos back and records gnubg's
Position ID and Match ID of what it read. gnubg's .pos is Jellyfish 3.0's
(version 126): little-endian 16-bit numbers, the names as Pascal strings,
the board as 26 numbers plus 20 (player 1's checkers negative).
"""
import json
import os

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()

CASES = [   # name, match length (0: money), commands after the board, Position ID
    ("bar_bob_on_roll_52", 7, ["set score 2 4", "set turn bob", "set dice 5 2"], "5O4uAAhmdysAQA"),
    ("bar_alice_on_roll_cube_2_bob", 7, ["set score 2 4", "set turn alice", "set cube value 2", "set cube owner bob"],
     "5O4uAAhmdysAQA"),
    ("both_bars_money_cube_4_alice_66", 0, ["set jacoby on", "set turn bob", "set cube value 4",
                                            "set cube owner alice", "set dice 6 6"], "4Dl4AGxwz+AAKA"),
    ("both_bars_alice_on_roll_31", 5, ["set score 1 3", "set turn alice", "set dice 3 1"], "4Dl4AGxwz+AAKA"),
    ("crawford_game_bob_on_roll", 5, ["set score 4 2", "set crawford on", "set turn bob", "set dice 6 4"],
     "4HPwATDgc/ABMA"),
]

gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
golden = {}
for name, length, commands, board in CASES:
    gnubg.command(f"new match {length}" if length else "new session")
    gnubg.command("set player 0 name alice")   # a new match or session names the players again
    gnubg.command("set player 1 name bob")
    gnubg.command("set board " + board)
    for command in commands:
        gnubg.command(command)
    path = os.path.join(HERE, name + ".pos")
    gnubg.command(f"export position pos {path}")
    gnubg.command(f"import pos {path}")
    golden[name] = {"position_id": gnubg.positionid(), "match_id": gnubg.matchid()}
with open(os.path.join(HERE, "pos_ids.json"), "w", encoding="utf-8") as out:
    json.dump(golden, out, indent=1, sort_keys=True)
    out.write("\n")
