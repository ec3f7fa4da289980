"""Run inside GNU Backgammon: gnubg -t -q -r -p tests/data/imports/snowietxt/make_snowietxt.py

Snowie text position files and gnubg's reading of them. For the first states
of tests/data/oracle/ids_sample.jsonl (gnubg's IDs with their match
settings), gnubg sets the state (``set gnubgid``), and its board
(``gnubg.board()``) and the sample's settings are written as a Snowie text
position (``posNN.txt``, the 40 fields as gnubg's import.c reads them: the
other player's bar in field 12; the players are named ``alpha`` and ``beta``); gnubg then imports the file (``import
snowietxt``) and its Position and Match IDs of what it read are kept in
``golden.json``. tests/test_snowietxt.py holds bgcli's reading of each file to
those IDs. Run from the repository root.
"""
import json
import os

import gnubg

HERE = "tests/data/imports/snowietxt"
SAMPLE = "tests/data/oracle/ids_sample.jsonl"
COUNT = 12
gnubg.command("set display off")
golden = {}
with open(SAMPLE) as f:
    states = [json.loads(line) for line in f]
written = 0
for state in states:
    if written == COUNT:
        break
    if state["turn"] not in (0, 1) or state["gnubg_id"].split(":")[1] != state["gnubg_id_set"].split(":")[1]:
        continue
    gnubg.command("set gnubgid %s" % state["gnubg_id_set"])
    opponent, mover = gnubg.board()
    turn = state["turn"]
    names = ("alpha", "beta")
    owner = state["owner"]
    fields = [state["length"], state["jacoby"], 0, 0, turn, names[turn], names[1 - turn], state["crawford"],
              state["score"][turn], state["score"][1 - turn], state["cube"],
              0 if owner == -1 else 1 if owner == turn else -1]
    # the board as gnubg's import reads it: from the player on roll's side, the other's bar first
    points = [0] * 24
    for i in range(24):
        points[i] += mover[i]
        points[23 - i] -= opponent[i]
    fields += [opponent[24]] + points + [mover[24], state["dice"][0], state["dice"][1]]
    name = "pos%02d.txt" % written
    with open(os.path.join(HERE, name), "w") as out:
        out.write(";".join(str(x) for x in fields) + ";")
    gnubg.command('import snowietxt "%s"' % os.path.join(HERE, name))
    golden[name] = "%s:%s" % (gnubg.positionid(), gnubg.matchid())
    written += 1
with open(os.path.join(HERE, "golden.json"), "w") as out:
    json.dump(golden, out, indent=1, sort_keys=True)
