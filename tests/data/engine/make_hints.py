"""Make hints.jsonl: GNU Backgammon's own 2-ply hint on positions from its self-play matches.

Run from the project root with bgcli installed and gnubg on the machine:

    python tests/data/engine/make_hints.py [COUNT] > tests/data/engine/hints.jsonl

bgcli replays the self-play matches of tests/data/oracle/selfplay (money
sessions and matches of every length) and takes every k-th checker play
with at least two legal plays, and every k-th cube turn (a roll where the
player could have doubled), so that the sample spreads over all the games.
Each state goes to gnubg as its GNUbg ID (PositionID:MatchID, as bgcli
writes it); a small script of its own, run inside gnubg (``gnubg -t -q -r
-p``), answers with ``set gnubgid``, ``set dice`` and ``hint`` at 2-ply
(gnubg's default move filters), or ``cfevaluate`` at 2-ply for a cube turn.
This is not bgcli's gnubg backend: the tests compare that backend with it.

Each line: ``{"gnubgid", "kind": "play", "dice", "plays": [{"move",
"equity", "probs", "plies"}, ...], "legal"}`` best first, the best 8 plays (gnubg's
text, cubeful equity normalised as gnubg prints it, its five cumulative
probabilities, and the plies it was evaluated at) and the number of legal
plays, or ``{"gnubgid", "kind":
"cube", "probs", "no_double", "double_take", "double_pass", "text"}``.
"""
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

HERE = Path(__file__).resolve().parent
SELFPLAY = HERE.parent / "oracle" / "selfplay"

GNUBG_SCRIPT = r'''
import json, os, sys
import gnubg
gnubg.command("set display off")
gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
for kind in ("chequerplay", "cubedecision"):
    gnubg.command("set evaluation %s evaluation plies 2" % kind)
out = open(os.environ["HINTS_OUT"], "w")
for line in open(os.environ["HINTS_IN"]):
    item = json.loads(line)
    gnubg.command("set gnubgid " + item["gnubgid"])
    if item["kind"] == "play":
        gnubg.command("set dice %d %d" % tuple(item["dice"]))
        hint = gnubg.hint(100000)
        item["plays"] = [{"move": m["move"], "equity": m["equity"], "probs": list(m["details"]["probs"]),
                          "plies": m["context"]["plies"]} for m in hint["hint"][:8]]
        item["legal"] = len(hint["hint"])
    else:
        context = gnubg.evalcontext(1, 2, 1, 1, 0.0)
        board, info = gnubg.board(), gnubg.cubeinfo()
        optimal, nd, dt, dp, _, text = gnubg.cfevaluate(board, info, context)
        item.update(probs=list(gnubg.evaluate(board, info, context)[:5]), no_double=nd, double_take=dt,
                    double_pass=dp, text=text)
    out.write(json.dumps(item) + "\n")
out.close()
'''


def states(count: int):
    from bgcli.core.ids import gnubg_id
    from bgcli.core.generator import legal_plays
    from bgcli.core.cube import CubeTurn, may_double
    from bgcli.formats.files import replay_file
    from bgcli.match.replay import EventKind

    plays, cubes = [], []
    for path in sorted(SELFPLAY.glob("*.mat")):
        for replay in replay_file(path):
            for event in replay.events:
                if event.kind is not EventKind.MOVE or not event.dice:
                    continue
                before = event.before
                rolled = replace(before, match=replace(before.match, dice=event.dice, turn=before.match.on_roll))
                if len(legal_plays(before.position, event.dice)) >= 2:
                    plays.append({"gnubgid": gnubg_id(rolled), "kind": "play", "dice": list(event.dice)})
                unrolled = replace(before, match=replace(before.match, dice=(0, 0), turn=before.match.on_roll))
                if may_double(CubeTurn.of(unrolled)) is None and not before.position.is_over():
                    cubes.append({"gnubgid": gnubg_id(unrolled), "kind": "cube"})
    n_cubes = count // 5
    n_plays = count - n_cubes
    return plays[::max(1, len(plays) // n_plays)][:n_plays] + cubes[::max(1, len(cubes) // n_cubes)][:n_cubes]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    with tempfile.TemporaryDirectory() as folder:
        given, got, script = (Path(folder, name) for name in ("in.jsonl", "out.jsonl", "hints.py"))
        given.write_text("".join(json.dumps(item) + "\n" for item in states(count)))
        script.write_text(GNUBG_SCRIPT)
        subprocess.run(["gnubg", "-t", "-q", "-r", "-p", str(script)], check=True, stdout=subprocess.DEVNULL,
                       env=dict(os.environ, HINTS_IN=str(given), HINTS_OUT=str(got),
                                PATH=os.environ.get("PATH", "") + ":/usr/games"))
        sys.stdout.write(got.read_text())


if __name__ == "__main__":
    main()
