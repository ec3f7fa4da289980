"""Writes gnubg's self-play matches in the formats only gnubg's import
commands read besides bgcli (plain Python: ``python
tests/data/imports/make_samples.py``, from the repository root).

No public file of these formats could be copied (none found under a licence
that allows it), so the samples are gnubg's own games
(tests/data/oracle/selfplay, ``gnubg.match()`` dumps) written in each format
as GNU Backgammon's import reads it (import.c):

- FIBS ``oldmoves`` (``NAME.fibs``, ``ImportOldmoves``): a ``Score is A-B in a
  N point match.`` line, the players' line ``NAME is X - NAME is O``, then one
  line per action, ``X: (6 4) 24-18 13-9``, ``O: (3 3) can't move``, ``X:
  doubles``, ``O: accepts``, ``O: rejects``, ``O: wants to resign``, ``X: wins 2
  points``, and a blank line after each game. X writes its points as FIBS
  numbers them, from the other side (ascending: 1-7 for 24/18), O from its own
  home; gnubg and bgcli turn an ascending play round. The second game of
  ``sp05001_3pt`` names the players in the other order (X is the second
  player), as a FIBS log may.
- GamesGrid ``.sgg`` (``NAME.sgg``, ``ImportSGG``): ``A vs. B``, option lines
  (``Jacoby: Yes``, ``Crawford: Yes``, ...), then per game ``Game 1. 0-0/7`` and
  one line per action, the move number, a tab, and a second tab for B: each
  roll on a line of its own (``3\t\t62:``) before the line of its play
  (``3\t\t62: 24/18, 13/11``), a roll with no play ``62: O-O``, ``Double``,
  ``Accept``, ``Pass``, ``Resign``, and ``A wins 2 points.``. gnubg swaps the
  players after reading (B is its player 0), so B is gnubg's self-play O.

- TrueMoneyGames ``.tmg`` (``NAME.tmg``, ``ImportTMG``): option lines
  (``Player1: 1 NAME 1500.0``, ``Length: 7``, ``Jacoby: 0``, ...), then per
  game ``Game 1: 0-0`` and numbered records, a minus sign on the second
  player's: ``3 1 62:`` (a roll), ``3 4 24/18 13/11`` (its play, ``0/0`` for
  none), ``-4 5 Double to 2``, ``5 7 Take``, ``5 10 Pass``, and ``-6 15 4 NAME
  wins 4 points`` (14, 15, 16: a single game, a gammon, a backgammon). gnubg
  swaps the players after reading (Player2 is its player 0), so Player2 is
  gnubg's self-play X.

Automatic doubles (``autodoubles/NAME.sgg``, ``autodoubles/NAME.tmg``): the same
money sessions with equal opening dice doubling the cube of some games
(:data:`AUTOS`), written as gnubg's import reads them (import.c): a GamesGrid
line ``11: Automatic double`` (a number with no tab after it) after the game's
line and ``Automatic Doubles: Yes`` among the options; a TrueMoneyGames record
``0 2 Automatic to 2``. Every cube after it, and the points of the game, are
doubled. gnubg's .mat export cannot hold a game's starting cube (it writes
``Doubles => 2`` after an automatic double), so gnubg_export.py writes what
gnubg read of each game instead (``NAME.gnubg.json``: the winner, the points
and the starting cube, from ``gnubg.match()``).

gnubg_export.py (run in gnubg) then imports each file and exports it as .mat
(``NAME.gnubg.mat``): the tests (tests/test_oldmoves.py, tests/test_sgg.py)
hold bgcli's reading of each sample to bgcli's reading of gnubg's .mat, and
of the self-play .mat.
"""
import datetime
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SELFPLAY = os.path.join(os.path.dirname(HERE), "oracle", "selfplay")
# matches whose resignations are all single games: gnubg's import reads a
# resignation as a single game whatever the points (import.c: "FIXME determine from score")
OLDMOVES = ("sp05001_3pt", "sp05011_7pt", "sp05023_money")
SGG = ("sp05006_13pt", "sp05015_money", "sp05017_3pt")
TMG = ("sp05003_7pt", "sp05007_money")
SWAPPED = {("sp05001_3pt", 1)}   # (match, game index) whose players' line names O first
# money sessions written again with automatic doubles: game index -> how many (two in a row: 1 in 36 openings)
AUTOS = {"sp05015_money": {0: 1, 2: 2}, "sp05007_money": {0: 1, 3: 1}}
AUTO_FOLDER = os.path.join(HERE, "autodoubles")


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


