"""Writes gnubg's self-play matches as FIBS ``oldmoves`` files (plain Python:
``python tests/data/imports/make_oldmoves.py``, from the repository root).

No public FIBS oldmoves file could be copied (none found under a licence that
allows it), so the samples are gnubg's own games (tests/data/oracle/selfplay,
``gnubg.match()`` dumps) written in the format as GNU Backgammon's ``import
oldmoves`` reads it (import.c, ``ImportOldmoves``): a ``Score is A-B in a N
point match.`` line, the players' line ``NAME is X - NAME is O``, then one line
per action, ``X: (6 4) 24-18 13-9``, ``O: (3 3) can't move``, ``X: doubles``,
``O: accepts``, ``O: rejects``, ``O: wants to resign``, ``X: wins 2 points``, and
a blank line after each game. X writes its points as FIBS numbers them, from
the other side (ascending: 1-7 for 24/18), O from its own home; gnubg and bgcli
turn an ascending play round. The second game of ``sp05001_3pt`` names the
players in the other order (X is the second player), as a FIBS log may.

gnubg_export.py (run in gnubg) then imports each file and exports it as .mat
(``NAME.gnubg.mat``): tests/test_oldmoves.py holds bgcli's reading of the
.fibs file to bgcli's reading of gnubg's .mat, and of the self-play .mat.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SELFPLAY = os.path.join(os.path.dirname(HERE), "oracle", "selfplay")
# matches whose resignations are all single games: gnubg's import reads a
# resignation as a single game whatever the points (import.c: "FIXME determine from score")
SOURCES = ("sp05001_3pt", "sp05011_7pt", "sp05023_money")
SWAPPED = {("sp05001_3pt", 1)}   # (match, game index) whose players' line names O first


def point(p, ascending):
    if p == 25:
        return "bar"
    if p == 0:
        return "off"
    return str(25 - p if ascending else p)


def oldmoves(match, name):
    info = match["match-info"]
    names = {"X": info["X"]["name"], "O": info["O"]["name"]}
    length = info["match-length"]
    out = []
    for number, game in enumerate(match["games"]):
        swapped = (name, number) in SWAPPED
        # the letter each player has in this game's lines
        letter = {"X": "O", "O": "X"} if swapped else {"X": "X", "O": "O"}
        first, second = ("O", "X") if swapped else ("X", "O")
        scores = game["info"]["score-" + first], game["info"]["score-" + second]
        out.append("Score is %d-%d in a %d point match." % (scores[0], scores[1], length) if length
                   else "Score is %d-%d in an unlimited match." % scores)
        out.append("  %s is X - %s is O" % (names[first], names[second]))
        cube = 1
        for action in game["game"]:
            who = letter[action["player"]]
            kind = action["action"]
            if kind == "move":
                d1, d2 = action["dice"]
                steps = action["move"]
                if not steps:
                    out.append("%s: (%d %d) can't move" % (who, d1, d2))
                    continue
                ascending = who == "X"
                out.append("%s: (%d %d) %s" % (who, d1, d2, " ".join(
                    "%s-%s" % (point(a, ascending), point(b, ascending)) for a, b in steps)))
            elif kind == "double":
                out.append("%s: doubles" % who)
            elif kind == "take":
                cube *= 2
                out.append("%s: accepts" % who)
            elif kind == "drop":
                out.append("%s: rejects" % who)
            elif kind == "resign":
                out.append("%s: wants to resign" % who)
        winner = letter[game["info"]["winner"]]
        points = game["info"]["points-won"]
        out.append("%s: wins %d point%s" % (winner, points, "" if points == 1 else "s"))
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    for name in SOURCES:
        with open(os.path.join(SELFPLAY, name + ".json")) as f:
            match = json.load(f)
        with open(os.path.join(HERE, name + ".fibs"), "w") as f:
            f.write(oldmoves(match, name))
