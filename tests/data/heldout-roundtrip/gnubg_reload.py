"""Run inside GNU Backgammon: gnubg -t -q -r -p gnubg_reload.py

Loads each file of RL_FILES (comma list: .sgf by `load match`, .mat by
`import mat`) and writes gnubg.match() of what it read as FILE.gnubg.json,
or FILE.gnubg.err when gnubg read no match."""
import json
import os

import gnubg

gnubg.command("set display off")
for path in os.environ["RL_FILES"].split(","):
    gnubg.command("set variation standard")   # gnubg keeps the variation of the file before
    gnubg.command("new session")   # forget the previous file
    before = json.dumps(gnubg.match(0, 1, 0, 0), default=str)
    gnubg.command(("load match " if path.endswith(".sgf") else "import mat ") + path)
    m = gnubg.match(0, 1, 0, 0)
    if m is None or json.dumps(m, default=str) == before:
        open(path + ".gnubg.err", "w").write("no match read\n")
        continue
    with open(path + ".gnubg.json", "w") as f:
        json.dump(m, f, default=str)
