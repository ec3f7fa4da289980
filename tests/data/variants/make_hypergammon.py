"""Run inside GNU Backgammon (by make_hypergammon.sh, which gives it the databases it needs)

Makes the hypergammon samples of tests/test_variants.py: gnubg 1.07 plays
itself a 5-point match of hypergammon of 1 checker a side (``set variation
1-chequer-hypergammon``, seed 9) and one of 2 checkers (``set variation
2-chequer-hypergammon``, seed 5), 0-ply. For each it writes

- the .mat export (``export match mat``: ``; [Variation "HyperGammon (1)"]``);
- the SGF gnubg saves of that file imported again (``import mat``, ``save
  match``: ``RU[Crawford:Hypergammon1]``; without the evaluations of the play);
- ``.gnubg.json``: per game, gnubg's Position ID before each move (player on
  roll first, from ``gnubg.match()``), the winner (X: player 0, the left
  column), the points won and the score before it.

``set variation hypergammon1`` is not a command of gnubg 1.07 (it answers
"Unknown keyword"); the variation must be set before ``new match``. Run from
the repository root; writes next to this script.
"""
import json
import os

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else "tests/data/variants"


def play(checkers, seed, length):
    name = os.path.join(HERE, "hypergammon%d_%dpt.gnubg" % (checkers, length))
    gnubg.command("set variation %d-chequer-hypergammon" % checkers)
    gnubg.command("set seed %d" % seed)
    for player in (0, 1):
        gnubg.command("set player %d gnubg" % player)
        gnubg.command("set player %d chequerplay evaluation plies 0" % player)
        gnubg.command("set player %d cubedecision evaluation plies 0" % player)
    gnubg.command("new match %d" % length)
    match = gnubg.match(0, 1, 0, 0)
    games = [{"boards": [r["board"] for r in game["game"] if r["action"] == "move"],
              "winner": game["info"]["winner"], "points": game["info"]["points-won"],
              "score": [game["info"]["score-X"], game["info"]["score-O"]]} for game in match["games"]]
    with open(name + ".json", "w") as out:
        json.dump({"variation": match["match-info"]["variation"], "games": games}, out, indent=1)
        out.write("\n")
    gnubg.command('export match mat "%s.mat"' % name)
    gnubg.command('import mat "%s.mat"' % name)
    gnubg.command('save match "%s.sgf"' % name)


gnubg.command("set display off")
play(1, 9, 5)
play(2, 5, 5)
