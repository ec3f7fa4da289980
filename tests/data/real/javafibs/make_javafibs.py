"""Writes a match file as JavaFIBS saves a match it played on FIBS ("JavaFIBS internal match representation").

    PYTHONPATH=. python tests/data/real/javafibs/make_javafibs.py SOURCE.mat > OUT.match

The layout is the one Gibbon (a FIBS client, https://github.com/gitGNU/gnu_gibbon) reads and writes
(``src/gibbon-java-fibs-writer.c``, and its sample ``src/complete.match``, a JavaFIBS save): CR LF line ends,
the prolog, ``8:OPPONENT:LENGTH``, then per game ``13:OPPONENT:`` and ``6:You:OPPONENT``, ``11:NAME:4 2`` for
the opening roll and ``0:NAME:4 2`` for the others, ``1:NAME:STEPS`` (the owner's with a blank after them, the
opponent's with one before, as in the sample), ``15:NAME: `` for a roll with no play, ``2:NAME: `` a double,
``4:NAME:`` a take, ``5:NAME:`` a drop, ``3:NAME:N`` a resignation of N points, ``7:NAME:N`` the winner's
points, then ``14:WINNER-N:LOSER-N`` (the owner by his own name) or, after the last game, ``9:WINNER:LENGTH``.
The points are the FIBS board's: in odd games the owner moves up from 1 to 24 (his point p written 25 - p),
the opponent down; in even games the other way round. SOURCE's left player is the owner ("You").
"""
from __future__ import annotations

import json
import subprocess
import sys

from bgcli.core.notation import parse_play
from bgcli.core.position import BAR, OFF, other_side, parse_position_id


def main(source: str) -> str:
    run = [sys.executable, "-m", "bgcli"]
    actions = [json.loads(line) for line in subprocess.run([*run, "replay", "--json", source], check=True,
                                                          capture_output=True, text=True).stdout.splitlines()]
    summary = json.loads(subprocess.run([*run, "score", "--json", source], check=True, capture_output=True,
                                        text=True).stdout)
    length, (owner, opponent) = summary["match_length"], summary["players"]
    label = {owner: "You", opponent: opponent}
    out = ["JavaFIBS internal match representation v1.1", f"8:{opponent}:{length or 9999}"]
    scores = {owner: 0, opponent: 0}
    for result in summary["games"]:
        number = result["game"]
        out += [f"13:{opponent}: ", f"6:You:{opponent}"]
        opening = True
        for action in (a for a in actions if a["game"] == number):
            who, kind = action["player"], action["action"]
            up = (who == owner) == (number % 2 == 1)
            if kind in ("move", "roll"):
                out.append(f"{11 if opening else 0}:{label[who]}:{action['dice'][0]} {action['dice'][1]}")
                opening = False
                if kind == "roll":
                    continue
                if not action["play"]:
                    out.append(f"15:{label[who]}: ")
                    continue
                play = parse_play(action["play"], parse_position_id(action["position_id"]), action["dice"])
                steps = " ".join(f"{point(s.start, up, True)}-{point(s.end, up, False)}" for s in play.steps)
                out.append(f"1:You:{steps} " if who == owner else f"1:{opponent}: {steps}")
            elif kind == "double":
                out.append(f"2:{label[who]}: ")
            elif kind == "take":
                out.append(f"4:{label[who]}:")
            elif kind == "drop":
                out.append(f"5:{label[who]}:")
        winner = result["winner"]
        loser = opponent if winner == owner else owner
        if result["result"] == "resignation":
            out.append(f"3:{label[loser]}:{result['points']}")
        out.append(f"7:{label[winner]}:{result['points']}")
        scores[winner] += result["points"]
        if length and scores[winner] >= length:
            out.append(f"9:{label[winner]}:{length}")
        else:
            out.append(f"14:{winner}-{scores[winner]}:{loser}-{scores[loser]}")
    return "\r\n".join(out) + "\r\n"


def point(p: int, up: bool, start: bool) -> str:
    if p == BAR:
        return "bar"
    if p == OFF:
        return "off"
    return str(other_side(p) if up else p)


if __name__ == "__main__":
    sys.stdout.buffer.write(main(sys.argv[1]).encode("utf-8"))
