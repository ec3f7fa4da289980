"""What make_setup.py and make_midgame.py share, run inside GNU Backgammon:
a session where gnubg plays both sides by hand (no automatic rolls), and
gnubg's best play (0-ply) of seeded random rolls, the Position ID before each
play kept (gnubg.positionid(): the mover's side, in the session that plays it).
gnubg's own roll for a new game (its dice node, and who is on roll when a
board is set before any play) is not seeded: another run makes other games,
each as good; the committed files are one run's, with that run's IDs."""
import gnubg


def begin():
    for command in ("set player 0 human", "set player 1 human", "set display off", "set jacoby off",
                    "set automatic roll off"):
        gnubg.command(command)


def over():
    """Whether the game has ended (gnubg then starts the match's next game at once)."""
    games = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)["games"]
    return len(games) > 1 or games[0]["info"].get("winner") is not None


def play(rng, ids, count, opening=False):
    """Up to ``count`` of gnubg's best plays, until the game ends; ``opening``: the first roll of ``ids``
    is the game's opening roll, never a double."""
    for _ in range(count):
        if over():
            return
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        while opening and not ids and dice[0] == dice[1]:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        gnubg.command("set dice %d%d" % dice)
        ids.append(gnubg.positionid())
        best = gnubg.findbestmove()
        steps = " ".join("%s/%s" % ("bar" if a == 25 else a, "off" if b == 0 else b) for a, b in zip(best[::2], best[1::2]))
        gnubg.command("move " + steps)
