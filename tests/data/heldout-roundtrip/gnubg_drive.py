"""Run inside GNU Backgammon: gnubg -t -q -r -p gnubg_drive.py

gnubg plays itself one action at a time (the player to act a gnubg player, the
other 'human', then `play`), so that the script can step in between: with
probability DR_RESIGN at each step the player to act resigns (normal, gammon or
backgammon at random) and the other accepts or rejects at random (DR_ACCEPT).
Cube decisions are given noise (DR_NOISE) so that cubes climb high.
For each seed, saves NAME.sgf (`save match`), NAME.mat (`export match mat`),
with DR_TEXT=on NAME.txt (`export match text`: one file per game, NAME_002.txt
the second, ...), and NAME.json (gnubg.match()).  Environment:
  DR_OUT out folder; DR_SEEDS first:count; DR_LENGTHS comma list (0 = money);
  DR_GAMES games per money session; DR_JACOBY on/off; DR_BEAVERS N (set beavers);
  DR_VARIATION standard|nackgammon; DR_NOISE cube noise; DR_RESIGN, DR_ACCEPT;
  DR_AUTODOUBLES N (money: set automatic doubles N, 0 by default);
  DR_CRAWFORD on/off (set automatic crawford: off plays matches without the Crawford rule);
  DR_DISPLAY off/on (set display: gnubg 1.07 doubles the live cube for an equal opening roll
  only with the display on, as a user plays); DR_TEXT off/on (also export match text).
The one driver of the held-out folders made by gnubg's self-play (heldout-roundtrip,
heldout-text-export, heldout-no-crawford, heldout-autodoubles-display: their NOTEs give
the settings).
"""
import base64
import json
import os
import random

import gnubg

env = os.environ.get
out = env("DR_OUT")
first, count = (int(x) for x in env("DR_SEEDS", "44001:1").split(":"))
lengths = [int(x) for x in env("DR_LENGTHS", "17").split(",")]
games_per_session = int(env("DR_GAMES", "4"))
noise = env("DR_NOISE", "0.3")
p_resign = float(env("DR_RESIGN", "0.01"))
p_accept = float(env("DR_ACCEPT", "0.5"))
os.makedirs(out, exist_ok=True)


def fields():
    n = int.from_bytes(base64.b64decode(gnubg.matchid() + "=="), "little")
    f = lambda s, l: (n >> s) & ((1 << l) - 1)  # noqa: E731
    return dict(state=f(8, 3), turn=f(11, 1), doubled=f(12, 1), resign=f(13, 2), d1=f(15, 3),
                length=f(21, 15), s0=f(36, 15), s1=f(51, 15))


for cmd in (
    "set display " + env("DR_DISPLAY", "off"), "set automatic game off", "set automatic roll on",
    "set jacoby " + env("DR_JACOBY", "off"), "set beavers " + env("DR_BEAVERS", "3"),
    "set variation " + env("DR_VARIATION", "standard"), "set automatic doubles " + env("DR_AUTODOUBLES", "0"),
    "set automatic crawford " + env("DR_CRAWFORD", "on"),
):
    gnubg.command(cmd)
for p in (0, 1):
    for cmd in ("chequerplay evaluation plies 0", "cubedecision evaluation plies 0",
                "cubedecision evaluation noise " + noise, "cubedecision evaluation deterministic off"):
        gnubg.command("set player %d %s" % (p, cmd))


def step(rng):
    f = fields()
    me = f["turn"]
    if f["resign"] == 0 and not f["doubled"] and f["d1"] == 0 and rng.random() < p_resign:
        gnubg.command("set player 0 human")
        gnubg.command("set player 1 human")
        gnubg.command("resign " + rng.choice(["normal", "gammon", "backgammon"]))
        gnubg.command("accept" if rng.random() < p_accept else "reject")
        return
    gnubg.command("set player %d gnubg" % me)
    gnubg.command("set player %d human" % (1 - me))
    gnubg.command("play")


def play_game(rng):
    for _ in range(5000):
        if fields()["state"] != 1:
            return
        step(rng)
    raise RuntimeError("game did not end")


for seed in range(first, first + count):
    length = lengths[seed % len(lengths)]
    rng = random.Random(seed)
    gnubg.command("set seed %d" % seed)
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    if length:
        gnubg.command("new match %d" % length)
        for _ in range(300):
            play_game(rng)
            m = gnubg.match(0, 0, 0, 0)
            if m["match-info"].get("result") not in (None, 0):
                break
            gnubg.command("new game")
    else:
        gnubg.command("new session")
        play_game(rng)
        for _ in range(games_per_session - 1):
            gnubg.command("new game")
            play_game(rng)
    name = "dr%05d_%s" % (seed, ("%dpt" % length) if length else "money")
    gnubg.command("save match %s/%s.sgf" % (out, name))
    gnubg.command("export match mat %s/%s.mat" % (out, name))
    if env("DR_TEXT", "off") == "on":
        gnubg.command("export match text %s/%s.txt" % (out, name))
    with open("%s/%s.json" % (out, name), "w") as f:
        json.dump(gnubg.match(0, 1, 0, 0), f, default=str)
    print("@@ done", name, flush=True)
