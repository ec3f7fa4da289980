"""Make tests/data/rollout/gnubg_truncated.json: GNU Backgammon's own truncated rollouts of a few positions.

Run from the project root with gnubg installed (it runs as a separate program, never imported):

    .venv/bin/python tests/data/rollout/make_truncated.py [TRIALS]

The positions, each money with the cube centred and its player on roll before rolling: the issue's
(8/5 6/5 after the opening 31, the opponent on roll), then from the matches gnubg played against
itself (tests/data/oracle/selfplay/*.json, made by ../shared/oracle/tools/gnubg_selfplay.py), in file
order, the first ``FAVOURITES`` records of a roll from the ``FIRST``-th record of a game on (one a file), in a
position with contact, whose player on roll has ``LOW`` to ``HIGH`` (62% to 80%) at gnubg's 0-ply (a
favourite: doubles, takes and passes come within a few half-moves, so the trials turn the cube). Each is rolled out by
gnubg's own ``rollout`` command (bgcli.engines.gnubg_rollout: 0-ply plays and cube decisions,
cubeful, variance reduction, quasi-random dice, seed 1, TRIALS trials, 1296 unless given),
truncated at each of ``HALF_MOVES`` half-moves. That command leaves out the first cube decision of the
player on roll. The file keeps, for each, gnubg's cubeful equity of the player on roll (money, per unit
of the cube) and its standard error as gnubg prints them (three decimals).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from bgcli.core.ids import gnubg_id  # noqa: E402
from bgcli.core.position import Position, is_contact  # noqa: E402
from bgcli.core.state import GameState  # noqa: E402
from bgcli.engines import open_engine  # noqa: E402
from bgcli.engines.gnubg_rollout import commands, rollout_states  # noqa: E402

SELFPLAY = ROOT / "tests" / "data" / "oracle" / "selfplay"
OUT = Path(__file__).with_name("gnubg_truncated.json")
ISSUE = "sGfwATDgc/ABMA"   # 8/5 6/5 after the opening 31: the opponent on roll
FAVOURITES = 3
FIRST = 6
LOW, HIGH = 0.62, 0.8
HALF_MOVES = (3, 4, 5, 7)
SEED = 1


def favourites(engine):
    seen = set()
    for path in sorted(SELFPLAY.glob("*.json")):
        for game in json.loads(path.read_text())["games"]:
            for number, record in enumerate(game["game"]):
                if number < FIRST or record.get("action") != "move" or record["board"] in seen:
                    continue
                seen.add(record["board"])
                position = Position.from_id(record["board"])
                if not is_contact(position):
                    continue
                win = engine.evaluate(GameState(position)).probabilities.win
                if LOW <= win <= HIGH:
                    yield path.name, record["board"]
                    break
            else:
                continue
            break   # one position a file


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 1296
    engine = open_engine("gnubg", 0)
    chosen = [("the opening 31 played 8/5 6/5", ISSUE)]
    for found in favourites(engine):
        chosen.append(found)
        if len(chosen) > FAVOURITES:
            break
    engine.close()
    out = []
    for source, board in chosen:
        state = GameState(Position.from_id(board))
        figures = {}
        for half in HALF_MOVES:
            found = rollout_states([state], commands(trials, SEED, True, half, True, 0, None, 1))[0]
            figures[str(half)] = {"equity": found.cubeful, "se": found.cubeful_error, "trials": found.games}
        out.append({"source": source, "position": gnubg_id(state), "truncated": figures})
        print(source, board, figures, flush=True)
    OUT.write_text(json.dumps({"made_by": "tests/data/rollout/make_truncated.py", "gnubg_settings": {
        "trials": trials, "seed": SEED, "cubeful": True, "half_moves": list(HALF_MOVES), "variance_reduction": True,
        "plies": 0, "quasirandom": True}, "positions": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
