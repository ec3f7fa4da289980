"""Writes a match file as bgammon.org's server writes a replay (``.match``).

    python tests/data/real/bgammon-org/make_replay.py SOURCE.mat START > OUT.match

START: the first game's start, seconds since 1970 (each game starts a minute later). The
layout is the server's own specification (``REPLAY.md`` of tslocum/bgammon) and its
example: the index (``bgammon-replay`` and the byte where each game starts, eight
digits), then each game's ``i`` line (start time, players, match length, scores before
the game, winner 1 or 2, his points, variant 0), then one event a line: ``1 r 5-3 13/8
8/5`` (the higher die first, one step a die, no mark for a hit, every point as player 1
numbers it: player 2 plays ``1/7``, enters ``bar/3``, bears off ``22/off``), a roll that
cannot be played alone (``2 r 4-4``), ``1 d 2 1`` (a double to 2, taken; 0: declined),
``2 t`` (player 2 resigns). The plays are bgcli's replay of SOURCE (its left player is
player 1), split into steps by bgcli's own play parser.
"""
from __future__ import annotations

import json
import subprocess
import sys

from bgcli.core.notation import parse_play
from bgcli.core.position import BAR, OFF, other_side, parse_position_id


def point(p: int, second: bool) -> str:
    if p == BAR:
        return "bar"
    if p == OFF:
        return "off"
    return str(other_side(p) if second else p)


def main(source: str, start: int) -> str:
    out = subprocess.run([sys.executable, "-m", "bgcli", "replay", "--json", source], check=True,
                         capture_output=True, text=True).stdout
    actions = [json.loads(line) for line in out.splitlines()]
    summary = json.loads(subprocess.run([sys.executable, "-m", "bgcli", "score", "--json", source], check=True,
                                        capture_output=True, text=True).stdout)
    length, names = summary["match_length"], summary["players"]
    results = {game["game"]: game for game in summary["games"]}
    games: dict[int, list[dict]] = {}
    for action in actions:
        games.setdefault(action["game"], []).append(action)
    scores = [0, 0]
    texts = []
    for number, game in sorted(games.items()):
        lines, cube = [], 1
        result = results.get(number)
        winner = names.index(result["winner"]) + 1 if result and result.get("winner") else 0
        points = result["points"] if winner else 0
        for action in game:
            player = names.index(action["player"]) + 1
            kind = action["action"]
            if kind in ("move", "roll"):
                dice = sorted(action["dice"], reverse=True)
                steps = []
                if kind == "move" and action["play"]:
                    play = parse_play(action["play"], parse_position_id(action["position_id"]), action["dice"])
                    steps = [f"{point(s.start, player == 2)}/{point(s.end, player == 2)}" for s in play.steps]
                lines.append(" ".join([str(player), "r", f"{dice[0]}-{dice[1]}", *steps]))
            elif kind == "double":
                cube = action["cube"]
                lines.append(f"{player} d {cube} ?")
            elif kind in ("take", "drop"):
                lines[-1] = lines[-1][:-1] + ("1" if kind == "take" else "0")
        if result and result["result"] == "resignation":
            lines.append(f"{3 - winner} t")
        stamp = start + 60 * (number - 1)
        info = f"i {stamp} {names[0]} {names[1]} {length} {scores[0]} {scores[1]} {winner} {points} 0"
        if winner:
            scores[winner - 1] += points
        texts.append("\n".join([info, *lines]) + "\n")
    index_size = len("bgammon-replay 00000000\n") * len(texts)
    offsets, at = [], index_size
    for text in texts:
        offsets.append(at)
        at += len(text.encode("utf-8"))
    return "".join(f"bgammon-replay {o:08d}\n" for o in offsets) + "".join(texts)


if __name__ == "__main__":
    sys.stdout.write(main(sys.argv[1], int(sys.argv[2])))
