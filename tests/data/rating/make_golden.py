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
  luck of the roll;
- ``cubes``: every cube action in order (game, player, ``action``: ``turn``
  for a cube turn gnubg analysed before a roll, ``double``, ``beaver`` and
  ``raccoon`` for gnubg's double records, the first of a row and the ones
  answering it, ``take``, ``drop`` with what they answer), with the cubeful equities of the
  analysis they share (``nd`` no double, ``dt`` double/take, of the player
  who may double; double/pass is +1), None where gnubg analysed nothing.

A .sgf file is loaded with its rules (RU: Jacoby); another is imported as a
.mat file, GOLDEN_JACOBY=on setting the Jacoby rule first (money sessions).
GOLDEN_BEAVERS=N sets how many beavers and raccoons a money session allows.
"""
import json
import os

import gnubg

files = os.environ["GOLDEN_FILES"].split()
jacoby = os.environ.get("GOLDEN_JACOBY", "off")
beavers = os.environ.get("GOLDEN_BEAVERS", "3")   # gnubg's default

for command in ("set analysis chequerplay evaluation plies 2", "set analysis cubedecision evaluation plies 2",
                "set jacoby " + jacoby, "set beavers " + beavers):
    gnubg.command(command)

# a double record after N others in a row (gnubg's DoubleType): a double, its beaver, the raccoon
INSTANT = ("double", "beaver", "raccoon")


def cube_action(record: dict, row: int, shared: dict) -> dict:
    # the answers share the double's analysis (a drop record's own holds only its mark)
    analysis = shared if row or record["action"] != "double" else record.get("analysis") or {}
    found = {"action": record["action"] if record["action"] != "double" else INSTANT[min(row, 2)],
             "nd": analysis.get("nd-cubeful-eq"), "dt": analysis.get("dt-cubeful-eq")}
    if record["action"] != "double":
        found["answers"] = INSTANT[min(row, 3) - 1]   # a take or drop of the double, the beaver or the raccoon
    return found


for path in files:
    gnubg.command(f"load match {path}" if path.endswith(".sgf") else f"import mat {path}")
    gnubg.command("analyse match")
    match = gnubg.match(analysis=1, boards=1, statistics=1, verbose=0)
    sides = ("X", "O")
    totals = {side: dict.fromkeys(("unforced", "checker_error", "checker_error_mwc", "close_cube", "cube_error",
                                   "cube_error_mwc", "luck", "luck_mwc"), 0.0) for side in sides}
    moves, cubes = [], []
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
        row, shared = 0, {}   # the doubles in a row so far; the analysis of the first, which its answers share
        for record in game["game"]:
            analysis = record.get("analysis") or {}
            if record["action"] in ("double", "take", "drop"):
                if record["action"] == "double" and not row:
                    shared = analysis
                cubes.append({"game": number, "player": sides.index(record["player"]),
                              **cube_action(record, row, shared)})
                row = row + 1 if record["action"] == "double" else 0
                continue
            row = 0
            if record["action"] == "move" and "nd-cubeful-eq" in analysis:
                cubes.append({"game": number, "player": sides.index(record["player"]), "action": "turn",
                              "nd": analysis["nd-cubeful-eq"], "dt": analysis["dt-cubeful-eq"]})
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
    if path.endswith(".sgf"):
        out.update(rules=info.get("rules", []), beavers=int(beavers), cubes=cubes)
    with open(os.path.splitext(path)[0] + ".golden.json", "w") as handle:
        json.dump(out, handle, indent=1)
        handle.write("\n")
