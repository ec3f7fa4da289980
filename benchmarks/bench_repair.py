"""bgcli repair on planted slips: how often the top repair gives back the line as it was, how often the
repaired record audits clean, and what a repair costs against an audit of the same file.

    python benchmarks/bench_repair.py                  # gnubg's sample, then slips planted here in every self-play match
    python benchmarks/bench_repair.py --per 1 --files 10   # fewer
    python benchmarks/bench_repair.py --clean-only --rounds 5   # only repair against audit on the real files

First the real files of tests/data (gnubg's self-play and every program's exports), each file's audit job
and repair job timed side by side (a clean file must cost what its audit costs: nothing to repair). Then

two sets of planted slips:
- gnubg's audit sample (tests/data/oracle/audit_sample, made by oracle/tools/gnubg_corrupt.py inside gnubg):
  80 matches with one slip each (dice, dance, play, points, cube), the line as it was in expected.jsonl;
- slips planted here, the same way, deterministically (seeded), into gnubg's self-play matches
  (tests/data/oracle/selfplay): for each match and each kind (dice, play, dance, cube, points, and the
  structural ones: score, swap, twice) ``--per`` slips. A dice slip gives a move a roll its play is not
  legal for; a dance slip gives a true dance a roll that has a legal play; a play slip drops the last hop or
  moves its end by one (an illegal play of the roll); points and cube change the number written; score
  changes a game's score line; swap exchanges the two cells of a row of moves; twice writes a row twice.
  Whether a play is legal is bgcli's generator's word (held to gnubg's by tests/test_legal.py).

Printed per kind: cases, the share restored (the repaired text equal to the original, byte for byte; and
with blanks ignored), the share whose first problem's top suggestion, applied or not, gives back the
original ("top": where several fit equally, they are listed with the engine's favourite first), the share
whose repaired record has no error, the share where the repair says the record cannot tell (the best
repairs tie: listed, none applied), the share "invented" (an edit applied that is not the original), the
cases the record can tell ("tellable", asked of the audit, not of the repair: for a dance slip, whether
only one of the 21 rolls written in its place audits clean; every other slip counted tellable) and the
share of those restored, and the time of a repair against an audit of the same file.
Targets (issue 30): restored >= 90% overall and in each kind, clean >= 95%; a repair costs a few audits.
A dance slip as both planters make it (the roll of a dance replaced by a roll drawn at random among those
with a legal play) can be undone only where one roll dances: a dance changes nothing that follows, so
every roll that dances fits the rest of the record alike, and the digits written say nothing of the roll
thrown (the random roll shares a digit with it by chance). Those are "cannot tell", not "invented".
"ceiling" is the best any repair can do in expectation (Bayes): 1 for a slip the record tells; for a dance
slip the chance of the likeliest roll thrown given the record (``dance_posterior``: the dice's chances over
the rolls that dance); for a dice slip, given that the roll was the slip, the same over the rolls the written
play fits, each weighed by whether gnubg at 0 plies (the self-play's player) plays it with that roll (every one
alike without gnubg). "expected" is the same for the repair's own top suggestion: the chance that the roll
it names was the one thrown (1 or 0 elsewhere). A ranking at the ceiling has "expected" equal to "ceiling";
"top" is what one draw of the dice gave.

    python benchmarks/bench_repair.py --misses      # also list each case not restored, and each dance slip
    python benchmarks/bench_repair.py --sample DIR --selfplay DIR --seed N   # a held-out set (see the README)
"""
from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bgcli.core.generator import legal_plays  # noqa: E402
from bgcli.core.notation import parse_play  # noqa: E402
from bgcli.core.position import throws  # noqa: E402
from bgcli.errors import BgcliError  # noqa: E402
from bgcli.judging.repair import audit_records, read_records, repair_text  # noqa: E402
from bgcli.match.events import EventKind  # noqa: E402
from bgcli.match.records import ActionKind  # noqa: E402
from bgcli.match.replay import replay_match  # noqa: E402

SAMPLE = ROOT / "tests" / "data" / "oracle" / "audit_sample"
SELFPLAY = ROOT / "tests" / "data" / "oracle" / "selfplay"
KINDS = ("dice", "play", "dance", "cube", "points", "score", "swap", "twice")
ROLLS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


