"""Make ``cases.jsonl``: GNU Backgammon 1.07's cube analysis of cube decisions bgcli never saw.

Run with bgcli's Python from the project root (it needs GNU Backgammon):

    gnubg -t -q -r -p tests/data/oracle/tools/gnubg_selfplay.py   # SP_OUT=selfplay-out SP_SEEDS=77001:18
                                                                    # SP_LENGTHS=0,3,5,7,9,11 SP_GAMES=4
    python tests/data/cube/make_cube.py selfplay-out tests/data/cube/cases.jsonl

The positions come from gnubg's self-play (new seeds, 0-ply players) with a
match context drawn at random for each (a fixed seed): money with the Jacoby
rule on or off and beavers on or off, the cube centred or owned, matches of
3 to 11 points at every kind of score (Crawford, post-Crawford, dead cubes,
the opponent owning the cube), plus a few won positions (the player on roll
bears off at once). ``gnubg_cube.py`` then asks gnubg, at 2-ply, for each
case: ``gnubg.cfevaluate`` (its equities and decision) and the lines of its
own ``hint`` command. Each line of the output holds:

- ``kind``: the context drawn; ``gnubgid``, ``xgid``: the state (the XGID also
  carries the beaver rule, which a GNU Backgammon ID cannot);
- ``beavers``: whether gnubg was told beavers are allowed (``set beavers 3``);
- ``no_double``, ``double_take``, ``double_pass``, ``optimal``: gnubg's cubeful
  equities for the player on roll (normalised, as cfevaluate returns them);
- ``probs``: gnubg's cubeless win, gammon, backgammon, lose gammon, lose backgammon;
- ``code``, ``words``: gnubg's decision number and words (cfevaluate);
- ``hint``: the lines of gnubg's ``hint``; ``proper``: the words after
  "Proper cube action: " (without the percentage), None when gnubg says
  "You cannot double."; ``percent``: the percentage printed after them.
"""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from bgcli.core.ids import gnubg_id, parse_position, xgid
from bgcli.core.position import Position
from bgcli.core.rules import Rules
from bgcli.core.state import GameState, MatchState

HERE = Path(__file__).resolve().parent
GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")


def positions(folder: Path) -> list[str]:
    """Position IDs, player on roll first, before a roll of gnubg's self-play (no opening position)."""
    found = []
    for path in sorted(folder.glob("*.json")):
        match = json.loads(path.read_text())
        for game in match["games"]:
            for record in game["game"]:
                if record.get("action") == "move" and record["board"] != Position.start().id():
                    found.append(record["board"])
    return sorted(set(found))


def won_positions() -> list[str]:
    """The player on roll bears off their last checkers with any roll; the opponent has borne off
    some checkers (a single win) or none (a gammon)."""
    out = []
    for mine in ([2, 0, 0], [1, 1, 0], [1, 0, 0], [0, 2, 0]):
        for off_theirs in (0, 3, 9):
            player = [0] * 26
            player[1:4] = mine
            player[0] = 15 - sum(mine)
            opponent = [0] * 26
            left = 15 - off_theirs
            opponent[0] = off_theirs
            opponent[6], opponent[8] = left - left // 2, left // 2
            out.append(Position.from_sides(player, opponent).id())
    return out


