"""Run inside GNU Backgammon: gnubg -t -q -r -p tests/data/variants/make_nackgammon.py

Makes the nackgammon samples of tests/test_habits.py: gnubg 1.07 plays
itself a 3-point match of nackgammon (``set variation nackgammon``, 0-ply,
seed 7) and exports it as .mat (``export match mat``: its tag
``; [Variation "NackGammon"]``), then imports that file again and saves it
as SGF (``save match``: ``RU[Crawford:Nackgammon]``; saved from the import,
so without the evaluations of the play, which would make the file 330 kB).
Run from the repository root; writes next to this script.
"""
import os

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else "tests/data/variants"
MAT = os.path.join(HERE, "nackgammon_3pt.gnubg.mat")
gnubg.command("set display off")
gnubg.command("set seed 7")
gnubg.command("set variation nackgammon")
for player in (0, 1):
    gnubg.command("set player %d gnubg" % player)
    gnubg.command("set player %d chequerplay evaluation plies 0" % player)
    gnubg.command("set player %d cubedecision evaluation plies 0" % player)
gnubg.command("new match 3")
gnubg.command('export match mat "%s"' % MAT)
gnubg.command('import mat "%s"' % MAT)
gnubg.command('save match "%s"' % os.path.join(HERE, "nackgammon_3pt.gnubg.sgf"))
