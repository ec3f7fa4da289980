"""The ``gnubg`` backend: GNU Backgammon run as a separate program, never imported (it is GPL).

One persistent ``gnubg -t -q -r -p gnubg_driver.py`` process per engine (and one
more for each of its worker threads, :meth:`GnubgEngine.workers`, from which
``rate`` asks a game's questions at once): the
driver (bgcli's own script, run inside gnubg) reads a JSON request a line
and answers a JSON line on a pipe of its own, so gnubg's chatter on its
standard output never mixes with the answers. Every request carries the
whole state as a GNU Backgammon ID (bgcli.core.ids writes it: the position,
the cube, the score, Crawford, Jacoby) and the level, which the driver sets
with ``set evaluation chequerplay|cubedecision evaluation plies N`` (and the
same for ``set analysis``). gnubg's hint evaluates with its own move filters
at the level; the plays asked for by name (``force``: the play made, when
rating) are scored as gnubg's ``analyse match`` scores the play made (its
analysis filter, the play made at the level the filter reached, and with the
best play at the full level where the filter kept one play only).

Each call has a time limit: a gnubg that does not answer in time, or that
died, is an EngineError for that call and is stopped; the next call starts
a new one.
"""
from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from bgcli.core.position import Position
from bgcli.engines import met, trust
from bgcli.engines.workers import Workers
from bgcli.engines.protocol import CubeDecision, Evaluation, Level, PlayEvaluation
from bgcli.errors import EngineError, EngineUnavailableError
from bgcli.output import quote

if TYPE_CHECKING:
    from bgcli.core.generator import Play
    from bgcli.engines.met_tables import MatchEquityTable
    from bgcli.core.state import GameState

INSTALL = "apt-get install gnubg"
DRIVER = Path(__file__).with_name("gnubg_driver.py")
MAX_PLY = 4
_PLACES = ("/usr/games/gnubg", "/usr/bin/gnubg", "/usr/local/bin/gnubg")


