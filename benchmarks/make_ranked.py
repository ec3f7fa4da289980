"""Make benchmarks/data/ranked.jsonl: held-out positions with every legal play at GNU Backgammon's 2-ply.

Run from the project root with bgcli installed and gnubg on the machine:

    SP_OUT=selfplay-out SP_SEEDS=88001:12 SP_LENGTHS=0,3,5,7,9,11 SP_GAMES=4 SP_JACOBY=off \\
        gnubg -t -q -r -p tests/data/oracle/tools/gnubg_selfplay.py
    python benchmarks/make_ranked.py selfplay-out 300 > benchmarks/data/ranked.jsonl

The second held-out set, benchmarks/data/ranked2.jsonl (200 positions), was made the same way from
``SP_SEEDS=99001:6 SP_LENGTHS=0,5,9 SP_GAMES=3`` after the engine settings were chosen on the first,
so that nothing was chosen on it.

The set to try settings on, benchmarks/data/tune.jsonl (1,000 positions), was made the same way from
``SP_SEEDS=67001:36 SP_LENGTHS=0,3,5,7,9,11 SP_GAMES=4`` (``python benchmarks/make_ranked.py selfplay-out
1000``): benchmarks/tune_agreement.py tries ways of choosing sage's play on it, and a way chosen there is
measured on the two held-out sets.

The self-play uses seeds no test or earlier benchmark used (tests/data/oracle/selfplay is seeds
5000 on, tests/data/cube 77001 on), so the positions are new to every engine setting chosen here.
bgcli replays the matches and takes every k-th checker play with at least two legal plays; a
script run inside gnubg sets each position (its GNUbg ID), sets a move filter that takes every
play to 2-ply and writes every play's 2-ply cubeful equity, and then gnubg's own 2-ply hint with
its default filter (its choice). Each line: ``{"gnubgid", "dice", "plays": [{"move", "result",
"equity"}] (best first, every legal play at 2-ply; "result" the Position ID after the play, the
opponent on roll), "hint_best": gnubg's own hint's best play's result}``.
"""
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

DRIVER = str(Path(__file__).resolve().parents[1] / "bgcli" / "engines")   # gnubg_driver.py's folder

GNUBG_SCRIPT = r'''
import json, os
import gnubg
for command in ("set display off", "set player 0 human", "set player 1 human", "set threads 2"):
    gnubg.command(command)
for kind in ("chequerplay", "cubedecision"):
    gnubg.command("set evaluation %s evaluation plies 2" % kind)
default = gnubg.getevalhintfilter()


def filters(every):
    for f in default:
        accept = (10000 if f["acceptmoves"] >= 0 else -1) if every else f["acceptmoves"]
        gnubg.command("set evaluation movefilter %d %d %d %d %r" % (
            f["ply"], f["level"], accept, 0 if every else f["extramoves"], 0.0 if every else float(f["threshold"])))


import sys
sys.path.insert(0, os.environ["RANKED_DRIVER"])
from gnubg_driver import after_play as after   # bgcli's own: the board after a play, the opponent on roll


out = open(os.environ["RANKED_OUT"], "w")
for line in open(os.environ["RANKED_IN"]):
    item = json.loads(line)
    gnubg.command("set gnubgid " + item["gnubgid"])
    gnubg.command("set dice %d %d" % tuple(item["dice"]))
    board = gnubg.board()
    filters(True)
    item["plays"] = [{"move": m["move"], "result": gnubg.positionid(after(board, gnubg.parsemove(m["move"]))),
                      "equity": m["equity"]} for m in gnubg.hint(100000)["hint"]]
    filters(False)
    best = gnubg.hint(1)["hint"][0]
    item["hint_best"] = gnubg.positionid(after(board, gnubg.parsemove(best["move"])))
    out.write(json.dumps(item) + "\n")
    out.flush()
out.close()
'''


def states(folder: Path, count: int):
    from bgcli.core.generator import legal_plays
    from bgcli.core.ids import gnubg_id
    from bgcli.formats.files import replay_file
    from bgcli.match.replay import EventKind

    found = []
    for path in sorted(folder.glob("*.mat")):
        for replay in replay_file(path):
            for event in replay.events:
                if event.kind is EventKind.MOVE and event.dice and len(legal_plays(event.before.position, event.dice)) >= 2:
                    before = event.before
                    rolled = replace(before, match=replace(before.match, dice=event.dice, turn=before.match.on_roll))
                    found.append({"gnubgid": gnubg_id(rolled), "dice": list(event.dice)})
    return found[::max(1, len(found) // count)][:count]


def main() -> None:
    folder, count = Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 300
    with tempfile.TemporaryDirectory() as work:
        given, got, script = (Path(work, name) for name in ("in.jsonl", "out.jsonl", "ranked.py"))
        given.write_text("".join(json.dumps(item) + "\n" for item in states(folder, count)))
        script.write_text(GNUBG_SCRIPT)
        subprocess.run(["gnubg", "-t", "-q", "-r", "-p", str(script)], check=True, stdout=subprocess.DEVNULL,
                       stdin=subprocess.DEVNULL, env=dict(os.environ, RANKED_IN=str(given), RANKED_OUT=str(got), RANKED_DRIVER=DRIVER,
                                                          PATH=os.environ.get("PATH", "") + ":/usr/games"))
        sys.stdout.write(got.read_text())


if __name__ == "__main__":
    main()
