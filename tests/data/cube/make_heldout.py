"""Make ``heldout.jsonl``: gnubg's cube analysis at the scores and match lengths ``cases.jsonl`` lacks.

Run with bgcli's Python from the project root (it needs GNU Backgammon):

    gnubg -t -q -r -p tests/data/oracle/tools/gnubg_selfplay.py   # SP_OUT=selfplay-out SP_SEEDS=31001:20
                                               # SP_LENGTHS=0,3,5,7,9,11,0,2,4,1 SP_GAMES=6 SP_JACOBY=on
    python tests/data/cube/make_heldout.py selfplay-out tests/data/cube/heldout.jsonl

``cases.jsonl`` (make_cube.py) has matches of 3 to 11 points. This held-out
check (new self-play, seeds that no other data use) draws, for each position
before a roll (a fixed seed), a context of one of these kinds: money with the
cube centred or owned by either side, the Jacoby rule and beavers each on or
off; a 1-point match; the Crawford game and post-Crawford games (the leader
owning a cube the trailer gave, or the trailer owning it); 1-away against
2-away and 2-away against 2- to 5-away; dead cubes (the cube already covering
what the owner needs); any score; at lengths of 1, 2, 3, 4, 5, 7, 9, 11, 13,
15, 17, 21 and 25 points. gnubg answers each at 2-ply as for ``cases.jsonl``
(``make_cube.ask_gnubg``: ``gnubg.cfevaluate`` and the lines of its ``hint``).
bgcli agreed with every one of the 1,501 (and of 3,000 more at 0-ply) when
they were made; kept here: at most three of each pair of kind and gnubg's
proper action, so the rare ones stay ("Optional redouble, pass"; and one case of
an earlier draw, ``EXTRA``, for "Too good to double, take"). Each line
has ``cases.jsonl``'s fields (its README says what each holds).
"""
from __future__ import annotations

import collections
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import make_cube  # noqa: E402
from bgcli.core.ids import gnubg_id, parse_position, xgid  # noqa: E402
from bgcli.core.position import Position  # noqa: E402
from bgcli.core.rules import Rules  # noqa: E402
from bgcli.core.state import GameState, MatchState  # noqa: E402

SEED, CASES, EACH = 2731, 1500, 3
# a case of an earlier draw of this check (another self-play position, the same seeds), kept for the words
# gnubg gave it, which no other case has: "Too good to double, take" (2-away against 5-away, many gammons)
EXTRA = [("any", "XGID=a-cBBCB-C-a-b--A-Bbbb-b---:0:0:1:00:7:4:0:9:10")]
ME = 1   # the player on roll; a score is (player 0, player 1)
LENGTHS = [1, 2, 3, 4, 5, 7, 9, 11, 13, 15, 17, 21, 25]


def money(rng: random.Random) -> MatchState:
    cube, owner = rng.choice([(1, -1), (1, -1), (2, ME), (4, ME), (2, 0), (8, ME)])
    return MatchState(cube=cube, cube_owner=owner, on_roll=ME, turn=ME,
                      rules=Rules(jacoby=rng.random() < 0.5, beavers=rng.random() < 0.5))


def match(rng: random.Random) -> tuple[str, MatchState]:
    kind = rng.choice(["crawford", "post", "post", "1away2away", "2away", "any", "any", "dead", "1pt"])
    length = 1 if kind == "1pt" else rng.choice(LENGTHS)
    if length == 1:
        return kind, MatchState(rules=Rules(match_length=1), on_roll=ME, turn=ME)
    cube, owner, crawford = 1, -1, False
    if kind in ("crawford", "post"):
        other = rng.randrange(length - 1)
        mine, theirs = rng.choice([(length - 1, other), (other, length - 1)])
        crawford = kind == "crawford"
        if not crawford:   # post-Crawford: only the trailer can have doubled, the leader owning the cube
            cube, owner = rng.choice([(1, -1), (2, ME if mine == length - 1 else 0)])
    elif kind == "1away2away":
        mine, theirs = rng.choice([(length - 1, length - 2), (length - 2, length - 1)]) if length > 2 else \
            rng.choice([(0, 0), (1, 0), (0, 1)])
    elif kind == "2away":
        mine, theirs = max(0, length - 2), max(0, length - rng.choice([2, 3, 4, 5]))
        if rng.random() < 0.5:
            mine, theirs = theirs, mine
        cube, owner = rng.choice([(1, -1), (2, ME), (2, 0)])
    elif kind == "dead":
        mine, theirs = rng.randrange(length - 1), rng.randrange(length - 1)
        cube, owner = rng.choice([2, 4, 8, 16]), rng.choice([ME, 0])
    else:
        mine, theirs = rng.randrange(length - 1), rng.randrange(length - 1)
        cube, owner = rng.choice([(1, -1), (1, -1), (2, ME), (2, 0), (4, ME), (4, 0)])
    crawford = crawford and length - 1 in (mine, theirs)
    return kind, MatchState(rules=Rules(match_length=length), score=(theirs, mine), cube=cube, cube_owner=owner,
                            on_roll=ME, turn=ME, crawford=crawford)


def cases(folder: Path) -> list[dict]:
    rng = random.Random(SEED)
    found = make_cube.positions(folder)
    rng.shuffle(found)
    rows, seen = [], set()
    for pid in found:
        if len(rows) >= CASES:
            break
        kind, state = ("money", money(rng)) if rng.random() < 0.4 else match(rng)
        game = GameState(Position.from_id(pid), state)
        x = xgid(game)
        assert gnubg_id(parse_position(x)) == gnubg_id(game), (x, gnubg_id(game))
        if x not in seen:
            seen.add(x)
            rows.append({"kind": kind, "gnubgid": gnubg_id(game), "xgid": x, "beavers": state.rules.beavers,
                         "plies": 2})
    for kind, x in EXTRA:
        game = parse_position(x)
        rows.append({"kind": kind, "gnubgid": gnubg_id(game), "xgid": x, "beavers": game.match.rules.beavers,
                     "plies": 2})
    return rows


def kept(rows: list[dict]) -> list[dict]:
    """At most EACH of every pair of kind and gnubg's proper action, in the order asked."""
    taken: collections.Counter = collections.Counter()
    out = []
    for row in rows:
        taken[row["kind"], row["proper"]] += 1
        if taken[row["kind"], row["proper"]] <= EACH:
            out.append(row)
    return out


def main() -> None:
    folder, target = Path(sys.argv[1]), Path(sys.argv[2])
    rows = kept(make_cube.ask_gnubg(cases(folder)))
    target.write_text("".join(json.dumps(row, sort_keys=True) + "\n" for row in rows))
    print(f"{len(rows)} cases written to {target}")


if __name__ == "__main__":
    main()
