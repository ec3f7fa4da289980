"""Run inside GNU Backgammon 1.07: gnubg -t -q -r -p gnubg_cube.py

Reads the cube cases named by CUBE_IN (JSON lines with ``gnubgid``,
``beavers`` and ``plies``), and writes to CUBE_OUT, for each, gnubg's cube
analysis: ``cf`` (what gnubg.cfevaluate returns: optimal, no double,
double/take, double/pass, gnubg's decision number and its words, with the
beavers of the case) and ``hint``, the lines gnubg's own ``hint`` command
prints for the position ("Cube analysis" ... "Proper cube action: ..." or
"You cannot double."), read from gnubg's standard output between markers.
"""
import json
import os
import sys

import gnubg

cases = [json.loads(line) for line in open(os.environ["CUBE_IN"])]
out = open(os.environ["CUBE_OUT"], "w")
for command in ("set player 0 human", "set player 1 human", "set display off", "new session"):
    gnubg.command(command)
plies = None
for number, case in enumerate(cases):
    if case["plies"] != plies:
        plies = case["plies"]
        for kind in ("chequerplay", "cubedecision"):
            gnubg.command("set evaluation %s evaluation plies %d" % (kind, plies))
            gnubg.command("set analysis %s evaluation plies %d" % (kind, plies))
    gnubg.command("set beavers %d" % (3 if case["beavers"] else 0))
    gnubg.command("set gnubgid " + case["gnubgid"])
    info = gnubg.cubeinfo()
    info["beavers"] = 3 if case["beavers"] else 0
    context = gnubg.evalcontext(1, plies, 1, 1, 0.0)
    cf = gnubg.cfevaluate(gnubg.board(), info, context)
    probs = list(gnubg.evaluate(gnubg.board(), info, context)[:5])
    sys.stdout.write("\n<<<CUBE %d>>>\n" % number)
    sys.stdout.flush()
    gnubg.command("hint")
    sys.stdout.flush()
    sys.stdout.write("\n<<<END %d>>>\n" % number)
    sys.stdout.flush()
    out.write(json.dumps(dict(case, cf=list(cf), probs=probs, cubeinfo=gnubg.cubeinfo())) + "\n")
    out.flush()
out.close()
