"""Run inside GNU Backgammon, once for each language (gnubg 1.07.001):

    localedef -i de_DE -f UTF-8 LOCALES/de_DE.UTF-8     # once for each language
    LOCPATH=LOCALES LC_ALL=de_DE.UTF-8 OUT=de_DE gnubg -t -q -r -p make_localized.py
    gzip -9n de_DE.txt

Plays a 3-point match gnubg against gnubg at 0-ply from seed 56 (its first
game has a hit, an entry from the bar, a roll that cannot be played, a double
taken, a redouble dropped), sets the match information, analyses game 1 at
0-ply and writes its text export (`export game text`) to OUT.txt, in the
language gnubg runs in. The same match and the same words every run but for
the date.
"""
import os

import gnubg

for command in ("set player 0 gnubg", "set player 1 gnubg",
                "set player 0 chequerplay evaluation plies 0", "set player 1 chequerplay evaluation plies 0",
                "set player 0 cubedecision evaluation plies 0", "set player 1 cubedecision evaluation plies 0",
                "set display off", "set automatic game on", "set automatic roll on",
                "set seed 56", "new match 3"):
    gnubg.command(command)
for _ in range(3000):
    match = gnubg.match(0, 0, 0, 0)
    if match and match["match-info"].get("result"):
        break
    gnubg.command("play")
for command in ("set matchinfo place Copenhagen", "set matchinfo event Nordic Open", "set matchinfo round Final",
                "set matchinfo annotator Hunt", "set matchinfo comment a comment",
                "set matchinfo rating 0 1650", "set matchinfo rating 1 1720",
                "set analysis chequerplay evaluation plies 0", "set analysis cubedecision evaluation plies 0",
                "first game", "analyse game", "export game text %s.txt" % os.environ["OUT"]):
    gnubg.command(command)