class _Program:
    """One running gnubg: the process, the pipe of its answers and what was read of them past the last line."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.answers: Any = None
        self.buffer = b""


def find_gnubg() -> str | None:
    """The gnubg program: on the PATH, or where Debian and others put it."""
    found = shutil.which("gnubg")
    if found:
        return found
    return next((place for place in _PLACES if os.access(place, os.X_OK)), None)


def _stopped(process: "subprocess.Popen | None") -> str:
    """What is said of a gnubg that closed its answers' pipe: how it ended, when it has (a crash's signal, a
    kill, an exit status), so that a user can tell a crash from a kill (an out-of-memory killer's SIGKILL)."""
    try:
        status = process.wait(timeout=1) if process is not None else None
    except subprocess.TimeoutExpired:
        status = None
    if status is None or status == 0:
        return "it stopped"
    if status < 0:
        import signal

        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"it stopped, killed by {name}"
    return f"it stopped with exit status {status}"


class GnubgEngine:
    """GNU Backgammon at one level, in a subprocess kept between calls."""

    name = "gnubg"
    # its calls wait on a process of its own: another engine may be asked meanwhile from another thread
    separate = True

    def __init__(self, level: Level = Level(2), *, timeout: float = 60.0, program: str | None = None,
                 met: "MatchEquityTable | None" = None):
        if not 0 <= level.ply <= MAX_PLY:
            raise ValueError(f"the gnubg engine has levels 0 to {MAX_PLY}, not {level.ply}")
        program = program or find_gnubg()
        if program is None:
            raise EngineUnavailableError(f"the gnubg engine needs GNU Backgammon: {INSTALL}")
        self.level = level
        self.timeout = timeout
        self.program = program
        # the gnubg of the calling thread: one for every thread, and one more for each worker thread
        # (workers(): rate asks a game's questions from them at once)
        self._main = _Program()
        self._programs = [self._main]
        self._local = threading.local()
        self._lock = threading.Lock()
        self._workers = Workers(self._own_program_here, per_core=2 if level.ply == 0 else 1)
        self.met = met
        self._met_file: str | None = None   # the table as gnubg reads it, given to every gnubg this engine starts

    # --- the subprocess ----------------------------------------------------------

    def _table_file(self) -> str | None:
        """The engine's table written in gnubg's XML, once (gnubg is told ``set matchequitytable FILE``, so its
        match figures are the table's; past the table's size it extends it as bgcli does)."""
        if self.met is None:
            return None   # gnubg's default is bgcli's: Kazaross-XG2
        if self._met_file is None:
            import tempfile

            from bgcli.engines.met_tables import to_xml

            handle, path = tempfile.mkstemp(prefix="bgcli-met-", suffix=".xml")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(to_xml(self.met))
            self._met_file = path
        return self._met_file

    def workers(self):
        """Threads that may ask this engine at once (bgcli.engines.workers), each with a long-lived gnubg of
        its own, started at its first question."""
        return self._workers.pool()

    def _own_program_here(self) -> None:
        program = _Program()
        with self._lock:
            self._programs.append(program)
        self._local.program = program

    @property
    def _program(self) -> "_Program":
        return getattr(self._local, "program", self._main)

    def _start(self) -> None:
        with self._lock:
            table = self._table_file()
        program = self._program
        read, write = os.pipe()
        env = dict(os.environ, BGCLI_ANSWER_FD=str(write))
        env.pop("BGCLI_MET_FILE", None)
        if table:
            env["BGCLI_MET_FILE"] = table
        try:
            program.process = subprocess.Popen(
                [self.program, "-t", "-q", "-r", "-p", str(DRIVER)], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=(write,), env=env,
                start_new_session=True)
        except OSError as exc:
            os.close(read)
            raise EngineUnavailableError(f"cannot start GNU Backgammon ({self.program}: {exc.strerror}): {INSTALL}") from None
        finally:
            os.close(write)
        program.answers = read
        program.buffer = b""

    def _stop(self, program: "_Program | None" = None) -> None:
        program = program or self._program
        process, program.process = program.process, None
        if program.answers is not None:
            os.close(program.answers)
            program.answers = None
        if process is not None:
            try:
                if process.stdin:
                    process.stdin.close()
            except OSError:
                pass
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def _call(self, request: dict, state: "GameState", dice=None) -> dict:
        program = self._program
        if program.process is None or program.process.poll() is not None:
            self._stop()
            self._start()
        process = program.process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write((json.dumps(request) + "\n").encode())
            process.stdin.flush()
            line = self._read_line(self.timeout)
        except (OSError, EngineError) as exc:
            reason = str(exc) if isinstance(exc, EngineError) else _stopped(process)   # before it is killed here
            process.kill()
            self._stop()
            raise EngineError(f"gnubg failed on {trust.where(state, dice)}: {reason}") from None
        return trust.answer(line, self.name, trust.where(state, dice))

    def _read_line(self, timeout: float) -> bytes:
        """The next line of the answers' pipe, read with a bound: a line longer
        than any answer (trust.ANSWER_LIMIT) is an error as soon as it is that
        long, not a buffer grown until the time limit."""
        program = self._program
        deadline = time.monotonic() + timeout
        chunks = [program.buffer]
        held, newline = len(program.buffer), program.buffer.find(b"\n")
        while newline < 0:
            if held > trust.ANSWER_LIMIT:
                raise EngineError(f"an answer longer than {trust.ANSWER_LIMIT:,} bytes")
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"no answer in {timeout:g} s")
            ready, _, _ = select.select([program.answers], [], [], left)
            if not ready:
                continue
            chunk = os.read(program.answers, 1 << 16)
            if not chunk:
                raise EngineError(_stopped(program.process))
            found = chunk.find(b"\n")
            newline = held + found if found >= 0 else -1
            chunks.append(chunk)
            held += len(chunk)
        line, _, program.buffer = b"".join(chunks).partition(b"\n")
        return line

    def close(self) -> None:
        self._workers.close()
        for program in self._programs:
            process = program.process
            if process is not None and process.poll() is None and process.stdin:
                try:
                    process.stdin.write(b'{"op": "quit"}\n')
                    process.stdin.flush()
                except OSError:
                    pass
            self._stop(program)
        self._programs = [self._main]
        self._drop_table_file()

    def _drop_table_file(self) -> None:
        path, self._met_file = self._met_file, None
        if path:
            try:
                os.unlink(path)
            except OSError:
                pass

    def __del__(self) -> None:
        try:
            for program in self._programs:
                self._stop(program)
            self._drop_table_file()
        except Exception:
            pass

    # --- the protocol ------------------------------------------------------------

    def _request(self, op: str, state: "GameState", **more) -> dict:
        from bgcli.core.ids import gnubg_id

        return {"op": op, "gnubgid": gnubg_id(state), "plies": self.level.ply, **more}

    def _pre_roll(self, state: "GameState") -> "GameState":
        from dataclasses import replace

        # gnubg's ID of the same state before the roll, the player on roll to decide
        match = replace(state.match, dice=(0, 0), turn=state.match.on_roll, doubled=False, resign=0, game_state=1)
        return replace(state, match=match)

    def cube_decision(self, state: "GameState") -> CubeDecision:
        answer = self._call(self._request("cube", self._pre_roll(state)), state)
        side = met.MatchSide.of(state, table=self.met)
        values = [trust.number(answer.get(k), "a cube equity", self.name, state)
                  for k in ("no_double", "double_take", "double_pass")]
        mwcs: tuple = (None, None, None) if side.is_money else tuple(met.mwc(v, side) for v in values)
        return trust.cube_decision(answer.get("probs"), values[0], values[1], values[2], self.name, state, mwcs)

    def evaluate(self, state: "GameState") -> Evaluation:
        answer = self._call(self._request("cube", self._pre_roll(state)), state)
        side = met.MatchSide.of(state, table=self.met)
        equity = trust.number(answer.get("optimal"), "an equity", self.name, state)
        return trust.evaluation(answer.get("probs"), equity, None if side.is_money else met.mwc(equity, side),
                                self.name, state, table=self.met)

    def evaluate_plays(self, state: "GameState", dice: tuple[int, int], plays: Sequence["Play"], *,
                       force: Sequence["Play"] = ()) -> list[PlayEvaluation]:
        from dataclasses import replace

        rolled = replace(state, match=replace(state.match, dice=(max(dice), min(dice)), turn=state.match.on_roll,
                                              doubled=False, resign=0, game_state=1))
        # the plays made are scored as gnubg's analysis scores them (its filter, and the play made at the
        # level the filter reached, or with the best at the full level when the filter kept one play only)
        wanted = [trust.result_key(p) for p in force]
        listed = self._plays(rolled, state, dice, False, [Position.from_id(key).swap().id() for key in wanted])
        trust.same_plays((trust.result_key(p) for p in plays), listed, self.name, state, dice)
        return trust.ranked({key: found for key, (found, _) in listed.items()}, plays, self.name, state, dice,
                            {key: plies for key, (_, plies) in listed.items()})

    def best_plays(self, state: "GameState", rolls: Sequence[tuple[int, int]]) -> list[tuple[str, Evaluation] | None]:
        """For each roll, the best play of the player on roll of ``state`` (its result's Position ID, the
        mover on roll, and its evaluation; None: no legal play), in one call: the figures of
        :meth:`evaluate_plays`'s best play, roll by roll."""
        from bgcli.core.generator import legal_plays

        answer = self._call({**self._request("best", self._pre_roll(state)), "rolls": [list(r) for r in rolls]},
                            state)
        found = answer.get("rolls")
        if not isinstance(found, list) or len(found) != len(rolls):
            raise EngineError(f"gnubg gave no best play for each of {len(rolls)} rolls in {trust.where(state)}")
        side = met.MatchSide.of(state, table=self.met)
        out: list[tuple[str, Evaluation] | None] = []
        for roll, item in zip(rolls, found):
            if item is None:
                out.append(None)
                continue
            if isinstance(item, dict) and isinstance(item.get("opponent"), dict):
                # no legal play: the opponent's evaluation on roll in the same position, turned back as
                # the rating turns back evaluate()'s (the same figures as asking for it alone)
                theirs = item["opponent"]
                equity = trust.number(theirs.get("equity"), "an equity", self.name, state, roll)
                mine = trust.probabilities(theirs.get("probs"), self.name, state, roll).flipped()
                out.append((state.position.id(),
                            trust.evaluation(list(mine.to_dict().values()), -equity,
                                             None if side.is_money else 1.0 - met.mwc(equity, side.flipped()),
                                             self.name, state, roll, self.met)))
                continue
            if not isinstance(item, dict):
                raise EngineError(f"gnubg gave a best play that is not an object in {trust.where(state, roll)}")
            equity = trust.number(item.get("equity"), "an equity", self.name, state, roll)
            try:
                key = Position.from_id(str(item.get("result"))).swap().id()  # the mover back on roll
            except ValueError:
                raise EngineError(f"gnubg gave a best play with no position in {trust.where(state, roll)}") from None
            if key not in {p.result.id() for p in legal_plays(state.position, roll)}:
                raise EngineError(f"gnubg's best play is not a legal play in {trust.where(state, roll)}")
            out.append((key, trust.evaluation(item.get("probs"), equity,
                                              None if side.is_money else met.mwc(equity, side), self.name, state, roll,
                                              self.met)))
        return out

    def _plays(self, rolled: "GameState", state: "GameState", dice, every: bool,
               force: Sequence[str] = ()) -> dict[str, tuple[Evaluation, Any]]:
        request = self._request("plays", rolled, dice=list(dice), all=every)
        if force:
            request["force"] = list(force)
        answer = self._call(request, state, dice)
        side = met.MatchSide.of(state, table=self.met)
        out: dict[str, tuple[Evaluation, Any]] = {}
        plays = answer.get("plays") or []
        if not isinstance(plays, list):
            raise EngineError(f"gnubg gave plays that are not a list in {trust.where(state, dice)}")
        for item in plays:
            if not isinstance(item, dict):
                raise EngineError(f"gnubg gave a play that is not an object in {trust.where(state, dice)}")
            try:
                key = Position.from_id(str(item.get("result"))).swap().id()  # the mover back on roll
            except ValueError:
                raise EngineError(f"gnubg gave the play {quote(item.get('move'))} with no position in "
                                  f"{trust.where(state, dice)}") from None
            plies = item.get("plies")
            if plies is not None and (type(plies) is not int or not 0 <= plies <= MAX_PLY):
                raise EngineError(f"gnubg gave the play {quote(item.get('move'))} a level {quote(plies)}, not 0 to "
                                  f"{MAX_PLY}, in {trust.where(state, dice)}")
            equity = trust.number(item.get("equity"), "an equity", self.name, state, dice)
            found = trust.evaluation(item.get("probs"), equity, None if side.is_money else met.mwc(equity, side),
                                     self.name, state, dice, self.met)
            out[key] = (found, plies)
        return out
