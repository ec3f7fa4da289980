"""Make tests/data/rollout/gnubg.json: GNU Backgammon's own rollouts of plays in positions of its self-play.

Run from the project root with gnubg installed (it runs as a separate program, never imported):

    .venv/bin/python tests/data/rollout/make.py [TRIALS]

The positions: the self-play matches gnubg played against itself (tests/data/oracle/selfplay/*.json,
made by ../shared/oracle/tools/gnubg_selfplay.py), every record of a roll played in a race (no
contact) with both sides 30 to 80 pips away and at most 8 apart, in file order, as
money positions with the cube centred (only the checkers come from the record). For each, gnubg
rolls out its best ``CANDIDATES`` plays of the recorded roll at 0-ply (gnubg's ``rollout`` command
on the position after each play, the opponent on roll, through bgcli.engines.gnubg_rollout; that
command leaves out the first cube decision of the player on roll, so the figures are the opponent's
no double; cubeful, full, variance reduction, quasi-random dice, seed 1, TRIALS trials, 1296 unless
given). A position whose rollout is a cash or a sure win (a figure above 0.9 or without
error) is skipped; the first ``COUNT`` others are kept. The file keeps each play's equity for the
mover with gnubg's standard error.
"""
from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from bgcli.core.ids import gnubg_id  # noqa: E402
from bgcli.core.notation import play_text  # noqa: E402
from bgcli.core.position import Position, pip_count  # noqa: E402
from bgcli.core.state import GameState  # noqa: E402
from bgcli.engines import open_engine  # noqa: E402
from bgcli.core.generator import legal_plays  # noqa: E402
from bgcli.engines.gnubg_rollout import commands, rollout_states  # noqa: E402

SELFPLAY = ROOT / "tests" / "data" / "oracle" / "selfplay"
OUT = Path(__file__).with_name("gnubg.json")
COUNT = 12
CANDIDATES = 2
SEED = 1


def is_race(position: Position) -> bool:
    mine = max(p for p in range(1, 26) if position.player[p])
    theirs = max(p for p in range(1, 26) if position.opponent[p])
    return mine + theirs < 25


def positions():
    seen = set()
    for path in sorted(SELFPLAY.glob("*.json")):
        for game in json.loads(path.read_text())["games"]:
            for record in game["game"]:
                if record.get("action") != "move" or not record.get("dice") or record["board"] in seen:
                    continue
                position = Position.from_id(record["board"])
                pips = [pip_count(s) for s in (position.player, position.opponent)]
                if not is_race(position) or not all(30 <= p <= 80 for p in pips) or abs(pips[0] - pips[1]) > 8:
                    continue
                seen.add(record["board"])
                yield path.name, record["board"], tuple(sorted(record["dice"], reverse=True))


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 1296
    engine = open_engine("gnubg", 0)
    settings = commands(trials, SEED, True, 0, True, 0, None, 1)
    out = []
    for source, board, dice in positions():
        state = GameState(Position.from_id(board))
        ranked = engine.evaluate_plays(GameState(state.position, replace(state.match, dice=dice)), dice,
                                       legal_plays(state.position, dice))[:CANDIDATES]
        # gnubg's rollout of the position after each play, the opponent on roll: their figures, the mover's
        # turned (without the opponent's first cube decision, which gnubg's rollout of a position leaves out)
        found = rollout_states([GameState(r.play.after) for r in ranked], settings)
        lines = sorted(((r.play, -f.cubeful, f.cubeful_error, f.games) for r, f in zip(ranked, found)),
                       key=lambda line: -line[1])
        if any(se == 0 or abs(equity) > 0.9 for _, equity, se, _ in lines):
            continue   # a cash or a certain win: nothing to compare
        out.append({"source": source, "position": gnubg_id(state), "dice": list(dice),
                    "plays": [{"play": play_text(play, "gnubg", side=0), "result_id": play.result_id(),
                               "equity": equity, "se": se} for play, equity, se, _ in lines],
                    "trials": min(games for *_, games in lines)})
        print(source, board, dice, [(p["play"], p["equity"], p["se"]) for p in out[-1]["plays"]], flush=True)
        if len(out) >= COUNT:
            break
    engine.close()
    OUT.write_text(json.dumps({"made_by": "tests/data/rollout/make.py", "gnubg_settings": {
        "trials": trials, "seed": SEED, "cubeful": True, "truncate": 0, "variance_reduction": True, "plies": 0,
        "quasirandom": True}, "positions": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
