"""Run inside GNU Backgammon: gnubg -t -q -r -p tests/data/sgf/make_sgf.py

Makes the golden SGF files of tests/test_sgf.py: gnubg imports each match
file below and saves it with ``save match`` (its SGF, GM[6]). Run from the
repository root; writes next to this script.
"""
import os

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else "tests/data/sgf"
DATA = os.path.dirname(HERE)   # tests/data: copies of gnubg's self-play files and the corpus
SOURCES = {
    "sp05000_1pt": os.path.join(DATA, "oracle/selfplay/sp05000_1pt.mat"),      # a resignation
    "sp05003_7pt": os.path.join(DATA, "oracle/selfplay/sp05003_7pt.mat"),      # doubles, takes, drops
    "sp05007_money": os.path.join(DATA, "oracle/selfplay/sp05007_money.mat"),  # money, Jacoby, redoubles
    "galaxy801715": os.path.join(DATA, "corpus/galaxy/match801715.txt"),       # another dialect, a Crawford game
    # rolls never played ("32: ????" before a resignation): gnubg writes a
    # dice node, ;PL[W]DI[32], after the last play of the game
    "studio_mrpurple_lasse_3pt": os.path.join(DATA, "corpus/backgammon-studio/"
                                              "MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt"),
    "studio_gibraltar_mike_llabba_13pt": os.path.join(DATA, "corpus/backgammon-studio/"
                                                      "Gibraltar_Mike - Llabba 13pt Backgammon Studio 2023_03_22 21_22_47.txt"),
}
gnubg.command("set display off")
for name, source in SOURCES.items():
    gnubg.command('import mat "%s"' % source)
    gnubg.command('save match "%s"' % os.path.join(HERE, name + ".sgf"))
