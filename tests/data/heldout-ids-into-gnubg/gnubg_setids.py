"""Run inside GNU Backgammon: gnubg -t -q -r -p gnubg_setids.py
For each line `N KIND TEXT` of SI_IN (KIND xgid or gnubgid), gnubg's own state
after `set KIND TEXT`: lines `@@ N POSITION_ID MATCH_ID` (or `@@ N error`)."""
import os

import gnubg

gnubg.command("set display off")
for line in open(os.environ["SI_IN"]):
    n, kind, text = line.split(None, 2)
    text = text.strip()
    gnubg.command("new session")
    before = None
    gnubg.command("set %s %s" % (kind, text))
    try:
        print("@@", n, gnubg.positionid(gnubg.board()), gnubg.matchid(), flush=True)
    except Exception:
        print("@@", n, "error", flush=True)
