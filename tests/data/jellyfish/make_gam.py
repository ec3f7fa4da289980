"""GNU Backgammon's Jellyfish .gam export (``export game gam``) of every game
of a few self-play matches of ``../oracle/selfplay`` and of its money session,
with gnubg's .mat export of the same match beside them (the oracle: the game
a .gam holds is that game of the .mat).

Run inside gnubg, from this folder:

    gnubg -t -q -r -p make_gam.py

gnubg writes a .gam as one game: a line with the two names (no scores, no
match length, no ``Game N`` line), the move rows and the result. It does not
import such a file back (``import mat``: "not a valid .mat file"), so the
judge is its own .mat export of the match the game comes from.
"""
import os

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()
SELFPLAY = os.path.join(HERE, "..", "oracle", "selfplay")
MATCHES = ("sp05001_3pt", "sp05002_5pt", "sp05007_money")

for name in MATCHES:
    gnubg.command(f"import mat {os.path.join(SELFPLAY, name + '.mat')}")
    gnubg.command(f"export match mat {os.path.join(HERE, name + '.mat')}")
    games = len(gnubg.match(analysis=0, boards=0, statistics=0)["games"])
    gnubg.command("first game")
    for number in range(1, games + 1):
        gnubg.command(f"export game gam {os.path.join(HERE, f'{name}_game{number}.gam')}")
        gnubg.command("next game")
