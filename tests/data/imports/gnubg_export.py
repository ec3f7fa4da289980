"""Run inside GNU Backgammon: gnubg -t -q -r -p tests/data/imports/gnubg_export.py

gnubg's reading of each sample of this folder: it imports the file with the
import command of its format (``import oldmoves`` for ``.fibs``, ``import sgg``,
``import tmg``) and exports what it read as a .mat file, ``NAME.gnubg.mat``
beside it. The tests hold bgcli's reading of each sample to bgcli's reading of
that .mat. Run from anywhere; reads and writes next to this script.
"""
import glob
import os

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else "tests/data/imports"
COMMANDS = {".fibs": "oldmoves", ".sgg": "sgg", ".tmg": "tmg"}
gnubg.command("set display off")
for path in sorted(glob.glob(os.path.join(HERE, "*"))):
    stem, suffix = os.path.splitext(path)
    if suffix not in COMMANDS:
        continue
    gnubg.command('import %s "%s"' % (COMMANDS[suffix], path))
    gnubg.command('export match mat "%s.gnubg.mat"' % stem)