def _same_width(line: str, old: str, new: str) -> str:
    """gnubg_corrupt.py's: ``old`` replaced by ``new``, blanks after it eaten or added so later columns stay."""
    k = line.index(old)
    rest = line[k + len(old):]
    grow = len(new) - len(old)
    if grow > 0 and rest[:grow].strip() == "" and rest[grow:grow + 1] == " ":
        rest = rest[grow:]
    elif grow < 0 and rest:
        rest = " " * (-grow) + rest
    return line[:k] + new + rest


def plant(text: str, kind: str, rng: random.Random) -> tuple[str, int] | None:
    """``text`` with one slip of ``kind`` planted, and the 1-based line it is on; None when the match has
    no place for one (tried a few times)."""
    data = text.encode()
    _, records = read_records(data, "planted.mat")
    record = records[0]
    lines = text.split("\n")
    replay = replay_match(record)
    moves = [e for e in replay.events if e.kind is EventKind.MOVE and e.record is not None and e.dice]
    for _ in range(60):
        new = list(lines)
        if kind in ("dice", "dance", "play"):
            event = rng.choice(moves)
            action = event.record
            assert action is not None
            before, side, dice = event.before.position, action.side, event.dice
            assert dice is not None
            text_ = action.play_text.strip()
            if (kind == "dance") != (text_ == ""):
                continue
            if kind == "dance":
                roll = rng.choice([r for r in ROLLS if r != dice])
                if not legal_plays(before, roll):
                    continue
                cell = f"{roll[0]}{roll[1]}" + action.raw[2:]
            elif kind == "dice":
                roll = rng.choice([r for r in ROLLS if r != dice])
                try:
                    parse_play(text_, before, roll, side=side)
                    continue   # still legal for that roll: no slip
                except BgcliError:
                    pass
                cell = f"{roll[0]}{roll[1]}" + action.raw[2:]
            else:
                parts = text_.split()
                if len(parts) < 2:
                    continue
                if rng.random() < 0.5:
                    played = " ".join(parts[:-1])
                else:
                    start, end = parts[-1].rstrip("*").split("/")
                    moved = int(end) - rng.choice([-1, 1])
                    if moved < 0 or moved >= int(start):
                        continue
                    played = " ".join(parts[:-1] + [f"{start}/{moved}"])
                try:
                    parse_play(played, before, dice, side=side)
                    continue   # a legal play: no slip
                except BgcliError:
                    pass
                cell = action.raw[:action.raw.index(":") + 1] + " " + played
            line = new[action.line - 1]
            at = action.column - 1
            new[action.line - 1] = line[:at] + cell + line[at + len(action.raw):]
            changed = action.line
        elif kind in ("points", "cube"):
            wanted = ActionKind.WIN if kind == "points" else ActionKind.DOUBLE
            found = [a for g in record.games for a in g.actions if a.kind is wanted]
            if not found:
                return None
            action = rng.choice(found)
            line = new[action.line - 1]
            if kind == "points":
                n = action.points or 0
                m = rng.choice([x for x in (1, 2, 3, 4, 6, 8) if x != n])
                was = re.search(r"Wins \d+ points?", line)
                if was is None:
                    continue
                new[action.line - 1] = _same_width(line, was.group(0), f"Wins {m} point{'s' if m != 1 else ''}")
            else:
                n = action.cube or 0
                m = rng.choice([x for x in (2, 4, 8, 16) if x != n])
                new[action.line - 1] = _same_width(line, f"Doubles => {n}", f"Doubles => {m}")
            changed = action.line
        elif kind == "score":
            games = record.games[1:]
            if not games:
                return None
            game = rng.choice(games)
            line = new[game.line]   # the score line under " Game N"
            numbers = list(re.finditer(r":\s*(\d+)", line))
            if len(numbers) != 2:
                continue
            hit = numbers[rng.randrange(2)]
            value = int(hit.group(1)) + rng.choice([1, 2, -1])
            if value < 0:
                continue
            new[game.line] = line[:hit.start(1)] + str(value) + line[hit.end(1):]
            changed = game.line + 1
        elif kind == "swap":
            rows = [(g, a, b) for g in record.games for a, b in zip(g.actions, g.actions[1:])
                    if a.line == b.line and a.kind is ActionKind.MOVE and b.kind is ActionKind.MOVE and a.play_text
                    and b.play_text]
            if not rows:
                return None
            _, left, right = rng.choice(rows)
            line = new[left.line - 1]
            at, to = left.column - 1, right.column - 1
            new[left.line - 1] = line[:at] + right.raw.ljust(to - at - 1) + " " + left.raw + line[to + len(right.raw):]
            changed = left.line
        else:   # twice: a row of moves written again under itself
            rows = sorted({a.line for g in record.games for a in g.actions[2:-2] if a.kind is ActionKind.MOVE})
            if not rows:
                return None
            row = rng.choice(rows)
            new.insert(row, new[row - 1])
            changed = row + 1
        planted = "\n".join(new)
        if planted != text and [p for p in audit_records(read_records(planted.encode(), "p.mat")[1], None)
                                if p.severity.value == "error"]:
            return planted, changed
    return None


