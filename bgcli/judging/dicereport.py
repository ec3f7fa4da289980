"""The dice audit's report: the players' tallies (bgcli.judging.dice) grouped
(``--by``), each group put to every test (bgcli.judging.dicestats), and the
whole family of p-values corrected at once (Holm; Benjamini-Hochberg).

The wording says what the data are consistent with; a test that a group is too
small for says so and gets no p-value.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from bgcli.core.position import ALL_THROWS, FACES, ORDERED_ROLLS, throws
from bgcli.judging.dice import CONDITIONS, DOUBLES, GAME_MARK, KINDS, Unit, add_into
from bgcli.judging.dicestats import (
    ALPHA, BY, Test, binomial_test, chance_test, contingency_test, correct, goodness_test, luck_test,
)

KIND_LABELS = tuple(f"{high}{low}" for high, low in KINDS)
KIND_CHANCES = tuple(throws(kind) / ALL_THROWS for kind in KINDS)
FACE_LABELS = tuple(str(face) for face in FACES)
ORDER_LABELS = tuple(f"{a}-{b}" for a, b in ORDERED_ROLLS)
_OPENING = tuple(i for i, (high, low) in enumerate(KINDS) if high != low)
CONDITION_TITLES = {"enter": "entering from the bar", "hit": "a roll that hits a blot",
                    "bearoff": "a roll that bears off the last checkers",
                    "gammon": "a roll that saves the gammon at the last chance"}
NO_LABEL = {"site": "(no site tag)", "month": "(no date tag)"}


@dataclass
class Group:
    """One group's counts and tests."""

    name: str
    total: Unit
    matches: int
    tests: list[Test] = field(default_factory=list)

    @property
    def rolls(self) -> int:
        return self.total.rolls

    def to_dict(self) -> dict:
        return {"group": self.name, "rolls": self.rolls, "matches": self.matches, "opening_rolls": sum(self.total.opening),
                "tests": [t.to_dict() for t in self.tests]}


@dataclass
class Report:
    """A dice audit: its groups, the size of the family of tests corrected together, notes."""

    by: str
    groups: list[Group]
    family: int
    notes: list[str] = field(default_factory=list)

    def tests(self) -> list[Test]:
        return [t for g in self.groups for t in g.tests]

    def flagged(self) -> list[tuple[Group, Test]]:
        """The tests not consistent with fair dice after Holm's correction."""
        return [(g, t) for g in self.groups for t in g.tests if t.holm is not None and t.holm < ALPHA]

    def summary(self) -> str:
        done = [t for t in self.tests() if t.p is not None]
        raw = sum(1 for t in done if t.p is not None and t.p < ALPHA)
        bh = sum(1 for t in done if t.bh is not None and t.bh < ALPHA)
        flagged = len(self.flagged())
        words = (f"{len(done)} test{'s' if len(done) != 1 else ''} in {len(self.groups)} group{'s' if len(self.groups) != 1 else ''}: "
                 f"{raw} with p < {ALPHA:g} alone (about {ALPHA * len(done):.1f} expected by chance with fair dice), "
                 f"{flagged} after Holm's correction for the {len(done)} tests, {bh} with a false discovery rate "
                 f"(Benjamini-Hochberg) under {ALPHA:g}")
        if not self.groups:
            return "no rolls were read"
        if not done:
            return "no group is large enough for any test"
        if flagged:
            return words + ": some of these dice are not consistent with fair dice"
        return words + ": the rolls are consistent with fair dice"

    def to_dict(self) -> dict:
        return {"by": self.by, "alpha": ALPHA, "family": self.family, "groups": [g.to_dict() for g in self.groups],
                "flagged": [{"group": g.name, "test": t.name} for g, t in self.flagged()], "notes": self.notes,
                "summary": self.summary()}


def group_name(unit: Unit, by: str) -> str:
    if by == "all":
        return "all rolls"
    if by == "player":
        return unit.player
    if by == "file":
        return unit.file
    if by == "match":
        return f"{unit.file} match {unit.match}"
    value = getattr(unit, by)
    return value or NO_LABEL[by]


def build(units: Iterable[Unit], by: str = "all", power: bool = True) -> Report:
    """The report of ``units`` grouped ``by`` one of :data:`BY` (``power``: see :func:`group_tests`)."""
    if by not in BY:
        raise ValueError(f"--by is one of {', '.join(BY)}, not {by!r}")
    units, repeated, near = once(units)
    totals: dict[str, Unit] = {}
    opponents: dict[str, Unit] = {}
    matches: dict[str, set] = {}
    by_match = {(u.file, u.match, u.side): u for u in units}
    for unit in units:
        name = group_name(unit, by)
        if name not in totals:
            totals[name] = Unit("", 0, 0, name, "")
            opponents[name] = Unit("", 0, 0, "", name)
            matches[name] = set()
        add_into(totals[name], unit)
        matches[name].add((unit.file, unit.match))
        totals[name].ordered = totals[name].ordered or unit.ordered
        if unit.white_first:
            totals[name].white_first = True
        other = by_match.get((unit.file, unit.match, 1 - unit.side))
        if other is not None:
            add_into(opponents[name], other)
    groups = [Group(name, totals[name], len(matches[name])) for name in sorted(totals)]
    notes = []
    if repeated:
        notes.append(f"{repeated} match{'es' if repeated != 1 else ''} appear{'' if repeated != 1 else 's'} in more than one file "
                     f"(the same rolls in the same order): counted once, where first read")
    if near:
        notes.append(f"{near} match{'es' if near != 1 else ''} {'are' if near != 1 else 'is'} a near copy of a match in another file "
                     f"(every game of {'them' if near != 1 else 'it'} begins or ends with the same {GAME_MARK} rolls as one of its games: "
                     f"the same match, or part of it, with a roll or two written differently): counted once, where first read")
    for group in groups:
        group.tests = group_tests(group.total, opponents[group.name] if by == "player" else None, power)
    if any(u.white_first for u in units):
        notes.append("under these rules the opening roll is not rolled again on a double: opening rolls are tested as any roll")
    doubles_at_opening = sum(g.total.opening[i] for g in groups for i in DOUBLES)
    if doubles_at_opening and not any(u.white_first for u in units):
        notes.append(f"{doubles_at_opening} opening roll{'s are' if doubles_at_opening > 1 else ' is a'} double: most rules roll "
                     f"the opening again on a double (the audit says where), so they are left out of the opening test")
    family = correct(t for g in groups for t in g.tests)
    return Report(by, groups, family, notes)


