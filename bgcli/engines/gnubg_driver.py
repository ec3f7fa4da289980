"""The script bgcli's gnubg backend runs *inside* GNU Backgammon: ``gnubg -t -q -r -p gnubg_driver.py``.

bgcli never imports this module (nor gnubg, which is GPL): it is a separate
program's script, shipped with bgcli and started as a subprocess by
:mod:`bgcli.engines.gnubg`. It reads one JSON request a line on standard
input and writes one JSON answer a line to the file descriptor named by the
environment variable ``BGCLI_ANSWER_FD`` (gnubg's own chatter goes to its
standard output, which bgcli throws away). Every request names the whole
state (a GNU Backgammon ID) and the level, so an answer never depends on the
one before it. Requests:

- ``{"op": "plays", "gnubgid", "dice": [a, b], "plies", "all": bool}``: gnubg's
  hint for every legal play, best first: ``{"plays": [{"move", "result",
  "equity", "probs", "plies"}]}``, ``result`` the Position ID after the play
  (the opponent on roll). With ``all`` every play is evaluated at ``plies``
  (the move filter accepts them all), else gnubg's own move filter decides.
- ``{"op": "cube", "gnubgid", "plies"}``: the cube decision of the player on
  roll: ``{"probs", "optimal", "no_double", "double_take", "double_pass", "text"}``.
- ``{"op": "quit"}``.

An error is ``{"error": "..."}``.
"""
import json
import os
import sys

import gnubg  # only inside GNU Backgammon

_levels = {}  # type: dict


def _command(text):
    gnubg.command(text)


def _setup(request):
    plies = int(request["plies"])
    if _levels.get("plies") != plies:
        for kind in ("chequerplay", "cubedecision"):
            _command("set evaluation %s evaluation plies %d" % (kind, plies))
            _command("set analysis %s evaluation plies %d" % (kind, plies))
        _levels["plies"] = plies
    _command("set gnubgid " + request["gnubgid"])


def _apply(board, steps):
    """The board after ``steps`` (gnubg's parsemove) seen by the opponent, now on roll."""
    opp, me = list(board[0]), list(board[1])
    for start, end in steps:
        me[start - 1] -= 1
        if end > 0:
            me[end - 1] += 1
            if opp[24 - end] == 1:
                opp[24 - end] = 0
                opp[24] += 1
    return (me, opp)


def _set_filters(filters):
    for f in filters:
        _command("set evaluation movefilter %d %d %d %d %r" % (f["ply"], f["level"], f["acceptmoves"],
                                                                f["extramoves"], float(f["threshold"])))


def _filters(accept_all):
    """With ``accept_all``, a move filter that takes every play to the full level; the old filters, to restore."""
    if not accept_all:
        return None
    old = gnubg.getevalhintfilter()
    _set_filters([dict(f, acceptmoves=10000, extramoves=0, threshold=0.0) for f in old])
    return old


def plays(request):
    _setup(request)
    a, b = request["dice"]
    _command("set dice %d %d" % (a, b))
    board = gnubg.board()
    old = _filters(request.get("all"))
    try:
        hint = gnubg.hint(100000)
    except Exception as exc:  # no legal play: gnubg has no hint to give
        if "no legal" in str(exc).lower() or "no moves" in str(exc).lower():
            return {"plays": []}
        raise
    finally:
        if old is not None:
            _set_filters(old)
    out = []
    for move in (hint or {}).get("hint", []):
        steps = gnubg.parsemove(move["move"])
        out.append({"move": move["move"], "result": gnubg.positionid(_apply(board, steps)),
                    "equity": move["equity"], "probs": list(move["details"]["probs"]),
                    "plies": move.get("context", {}).get("plies")})
    return {"plays": out}


def cube(request):
    _setup(request)
    board = gnubg.board()
    info = gnubg.cubeinfo()
    context = gnubg.evalcontext(1, int(request["plies"]), 1, 1, 0.0)
    optimal, no_double, take, drop, _, text = gnubg.cfevaluate(board, info, context)
    probs = list(gnubg.evaluate(board, info, context)[:5])
    return {"probs": probs, "optimal": optimal, "no_double": no_double, "double_take": take, "double_pass": drop,
            "text": text}


def main():
    answers = os.fdopen(int(os.environ["BGCLI_ANSWER_FD"]), "w")
    _command("set player 0 human")
    _command("set player 1 human")
    _command("set display off")
    # with one calculation thread (gnubg's default on this kind of machine) every evaluation asked from
    # Python ends in a 10 ms sleep of the main thread waiting for its task (most of a 0-ply call's time);
    # with two or more it is woken when the task is done. The figures do not depend on the threads.
    _command("set threads %d" % max(2, os.cpu_count() or 1))
    for op in ("new session",):
        _command(op)
    for line in sys.stdin:
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "quit":
                break
            answer = {"plays": plays, "cube": cube}[op](request)
        except Exception as exc:
            answer = {"error": "%s: %s" % (type(exc).__name__, exc)}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if "BGCLI_ANSWER_FD" in os.environ:  # started by bgcli, not imported
    main()
