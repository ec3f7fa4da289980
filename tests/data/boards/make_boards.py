"""Make the golden ASCII boards for tests/test_render.py with GNU Backgammon.

Run inside gnubg from this folder:

    /usr/games/gnubg -t -q -r -p make_boards.py

For every case below it sets the game state in gnubg (``set gnubgid``), the
players' names and the board direction (``set clockwise``: gnubg's own way of
putting the home board on the left), then saves gnubg's ``show board`` text in
``NAME.txt`` followed by the pip-count line gnubg's text export writes under a
board (``Pip counts: O n, X m``, O = player 0). ``cases.json`` records each
case's input: the GNUbg ID as gnubg printed it back, the names and the side of
the home board.
"""
import base64
import json
import os
import sys
import tempfile

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()


def side(points=None, bar=0):
    """A gnubg half board: 24 points (index 0 = own 1-point) and the bar."""
    out = [0] * 25
    for point, count in (points or {}).items():
        out[point - 1] = count
    out[24] = bar
    return out


START = side({6: 5, 8: 3, 13: 5, 24: 2})


def match_id(cube=1, owner=-1, on_roll=1, crawford=0, state=1, turn=None, doubled=0, resign=0,
             dice=(0, 0), length=0, score=(0, 0), jacoby=True):
    """Pack a Match ID (its fields as gnubg documents them)."""
    turn = on_roll if turn is None else turn
    fields = [(cube.bit_length() - 1, 4), (3 if owner < 0 else owner, 2), (on_roll, 1), (crawford, 1),
              (state, 3), (turn, 1), (doubled, 1), (resign, 2), (dice[0], 3), (dice[1], 3), (length, 15),
              (score[0], 15), (score[1], 15), (0 if jacoby else 1, 1)]
    bits, n = 0, 0
    for value, width in fields:
        bits |= value << n
        n += width
    return base64.b64encode(bits.to_bytes(9, "little")).decode()


# name, [opponent half, on-roll half], match fields, names, clockwise[, command]
CASES = [
    ("start", [START, START], dict(), ("gnubg", "user"), False),
    ("start-o-rolled", [START, START], dict(on_roll=0, dice=(6, 4)), ("gnubg", "user"), False),
    ("bar-off", [side({18: 2, 21: 1}, bar=1), side({1: 2, 2: 3, 5: 1, 6: 2, 13: 1}, bar=2)],
     dict(dice=(4, 1)), ("Alice", "Bob"), False),
    ("bar-off-o", [side({3: 1}, bar=2), side({1: 1, 5: 1}, bar=1)],
     dict(on_roll=0, dice=(3, 3)), ("Alice", "Bob"), False),
    ("tall-stacks", [side({6: 9}, bar=6), side({1: 11, 24: 4})], dict(), ("Alice", "Bob"), False),
    ("fifteen", [side({12: 15}), side({3: 10, 25 - 7: 5})], dict(on_roll=0), ("Alice", "Bob"), False),
    ("match-cube-x", [side({6: 4, 8: 2, 13: 5, 24: 2, 20: 2}), side({6: 5, 8: 2, 13: 4, 21: 2, 7: 2})],
     dict(cube=4, owner=1, on_roll=1, dice=(5, 3), length=7, score=(3, 1)), ("Alice", "Bob"), False),
    ("match-cube-o", [side({6: 4, 8: 2, 13: 5, 24: 2, 20: 2}), side({6: 5, 8: 2, 13: 4, 21: 2, 7: 2})],
     dict(cube=2, owner=0, on_roll=0, dice=(6, 6), length=11, score=(1, 10)), ("Alice", "Bob"), False),
    ("one-point", [START, START], dict(on_roll=0, length=1, dice=(2, 1)), ("Alice", "Bob"), False),
    ("crawford", [START, START], dict(on_roll=1, length=5, score=(4, 2), crawford=1), ("Alice", "Bob"), False),
    ("doubled", [side({6: 5, 8: 3, 13: 5, 23: 2}), side({6: 4, 7: 2, 8: 2, 13: 5, 24: 2})],
     dict(cube=2, owner=1, on_roll=1), ("Alice", "Bob"), False, "double"),
    ("doubled-o", [side({6: 5, 8: 3, 13: 5, 23: 2}), side({6: 4, 7: 2, 8: 2, 13: 5, 24: 2})],
     dict(on_roll=0, length=9, score=(2, 6)), ("Alice", "Bob"), False, "double"),
    ("resigned", [side({1: 3, 2: 2}), side({1: 5, 2: 5, 3: 5})],
     dict(on_roll=1, cube=2, owner=0, length=3, score=(0, 1)), ("Alice", "Bob"), False, "resign gammon"),
    ("resigned-rolled", [side({1: 3, 2: 2}), side({1: 5, 2: 5, 3: 5})],
     dict(on_roll=0, dice=(2, 1)), ("Alice", "Bob"), False, "resign single"),
    ("start-left", [START, START], dict(), ("gnubg", "user"), True),
    ("bar-off-left", [side({18: 2, 21: 1}, bar=1), side({1: 2, 2: 3, 5: 1, 6: 2, 13: 1}, bar=2)],
     dict(dice=(4, 1)), ("Alice", "Bob"), True),
    ("bar-off-o-left", [side({3: 1}, bar=2), side({1: 1, 5: 1}, bar=1)],
     dict(on_roll=0, dice=(3, 3)), ("Alice", "Bob"), True),
    ("tall-stacks-left", [side({6: 9}, bar=6), side({1: 11, 24: 4})], dict(), ("Alice", "Bob"), True),
    ("match-cube-x-left", [side({6: 4, 8: 2, 13: 5, 24: 2, 20: 2}), side({6: 5, 8: 2, 13: 4, 21: 2, 7: 2})],
     dict(cube=4, owner=1, on_roll=1, dice=(5, 3), length=7, score=(3, 1)), ("Alice", "Bob"), True),
    ("match-cube-o-left", [side({6: 4, 8: 2, 13: 5, 24: 2, 20: 2}), side({6: 5, 8: 2, 13: 4, 21: 2, 7: 2})],
     dict(cube=2, owner=0, on_roll=0, dice=(6, 6), length=11, score=(1, 10)), ("Alice", "Bob"), True),
]


