"""Run inside GNU Backgammon 1.07 (``gnubg -t -q -r -p gnubg_raccoon.py`` from
this folder): how gnubg's ``import mat`` reads a raccoon. For each hand-made
.mat here it writes, to gnubg.json, the Match ID gnubg ends the import with,
then exports the match as .mat (``<name>.gnubg.mat``) and as SGF
(``<name>.gnubg.sgf``) and imports its own .mat export again (the Match ID it
ends that with). tests/test_raccoon.py compares bgcli with these."""
import json
import os

import gnubg

HERE = os.path.dirname(os.path.abspath("gnubg_raccoon.py"))
found = {}
for name in ("no_take", "taken", "dropped"):
    path = os.path.join(HERE, name + ".mat")
    gnubg.command("import mat " + path)
    entry = {"match_id": gnubg.matchid()}
    gnubg.command("save match " + os.path.join(HERE, name + ".gnubg.sgf"))
    exported = os.path.join(HERE, name + ".gnubg.mat")
    gnubg.command("export match mat " + exported)
    gnubg.command("import mat " + exported)
    entry["reimported_match_id"] = gnubg.matchid()
    found[name] = entry
with open(os.path.join(HERE, "gnubg.json"), "w") as out:
    json.dump(found, out, indent=1, sort_keys=True)
    out.write("\n")
