"""Run inside GNU Backgammon: gnubg -t -q -r -p gnubg_extremes.py

gnubg's legal plays of positions at the rules' edges, as JSON lines (the fields of
tests/data/oracle/tools/gnubg_legal.py: position_id with the player on roll first,
dice, source, plays [{move, result_id}]), every one of the 21 rolls for each position.
Kinds (EX_EACH of each, drawn with random.Random(EX_SEED)):
  bar_many     4 to 15 of the mover's checkers on the bar, the opponent's home board
               with 0 to 6 points made and blots
  both_bar     both sides with checkers on the bar
  stack        the mover's 15 checkers on one point, the opponent's on one or two
  bearoff_gaps the mover's checkers in his home board on two or three points with gaps,
               some borne off, the opponent with checkers on the bar or in that board
  few          1 to 6 checkers a side anywhere (gnubg counts the rest borne off)
  closed       the opponent's home board closed or one point open, the mover on the bar
Kinds of tests/data/heldout-legal-scale (asked for by name in EX_KINDS):
  scatter      each side 1 to 15 checkers anywhere, 0 to 3 of them on the bar, the rest borne off
  hit_off      the mover bearing off (0 to 2 checkers still outside or on the bar) against 1 to 4 of
               the opponent's checkers in the mover's home board or on the bar: hits while bearing off
  primed       the mover's 1 to 8 back checkers (some on the bar) behind a prime or broken prime of
               4 to 6 points: one die, part of a double or nothing playable
  blocked      the opponent on 7 to 10 made points anywhere, the mover's 2 to 15 checkers between them:
               the rule of the larger die and of as many dice as can be played
Environment: EX_OUT output file, EX_SEED, EX_EACH, EX_KINDS (comma-separated; the first six
if left out).
"""
import json
import os
import random
import sys

# the oracle's own: its 21 rolls, gnubg set up to be asked, and gnubg's legal plays of a board
# (run from this folder: gnubg gives a script no __file__)
sys.path.insert(0, os.path.join(os.getcwd(), os.pardir, "oracle", "tools"))
from gnubg_legal import ROLLS, legal, start  # noqa: E402

out = open(os.environ["EX_OUT"], "w")
rng = random.Random(int(os.environ.get("EX_SEED", "46001")))
each = int(os.environ.get("EX_EACH", "20"))
start()


def free(me, opp, i):
    """May the mover's point index i (0-23) take a checker of the mover?"""
    return opp[23 - i] == 0


def place(side, other, n, where):
    """Put n of side's checkers on random indices of where, never on a point of other's."""
    spots = [i for i in where if other[23 - i] == 0]
    for _ in range(n):
        side[rng.choice(spots)] += 1


def bar_many():
    me, opp = [0] * 25, [0] * 25
    made = rng.sample(range(18, 24), rng.randrange(0, 7))   # opponent's home = mover's 19-24 = opp index 0-5
    for i in made:
        opp[23 - i] = 2
    left = 15 - sum(opp)
    place(opp, me, left, list(range(0, 24)))
    me[24] = rng.randrange(4, 16)
    place(me, opp, 15 - me[24] - rng.randrange(0, 2), list(range(0, 24)))
    return me, opp


def both_bar():
    me, opp = [0] * 25, [0] * 25
    me[24], opp[24] = rng.randrange(1, 6), rng.randrange(1, 6)
    place(opp, me, 15 - opp[24], list(range(0, 24)))
    place(me, opp, 15 - me[24], list(range(0, 24)))
    return me, opp


def stack():
    me, opp = [0] * 25, [0] * 25
    i = rng.randrange(24)
    me[i] = 15
    spots = [j for j in range(24) if 23 - j != i]
    a, b = rng.sample(spots, 2)
    k = rng.choice([15, 14, 8, 1])
    opp[a] += k
    opp[b] += 15 - k
    return me, opp


def bearoff_gaps():
    me, opp = [0] * 25, [0] * 25
    points = sorted(rng.sample(range(6), rng.randrange(1, 4)))
    n = rng.randrange(1, 16)
    for _ in range(n):
        me[rng.choice(points)] += 1
    opp[24] = rng.choice([0, 1, 2])
    # the opponent's checkers in the mover's home board are his indices 18-23
    for _ in range(rng.randrange(0, 3)):
        j = rng.randrange(18, 24)
        if me[23 - j] == 0:
            opp[j] += 1
    place(opp, me, 15 - sum(opp), list(range(0, 18)))
    return me, opp