def sgg(match, name, autos=None):
    autos = autos or {}
    info = match["match-info"]
    a, b = info["O"]["name"], info["X"]["name"]       # A's lines have one tab, B's two
    length = info["match-length"]
    tab = {"O": "\t", "X": "\t\t"}
    day, month, year = info["date"]
    # gnubg reads every line before the first game as an option and stops on one it does not know: no blank line
    out = ["%s vs. %s" % (a, b), datetime.date(year, month, day).strftime("%A, %B %d, %Y 12:00:00"), "GamesGrid",
           "Jacoby: %s" % ("No" if length else "Yes"), "Crawford: Yes", "Doubling Cube: Yes", "Rated: No"]
    if autos:
        out.insert(4, "Automatic Doubles: Yes")
    extra = {"X": 0, "O": 0}   # the points automatic doubles added to each player's score
    for number, game in enumerate(match["games"], 1):
        score = "%d-%d" % (game["info"]["score-O"] + extra["O"], game["info"]["score-X"] + extra["X"])
        if number > 1:
            out.append("")
        out.append("Game %d. %s/%d" % (number, score, length) if length else "Game %d. %s" % (number, score))
        out.extend(["11: Automatic double"] * autos.get(number - 1, 0))
        move = 0
        for action in game["game"]:
            who, kind = action["player"], action["action"]
            if who == game["game"][0]["player"] and kind in ("move", "double") or move == 0:
                move += 1   # a new row: the first player of the game starts a turn
            head = "%d%s" % (move, tab[who])
            if kind == "move":
                roll = "%d%d:" % tuple(action["dice"])
                if not action["move"]:
                    out.append("%s%s O-O" % (head, roll))
                    continue
                out.append(head + roll)
                out.append("%s%s %s" % (head, roll, ", ".join("%d/%d" % tuple(step) for step in action["move"])))
            elif kind == "resign":
                out.append(head + "Resign")
            else:
                out.append(head + {"double": "Double", "take": "Accept", "drop": "Pass"}[kind])
        winner = info[game["info"]["winner"]]["name"]
        points = game["info"]["points-won"] << autos.get(number - 1, 0)
        extra[game["info"]["winner"]] += points - game["info"]["points-won"]
        out.append("%s wins %d point%s." % (winner, points, "" if points == 1 else "s"))
    return "\n".join(out) + "\n"


def tmg(match, name, autos=None):
    autos = autos or {}
    info = match["match-info"]
    length = info["match-length"]
    # records of gnubg's player 0 (self-play O) carry a minus sign: gnubg swaps the players after reading,
    # so they are its X, the left column
    sign = {"X": "-", "O": ""}
    day, month, year = info["date"]
    out = ["MatchID: %s" % name, "Player1: 1 %s 1500.0" % info["O"]["name"],
           "Player2: 2 %s 1500.0" % info["X"]["name"], "Stake: 0", "Startdate: %04d-%02d-%02d 12:00:00" % (year, month, day),
           "Jacoby: %d" % (0 if length else 1), "Beavers: 0", "Crawford: 1", "Cube: 1", "Length: %d" % length, ""]
    extra = {"X": 0, "O": 0}   # the points automatic doubles added to each player's score
    for number, game in enumerate(match["games"], 1):
        out.append("Game %d: %d-%d" % (number, game["info"]["score-O"] + extra["O"], game["info"]["score-X"] + extra["X"]))
        turn, cube = 0, 1
        for _ in range(autos.get(number - 1, 0)):
            cube *= 2
            out.append("0 2 Automatic to %d" % cube)
        for action in game["game"]:
            who, kind = action["player"], action["action"]
            if kind in ("move", "double"):
                turn += 1
            head = "%s%d" % (sign[who], turn)
            if kind == "move":
                out.append("%s 1 %d%d:" % (head, action["dice"][0], action["dice"][1]))
                steps = action["move"]
                out.append("%s 4 %s" % (head, " ".join("%d/%d" % tuple(step) for step in steps) if steps else "0/0"))
            elif kind == "double":
                out.append("%s 5 Double to %d" % (head, cube * 2))
            elif kind == "take":
                cube *= 2
                out.append("%s 7 Take" % head)
            elif kind == "drop":
                out.append("%s 10 Pass" % head)
        winner = game["info"]["winner"]
        points = game["info"]["points-won"] << autos.get(number - 1, 0)
        extra[winner] += points - game["info"]["points-won"]
        kind = {1: 14, 2: 15, 3: 16}[max(1, min(3, points // cube))]
        out.append("%s%d %d %d %s wins %d point%s" % (sign[winner], turn + 1, kind, points, info[winner]["name"],
                                                      points, "" if points == 1 else "s"))
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    for names, write, suffix in ((OLDMOVES, oldmoves, ".fibs"), (SGG, sgg, ".sgg"), (TMG, tmg, ".tmg")):
        for name in names:
            with open(os.path.join(SELFPLAY, name + ".json")) as f:
                match = json.load(f)
            with open(os.path.join(HERE, name + suffix), "w") as f:
                f.write(write(match, name))
            if name in AUTOS:
                os.makedirs(AUTO_FOLDER, exist_ok=True)
                with open(os.path.join(AUTO_FOLDER, name + suffix), "w") as f:
                    f.write(write(match, name, AUTOS[name]))
