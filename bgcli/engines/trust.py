"""What bgcli checks in every engine's answer before it uses it: nothing is trusted blindly.

Every backend turns its answer into the protocol's dataclasses through these
functions, so the checks are the same whatever the engine: the plays it knows
are exactly bgcli's legal plays, every probability is a probability, every
equity a finite number, and no answer is missing.
"""
from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Iterable, Sequence

from bgcli.engines.protocol import CubeDecision, Evaluation, PlayEvaluation, Probabilities
from bgcli.errors import EngineError
from bgcli.output import quote
from bgcli.core.spelling import recorded_text

if TYPE_CHECKING:
    from bgcli.core.generator import Play
    from bgcli.core.state import GameState
    from bgcli.engines.met_tables import MatchEquityTable


def where(state: "GameState", dice: Sequence[int] | None = None) -> str:
    """The position (and dice) an error names: a GNU Backgammon ID a user can paste back."""
    from bgcli.core.ids import gnubg_id

    try:
        text = gnubg_id(state)
    except ValueError:
        text = state.position.id_or_board()
    return text + (f" with {recorded_text(dice)}" if dice else "")


# The longest answer an engine can rightly give, in bytes: gnubg lists at most 3,060 plays for a roll (its
# MAX_MOVES), each about 215 bytes of JSON (the play, its result's ID, the equity, five probabilities and
# the level; measured on gnubg's answers), 660 kB. A line longer than this is not an answer: it is refused
# as soon as it is this long, instead of being held until the time limit.
ANSWER_LIMIT = 2 << 20


def answer(line: bytes, engine: str, where: str) -> dict:
    """One line an engine answered, as the JSON object it must be; anything
    else (not JSON, nested past what the parser can follow, not an object, an
    error the engine reports) is an EngineError of one line naming the engine
    and ``where`` (the position asked about), as a bad line of a file is a
    one-line error naming the file."""
    if len(line) > ANSWER_LIMIT:
        raise EngineError(f"{engine} gave an answer longer than {ANSWER_LIMIT:,} bytes on {where}")
    try:
        found = json.loads(line)
    except RecursionError:
        raise EngineError(f"{engine} gave an answer nested deeper than any answer is, on {where}") from None
    except ValueError:   # UnicodeDecodeError too
        raise EngineError(f"{engine} gave an answer that is not JSON on {where}") from None
    if not isinstance(found, dict):
        raise EngineError(f"{engine} gave an answer that is not an object on {where}")
    if "error" in found:
        raise EngineError(f"{engine} failed on {where}: {str(found['error'])[:200]}")
    return found


def probabilities(values: Sequence[float], engine: str, state: "GameState", dice=None) -> Probabilities:
    """Five numbers (win, win gammon, win backgammon, lose gammon, lose backgammon) checked as probabilities."""
    try:
        if isinstance(values, (str, bytes, dict)):   # "01000" is five characters, not five numbers
            raise TypeError
        numbers = [float(v) for v in values]
    except (TypeError, ValueError, OverflowError):   # OverflowError: a whole number of 400 digits
        raise EngineError(f"{engine} gave probabilities {quote(values)} that are not numbers in "
                          f"{where(state, dice)}") from None
    if len(numbers) != 5:
        raise EngineError(f"{engine} gave {len(numbers)} probabilities, not 5, in {where(state, dice)}")
    # single-precision rounding a hair past 0 or 1 (gnubg gives -1.2e-07) is noise, not a wrong answer
    numbers = [min(1.0, max(0.0, v)) if -NOISE <= v <= 1 + NOISE else v for v in numbers]
    found = Probabilities(*numbers)
    problem = found.problem()
    if problem:
        raise EngineError(f"{engine} gave {problem} in {where(state, dice)}")
    return found


NOISE = 1e-6


def number(value, what: str, engine: str, state: "GameState", dice=None) -> float:
    """An equity or a chance that must be a finite number."""
    try:
        found = float(value)
    except (TypeError, ValueError, OverflowError):   # OverflowError: a whole number of 400 digits
        found = math.nan
    if not math.isfinite(found):
        raise EngineError(f"{engine} gave {what} {quote(value)}, not a number, in {where(state, dice)}")
    return found


