"""Run inside GNU Backgammon: gnubg -t -q -r -p tests/data/variants/make_samples.py

Makes the samples of tests/test_habits.py of matches gnubg 1.07 plays under
other rules, each a 3-point match gnubg plays itself (0-ply): it exports the
match as .mat, imports that file again and saves it as SGF (``save match``;
saved from the import, so without the evaluations of the play, which would
make a file of 330 kB).

- nackgammon (``set variation nackgammon``, seed 7): the .mat says
  ``; [Variation "NackGammon"]``, the SGF ``RU[Crawford:Nackgammon]``;
- the cube off (``set cube use off``, seed 11): the SGF says
  ``RU[NoCube:Crawford]``; the .mat has no tag for it and is not kept.

Run from the repository root; writes next to this script.
"""
import os

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else "tests/data/variants"


def play(name, seed, setting, undo, keep_mat):
    mat = os.path.join(HERE, name + ".gnubg.mat")
    gnubg.command("set seed %d" % seed)
    gnubg.command(setting)
    for player in (0, 1):
        gnubg.command("set player %d gnubg" % player)
        gnubg.command("set player %d chequerplay evaluation plies 0" % player)
        gnubg.command("set player %d cubedecision evaluation plies 0" % player)
    gnubg.command("new match 3")
    gnubg.command('export match mat "%s"' % mat)
    gnubg.command('import mat "%s"' % mat)
    gnubg.command('save match "%s"' % os.path.join(HERE, name + ".gnubg.sgf"))
    gnubg.command(undo)
    if not keep_mat:
        os.remove(mat)


gnubg.command("set display off")
play("nackgammon_3pt", 7, "set variation nackgammon", "set variation standard", True)
play("nocube_3pt", 11, "set cube use off", "set cube use on", False)
