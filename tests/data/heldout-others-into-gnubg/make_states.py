"""python make_states.py SOURCE...: other programs' match files, exported by bgcli and walked by GNU Backgammon.

Run from the project root with this worktree's bgcli and gnubg on the machine. Each SOURCE (a path under
tests/data) is exported with `bgcli export --to sgf` and `--to mat` into a temporary folder; gnubg loads each
export (`load match`, `import mat`) and walks it (tests/data/heldout-ids-into-gnubg/gnubg_walk.py); the walk's
lines go to NAME.states here (`EXT GAME POSITION_ID MATCH_ID`, EXT sgf or mat), NAME the source's file name
without its suffix, and `sources.json` maps each NAME to its SOURCE.
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent
WALK = DATA / "heldout-ids-into-gnubg" / "gnubg_walk.py"

sources = {}
with tempfile.TemporaryDirectory() as tmp:
    exports = []
    for source in sys.argv[1:]:
        name = Path(source).name.split(".")[0].replace(" ", "_")
        sources[name] = source
        for ext in ("sgf", "mat"):
            out = Path(tmp) / f"{name}.{ext}"
            subprocess.run([sys.executable, "-m", "bgcli", "export", str(DATA / source), "--to", ext, "-o", str(out)],
                           check=True)
            exports.append(str(out))
    walk = subprocess.run(["/usr/games/gnubg", "-t", "-q", "-r", "-p", str(WALK)], capture_output=True, text=True,
                          env={"WK_FILES": ",".join(exports), "HOME": tmp}, check=True).stdout
lines: dict[str, list[str]] = {name: [] for name in sources}
for line in walk.splitlines():
    if line.startswith("@@ "):
        _, file, game, position_id, match_id = line.split()
        name, ext = file.rsplit(".", 1)
        lines[name].append(f"{ext} {game} {position_id} {match_id}\n")
for name, rows in lines.items():
    (HERE / f"{name}.states").write_text("".join(rows))
(HERE / "sources.json").write_text(json.dumps(sources, indent=1, sort_keys=True) + "\n")