DUMP: list = []   # with --dump: each case's suggestions and repaired text, as JSON lines
MISSES: list | None = None   # with --misses: each case the top repair does not restore, and every dance slip


def run_case(original: str, planted: str, kind: str = "") -> dict:
    data = planted.encode()
    start = time.perf_counter()
    found = repair_text(data, "planted.mat")
    repair_time = time.perf_counter() - start
    if DUMP:
        DUMP[0].write(json.dumps({"kind": kind, "repair": found.to_dict(), "fixed": found.fixed}, sort_keys=True) + "\n")
    start = time.perf_counter()
    audit_records(read_records(data, "planted.mat")[1], None)
    audit_time = time.perf_counter() - start
    errors = [r for r in found.repairs if r.problem.severity.value == "error"]
    first = next((r for r in errors if r.suggestions), None)
    guess = _apply(planted, first.suggestions[0].edits) if first is not None else planted
    top = guess == original
    # the best any repair can do in expectation (Bayes), and what the repair's own top suggestion gives in
    # expectation: 1 or 0 for a slip the record tells; for a dance slip, the chance of the roll it names
    ceiling, expected, fits = float(True), float(top), 1
    if kind in ("dance", "dice"):
        rolls, _, written, (row, at) = _dance_fits(original, planted)
        chooses = _gnubg_chooses(original, row, at) if kind == "dice" else None
        posterior = dance_posterior(rolls, written, chooses)
        fits = len([r for r, chance in posterior.items() if chance > 0]) if kind == "dice" else len(rolls)
        ceiling = max(posterior.values(), default=0.0)
        named = guess.split("\n")[row]
        same = named[:at] + named[at + 2:] == original.split("\n")[row][:at] + original.split("\n")[row][at + 2:]
        expected = posterior.get(_roll_at(named, at), 0.0) if same and named[at:at + 2].isdigit() else 0.0
        if MISSES is not None and (kind == "dance" or not (top and found.fixed == original)):
            MISSES.append((kind, original, planted, found, first, top,
                           f"{len(rolls)} rolls fit: " + " ".join(f"{a}{b} {p:.3f}" for (a, b), p in posterior.items())))
    elif MISSES is not None and not (top and found.fixed == original):
        MISSES.append((kind, original, planted, found, first, top, ""))
    return {"restored": found.fixed == original, "top": top,
            "blanks": found.fixed.split() == original.split(),
            "clean": not [p for p in found.still if p.severity.value == "error"],
            "tied": any(r.suggestions and not r.applied for r in errors),
            "invented": found.fixed != original and found.fixed != planted,
            "tellable": fits == 1, "ceiling": ceiling, "expected": expected,
            "repair": repair_time, "audit": audit_time}


def _dance_fits(original: str, planted: str
                ) -> tuple[list[tuple[int, int]], tuple[int, int], tuple[int, int], tuple[int, int]]:
    """A dance slip's rolls that fit: of the 21 rolls written in its place, those whose record audits clean
    (every roll that dances fits the rest of the game alike; asked of the audit, not of the repair); with
    the roll thrown, the roll written and the slip's (row, column)."""
    lines, slipped = original.split("\n"), planted.split("\n")
    row = next(i for i, (a, b) in enumerate(zip(lines, slipped)) if a != b)
    at = next(i for i, (a, b) in enumerate(zip(lines[row], slipped[row])) if a != b)
    at -= slipped[row][at - 1].isdigit() and not slipped[row][at + 1:at + 2].isdigit()   # the roll's first digit
    thrown, written = _roll_at(lines[row], at), _roll_at(slipped[row], at)
    fits = []
    for roll in ROLLS:
        lines[row] = slipped[row][:at] + f"{roll[0]}{roll[1]}" + slipped[row][at + 2:]
        text = "\n".join(lines)
        if not [p for p in audit_records(read_records(text.encode(), "p.mat")[1], None) if p.severity.value == "error"]:
            fits.append(roll)
    return fits, thrown, written, (row, at)