def chance(value, what: str, engine: str, state: "GameState", dice=None) -> float | None:
    if value is None:
        return None
    found = number(value, what, engine, state, dice)
    if not 0.0 <= found <= 1.0:
        raise EngineError(f"{engine} gave {what} {found} outside 0 to 1 in {where(state, dice)}")
    return found


def evaluation(probs, equity, mwc, engine: str, state: "GameState", dice=None,
               table: "MatchEquityTable | None" = None) -> Evaluation:
    """An engine's evaluation of a position (or of a play, by the mover) in ``state``, checked. Where the
    game's rules have no doubling cube (a cubeless site, the traditional Korean game) the engine's cubeful
    equity is of another game: the position is worth its cubeless equity (:func:`cubeless`, by the match
    equity table ``table``), and every ranking, error and luck asks that."""
    found = probabilities(probs, engine, state, dice)
    number(equity, "an equity", engine, state, dice)
    if state.match.rules.cubeless:
        return cubeless(found, state, table)
    return Evaluation(found, float(equity), chance(mwc, "a match winning chance", engine, state, dice))


def cubeless(probs: Probabilities, state: "GameState", table: "MatchEquityTable | None" = None) -> Evaluation:
    """The cubeless evaluation of outcome probabilities ``probs`` of the player whose side ``state`` gives
    (the mover, for a play), each kind of win counting what the rules say (core.value.cubeless_worth): in
    money play the cubeless equity, in a match the match winning chance at the cube by ``table`` and its
    normalised equity."""
    from bgcli.core.value import cubeless_worth
    from bgcli.engines import met

    worth = cubeless_worth(state.match.rules)
    side = met.MatchSide.of(state, table=table)
    if side.is_money:
        return Evaluation(probs, probs.money_equity(worth))
    won = met.cubeless_mwc(probs, side, worth)
    return Evaluation(probs, met.emg(won, side), won)


def same_plays(bgcli_results: Iterable[str], engine_results: Iterable[str], engine: str, state: "GameState",
               dice: Sequence[int]) -> None:
    """The results of bgcli's legal plays and of the plays the engine lists must be the same set
    (each named by the Position ID it leaves, the mover still on roll)."""
    ours, theirs = set(bgcli_results), set(engine_results)
    if ours == theirs:
        return
    extra, missing = sorted(theirs - ours), sorted(ours - theirs)
    parts = []
    if extra:
        parts.append(f"{len(extra)} play(s) bgcli calls illegal (leading to {', '.join(extra[:3])})")
    if missing:
        parts.append(f"not {len(missing)} legal play(s) (leading to {', '.join(missing[:3])})")
    raise EngineError(f"{engine} lists {' and '.join(parts)} in {where(state, dice)}")


def ranked(found: dict, plays: Sequence["Play"], engine: str, state: "GameState", dice: Sequence[int],
           plies: dict | None = None, keys: Sequence[str] | None = None) -> list[PlayEvaluation]:
    """``found`` (a play's result ID -> its Evaluation) as PlayEvaluations of ``plays``, as gnubg's hint
    lists them: by level of ``plies`` (result ID -> level), the deepest first, each level best first (at
    3-ply a play its filter left at 0-ply can show more equity than the 2-ply ones, and comes after
    them); a play with no answer is an error. Ties keep bgcli's order of the plays. ``keys``: the
    plays' result IDs, if known."""
    plies = plies or {}
    out = []
    for play, key in zip(plays, keys or [result_key(p) for p in plays]):
        got = found.get(key)
        if got is None:
            raise EngineError(f"{engine} gave no evaluation of the play {play} in {where(state, dice)}")
        out.append(PlayEvaluation(play, got, plies.get(key)))
    out.sort(key=lambda p: (-1 if p.ply is None else -p.ply, -p.evaluation.equity))
    return out


def result_key(play: "Play") -> str:
    """A play's result, the mover still on roll, as a Position ID: what names a play to an engine."""
    return play.result.id()


def cube_decision(probs, nd, dt, dp, engine: str, state: "GameState", mwcs=(None, None, None)) -> CubeDecision:
    p = probabilities(probs, engine, state)
    values = [number(v, "a cube equity", engine, state) for v in (nd, dt, dp)]
    chances = [chance(v, "a match winning chance", engine, state) for v in mwcs]
    return CubeDecision(p, *values, *chances)