def few():
    me, opp = [0] * 25, [0] * 25
    me[24] = rng.choice([0, 0, 1])
    place(opp, me, rng.randrange(1, 7), list(range(24)))
    place(me, opp, rng.randrange(1, 7) - me[24] if me[24] else rng.randrange(1, 7), list(range(24)))
    return me, opp


def closed():
    me, opp = [0] * 25, [0] * 25
    open_ = rng.choice([None, None, rng.randrange(6)])
    for j in range(6):
        if j != open_:
            opp[j] = 2
    place(opp, me, 15 - sum(opp), list(range(6, 24)))
    me[24] = rng.randrange(1, 4)
    place(me, opp, 15 - me[24], list(range(0, 18)))
    return me, opp


def scatter():
    me, opp = [0] * 25, [0] * 25
    opp[24] = rng.choice([0, 0, 0, 1, 2, 3])
    me[24] = rng.choice([0, 0, 0, 1, 2, 3])
    place(opp, me, rng.randrange(1, 16 - opp[24]), list(range(24)))
    place(me, opp, rng.randrange(1, 16 - me[24]), list(range(24)))
    return me, opp


def hit_off():
    me, opp = [0] * 25, [0] * 25
    opp[24] = rng.choice([0, 0, 1, 2])
    for _ in range(rng.randrange(1, 5) - min(opp[24], 1)):
        opp[rng.randrange(18, 24)] += 1      # the mover's home board (his indices 0-5)
    place(opp, me, 15 - sum(opp), list(range(0, 18)))
    out = rng.choice([0, 0, 1, 2])
    if out and rng.random() < 0.3:
        me[24] = 1
        out -= 1
    place(me, opp, out, list(range(6, 12)))
    place(me, opp, rng.randrange(1, 16 - sum(me)), list(range(0, 6)))
    return me, opp


def primed():
    me, opp = [0] * 25, [0] * 25
    length = rng.randrange(4, 7)
    start = rng.randrange(12, 24 - length)               # the prime on the mover's indices start.., a point behind it
    gap = rng.choice([None, None, rng.randrange(length)])
    for k in range(length):
        if k != gap:
            opp[23 - (start + k)] = 2
    place(opp, me, 15 - sum(opp), [j for j in range(24) if 23 - j < start])   # in front of the prime
    backs = rng.randrange(1, 9)
    me[24] = rng.randrange(0, min(backs, 3) + 1)
    place(me, opp, backs - me[24], list(range(start + length, 24)))
    place(me, opp, rng.randrange(0, 16 - sum(me)), list(range(0, start)))
    return me, opp


def blocked():
    me, opp = [0] * 25, [0] * 25
    for j in rng.sample(range(24), rng.randrange(7, 11)):
        if sum(opp) + 2 <= 15:
            opp[j] = 2
    place(opp, me, 15 - sum(opp), [j for j in range(24) if opp[j]])
    me[24] = rng.choice([0, 0, 0, 1])
    place(me, opp, rng.randrange(2, 16) - me[24], list(range(24)))
    return me, opp


KINDS = {"bar_many": bar_many, "both_bar": both_bar, "stack": stack,
         "bearoff_gaps": bearoff_gaps, "few": few, "closed": closed,
         "scatter": scatter, "hit_off": hit_off, "primed": primed, "blocked": blocked}
ASKED = os.environ.get("EX_KINDS", "bar_many,both_bar,stack,bearoff_gaps,few,closed").split(",")
for kind, make in [(kind, KINDS[kind]) for kind in ASKED]:
    for _ in range(each):
        me, opp = make()
        assert sum(me) <= 15 and sum(opp) <= 15 and all(not (me[i] and opp[23 - i]) for i in range(24))
        board = (opp, me)
        for dice in ROLLS:
            pid, plays = legal(board, dice)
            out.write(json.dumps({"position_id": pid, "dice": list(dice), "source": "extreme:" + kind,
                                  "plays": plays}) + "\n")
out.close()
print("@@ done", flush=True)