def _roll_at(line: str, at: int) -> tuple[int, int]:
    """The roll whose two digits start at ``at``, the larger first."""
    a, b = int(line[at]), int(line[at + 1])
    return (max(a, b), min(a, b))


def _tellable(original: str, planted: str) -> bool:
    """Whether the record can tell the roll of a dance slip: of the 21 rolls written in its place, only the
    one thrown leaves a record that audits clean (every roll that dances fits the rest of the game alike).
    Asked of the audit, not of the repair."""
    return len(_dance_fits(original, planted)[0]) == 1


def dance_posterior(fits: list[tuple[int, int]], written: tuple[int, int],
                    chooses: Callable[[tuple[int, int]], bool] | None = None) -> dict[tuple[int, int], float]:
    """The chance that each roll was the one thrown, given a dance slip's record (Bayes): the roll thrown is
    one that dances (``fits``: a dance changes nothing that follows, so the rest of the record says no more),
    each as likely as the dice throw it (``throws``: 2 in 36, a double 1); the planters (gnubg_corrupt.py
    and ``plant`` here) then draw the roll written uniformly among the 20 rolls other than the one thrown,
    again until it has a legal play. So the chance of the roll written given the roll thrown r is
    [written != r] / #{x != r: x has a legal play}: the roll thrown is left out of the draw, but it is a roll
    that dances and could never have been kept, so for every r that dances the count is the same and the
    posterior is the dice's chances over the rolls that dance (worked out here, not assumed).

    A dice slip is the same with ``fits`` the rolls the written play is legal for (the rest of the game
    alike) and one more likelihood, ``chooses(r)``: whether the player would have written that play with
    r (gnubg's self-play: its own choice at 0 plies, which is deterministic)."""
    weights = {}
    for r in fits:
        kept = sum(1 for x in ROLLS if x != r and x not in fits)   # the draws the planter keeps, given r
        chosen = 1.0 if chooses is None else float(chooses(r))
        weights[r] = throws(r) * chosen * (r != written) / kept if kept else 0.0
    total = sum(weights.values())
    return {r: w / total for r, w in weights.items()} if total else {}


_GNUBG: list = []   # gnubg at 0 plies, the self-play's own player, opened once ([None]: not installed)


def _gnubg_engine():
    """gnubg at 0 plies through bgcli's driver, opened once; None where it is not installed."""
    if not _GNUBG:
        try:
            from bgcli.engines import open_engine

            _GNUBG.append(open_engine("gnubg", 0))
        except Exception:   # gnubg not installed: the ceiling of a dice slip counts every fitting roll alike
            _GNUBG.append(None)
    return _GNUBG[0]


def _gnubg_chooses(original: str, row: int, at: int) -> Callable[[tuple[int, int]], bool] | None:
    """Whether gnubg at 0 plies (the player of the self-play matches, deterministic: its choice was the
    play recorded in 779 of 779 plays of six matches with a choice) plays the move recorded at ``row``,
    ``at`` with a roll: its best play of the roll has the written play's result. None without gnubg (every
    roll the written play is legal for then counts alike)."""
    engine = _gnubg_engine()
    if engine is None:
        return None
    record = read_records(original.encode(), "o.mat")[1][0]
    event = next(e for e in replay_match(record).events if e.kind is EventKind.MOVE and e.record is not None
                 and e.record.line == row + 1 and e.record.column - 1 == at)
    assert event.record is not None
    text, side, state = event.record.play_text.strip(), event.record.side, event.before

    def chooses(roll: tuple[int, int]) -> bool:
        plays = legal_plays(state.position, roll)
        try:
            result = parse_play(text, state.position, roll, side=side).result
        except BgcliError:   # the audit let the roll pass (a warning), the notation does not read the play
            return False
        ranked = engine.evaluate_plays(state, roll, plays)
        best = ranked[0].evaluation.equity
        return any(e.play.result == result for e in ranked if best - e.evaluation.equity < 1e-9)

    return chooses


