"""Writes a match file as Gibbon, a FIBS client, dumps a match it records ("GMD").

    PYTHONPATH=. python tests/data/real/gibbon-gmd/make_gmd.py SOURCE.mat [--times START] > OUT.gmd

The layout is Gibbon's own (https://github.com/gitGNU/gnu_gibbon, GPL, not copied: ``src/gibbon-gmd-writer.c``
and its samples ``src/7point.gmd`` and ``src/complete.gmd``): ``GMD-2 # Created by Gibbon version 0.2.0``,
``Length: N``, ``Player:W: NAME`` then ``Player:B: NAME``, ``Rule: Crawford``, then per game ``Game:`` and one
action a line: ``Roll:-: D D`` for the opening roll, ``Roll:C: D D`` for the others (the dice in the order
rolled), ``Move:C: STEPS`` (one step a die, ``bar/20``, ``4/off``; nothing after the colon for no play),
``Double:C``, ``Take:C``, ``Drop:C``, ``Resign:C:N`` then ``Accept:C`` (N the points). No result and no score.
The points are absolute, White's numbers: White moves from 24 down to 1, Black up (his point p written 25 - p).
SOURCE's left player is Black. With ``--times START`` every action carries a time after its colour, one second
apart from START (``Roll:W:1330000000: 4 2``, ``Double:W:1330000001``, ``Resign:W:1330000002: 2``), as later
versions of Gibbon's writer write it.
"""
from __future__ import annotations

import json
import subprocess
import sys

from bgcli.core.notation import parse_play
from bgcli.core.position import BAR, OFF, other_side, parse_position_id


def main(source: str, start: int | None = None) -> str:
    run = [sys.executable, "-m", "bgcli"]
    actions = [json.loads(line) for line in subprocess.run([*run, "replay", "--json", source], check=True,
                                                          capture_output=True, text=True).stdout.splitlines()]
    summary = json.loads(subprocess.run([*run, "score", "--json", source], check=True, capture_output=True,
                                        text=True).stdout)
    length, (black, white) = summary["match_length"], summary["players"]
    color = {black: "B", white: "W"}
    clock = [start]

    def label(who: str, tail: str = "") -> str:
        """The colour and, with times, the time after it (``W``, ``W:1330000000``)."""
        if clock[0] is None:
            return who + tail
        clock[0] += 1
        return f"{who}:{clock[0] - 1}{tail}"

    out = ["GMD-2 # Created by Gibbon version 0.2.0", f"Length: {length or 'unlimited'}",
           f"Player:W: {white}", f"Player:B: {black}"]
    if length:
        out.append("Rule: Crawford")
    for result in summary["games"]:
        number = result["game"]
        out.append("Game:")
        opening = True
        for action in (a for a in actions if a["game"] == number):
            who, kind = color[action["player"]], action["action"]
            if kind in ("move", "roll"):
                dice = action["dice"]
                out.append(f"Roll:{label('-' if opening else who, ':')} {dice[0]} {dice[1]}")
                opening = False
                if kind == "roll":
                    continue
                if not action["play"]:
                    out.append(f"Move:{label(who, ':')}")
                    continue
                play = parse_play(action["play"], parse_position_id(action["position_id"]), dice)
                steps = " ".join(f"{point(s.start, who)}/{point(s.end, who)}" for s in play.steps)
                out.append(f"Move:{label(who, ':')} {steps}")
            elif kind == "double":
                out.append(f"Double:{label(who)}")
            elif kind == "take":
                out.append(f"Take:{label(who)}")
            elif kind == "drop":
                out.append(f"Drop:{label(who)}")
        if result["result"] == "resignation":
            winner = color[result["winner"]]
            loser = "W" if winner == "B" else "B"
            out.append(f"Resign:{label(loser, ':')}{' ' if clock[0] is not None else ''}{result['points']}")
            out.append(f"Accept:{label(winner)}")
    return "\n".join(out) + "\n"


def point(p: int, who: str) -> str:
    """A point as Gibbon writes it: White's numbers."""
    if p == BAR:
        return "bar"
    if p == OFF:
        return "off"
    return str(p if who == "W" else other_side(p))


if __name__ == "__main__":
    times = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--times" else None
    sys.stdout.buffer.write(main(sys.argv[1], times).encode("utf-8"))
