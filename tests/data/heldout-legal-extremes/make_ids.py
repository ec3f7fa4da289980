"""python make_ids.py EX_JSONL OUT: bgcli's XGID and GNUbg ID of every distinct position of gnubg_extremes.py's
output (money, cube centred, player 0 on roll, no dice), written for gnubg_setids.py
(tests/data/heldout-ids-into-gnubg: `SI_IN=OUT gnubg -t -q -r -p gnubg_setids.py`), then joined with gnubg's
reading by `python make_ids.py --join EX_JSONL SETIDS_OUTPUT ids.jsonl`. Run with this worktree's bgcli."""
import json
import sys

from bgcli.core.ids import gnubg_id, parse_gnubg_id, xgid


def positions(path):
    seen = {}
    for line in open(path):
        row = json.loads(line)
        seen.setdefault(row["position_id"], row["source"].split(":")[1])
    return seen


if sys.argv[1] == "--join":
    _, _, ex, got, out = sys.argv
    read = {}
    for line in open(got):
        _, n, *state = line.split()
        read[int(n)] = " ".join(state)
    with open(out, "w") as f:
        for k, (pid, kind) in enumerate(positions(ex).items()):
            game = parse_gnubg_id(pid + ":cAkAAAAAAAAA")
            f.write(json.dumps({"position_id": pid, "kind": kind, "xgid": xgid(game), "gnubgid": gnubg_id(game),
                                "gnubg_read_xgid": read[2 * k + 1], "gnubg_read_gnubgid": read[2 * k + 2]},
                               separators=(",", ":")) + "\n")
else:
    with open(sys.argv[2], "w") as f:
        for k, pid in enumerate(positions(sys.argv[1])):
            game = parse_gnubg_id(pid + ":cAkAAAAAAAAA")
            f.write(f"{2 * k + 1} xgid {xgid(game)}\n{2 * k + 2} gnubgid {gnubg_id(game)}\n")