def _apply(text: str, edits) -> str:
    """The text with one suggestion's edits made (applied or not)."""
    lines = text.split("\n")
    for edit in sorted(edits, key=lambda e: -e.line):
        if edit.after is None:
            del lines[edit.line - 1]
        else:
            lines[edit.line - 1] = edit.after
    return "\n".join(lines)


def report(title: str, results: dict[str, list[dict]]) -> None:
    print(title)
    print(f"{'kind':<8} {'cases':>5} {'restored':>9} {'(blanks)':>9} {'top':>6} {'ceiling':>8} {'expected':>9} "
          f"{'clean':>7} {'cannot tell':>12} {'invented':>9} {'tellable':>9} {'restored':>9} {'repair ms':>10} "
          f"{'audit ms':>9} {'ratio':>6}")
    every: list[dict] = []
    for kind in KINDS:
        rows = results.get(kind, [])
        if rows:
            _line(kind, rows)
            every.extend(rows)
    if every:
        _line("all", every)
        told = [r for r in every if not r["tied"]]
        if len(told) != len(every):
            _line("told", told)
    print()


def _line(name: str, rows: list[dict]) -> None:
    n = len(rows)
    share = lambda key: sum(1 for r in rows if r[key]) / n   # noqa: E731
    mean = lambda key: sum(r[key] for r in rows) / n   # noqa: E731
    repair = sum(r["repair"] for r in rows) / n * 1000
    audit = sum(r["audit"] for r in rows) / n * 1000
    told = [r for r in rows if r["tellable"]]
    told_restored = sum(1 for r in told if r["restored"]) / len(told) if told else 0.0
    print(f"{name:<8} {n:>5} {share('restored'):>9.1%} {share('blanks'):>9.1%} {share('top'):>6.1%} "
          f"{mean('ceiling'):>8.1%} {mean('expected'):>9.1%} {share('clean'):>7.1%} "
          f"{share('tied'):>12.1%} {share('invented'):>9.1%} {len(told):>9} {told_restored:>9.1%} "
          f"{repair:>10.1f} {audit:>9.1f} {repair / audit if audit else 0:>6.1f}")


REAL = ROOT / "tests" / "data"


def clean_files() -> list[Path]:
    """The real text match files of tests/data that repair reads (gnubg's self-play and every program's
    exports; not the planted sample, not the position lists), in name order."""
    found = []
    for path in sorted(REAL.rglob("*")):
        if path.suffix.lower() not in (".mat", ".txt", ".gam") or not path.is_file() or SAMPLE in path.parents:
            continue
        try:
            read_records(path.read_bytes()[:1 << 20], str(path))
        except BgcliError:
            continue
        found.append(path)
    return found


def compare_clean(rounds: int) -> None:
    """What `bgcli repair` costs against `bgcli audit` on each real file, each file's two jobs timed one
    right after the other (the audit's job, bgcli.scale.archive.AuditJob, and the repair's,
    bgcli.scale.repair.RepairJob), ``rounds`` times in turn: the ratio of the sums, for the files
    without an error (nothing to repair: the common case) and for those with one."""
    from bgcli.scale.archive import AuditJob
    from bgcli.scale.repair import RepairJob

    audit, repair = AuditJob(None), RepairJob(None)
    times: dict[str, list[float]] = {}
    kinds: dict[str, bool] = {}
    files = clean_files()
    for round_ in range(rounds):
        for path in files if round_ % 2 == 0 else files[::-1]:
            name = str(path)
            start = time.perf_counter()
            audited = audit.run(name, name, None)
            middle = time.perf_counter()
            repaired = repair.run(name, name, None)
            end = time.perf_counter()
            kinds[name] = audited.errors > 0 or repaired.errors > 0
            row = times.setdefault(name, [0.0, 0.0])
            row[0] += middle - start
            row[1] += end - middle
    print(f"real files of tests/data: repair against audit, each file's two jobs side by side, {rounds} rounds")
    print(f"{'files':<24} {'count':>5} {'audit ms':>9} {'repair ms':>10} {'ratio':>6} {'median':>7}")
    for label, wanted in (("without errors", False), ("with errors", True)):
        rows = [times[name] for name in times if kinds[name] == wanted]
        if not rows:
            continue
        a, r = sum(row[0] for row in rows), sum(row[1] for row in rows)
        ratios = sorted(row[1] / row[0] for row in rows if row[0])
        print(f"{label:<24} {len(rows):>5} {a / rounds * 1000:>9.1f} {r / rounds * 1000:>10.1f} {r / a:>6.2f} "
              f"{ratios[len(ratios) // 2]:>7.2f}")
    print()


