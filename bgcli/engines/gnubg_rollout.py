"""GNU Backgammon's own rollout (``--engine gnubg``): gnubg run as a program, never imported (it is GPL).

One ``gnubg -t -q -r -p gnubg_rollout_driver.py`` process per rollout rolls out each position asked
(the player on roll, before rolling) with gnubg's ``rollout`` command under bgcli's settings
(:func:`commands`). gnubg prints a rollout's final figures only to a terminal, so its standard
output is a pseudo-terminal that this module reads; the figures are gnubg's printed ones (three
decimals): the cubeless chances, the cubeless (CL) and cubeful (CF) equities of the player on roll,
each with its standard error, and the games played. Nothing is trusted blindly: a position whose
figures are missing or are not numbers is an EngineError naming it.
"""
from __future__ import annotations

import json
import os
import re
import select
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from bgcli.engines.gnubg import INSTALL, find_gnubg
from bgcli.errors import EngineError, EngineUnavailableError

if TYPE_CHECKING:
    from bgcli.core.state import GameState
    from bgcli.engines.met import MatchEquityTable

DRIVER = Path(__file__).with_name("gnubg_rollout_driver.py")
_NUMBER = r"([+-]?\d+\.\d+)"
# a cubeless rollout prints no CF figure (its equity is the CL one)
_FIGURES = re.compile(r"Current Position:\s*\n\s*" + r"\s+".join([_NUMBER] * 3) + r"\s+-\s+" +
                      r"\s+".join([_NUMBER] * 3) + r"\s+CL\s+" + _NUMBER + r"(?:\s+CF\s+" + _NUMBER + r")?\s*\n\s*\[\s*" +
                      r"\s+".join([_NUMBER] * 3) + r"\s+-\s+" + r"\s+".join([_NUMBER] * 3) + r"\s+CL\s+" + _NUMBER +
                      r"(?:\s+CF\s+" + _NUMBER + r")?\s*\]")
_GAMES = re.compile(r"\n\s*(\d+) games, ")
_DONE = "Rollout done. Printing final results."


@dataclass(frozen=True)
class GnubgFigures:
    """gnubg's rollout of one position, for the player on roll: the five cumulative chances
    (win, win gammon, win backgammon, lose gammon, lose backgammon) and their standard errors,
    the cubeless and cubeful equities (EMG in a match) and theirs, and the games played."""

    probabilities: tuple[float, ...]
    probability_errors: tuple[float, ...]
    cubeless: float
    cubeless_error: float
    cubeful: float
    cubeful_error: float
    games: int


def commands(trials: int, seed: int, cubeful: bool, truncate: int, variance_reduction: bool, level: int,
             until_se: float | None = None, threads: int = 0) -> list[str]:
    """gnubg's commands for bgcli's rollout settings (plays and cube actions at ``level`` throughout)."""
    on = {True: "on", False: "off"}
    out = ["set threads %d" % (threads or max(1, os.cpu_count() or 1)),
           "set rollout trials %d" % trials, "set rollout seed %d" % seed, "set rollout quasirandom on",
           "set rollout cubeful %s" % on[cubeful], "set rollout varredn %s" % on[variance_reduction],
           "set rollout chequerplay plies %d" % level, "set rollout cubedecision plies %d" % level,
           "set rollout later enable off", "set rollout initial off",
           "set rollout truncation enable %s" % on[bool(truncate)]]
    if truncate:
        out += ["set rollout truncation plies %d" % truncate,
                "set rollout truncation chequerplay plies %d" % level,
                "set rollout truncation cubedecision plies %d" % level]
    if until_se is not None:
        out += ["set rollout limit enable on", "set rollout limit minimumgames 36",
                "set rollout limit maxerror %r" % float(until_se)]
    else:
        out += ["set rollout limit enable off"]
    return out


def rollout_states(states: Sequence["GameState"], settings: Sequence[str], timeout: float = 3600.0,
                   program: str | None = None, table: "MatchEquityTable | None" = None) -> list[GnubgFigures]:
    """gnubg's rollout of each of ``states`` (its player on roll, before rolling) under ``settings``
    (gnubg commands, :func:`commands`), in one gnubg process, within ``timeout`` seconds in all. ``table``:
    the match equity table of match play (None: gnubg's default, bgcli's too), given to gnubg in its XML."""
    from bgcli.core.ids import gnubg_id

    program = program or find_gnubg()
    if program is None:
        raise EngineUnavailableError(f"the gnubg engine needs GNU Backgammon: {INSTALL}")
    ids = [gnubg_id(state) for state in states]
    if table is None:
        return _rolled_out(program, ids, settings, timeout, None)
    import tempfile

    from bgcli.engines.met_tables import to_xml

    with tempfile.TemporaryDirectory(prefix="bgcli-rollout-") as folder:
        path = os.path.join(folder, "met.xml")
        with open(path, "w", encoding="utf-8") as out:
            out.write(to_xml(table))
        return _rolled_out(program, ids, settings, timeout, path)


def _rolled_out(program: str, ids: Sequence[str], settings: Sequence[str], timeout: float,
                table_file: str | None) -> list[GnubgFigures]:
    import pty

    request = json.dumps({"settings": list(settings), "positions": ids, "met_file": table_file})
    master, slave = pty.openpty()
    try:
        process = subprocess.Popen([program, "-t", "-q", "-r", "-p", str(DRIVER)], stdin=subprocess.DEVNULL,
                                   stdout=slave, stderr=subprocess.DEVNULL, start_new_session=True,
                                   env=dict(os.environ, BGCLI_ROLLOUT=request))
    except OSError as exc:
        os.close(master)
        raise EngineUnavailableError(f"cannot start GNU Backgammon ({program}: {exc.strerror}): {INSTALL}") from None
    finally:
        os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"gnubg's rollout gave no answer in {timeout:g} s")
            ready, _, _ = select.select([master], [], [], min(left, 1.0))
            if not ready:
                continue
            try:
                data = os.read(master, 1 << 16)
            except OSError:   # the terminal closed: gnubg ended
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()
        process.wait()
    return parse("".join(c.decode("utf-8", "replace") for c in chunks), ids)


def parse(text: str, ids: Sequence[str]) -> list[GnubgFigures]:
    """The final figures of each position in gnubg's terminal output (the driver's markers between them)."""
    text = text.replace("\r", "\n")
    out = []
    for number, position in enumerate(ids):
        start = text.find(f"@@bgcli {number}\n")
        end = text.find(f"@@bgcli {number + 1}\n") if number + 1 < len(ids) else text.find("@@bgcli end")
        part = text[start:end] if start >= 0 and end >= 0 else ""
        final = part[part.rfind(_DONE):] if _DONE in part else ""
        found = _FIGURES.search(final)
        games = _GAMES.search(final)
        if found is None or games is None:
            raise EngineError(f"gnubg's rollout of {position} gave no figures")
        groups = found.groups()
        # no CF figure (cubeless): the cubeful figures are the cubeless ones
        v = [float(x if x is not None else groups[k - 1]) for k, x in enumerate(groups)]
        out.append(GnubgFigures(tuple(v[0:3] + v[3:6][1:]), tuple(v[8:11] + v[11:14][1:]), v[6], v[14], v[7], v[15],
                                int(games.group(1))))
    return out
