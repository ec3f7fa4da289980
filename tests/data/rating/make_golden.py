"""Run inside GNU Backgammon: gnubg -t -q -r -p make_golden.py

Makes the golden rating data of tests/test_rating_gnubg.py: for each match
file named in GOLDEN_FILES (space separated, paths), gnubg imports it, runs
``analyse match`` with chequer play and cube decisions at 2-ply (its luck at
its default, 0-ply cubeful) and writes NAME.golden.json beside the file:

- ``players``: gnubg's own statistics summed over the games, per player
  (player 0 is the left column of the .mat file): unforced moves, checker
  error (EMG and MWC), close or actual cube decisions, cube error (EMG and
  MWC: the sum of its parts, since gnubg.match() gives the cube's
  "error-skill" per close decision), and those parts (``cube_errors``: for
  each of gnubg's kinds of cube error, how many and the error), luck (EMG
  and MWC);
- ``moves``: for every checker play gnubg analysed, in order: game, player,
  dice, the error (the played play's equity minus the best one's) and the
  luck of the roll.

GOLDEN_JACOBY=on sets the Jacoby rule first (money sessions).
"""
import json
import os

import gnubg

files = os.environ["GOLDEN_FILES"].split()
jacoby = os.environ.get("GOLDEN_JACOBY", "off")

for command in ("set analysis chequerplay evaluation plies 2", "set analysis cubedecision evaluation plies 2",
                "set jacoby " + jacoby):
    gnubg.command(command)

for path in files:
    gnubg.command(f"import mat {path}")
    gnubg.command("analyse match")
    match = gnubg.match(analysis=1, boards=1, statistics=1, verbose=0)
    sides = ("X", "O")
    totals = {side: dict.fromkeys(("unforced", "checker_error", "checker_error_mwc", "close_cube", "cube_error",
                                   "cube_error_mwc", "luck", "luck_mwc"), 0.0) for side in sides}
    moves = []
    for number, game in enumerate(match["games"], 1):
        for side in sides:
            stats = game["stats"][side]
            row = totals[side]
            row["unforced"] += stats["moves"]["unforced-moves"]
            row["checker_error"] += stats["moves"]["error-skill"]
            row["checker_error_mwc"] += stats["moves"]["error-cost"]
            row["close_cube"] += stats["cube"]["close-cube"]
            # the cube's own "error-skill" is per close cube decision: the total is its parts
            for kind in ("missed-double-below-cp", "missed-double-above-cp", "wrong-double-below-dp",
                         "wrong-double-above-tg", "wrong-take", "wrong-drop"):
                row["cube_error"] += stats["cube"][f"err-{kind}-skill"]
                row["cube_error_mwc"] += stats["cube"][f"err-{kind}-cost"]
                counted = row.setdefault("cube_errors", {}).setdefault(kind, [0, 0.0])
                counted[0] += stats["cube"][kind]
                counted[1] += stats["cube"][f"err-{kind}-skill"]
            row["luck"] += stats["dice"]["luck"]
            row["luck_mwc"] += stats["dice"]["luck-cost"]
        for record in game["game"]:
            analysis = record.get("analysis") or {}
            if record["action"] != "move" or "moves" not in analysis:
                continue
            ranked = analysis["moves"]
            played = ranked[analysis["imove"]]["score"] if "imove" in analysis else None
            moves.append({"game": number, "player": sides.index(record["player"]), "dice": record["dice"],
                          "legal": len(ranked), "error": None if played is None else played - ranked[0]["score"],
                          "luck": analysis.get("luck-value")})
    info = match["match-info"]
    out = {"file": os.path.basename(path), "length": info["match-length"],
           "names": [info["X"]["name"], info["O"]["name"]],
           "players": [totals["X"], totals["O"]], "moves": moves}
    with open(os.path.splitext(path)[0] + ".golden.json", "w") as handle:
        json.dump(out, handle, indent=1)
        handle.write("\n")
