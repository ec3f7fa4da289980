"""Make ``cube.jsonl``: gnubg's 2-ply cube analysis at scores near the end of long and short matches.

Run with bgcli's Python from the project root (it needs GNU Backgammon):

    python tests/data/heldout-cube-scores/make_cases.py FOLDER tests/data/heldout-cube-scores/cube.jsonl

FOLDER holds gnubg self-play JSON (``gnubg.match()``, as tests/data/heldout-roundtrip/gnubg_drive.py or
tests/data/oracle/tools/gnubg_selfplay.py write it). For positions before a roll drawn with a fixed seed,
a score of one of these kinds, none of which the other held-out cube data (tests/data/cube/heldout.jsonl,
tests/data/heldout-fresh/cube.jsonl) draw as such:

- ``freedrop``: post-Crawford, the leader 1-away, the trailer an even number away (2, 4, 6) on roll with
  the cube centred, or the leader on roll owning the trailer's cube;
- ``2away2away`` and ``3away3away``, the cube centred or owned;
- ``gammondead``: the player on roll 2-away against 3- to 9-away with the cube centred (a double makes
  their gammons worthless), or 4-away with a 2-cube they own;
- ``highcube``: matches of 17 to 25 points, both near the end, the cube at 4, 8, 16 or 32 owned by
  either player (often dead, often past what either needs).

gnubg answers each at 2-ply (tests/data/cube/make_cube.ask_gnubg: ``gnubg.cfevaluate`` and its ``hint``).
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "cube"))

import make_cube  # noqa: E402
from bgcli.core.ids import gnubg_id, parse_position, xgid  # noqa: E402
from bgcli.core.position import Position  # noqa: E402
from bgcli.core.rules import Rules  # noqa: E402
from bgcli.core.state import GameState, MatchState  # noqa: E402

SEED, CASES = 44501, 180
ME = 1   # the player on roll; a score is (player 0, player 1)
KINDS = ["freedrop", "2away2away", "3away3away", "gammondead", "highcube"]


def state(kind: str, rng: random.Random) -> MatchState:
    cube, owner = 1, -1
    if kind == "freedrop":
        length = rng.choice([3, 5, 7, 9, 11])
        trailer = length - rng.choice([a for a in (2, 4, 6) if a <= length])
        if rng.random() < 0.6:   # the trailer on roll, the cube centred
            mine, theirs = trailer, length - 1
        else:                    # the leader on roll, owning the trailer's cube
            mine, theirs, cube, owner = length - 1, trailer, 2, ME
    elif kind in ("2away2away", "3away3away"):
        away = 2 if kind == "2away2away" else 3
        length = rng.choice([l for l in (3, 5, 7, 9, 11, 17, 25) if l > away])
        mine = theirs = length - away
        cube, owner = rng.choice([(1, -1), (1, -1), (2, ME), (2, 0)])
    elif kind == "gammondead":
        length = rng.choice([5, 7, 9, 11, 13])
        if rng.random() < 0.5:
            mine, theirs = length - 2, length - rng.choice([a for a in range(3, 10) if a <= length])
        else:
            mine, theirs, cube, owner = length - 4, length - rng.choice([a for a in range(2, 8) if a <= length]), 2, ME
    else:
        length = rng.choice([17, 19, 21, 23, 25])
        mine, theirs = length - rng.randrange(1, 9), length - rng.randrange(1, 9)
        if length - 1 in (mine, theirs):
            mine, theirs = min(mine, length - 2), min(theirs, length - 2)
        cube, owner = rng.choice([4, 8, 16, 32]), rng.choice([ME, 0])
    return MatchState(rules=Rules(match_length=length), score=(theirs, mine), cube=cube, cube_owner=owner,
                      on_roll=ME, turn=ME)


def cases(folder: Path) -> list[dict]:
    rng = random.Random(SEED)
    found = make_cube.positions(folder)
    rng.shuffle(found)
    rows, seen = [], set()
    for n, pid in enumerate(found):
        if len(rows) >= CASES:
            break
        kind = KINDS[n % len(KINDS)]
        game = GameState(Position.from_id(pid), state(kind, rng))
        x = xgid(game)
        assert gnubg_id(parse_position(x)) == gnubg_id(game), (x, gnubg_id(game))
        if x not in seen:
            seen.add(x)
            rows.append({"kind": kind, "gnubgid": gnubg_id(game), "xgid": x, "beavers": False, "plies": 2})
    return rows


def main() -> None:
    folder, target = Path(sys.argv[1]), Path(sys.argv[2])
    rows = make_cube.ask_gnubg(cases(folder))
    target.write_text("".join(json.dumps(row, sort_keys=True) + "\n" for row in rows))
    print(f"{len(rows)} cases written to {target}")


if __name__ == "__main__":
    main()
