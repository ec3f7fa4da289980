"""Run inside GNU Backgammon: gnubg -t -q -r -p tests/data/analysis/make_analysis.py

Makes the golden data of tests/test_analysis.py (run from the repository
root; writes next to this script):

``counts.jsonl`` — one line per position: the 867 distinct positions of
../oracle/legal_sample.jsonl and 306 synthetic ones (races, bear-offs,
contact bear-offs, crashed sides, checkers on the bar, tall stacks, games
over). For each,
what gnubg itself prints or returns:
  ``pips``     ``show pipcount ID``: [player on roll, opponent]
  ``keith``    ``show keith ID``: [Leader, Trailer] (gnubg's "Leader" is the
               player on roll, its anBoard[1]; the counts before the +1/7)
  ``thorp``    ``show thorp ID``: [Leader, Trailer], before the +1/10
  ``kleinman`` ``show kleinman ID``: the on-roll side's "Cubeless Winning
               Chance", as printed (4 decimals)
  ``class``    ``gnubg.classifypos(board)``: gnubg's position class (0 over,
               4-7 its bear-off databases, 8 race, 9 crashed, 10 contact)
  ``win``      for positions with no contact only: gnubg's cubeless 2-ply
               evaluation, the on-roll side's chance to win (its race network,
               or its bear-off databases in the bear-off)
  ``raw``      the text of the three ``show`` commands, for the record.

``bearoff.jsonl`` — 400 positions of gnubg's one-sided bear-off database
(/usr/share/gnubg/gnubg_os0.bd, read byte by byte as gnubg's bearoff.c reads
it): gnubg's index, the six point counts (``gnubg.positionfrombearoff``),
and the 16-bit entries (``first``: the number of rolls of the first entry,
``p16``: the entries, each probability times 65535). For ten of them the
script checks that ``bearoffdump`` prints the same figures.
"""
import ctypes
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

import gnubg

HERE = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else "tests/data/analysis"
ORACLE = os.path.join(os.path.dirname(HERE), "oracle", "legal_sample.jsonl")
DATABASE = "/usr/share/gnubg/gnubg_os0.bd"
BEAROFFDUMP = "/usr/games/bearoffdump"
rng = random.Random(9)
_libc = ctypes.CDLL(None)