def list_misses() -> None:
    """Each case the top repair does not restore (and each dance slip): the line as it was and as planted,
    the first problem and its suggestions."""
    print("cases not restored by the top repair, and every dance slip:")
    for kind, original, planted, found, first, top, note in MISSES or []:
        was, now = original.split("\n"), planted.split("\n")
        row = next((i for i, (a, b) in enumerate(zip(was, now)) if a != b), min(len(was), len(now)) - 1)
        print(f"- {kind}: line {row + 1} was {was[row].strip()!r}, planted {now[row].strip()!r}; "
              f"top {'restores' if top else 'does not restore'}; {'applied' if found.fixed != planted else 'none applied'}"
              + (f"; {note}" if note else ""))
        if first is not None:
            print(f"    {first.problem.message}")
            for suggestion in first.suggestions:
                print(f"    {suggestion.text()}")
    print()


def main() -> None:
    global SAMPLE, SELFPLAY, MISSES
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--per", type=int, default=1, help="slips of each kind planted per self-play match")
    parser.add_argument("--files", type=int, default=0, help="self-play matches used (0: all)")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--no-sample", action="store_true", help="skip gnubg's audit sample")
    parser.add_argument("--sample", type=Path, default=SAMPLE, help="a folder of gnubg_corrupt.py's planted slips "
                                                                     "(expected.jsonl); default gnubg's audit sample")
    parser.add_argument("--selfplay", type=Path, default=SELFPLAY, help="a folder of gnubg's self-play .mat files "
                                                                         "to plant slips in; default tests/data's")
    parser.add_argument("--misses", action="store_true", help="list each case not restored and each dance slip")
    parser.add_argument("--dump", metavar="FILE", help="write the suggestions and repaired text of each real file of "
                                                         "tests/data and each case to FILE as JSON lines (a change made "
                                                         "for speed must leave it byte-identical)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the real files' repair against audit "
                                                                "(0: none)")
    parser.add_argument("--clean-only", action="store_true", help="only the real files' repair against audit")
    args = parser.parse_args()
    SAMPLE, SELFPLAY = args.sample, args.selfplay
    if args.misses:
        MISSES = []
    if args.rounds:
        compare_clean(args.rounds)
    if args.clean_only:
        return
    if args.dump:
        DUMP.append(open(args.dump, "w"))
        for path in clean_files():   # the real files' suggestions too, named relative to tests/data
            found = repair_text(path.read_bytes(), str(path.relative_to(REAL)))
            DUMP[0].write(json.dumps({"file": str(path.relative_to(REAL)), "repair": found.to_dict(),
                                      "fixed": found.fixed}, sort_keys=True) + "\n")
    if not args.no_sample:
        results: dict[str, list[dict]] = defaultdict(list)
        for line in (SAMPLE / "expected.jsonl").read_text().splitlines():
            case = json.loads(line)
            planted = (SAMPLE / case["file"]).read_text()
            lines = planted.split("\n")
            lines[case["line"] - 1] = case["was"]
            results[case["kind"]].append(run_case("\n".join(lines), planted, case["kind"]))
        report(f"gnubg's planted slips ({SAMPLE.relative_to(ROOT) if ROOT in SAMPLE.parents else SAMPLE})", results)
        if MISSES:
            list_misses()
            MISSES.clear()
    rng = random.Random(args.seed)
    results = defaultdict(list)
    files = sorted(SELFPLAY.glob("*.mat"))
    for path in files[:args.files or None]:
        original = path.read_text()
        for kind in KINDS:
            for _ in range(args.per):
                made = plant(original, kind, rng)
                if made is not None:
                    results[kind].append(run_case(original, made[0], kind))
    report(f"slips planted here (seed {args.seed}, {args.per} of each kind per match, "
           f"{len(files[:args.files or None])} self-play matches)", results)
    if MISSES:
        list_misses()


if __name__ == "__main__":
    main()
