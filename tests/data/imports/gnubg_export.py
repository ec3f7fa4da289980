"""Run inside GNU Backgammon: gnubg -t -q -r -p tests/data/imports/gnubg_export.py

gnubg's reading of each sample of this folder: it imports the file with the
import command of its format (``import oldmoves`` for ``.fibs``, ``import sgg``,
``import tmg``) and exports what it read as a .mat file, ``NAME.gnubg.mat``
beside it. The tests hold bgcli's reading of each sample to bgcli's reading of
that .mat. Run from anywhere; reads and writes next to this script.

The samples with automatic doubles (``autodoubles/``) get what gnubg read of
each game instead (``NAME.gnubg.json``: the winner's name, the points and the
starting cube, from ``gnubg.match()``): gnubg's .mat export has no place for a
game's starting cube.

And one game of a session as gnubg's ``export game gam`` writes it, with no
header (``sp05007_money.game.gam``): a folder walk must know it for a record
by its content when it is named .txt. And GammonEmpire's game file
(``empire/``, ``import empire``): such games one after another.
"""
import glob
import json
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
for path in sorted(glob.glob(os.path.join(HERE, "autodoubles", "*"))):
    stem, suffix = os.path.splitext(path)
    if suffix not in COMMANDS:
        continue
    gnubg.command('import %s "%s"' % (COMMANDS[suffix], path))
    match = gnubg.match(0, 0, 0, 0)
    names = {side: match["match-info"][side]["name"] for side in ("X", "O")}
    games = [{"winner": names[g["info"]["winner"]], "points": g["info"]["points-won"],
              "initial-cube": g["info"].get("initial-cube", 1)} for g in match["games"]]
    with open(stem + ".gnubg.json", "w") as f:
        json.dump(games, f, indent=1)
        f.write("\n")

# gnubg's "export game gam" (the current game, the last one read, with no header: a line of the
# two names, then the move rows), kept as .gam: tests/test_folder_records.py saves it as .txt
gnubg.command('import mat "%s"' % os.path.join(HERE, "sp05007_money.gnubg.mat"))
gnubg.command('export game gam "%s"' % os.path.join(HERE, "sp05007_money.game.gam"))

# GammonEmpire's game file, as gnubg's "import empire" reads it (its .gam reader): games with no header one
# after another, each at a line of the two names. Made of the first three games of a session as gnubg's
# "export game gam" writes each, then read back with "import empire" and exported as .mat
EMPIRE = os.path.join(HERE, "empire")
gnubg.command('import mat "%s"' % os.path.join(HERE, "sp05007_money.gnubg.mat"))
gnubg.command("first game")
parts = []
for number in range(3):
    if number:
        gnubg.command("next game")
    part = os.path.join(EMPIRE, "game%d.tmp" % number)
    gnubg.command('export game gam "%s"' % part)
    with open(part) as f:
        parts.append(f.read())
    os.remove(part)
with open(os.path.join(EMPIRE, "sp05007_money.gam"), "w") as f:
    f.write("".join(parts))
gnubg.command('import empire "%s"' % os.path.join(EMPIRE, "sp05007_money.gam"))
gnubg.command('export match mat "%s"' % os.path.join(EMPIRE, "sp05007_money.gnubg.mat"))
