"""A wider check than the golden data: every self-play position, three contexts each, at gnubg's 0-ply.

    python tests/data/cube/scan_cube.py selfplay-out scan.jsonl   # selfplay-out as for make_cube.py

Each position of the self-play folder is analysed by gnubg (``gnubg_cube.py``)
in money play with beavers, the cube centred and the cube owned (2), and in a
match of random length and score with a random cube; then bgcli's cube module
is compared with gnubg on every case (may the player double, the words, the
percentage, the order of the lines), and what disagrees is printed. The
output (7 MB for 9,753 cases) is not kept in the project; the words do not
depend on the level, so 0-ply suffices to cover many more positions.
"""
from __future__ import annotations

import collections
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import make_cube  # noqa: E402
from bgcli.core.cube import CubeTurn, may_double, percent, proper_action_of, ranked  # noqa: E402
from bgcli.core.ids import gnubg_id, parse_position, xgid  # noqa: E402
from bgcli.core.position import Position  # noqa: E402
from bgcli.core.rules import Rules  # noqa: E402
from bgcli.core.state import GameState, MatchState  # noqa: E402


def cases(folder: Path) -> list[dict]:
    rng = random.Random(27)
    rows = []
    for pid in make_cube.positions(folder):
        for context in ("centred", "owned", "match"):
            if context == "centred":
                match = MatchState(on_roll=1, turn=1, rules=Rules(beavers=True))
            elif context == "owned":
                match = MatchState(cube=2, cube_owner=1, on_roll=1, turn=1, rules=Rules(beavers=True))
            else:
                length = rng.choice([3, 5, 7, 9, 11])
                score = rng.randrange(length - 1), rng.randrange(length - 1)
                cube, owner = rng.choice([(1, -1), (2, 1), (4, 1)])
                match = MatchState(cube=cube, cube_owner=owner, on_roll=1, turn=1, score=score,
                                   rules=Rules(match_length=length))
            state = GameState(Position.from_id(pid), match)
            rows.append({"kind": "scan", "gnubgid": gnubg_id(state), "xgid": xgid(state),
                         "beavers": match.rules.beavers, "plies": 0})
    return rows


def disagreements(rows: list[dict]) -> collections.Counter:
    bad: collections.Counter = collections.Counter()
    for r in rows:
        turn = CubeTurn.of(parse_position(r["xgid"]))
        if (may_double(turn) is None) != (r["proper"] is not None):
            bad["may double"] += 1
            continue
        figures = r["no_double"], r["double_take"], r["double_pass"]
        action = proper_action_of(turn, *figures, gammons=r["probs"][1] > 0)
        if r["words"] != "Unknown cube decision" and str(action) != r["words"]:
            bad[f"{action} for {r['words']}"] += 1
        if r["proper"] is None:
            continue
        share = percent(action, *figures)
        if (share is None) != (r["percent"] is None) or (share is not None and f"{100 * share:.1f}" != f"{r['percent']:.1f}"):
            bad["percent"] += 1
        lines = tuple(line[3:16].strip() for line in r["hint"] if line[:2] in ("1.", "2.", "3."))
        if tuple(str(line) for line in ranked(action, *figures)) != lines:
            bad["order"] += 1
    return bad


def main() -> None:
    rows = make_cube.ask_gnubg(cases(Path(sys.argv[1])))
    Path(sys.argv[2]).write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"{len(rows)} cases; gnubg's answers: {collections.Counter(r['proper'] for r in rows)}")
    print(f"disagreements: {disagreements(rows) or 'none'}")


if __name__ == "__main__":
    main()
