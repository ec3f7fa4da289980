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

gnubg has no database of 3 checkers here (makehyper would take hours): the
3-point match of 3 checkers (seed 3) is played by hand, gnubg's players human
and its dice, each play picked at random (seed 3) among the legal plays
bgcli's generator lists (bgcli.core.generator, imported from the repository
root) and given to gnubg's ``move``, which refuses an illegal one (the script
stops then): gnubg keeps the record, the positions and the results; no cube.

``set variation hypergammon1`` is not a command of gnubg 1.07 (it answers
"Unknown keyword"); the variation must be set before ``new match``. Run from
the repository root; writes next to this script.
"""
import json
import os
import random
import sys

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
    save(name)


def save(name):
    """Writes the match as .gnubg.json, .mat and (imported again) .sgf."""
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


def play_by_hand(checkers, seed, length):
    sys.path.insert(0, os.getcwd())
    from bgcli.core.generator import legal_plays
    from bgcli.core.position import CHECKERS, Position

    def side(points):   # gnubg's 25 counts (the bar last) as bgcli's 26 (borne off first)
        return (CHECKERS - sum(points),) + tuple(points[:24]) + (points[24],)

    gnubg.command("set variation %d-chequer-hypergammon" % checkers)
    gnubg.command("set seed %d" % seed)
    for player in (0, 1):
        gnubg.command("set player %d human" % player)
    gnubg.command("new match %d" % length)
    pick = random.Random(seed)
    while not gnubg.match(0, 0, 0, 0)["match-info"].get("result"):
        info = gnubg.posinfo()
        if info["gamestate"] != 1:
            gnubg.command("new game")
        elif not info["dice"][0]:
            gnubg.command("roll")
        else:
            board = gnubg.board()
            plays = legal_plays(Position(side(board[1]), side(board[0])), info["dice"])
            if not plays:
                raise SystemExit("no play of %s in %s: gnubg should have passed the roll" % (info["dice"], board))
            play = pick.choice(plays)
            gnubg.command("move " + " ".join("%d/%d" % (step.start, step.end) for step in play.steps))
            if gnubg.board() == board:
                raise SystemExit("gnubg refused the play %s" % play.steps)
    save(os.path.join(HERE, "hypergammon%d_%dpt.gnubg" % (checkers, length)))


gnubg.command("set display off")
play(1, 9, 5)
play(2, 5, 5)
play_by_hand(3, 3, 3)
