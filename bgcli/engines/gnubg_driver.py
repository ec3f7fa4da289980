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
  With ``force`` (the results of plays made) gnubg's analysis instead: its
  analysis filter, and each play made scored as ``analyse match`` scores it.
- ``{"op": "best", "gnubgid", "rolls": [[a, b], ...], "plies"}``: for each roll,
  the best play's ``{"equity", "probs", "result"}``, or where the roll has no legal
  play ``{"opponent": {"equity", "probs"}}``, the opponent on roll in the same
  position (as ``cube`` gives its ``optimal``): ``{"rolls": [...]}``.
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


def after_play(board, steps):
    """The board after ``steps`` (gnubg's parsemove) seen by the opponent, now on roll. The one copy of this
    inside GNU Backgammon: the scripts that made test data there import it (tests/test_one_owner.py)."""
    opp, me = list(board[0]), list(board[1])
    # gnubg's boards hold point p at index p - 1, so the opponent's index of our point ``end`` is
    # bgcli.core.position.other_side(end) - 1 == 24 - end: written out, as this script runs inside
    # GNU Backgammon, which does not import bgcli
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


# gnubg's default move filter for analysis ("show analysis": wider than the hint's), by level: for each
# lower level, (keep the first N, up to M more, within this equity); N = -1 skips the level
ANALYSIS_FILTER = {1: [(0, 16, 0.32)], 2: [(0, 16, 0.32), (-1, 0, 0.0)],
                   3: [(0, 16, 0.32), (-1, 0, 0.0), (0, 4, 0.08)],
                   4: [(0, 16, 0.32), (-1, 0, 0.0), (0, 4, 0.08), (-1, 0, 0.0)]}
# gnubg's analysis: a played play this far from the best that the filter left alone (no play went
# deeper) is evaluated at the full level, with the best one (its "doubtful" threshold)
DOUBTFUL = 0.03


def _analysis_filters():
    old = gnubg.getevalhintfilter()
    _set_filters([{"ply": ply, "level": level, "acceptmoves": accept, "extramoves": extra, "threshold": threshold}
                  for ply, levels in ANALYSIS_FILTER.items()
                  for level, (accept, extra, threshold) in enumerate(levels)])
    return old


def _hint(count, old_filters):
    try:
        return (gnubg.hint(count) or {}).get("hint", [])
    except Exception as exc:  # no legal play: gnubg has no hint to give
        if "no legal" in str(exc).lower() or "no moves" in str(exc).lower():
            return []
        raise
    finally:
        if old_filters is not None:
            _set_filters(old_filters)


def _score(item, board, plies):
    """gnubg's score of one play at ``plies`` (what its analysis does to the play made): the position
    after it evaluated for the opponent on roll, with the opponent's cube, and turned back."""
    info = gnubg.cubeinfo()
    theirs = dict(info, move=1 - info["move"])
    after = after_play(board, gnubg.parsemove(item["move"]))
    context = gnubg.evalcontext(1, plies, 1, 1, 0.0)
    optimal = gnubg.cfevaluate(after, theirs, context)[0]
    if info["matchto"]:
        equity = gnubg.mwc2eq(1.0 - gnubg.eq2mwc(optimal, theirs), info)
    else:
        equity = -optimal
    p = gnubg.evaluate(after, theirs, context)[:5]
    item.update(equity=equity, probs=[1.0 - p[0], p[3], p[4], p[1], p[2]], plies=plies)


def _analyse(out, board, force, plies):
    """The plays of ``force`` (result IDs) scored as gnubg's analysis scores the play made: at the deepest
    level the filter reached; and when the filter kept one play only and the play made is more than
    DOUBTFUL from it, both at the full level. The deep plays then best first."""
    if not out:
        return out
    deepest = max(item["plies"] for item in out)
    top = out[0]
    for item in out:
        if item["result"] not in force:
            continue
        if item["plies"] < deepest:
            _score(item, board, deepest)
        if deepest < plies and abs(item["equity"] - top["equity"]) > DOUBTFUL:
            _score(top, board, plies)
            _score(item, board, plies)
    level = max(item["plies"] for item in out)
    return sorted(out, key=lambda item: (item["plies"] != level, -item["equity"]))


def plays(request):
    """gnubg's hint; with ``force`` (result IDs of plays made) its analysis of them (the analysis filter)."""
    _setup(request)
    a, b = request["dice"]
    _command("set dice %d %d" % (a, b))
    board = gnubg.board()
    force = set(request.get("force") or ())
    if request.get("all"):
        old = _filters(True)
    elif force:
        old = _analysis_filters()
    else:
        old = None
    out = []
    for move in _hint(100000, old):
        steps = gnubg.parsemove(move["move"])
        out.append({"move": move["move"], "result": gnubg.positionid(after_play(board, steps)),
                    "equity": move["equity"], "probs": list(move["details"]["probs"]),
                    "plies": move.get("context", {}).get("plies")})
    if force and not request.get("all"):
        out = _analyse(out, board, force, int(request["plies"]))
    return {"plays": out}


def best(request):
    """For each roll of ``rolls``, the best play's equity and probabilities (gnubg's hint at ``plies``) for
    the player on roll of ``gnubgid``, or null where the roll has no legal play: a position's luck in one call."""
    _setup(request)
    found = []
    for a, b in request["rolls"]:
        _command("set dice %d %d" % (a, b))
        hint = _hint(1, None)
        if hint:
            result = gnubg.positionid(after_play(gnubg.board(), gnubg.parsemove(hint[0]["move"])))
            found.append({"equity": hint[0]["equity"], "probs": list(hint[0]["details"]["probs"]), "result": result})
        else:
            # no legal play: the opponent on roll in the same position, as the "cube" request evaluates it
            board = gnubg.board()
            info = gnubg.cubeinfo()
            theirs = dict(info, move=1 - info["move"])
            swapped = (board[1], board[0])
            context = gnubg.evalcontext(1, int(request["plies"]), 1, 1, 0.0)
            found.append({"opponent": {"equity": gnubg.cfevaluate(swapped, theirs, context)[0],
                                       "probs": list(gnubg.evaluate(swapped, theirs, context)[:5])}})
    return {"rolls": found}


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
    if os.environ.get("BGCLI_MET_FILE"):
        # the match equity table bgcli judges with, written by bgcli in gnubg's XML
        _command('set matchequitytable "%s"' % os.environ["BGCLI_MET_FILE"].replace('"', ''))
    for line in sys.stdin:
        try:
            request = json.loads(line)
            op = request.get("op")
            if op == "quit":
                break
            answer = {"plays": plays, "cube": cube, "best": best}[op](request)
        except Exception as exc:
            answer = {"error": "%s: %s" % (type(exc).__name__, exc)}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if "BGCLI_ANSWER_FD" in os.environ:  # started by bgcli, not imported
    main()
