"""Makes gnubg-met.json: GNU Backgammon's own match equity tables, as it holds them after loading each
table file it ships (its pre-Crawford table and post-Crawford row to 30-away, extended past each
table's published length by gnubg's own method), the oracle of tests/test_met.py.

Run inside GNU Backgammon (its Python), from this folder:

    gnubg -t -q -r -p make_golden.py

It reads the table files of the installed gnubg (/usr/share/gnubg/met on Debian) and writes
gnubg-met.json here. Made with GNU Backgammon 1.07.001.
"""
import json
import os

import gnubg

FOLDER = "/usr/share/gnubg/met"
SIZE = 30
found = {}
for name in sorted(os.listdir(FOLDER)):
    if not name.endswith(".xml") or name == "catalog.xml":
        continue
    gnubg.command('set matchequitytable "%s"' % os.path.join(FOLDER, name))
    pre, post0, post1 = gnubg.met(SIZE)
    found[name] = {"pre": [[round(v, 7) for v in row] for row in pre],
                   "post": [[round(v, 7) for v in post0], [round(v, 7) for v in post1]]}
with open("gnubg-met.json", "w") as out:
    json.dump({"gnubg": "1.07.001", "size": SIZE, "tables": found}, out, indent=None, separators=(",", ":"))
    out.write("\n")
