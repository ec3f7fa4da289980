"""Run inside GNU Backgammon 1.07 (``gnubg -t -q -r -p gnubg_edit.py`` from
this folder): how gnubg loads a board set in the middle of a game that does
not clear the board first (midgame_edit*.sgf: AE empties points, AB/AW add
checkers to the board as it stands). Writes midgame_edit.json: for each file
the board gnubg's 'set' action holds (a Position ID, from the side on roll)
and the Position ID gnubg ends the load with. tests/test_setup_midgame.py
compares bgcli with these."""
import json
import os

import gnubg

HERE = os.path.dirname(os.path.abspath("gnubg_edit.py"))
found = {}
for name in ("midgame_edit", "midgame_edit_16"):
    gnubg.command("load match " + os.path.join(HERE, name + ".sgf"))
    actions = gnubg.match(analysis=0, boards=0, statistics=0)["games"][0]["game"]
    found[name] = {"set": [a["board"] for a in actions if a["action"] == "set"],
                   "end": gnubg.positionid()}
with open(os.path.join(HERE, "midgame_edit.json"), "w") as out:
    json.dump(found, out, indent=1, sort_keys=True)
    out.write("\n")
