"""Run inside GNU Backgammon from this folder: gnubg -t -q -r -p export_text.py

Makes the gnubg text exports of make_midgame.py's edited games
(tests/test_setup_midgame.py): gnubg 1.07 loads each NAME.sgf and writes
``export match text NAME.txt``, one file a game. gnubg's text has no record of
a board, cube or turn set by hand; it prints the Position ID (the mover's
side) and the Match ID before every play, and those jump at the edit. Only
the first game is kept: the second file (NAME_002.txt) is gnubg's roll of
the match's next game, nothing played.
"""
import os

import gnubg

NAMES = ["midgame_board_white", "midgame_board_black_cube", "midgame_turn_dice_bar", "midgame_board_then_turn"]

for name in NAMES:
    gnubg.command("load match %s.sgf" % name)
    gnubg.command("export match text %s.txt" % name)
    if os.path.exists("%s_002.txt" % name):
        os.remove("%s_002.txt" % name)
