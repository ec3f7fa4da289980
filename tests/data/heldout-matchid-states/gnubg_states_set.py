"""Run inside GNU Backgammon: gnubg -t -q -r -p gnubg_states_set.py > log

States reached by gnubg's own commands at the edges of its Match ID (money with and without the Jacoby rule,
1- to 9-point matches at any score, the Crawford game and after it, every cube and owner, either player on
turn; then nothing, a roll, a double waiting for its answer, a double taken, or a resignation of one, two or
three points offered), each printed as `@@ JSON` with the commands given and gnubg's GNUbg ID, then its FIBS
board (`set output rawboard on`, `show board`) between `@@FIBS` and `@@ENDFIBS`. A command gnubg refuses (a double in the Crawford game, a cube
owner set there, ...) leaves the state as it was, as a user would find it. Environment: MS_SEED, MS_N.
"""
import json
import os
import random

import gnubg

rng = random.Random(int(os.environ.get("MS_SEED", "49001")))
n = int(os.environ.get("MS_N", "300"))
POSITIONS = ["4HPwATDgc/ABMA", "7u4NAAC9WQAAAA", "7+YmAAA7AwCAAA", "M86GASGYZ/BEQA", "rW1IEQQtAAAQAA"]

gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set output rawboard on")
gnubg.command("set display off")


def said(command):
    gnubg.command(command)
    return command


for k in range(n):
    done = []
    length = rng.choice([0, 0, 1, 2, 3, 5, 7, 9])
    if length:
        done.append(said("new match %d" % length))
        a, b = rng.randrange(length), rng.randrange(length)
        if rng.random() < 0.5 and length > 1:   # one of them one away
            a = length - 1
        if rng.random() < 0.5:
            a, b = b, a
        done.append(said("set score %d %d" % (a, b)))
        if length - 1 in (a, b) and a != b:
            done.append(said("set crawford %s" % rng.choice(["on", "off"])))
    else:
        done.append(said("new session"))
        done.append(said("set jacoby %s" % rng.choice(["on", "off"])))
    done.append(said("set board " + rng.choice(POSITIONS)))
    done.append(said("set turn %d" % rng.randrange(2)))
    cube = rng.choice([1, 1, 2, 4, 8, 64])
    if cube > 1:
        done.append(said("set cube value %d" % cube))
        done.append(said("set cube owner %d" % rng.randrange(2)))
    action = rng.choice(["none", "roll", "double", "double take", "resign normal", "resign gammon",
                         "resign backgammon"])
    if action == "roll":
        done.append(said("set dice %d %d" % (rng.randint(1, 6), rng.randint(1, 6))))
    elif action.startswith("double"):
        done.append(said("double"))
        if action == "double take":
            done.append(said("take"))
    elif action.startswith("resign"):
        done.append(said(action))
    print("@@", json.dumps({"n": k, "commands": done, "gnubgid": gnubg.gnubgid()}), flush=True)
    print("@@FIBS", flush=True)
    gnubg.command("show board")
    print("@@ENDFIBS", flush=True)