def context(rng: random.Random, kind: str) -> tuple[MatchState, bool]:
    """A match state of the drawn kind for the player on roll (1), and whether beavers are allowed."""
    me = 1
    if kind.startswith("money"):
        cube, owner = rng.choice([(1, -1), (1, -1), (2, me), (4, me), (2, 1 - me)] if kind == "money" else [(1, -1)])
        return MatchState(cube=cube, cube_owner=owner, on_roll=me, turn=me,
                          rules=Rules(jacoby=rng.random() < 0.5, beavers=rng.random() < 0.6)), False
    length = rng.choice([3, 5, 7, 9, 11])
    if kind == "crawford":
        score_me, score_them = rng.choice([(length - 1, rng.randrange(length - 1)), (rng.randrange(length - 1), length - 1)])
        return MatchState(rules=Rules(match_length=length), score=(score_them, score_me), on_roll=me, turn=me,
                          crawford=True), False
    if kind == "post-crawford":
        score_me, score_them = rng.choice([(length - 1, rng.randrange(length - 1)), (rng.randrange(length - 1), length - 1)])
        cube, owner = rng.choice([(1, -1), (1, -1), (2, me)])
        return MatchState(rules=Rules(match_length=length), score=(score_them, score_me), cube=cube,
                          cube_owner=owner, on_roll=me, turn=me), False
    score_me, score_them = rng.randrange(length - 1), rng.randrange(length - 1)
    cube, owner = rng.choice([(1, -1), (1, -1), (1, -1), (2, me), (2, 1 - me), (4, me), (8, me)])
    return MatchState(rules=Rules(match_length=length), score=(score_them, score_me), cube=cube, cube_owner=owner,
                      on_roll=me, turn=me), False


ROUNDS = (   # (seed, how many of each kind): two rounds, the second larger, duplicates dropped
    (25, {"money": 90, "match": 110, "crawford": 12, "post-crawford": 20}),
    (26, {"money": 260, "match": 300, "crawford": 20, "post-crawford": 60}),
)


def cases(folder: Path) -> list[dict]:
    out = []
    for seed, plan in ROUNDS:
        rng = random.Random(seed)
        found = positions(folder)
        rng.shuffle(found)
        kinds = [kind for kind, count in plan.items() for _ in range(count)]
        for kind, pid in zip(kinds, found):
            out.append((kind, pid, context(rng, kind)[0]))
        for pid in won_positions():
            out.append(("won", pid, context(rng, rng.choice(["money-centred", "match"]))[0]))
    rows, seen = [], set()
    for kind, pid, match in out:
        state = GameState(Position.from_id(pid), match)
        x = xgid(state)
        assert gnubg_id(parse_position(x)) == gnubg_id(state), (x, gnubg_id(state))
        if (x, kind) in seen:
            continue
        seen.add((x, kind))
        rows.append({"kind": kind, "gnubgid": gnubg_id(state), "xgid": x, "beavers": match.rules.beavers, "plies": 2})
    return rows


def ask_gnubg(rows: list[dict]) -> list[dict]:
    with tempfile.TemporaryDirectory() as folder:
        given, answers = Path(folder, "in.jsonl"), Path(folder, "out.jsonl")
        given.write_text("".join(json.dumps(row) + "\n" for row in rows))
        run = subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(HERE / "gnubg_cube.py")], capture_output=True,
                             text=True, env=dict(os.environ, CUBE_IN=str(given), CUBE_OUT=str(answers)), check=True)
        done = [json.loads(line) for line in answers.read_text().splitlines()]
    blocks = dict(re.findall(r"<<<CUBE (\d+)>>>\n(.*?)\n<<<END \1>>>", run.stdout, re.S))
    out = []
    for number, row in enumerate(done):
        lines = [line.rstrip() for line in blocks[str(number)].splitlines() if line.strip()]
        start = next((i for i, line in enumerate(lines) if line in ("Cube analysis", "You cannot double.")), None)
        lines = lines[start:] if start is not None else lines
        proper = next((line.split(": ", 1)[1] for line in lines if line.startswith("Proper cube action: ")), None)
        percent = None
        if proper is not None and (found := re.fullmatch(r"(.*) \((-?[\d.]+)%\)", proper)):
            proper, percent = found.group(1), float(found.group(2))
        optimal, nd, dt, dp, code, words = row.pop("cf")
        row.pop("cubeinfo")
        out.append(dict(row, no_double=nd, double_take=dt, double_pass=dp, optimal=optimal, code=code, words=words,
                        hint=lines, proper=proper, percent=percent))
    return out


def main() -> None:
    folder, target = Path(sys.argv[1]), Path(sys.argv[2])
    rows = ask_gnubg(cases(folder))
    target.write_text("".join(json.dumps(row, sort_keys=True) + "\n" for row in rows))
    print(f"{len(rows)} cases written to {target}")


if __name__ == "__main__":
    main()