def captured(command):
    """gnubg prints from C, so catch file descriptor 1, not sys.stdout."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+") as spool:
        os.dup2(spool.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        spool.seek(0)
        return spool.read()


gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set output rawboard off")
gnubg.command("set display off")

cases = []
for name, board, fields, names, clockwise, *then in CASES:
    length = fields.get("length", 0)
    gnubg.command("new match %d" % length if length else "new session")
    gnubg.command("set clockwise %s" % ("on" if clockwise else "off"))
    wanted = "%s:%s" % (gnubg.positionid(board), match_id(**fields))
    gnubg.command("set gnubgid " + wanted)
    gnubg.command("set player 0 name %s" % names[0])
    gnubg.command("set player 1 name %s" % names[1])
    for command in then:  # a double or a resignation cannot be set through the ID
        gnubg.command(command)
        wanted = gnubg.gnubgid()
    text = captured("show board")
    start = text.index("GNU Backgammon  Position ID")
    text = text[text.rindex("\n", 0, start) + 1:] if "\n" in text[:start] else text
    lines = text.rstrip("\n").split("\n")
    # gnubg's board from the side of player 1 (X); player 0 is O
    now = gnubg.board()
    on_roll = fields.get("on_roll", 1)
    x_side, o_side = (now[1], now[0]) if on_roll == 1 else (now[0], now[1])
    pips = [sum((i + 1) * n for i, n in enumerate(half)) for half in (o_side, x_side)]
    lines.append("Pip counts: O %d, X %d" % tuple(pips))
    with open(os.path.join(HERE, name + ".txt"), "w") as out:
        out.write("\n".join(lines) + "\n")
    if gnubg.gnubgid() != wanted:
        print("@@ %s: asked for %s, gnubg has %s" % (name, wanted, gnubg.gnubgid()), flush=True)
    cases.append({"name": name, "gnubg_id": gnubg.gnubgid(), "names": list(names),
                  "home": "left" if clockwise else "right"})

with open(os.path.join(HERE, "cases.json"), "w") as out:
    json.dump(cases, out, indent=1)
    out.write("\n")