def once(units: Iterable[Unit]) -> tuple[list[Unit], int, int]:
    """The units of each match once: a match whose rolls (in order) are those of a
    match read before, from another file, is left out (an archive often holds a
    match as .xg and as .mat; counting it twice would make its rolls look too
    alike); so is a near copy: a match each of whose long games begins or ends
    with the same GAME_MARK rolls as a game of one match read before, from another
    file (the same match with a roll typed differently, or a slip planted in it).
    Also how many matches were left out as copies, and as near copies."""
    units = list(units)
    kept: list[Unit] = []
    first_file: dict[str, str] = {}
    owner_of_mark: dict[str, tuple[str, int]] = {}   # a game's mark -> the first match read with it
    marks_of: dict[tuple[str, int], set[str]] = {}
    copies, near = set(), set()
    for unit in units:
        match = (unit.file, unit.match)
        if unit.rolls + sum(unit.opening) == 0 or not unit.fingerprint:
            kept.append(unit)
            continue
        where = first_file.setdefault(unit.fingerprint, unit.file)
        if where != unit.file:
            copies.add(match)
            continue
        if match not in marks_of:
            games = [unit.game_marks[i:i + 2] for i in range(0, len(unit.game_marks), 2)]
            earlier = {owner_of_mark[mark] for game in games for mark in game if mark in owner_of_mark}
            if games and any(other[0] != unit.file and all(set(game) & marks_of[other] for game in games)
                             for other in earlier):
                near.add(match)
            else:
                marks_of[match] = set(unit.game_marks)
                for mark in unit.game_marks:
                    owner_of_mark.setdefault(mark, match)
        if match not in near:
            kept.append(unit)
    return kept, len(copies), len(near)


def group_tests(total: Unit, opponents: Unit | None = None, power: bool = True) -> list[Test]:
    """Every test of one group's counts (``opponents``: the rolls of the group's
    opponents in the same matches, for a player); ``power`` False leaves out the
    power statements (the calibration tests run thousands of groups)."""
    n = total.rolls
    tests = [
        goodness_test("kinds", "the 21 kinds of roll", total.kinds, KIND_CHANCES, KIND_LABELS),
        binomial_test("doubles", "doubles", sum(total.kinds[i] for i in DOUBLES), n, 1 / 6, with_power=power),
        goodness_test("faces", "each die's face", total.faces, [1 / 6] * 6, FACE_LABELS, what="dice",
                      shifted=one_face if power else None,
                      shift_words=lambda x: f"one face at {1 / 6 + x:.1%} instead of 16.7%"),
    ]
    if total.ordered and any(total.order):
        tests.append(goodness_test("order", "the 36 rolls in the order the dice were written", total.order, [1 / ALL_THROWS] * ALL_THROWS,
                                   ORDER_LABELS))
    if total.white_first:
        opening = goodness_test("opening", "opening rolls", total.opening, KIND_CHANCES, KIND_LABELS, what="opening rolls")
    else:
        opening = goodness_test("opening", "opening rolls (no doubles)", [total.opening[i] for i in _OPENING],
                                [1 / 15] * 15, [KIND_LABELS[i] for i in _OPENING], what="opening rolls")
    tests.append(opening)
    tests.append(goodness_test("pairs", "consecutive rolls (the kind before and after)", total.pairs,
                               [a * b for a in KIND_CHANCES for b in KIND_CHANCES],
                               [f"{x}>{y}" for x in KIND_LABELS for y in KIND_LABELS], what="pairs of rolls"))
    tests.append(binomial_test("after_double", "doubles right after a double", total.after_double[1], total.after_double[0],
                               1 / 6, with_power=power))
    tests.append(binomial_test("own_after_double", "doubles right after the same player's double", total.own_after_double[1],
                               total.own_after_double[0], 1 / 6, with_power=power))
    for condition in CONDITIONS:
        tests.append(chance_test(condition, CONDITION_TITLES[condition], total.trials[condition], total.successes[condition],
                                 with_power=power))
    if total.luck_rolls:
        tests.append(luck_test("luck", "the luck of the rolls (the engine's, as rate measures it)", total.luck_rolls,
                               total.luck, total.luck_squares, with_power=power))
    if opponents is not None:
        tests.append(contingency_test("vs_opponents", "the 21 kinds against the opponents' rolls",
                                      [total.kinds, opponents.kinds], KIND_LABELS))
    return tests


def one_face(x: float) -> list[float]:
    """The chances of the six faces when the first is ``x`` above 1/6 and the others share the rest."""
    return [1 / 6 + x] + [(5 / 6 - x) / 5] * 5


def p_values(report: Report) -> Sequence[float]:
    """Every raw p-value of the report (for the picture against the uniform line)."""
    return [t.p for t in report.tests() if t.p is not None]