def captured(command):
    """gnubg prints from C (buffered), so catch file descriptor 1 and flush C's stdio."""
    sys.stdout.flush()
    _libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+") as spool:
        os.dup2(spool.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            sys.stdout.flush()
            _libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        spool.seek(0)
        return spool.read()


def number_after(label, text):
    found = re.search(re.escape(label) + r"\s*:\s*(-?[0-9.]+)", text)
    if not found:
        raise RuntimeError("no %r in %r" % (label, text))
    value = found.group(1)
    return float(value) if "." in value else int(value)


# --- synthetic positions: gnubg boards (opponent half, on-roll half), index 0 = own 1-point

def spread(count, low, high, bar=0):
    half = [0] * 25
    for _ in range(count):
        half[rng.randrange(low, high)] += 1
    half[24] = bar
    return half


def fits(opponent, player):
    return all(not (player[i] and opponent[23 - i]) for i in range(24))


def synthetic(kind):
    for _ in range(10000):
        if kind == "bearoff":
            board = (spread(rng.randrange(1, 16), 0, 6), spread(rng.randrange(1, 16), 0, 6))
        elif kind == "race":
            cut = rng.randrange(7, 18)  # the player's checkers below the cut, the opponent's beyond
            board = (spread(rng.randrange(1, 16), 0, 24 - cut), spread(rng.randrange(1, 16), 0, cut))
        elif kind == "one-home":  # a race with one side in the bear-off
            board = (spread(rng.randrange(1, 16), 0, rng.randrange(7, 14)), spread(rng.randrange(1, 16), 0, 6))
            if rng.random() < 0.5:
                board = (board[1], board[0])
        elif kind == "contact-bearoff":
            board = (spread(rng.randrange(2, 16), 0, 24, bar=rng.choice([0, 0, 1])), spread(rng.randrange(1, 16), 0, 6))
        elif kind == "crashed":
            left = rng.randrange(4, 12)
            low = [0] * 25
            low[0] = rng.randrange(0, left + 1)
            low[1] = rng.randrange(0, left - low[0] + 1)
            for _ in range(left - low[0] - low[1]):
                low[rng.randrange(2, 24)] += 1
            board = (spread(15, 0, 24, bar=0), low)
            if rng.random() < 0.5:
                board = (board[1], board[0])
        elif kind == "bar":
            board = (spread(13, 0, 24, bar=2), spread(rng.randrange(10, 15), 0, 24, bar=rng.randrange(1, 4)))
        elif kind == "stacks":  # tall stacks on the low points: Keith's and Thorp's extra terms
            me = [0] * 25
            for point in range(6):
                me[point] = rng.choice([0, 0, 1, 2, 3, 4, 6])
            while sum(me) > 15:
                me[rng.randrange(6)] = 0
            for _ in range(rng.randrange(0, 16 - sum(me))):
                me[rng.randrange(6, 24)] += 1
            board = (spread(rng.randrange(5, 16), 0, 24), me)
        elif kind == "over":  # a side has borne off all 15
            board = ([0] * 25, spread(rng.randrange(1, 16), 0, 24))
            if rng.random() < 0.5:
                board = (board[1], board[0])
            return board
        else:
            raise ValueError(kind)
        if fits(*board) and sum(board[0]) <= 15 and sum(board[1]) <= 15 and sum(board[0]) and sum(board[1]):
            return board
    raise RuntimeError("no %s position" % kind)


def positions():
    seen = set()
    with open(ORACLE) as handle:
        for line in handle:
            record = json.loads(line)
            if record["position_id"] not in seen:
                seen.add(record["position_id"])
                yield record["position_id"], "legal_sample:" + record["source"]
    kinds = [("bearoff", 70), ("race", 60), ("one-home", 50), ("contact-bearoff", 30), ("crashed", 40),
             ("bar", 20), ("stacks", 30), ("over", 6)]
    for kind, count in kinds:
        for _ in range(count):
            pid = gnubg.positionid(synthetic(kind))
            if pid not in seen:
                seen.add(pid)
                yield pid, "synthetic:" + kind


def make_counts():
    context = {"cubeful": 0, "plies": 2, "deterministic": 1, "prune": 1, "noise": 0.0}
    out = []
    for pid, source in positions():
        pip_text = captured("show pipcount " + pid)
        found = re.search(r"The pip counts are: \S+ (\d+), \S+ (\d+)\.", pip_text)
        keith_text = captured("show keith " + pid)
        thorp_text = captured("show thorp " + pid)
        kleinman_text = captured("show kleinman " + pid)
        board = gnubg.positionfromid(pid)
        record = {
            "position_id": pid,
            "source": source,
            "pips": [int(found.group(1)), int(found.group(2))],
            "keith": [number_after("Keith Count Leader", keith_text), number_after("Keith Count Trailer          T", keith_text)],
            "thorp": [number_after("Thorp Count Leader", thorp_text), number_after("Thorp Count Trailer          T", thorp_text)],
            "kleinman": number_after("Cubeless Winning Chance", kleinman_text),
            "class": gnubg.classifypos(board),
        }
        if record["class"] not in (9, 10) and record["class"] != 0:  # no contact: gnubg's race figure
            record["win"] = round(gnubg.evaluate(board, gnubg.cubeinfo(), context)[0], 7)
        record["raw"] = "\n".join(text.strip() for text in (pip_text, keith_text, thorp_text))
        out.append(record)
    with open(os.path.join(HERE, "counts.jsonl"), "w") as handle:
        for record in out:
            handle.write(json.dumps(record) + "\n")
    return out


# --- gnubg's one-sided database -------------------------------------------------------

def read_database():
    with open(DATABASE, "rb") as handle:
        data = handle.read()
    header = data[:40].decode("ascii")
    if not header.startswith("gnubg-OS-06-15-1-1-0"):  # 6 points, 15 checkers, gammons, compressed
        raise RuntimeError("unexpected database header %r" % header)
    count = 54264

    def entry(index):
        offset, nonzero, first, _, _ = struct.unpack_from("<IBBBB", data, 40 + 8 * index)
        base = 40 + 8 * count + 2 * offset
        return first, list(struct.unpack_from("<%dH" % nonzero, data, base))

    return entry


def dump(index):
    """bearoffdump's "Opponent" column of "Bearing off": percentages by rolls."""
    text = subprocess.run([BEAROFFDUMP, DATABASE, "-n", str(index)], capture_output=True, text=True, check=True).stdout
    table = text.split("Rolls\tPlayer\tOpponent")[1].split("Average rolls")[0]
    out = {}
    for line in table.strip().splitlines()[1:]:  # after the rest of the heading line
        fields = line.split()
        out[int(fields[0])] = float(fields[2])
    return out


def make_bearoff():
    entry = read_database()
    indices = list(range(1, 40)) + [54263, 54262, 54000, 50000, 30000, 20000, 10000]
    indices += rng.sample(range(40, 54264), 400 - len(indices))
    with open(os.path.join(HERE, "bearoff.jsonl"), "w") as handle:
        for index in indices:
            first, p16 = entry(index)
            counts = list(gnubg.positionfrombearoff(index)[:6])
            handle.write(json.dumps({"index": index, "counts": counts, "first": first, "p16": p16}) + "\n")
    for index in indices[::40]:  # the file as read here is what gnubg's own tool prints
        first, p16 = entry(index)
        printed = dump(index)
        for rolls, value in enumerate(p16, first):
            if abs(printed.get(rolls, 0.0) - 100.0 * value / 65535) > 0.0006:
                raise RuntimeError("bearoffdump disagrees at %d, %d rolls" % (index, rolls))


gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set display off")
gnubg.command("new game")
records = make_counts()
make_bearoff()
print("wrote %d positions to counts.jsonl and 400 to bearoff.jsonl" % len(records), flush=True)
