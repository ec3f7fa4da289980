"""One owner per rule, held by reading the code: a constant, a spelling or a
kind that has an owner is not written again beside it (docs/layout.md). Each
check is shown to see a copy, so that it can fail."""
from __future__ import annotations

import re

import pytest
from conftest import ROOT
from generated import any_positions
from hypothesis import HealthCheck, given, settings

PACKAGE = ROOT / "bgcli"


def sources() -> dict[str, str]:
    return {str(path.relative_to(ROOT)): path.read_text(encoding="utf-8") for path in sorted(PACKAGE.rglob("*.py"))}


def found(pattern: re.Pattern[str], texts: dict[str, str]) -> list[str]:
    return [f"{name}:{text.count(chr(10), 0, match.start()) + 1}: {match.group(0)}"
            for name, text in texts.items() for match in pattern.finditer(text)]


# --- the checkers of a side: bgcli.core.position.CHECKERS ---------------------------------

# a side's borne-off count held against a bare 15 (the side's OFF is its index 0)
CHECKERS_AGAIN = re.compile(r"\[(?:OFF|0)\]\s*(?:[=!]=|[<>]=?)\s*15\b")


def test_no_module_counts_a_sides_checkers_again():
    again = found(CHECKERS_AGAIN, sources())
    assert not again, f"ask bgcli.core.position (CHECKERS, Position.is_over): {again}"


def test_the_checkers_check_sees_a_copy():
    assert found(CHECKERS_AGAIN, {"m.py": "won = p.player[0] == 15\nx = side[OFF] < 15\nok = s[OFF] == CHECKERS\n"}) \
        == ["m.py:1: [0] == 15", "m.py:2: [OFF] < 15"]


# --- the 21 kinds of roll and their throws: bgcli.core.position ---------------------------

# a roll's weight decided again ("1 if a == b else 2", "2 / 36 if ...") or the 21 kinds generated again
THROWS_AGAIN = re.compile(r"\b1(?:\.0)? if \w+(?:\[0\])? == \w+(?:\[1\])? else 2\b|\b[12] / 36 if "
                          r"|range\(1, 7\) for \w+ in range\(1, \w+ \+ 1\)|range\(6, 0, -1\) for \w+ in range\(\w+, 0, -1\)")
OWNER_OF_ROLLS = "bgcli/core/position.py"


def test_no_module_weighs_or_lists_the_21_rolls_again():
    again = found(THROWS_AGAIN, {name: text for name, text in sources().items() if name != OWNER_OF_ROLLS})
    assert not again, f"ask bgcli.core.position (KINDS_OF_ROLL, KINDS_OF_ROLL_LARGEST_FIRST, throws): {again}"


def test_the_rolls_check_sees_a_copy():
    copies = {"m.py": "w = 1 if r[0] == r[1] else 2\nc = 1 / 36 if a == b else 2 / 36\n"
                      "R = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))\n"
                      "D = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))\nok = throws(r)\n"}
    assert [line.split(":")[1] for line in found(THROWS_AGAIN, copies)] == ["1", "2", "3", "4"]


def test_the_kinds_of_roll_and_their_throws():
    from itertools import product

    from bgcli.core.position import KINDS_OF_ROLL, KINDS_OF_ROLL_LARGEST_FIRST, throws

    thrown = [tuple(sorted(pair, reverse=True)) for pair in product(range(1, 7), repeat=2)]
    assert sorted(set(thrown)) == list(KINDS_OF_ROLL) == sorted(KINDS_OF_ROLL_LARGEST_FIRST)
    assert all(throws(kind) == thrown.count(kind) for kind in KINDS_OF_ROLL) and sum(map(throws, KINDS_OF_ROLL)) == 36
    assert KINDS_OF_ROLL[:4] == ((1, 1), (2, 1), (2, 2), (3, 1)) and KINDS_OF_ROLL_LARGEST_FIRST[:2] == ((6, 6), (6, 5))


# --- kinds are enums -----------------------------------------------------------------------

# a kind held against the string of its value ('d.kind.value == "illegal"', 'kind not in ("win", "resign")')
KIND_AS_STRING = re.compile(r"""\.kind(?:\.value)?\s*(?:[!=]=|(?:not\s+)?in)\s*\(?\s*["']""")
# bgcli.notebook sits below the match records (it is imported for Jupyter's display without them): it may not
# import ActionKind, and says a result by its value
KIND_AS_STRING_ALLOWED = {"bgcli/notebook.py"}


def test_no_module_compares_a_kind_with_a_string():
    again = found(KIND_AS_STRING, {n: t for n, t in sources().items() if n not in KIND_AS_STRING_ALLOWED})
    assert not again, f"compare the enum (DecisionKind, EventKind, ActionKind): {again}"


def test_the_kind_check_sees_a_string():
    copies = {"m.py": 'a = d.kind.value == "illegal"\nb = e.kind not in ("win", "resign")\nc = x.kind != \'drop\'\n'
                      "ok = d.kind is DecisionKind.ILLEGAL\n"}
    assert [line.split(":")[1] for line in found(KIND_AS_STRING, copies)] == ["1", "2", "3"]


def test_a_positions_class_is_a_kind_written_as_its_word():
    from bgcli.analysis.counts import CLASSES, PositionClass, analyze
    from bgcli.core.position import Position

    found = analyze(Position.start(), bearoff=False)
    assert found.position_class is PositionClass.CONTACT
    assert found.to_dict()["class"] == "contact" and CLASSES == ("contact", "race", "bearoff", "over")


# --- the C accelerator: every entry point a fenced mirror with its property test ----------

SPEEDUPS = PACKAGE / "core" / "_speedups.c"


def c_entry_points(source: str) -> list[str]:
    """The functions the C module gives Python: the names of its ``methods`` table."""
    table = re.search(r"static PyMethodDef methods\[\] = \{(.*?)\{NULL", source, re.S)
    assert table, "the methods table of _speedups.c"
    return re.findall(r'^\s*\{"(\w+)"', table.group(1), re.M)


def fence_blocks(texts: dict[str, str]) -> list[str]:
    """Each run of comment lines that says it fences a mirror, joined into one line."""
    blocks = []
    for text in texts.values():
        for run in re.finditer(r"(?:^[ \t]*#.*\n)+", text, re.M):
            joined = " ".join(line.strip().lstrip("#").strip() for line in run.group(0).splitlines())
            if re.search(r"fenced mirror", joined, re.I):
                blocks.append(joined)
    return blocks


def unfenced(entry_points: list[str], blocks: list[str]) -> list[str]:
    """The entry points no fence names with a test that exists (``tests/x.py::test_y``)."""
    def tested(block: str) -> bool:
        tests = re.findall(r"(tests/\w+\.py)::(\w+)", block)
        return bool(tests) and all((ROOT / file).is_file() and re.search(
            rf"^def {name}\(", (ROOT / file).read_text(encoding="utf-8"), re.M) for file, name in tests)
    return [name for name in entry_points
            if not any(re.search(rf"C accelerator's (?:\w+ and )?{name}\b", block) and tested(block) for block in blocks)]


def test_every_c_entry_point_is_a_fenced_mirror_with_a_test():
    entry_points = c_entry_points(SPEEDUPS.read_text(encoding="utf-8"))
    assert len(entry_points) >= 14
    missing = unfenced(entry_points, fence_blocks(sources()))
    assert not missing, ("name each beside its owner: '# The C accelerator's NAME is a fenced mirror of OWNER: "
                         f"tests/test_x.py::test_y' (a property test comparing the two): {missing}")


def test_the_c_fence_check_sees_an_unfenced_entry_point():
    source = 'static PyMethodDef methods[] = {\n    {"kept", f, METH_O, "."},\n    {"lost", g, METH_O, "."},\n    {NULL'
    blocks = fence_blocks({"m.py": "# The C accelerator's kept is a fenced mirror of keep:\n"
                                   "# tests/test_one_owner.py::test_the_c_fence_check_sees_an_unfenced_entry_point\n\n"
                                   "# The C accelerator's lost is a fenced mirror of lose: tests/test_gone.py::test_x\n"})
    assert unfenced(c_entry_points(source), blocks) == ["lost"]


# --- a die's digits: bgcli.core.spelling (DIE_DIGITS, DIE_PATTERN, recorded_roll) ---------

# a regular expression's class of a die's digits written out again
DIE_AGAIN = re.compile(r"\[1-6\]|\[123456\]")
# copies left for now, and why (a copy here must be made to ask the owner, then taken off)
DIE_AGAIN_LEFT: set[str] = set()   # none left: repair's _DICE now asks the .mat reader (038067f)


def test_no_module_spells_a_die_again():
    texts = {name: text for name, text in sources().items() if name not in DIE_AGAIN_LEFT}
    again = found(DIE_AGAIN, texts)
    assert not again, f"build it from bgcli.core.spelling.DIE_PATTERN (or ask recorded_roll): {again}"
    assert all(found(DIE_AGAIN, {name: sources()[name]}) for name in DIE_AGAIN_LEFT), "a copy left is gone: strike it"


def test_the_die_check_sees_a_copy():
    assert found(DIE_AGAIN, {"m.py": 'R = re.compile(r"([1-6])([1-6])")\nD = rf"{DIE_PATTERN}"\n'}) == \
        ["m.py:1: [1-6]", "m.py:1: [1-6]"]


def test_an_xgids_dice_are_the_spellings_dice():
    from hypothesis import given, strategies as st

    from bgcli.core.ids import parse_position
    from bgcli.core.spelling import recorded_roll

    @given(st.sampled_from([f"{a}{b}" for a in range(7) for b in range(7)] + ["D", "B", "R", "d"]))
    def read(dice):
        text = f"XGID=-b----E-C---eE---c-e----B-:0:0:1:{dice}:0:0:0:0:10"
        try:
            state = parse_position(text)
        except ValueError:
            assert dice != "00" and dice.upper() not in "DBR" and recorded_roll(dice) is None
            return
        expected = (0, 0) if dice == "00" or dice.upper() in "DBR" else recorded_roll(dice)
        assert state.match.dice in (expected, expected[::-1])

    read()


# --- the largest cube, match and score: bgcli.core.state (MAX_CUBE, MAX_SCORE) ------------

def test_the_ids_take_the_cubes_and_lengths_a_state_holds():
    """The XGID and FIBS readers bound a cube, a length and a score by the state's own limits
    (the Match ID's fields): each takes exactly what a MatchState can hold."""
    from hypothesis import given, strategies as st

    from bgcli.core.ids import parse_position
    from bgcli.core.rules import Rules
    from bgcli.core.state import MAX_CUBE, MAX_SCORE, MatchState

    def read(text: str) -> bool:
        try:
            parse_position(text)
        except ValueError:
            return False
        return True

    @given(st.integers(0, 17), st.sampled_from([1, 2, MAX_SCORE - 1, MAX_SCORE, MAX_SCORE + 1]))
    def agree(log, length):
        holds_cube = MatchState(cube=1 << log).problem() == ""
        holds_length = MatchState(rules=Rules(match_length=length)).problem() == ""
        # a match at 0-0 with a centred cube of 2 ** log; a maxcube as high as an XGID writes it
        assert read(f"XGID=-b----E-C---eE---c-e----B-:{log}:0:1:00:0:0:0:{length}:{log}") == \
            (holds_cube and holds_length)
        assert read("board:You:Opp:%d:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:%d:"
                    "1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0" % (length, 1 << log)) == (holds_cube and holds_length)

    agree()
    # the limits are the Match ID's: a cube's logarithm in 4 bits, a length and each score in 15
    from bgcli.core.ids import _MATCH_FIELDS
    width = {name: bits for name, _, bits in _MATCH_FIELDS}
    assert MAX_CUBE == 1 << ((1 << width["cube"]) - 1) and MAX_SCORE == (1 << width["length"]) - 1


# --- where a rule setting is in force: bgcli.core.rules (Rules.in_force, Setting.play) -----

def test_who_applies_a_setting_asks_where_it_is_in_force():
    """Jacoby, beavers and automatic doubles count in money play only, the Crawford rule in a
    match only: said once (Setting.play), and the value of a game, the starting cubes and the
    Crawford game ask it (they each looked at the match length beside the setting once)."""
    from hypothesis import given, strategies as st

    from bgcli.core.cube import starting_cubes
    from bgcli.core.rules import SETTINGS, Rules, crawford_game
    from bgcli.core.value import jacoby_applies

    @given(st.builds(Rules, match_length=st.sampled_from([0, 1, 5]), crawford=st.booleans(), jacoby=st.booleans(),
                     beavers=st.booleans(), auto_doubles=st.integers(0, 3)))
    def agree(rules):
        for setting in SETTINGS:
            value = getattr(rules, setting.field)
            assert rules.in_force(setting.field) == (value if setting.matters(rules) else type(value)())
        money = not rules.match_length
        assert rules.in_force("jacoby") == (money and rules.jacoby)
        assert rules.in_force("crawford") == (not money and rules.crawford)
        assert jacoby_applies(rules, True) == rules.in_force("jacoby") and not jacoby_applies(rules, False)
        assert starting_cubes(rules) == [1 << k for k in range(rules.in_force("auto_doubles") + 1)]
        at = (rules.match_length - 1, 0)
        assert crawford_game(rules, at, False) == (bool(rules.in_force("crawford")) and rules.match_length > 1)

    agree()


# a setting decided beside the match length by hand ("jacoby and not match_length"), where
# Rules.in_force says where it applies (hint's --jacoby did once)
# (the money-play settings: a state's "this is the Crawford game" flag is not the Crawford rule)
# (a match start's or a header's length is the rules' match_length: "not info.length and info.rules.jacoby" once)
IN_FORCE_AGAIN = re.compile(r"\b(?:jacoby|beavers|auto_doubles|rules\.crawford)\s+and\s+(?:not\s+)?[\w.]*\b(?:match_)?length\b"
                            r"|\b(?:match_)?length\s+and\s+(?:not\s+)?[\w.]*\b(?:jacoby|beavers|auto_doubles|rules\.crawford)\b")


def test_no_module_decides_where_a_setting_is_in_force_again():
    again = found(IN_FORCE_AGAIN, {k: v for k, v in sources().items() if k != "bgcli/core/rules.py"})
    assert not again, f"ask Rules.in_force: {again}"


def test_the_in_force_check_sees_a_copy():
    copy = ("if jacoby and not state.match.match_length:\nok = not m.match_length and m.rules.beavers\nx = rules.in_force('jacoby')\n"
            "if not info.length and info.rules.jacoby:\nif info.length and info.rules.crawford:\nif length and state.crawford:\n")
    assert [line.split(":")[1] for line in found(IN_FORCE_AGAIN, {"m.py": copy})] == ["1", "2", "4", "5"]


# --- a rule tag's words: bgcli.core.rules (SETTINGS: each tag, its other spellings, On/Off) --

# a tag set to "On"/"Off" by hand, where the setting's own write() says it
ON_OFF_AGAIN = re.compile(r'''(?:\btags\[[^\]\n]+\]\s*=\s*"(?:On|Off)"|"On" if [^\n]*? else "Off"|"Off" if [^\n]*? else "On")''')
OWNER_OF_RULE_TAGS = "bgcli/core/rules.py"


def rule_tag_words(texts: dict[str, str]) -> list[str]:
    """The On/Off words written by hand for a tag the rules read (a tag they do not
    read, XG's "Unrated", is the file's own and may be spelled where it is read)."""
    from bgcli.core.rules import RULE_TAGS

    out = []
    for name, text in texts.items():
        for number, line in enumerate(text.splitlines(), 1):
            named = re.search(r'tags\["([^"]+)"\]', line)
            if ON_OFF_AGAIN.search(line) and (named is None or named.group(1).lower() in RULE_TAGS):
                out.append(f"{name}:{number}: {line.strip()}")
    return out


def test_no_module_writes_a_rule_tags_words_again():
    again = rule_tag_words({name: text for name, text in sources().items() if name != OWNER_OF_RULE_TAGS})
    assert not again, f"ask bgcli.core.rules (tag_for, SETTING_OF_TAG[tag].write): {again}"


def test_the_rule_tag_check_sees_a_copy():
    copies = {"m.py": 'tags["Jacoby"] = "On" if j else "Off"\ntags[tag] = "On" if doc[key] else "Off"\n'
                      'tags["Cubeless"] = "On"\ntags["Unrated"] = "On" if u else "Off"\ntags.update([tag_for("jacoby", j)])\n'}
    assert [line.split(":")[1] for line in rule_tag_words(copies)] == ["1", "2", "3"]


def test_the_rule_tags_other_programs_spell_are_read_as_the_rules_own():
    """XG, BGBlitz and the sites that copy XG's .mat head write [Beaver "On"]: the beavers
    setting reads it as its own tag (it was read as no rule, so their beavers were refused),
    and a writer says the setting once, in the rules' own spelling."""
    from bgcli.core.rules import RULE_TAGS, SETTINGS, Rules, tag_for
    from bgcli.formats.writing import rule_tags
    from bgcli.match.events import MatchStart

    assert Rules().with_tags({"Beaver": "On"}) == Rules().with_tags({"Beavers": "On"}) == Rules(beavers=True)
    assert all(tag.lower() in RULE_TAGS for setting in SETTINGS for tag in (setting.tag, *setting.other_tags))
    assert tag_for("jacoby", True) == ("Jacoby", "On") and tag_for("cube_limit", 64) == ("CubeLimit", "64")
    start = MatchStart(1, 0, ("a", "b"), Rules(beavers=True), {"Beaver": "On"}, "-")
    assert rule_tags(start) == [("Beavers", "On")]


# --- a Position ID's characters: bgcli.core.position (id_text, id_of_halves) -------------

# the ID's ten bytes turned into text again (the batch query packs twelve, and is held to the owner by its tests)
POSITION_ID_AGAIN = re.compile(r"to_bytes\(10\b|\[:14\]\.decode")
OWNER_OF_POSITION_ID = "bgcli/core/position.py"


def test_the_id_of_two_halves_is_the_position_id():
    from hypothesis import given, strategies as st

    from bgcli.core.position import Position, id_of_halves, side_bits

    def side(counts: list[int]) -> tuple[int, ...]:
        return (15 - sum(counts), *counts)

    spread = st.lists(st.integers(0, 3), min_size=25, max_size=25).filter(lambda c: sum(c) <= 15)

    @given(spread, spread)
    def agree(player, opponent):
        position = Position(side(player), side(opponent))
        halves = [side_bits(int.from_bytes(bytes(s), "little")) for s in (position.opponent, position.player)]
        assert id_of_halves(*halves) == position.id() == Position.from_id(position.id()).id()

    agree()


# an ID's alphabet written again as a regular expression's class: build it from bgcli.core.position
# (BASE64_CLASS, ID_PATTERN) or bgcli.core.ids (MATCH_ID_PATTERN)
ID_ALPHABET_AGAIN = re.compile(r"\[A-Za-z0-9\+/\]|\[A-Za-z0-9\+\\/\]")


def test_the_grammars_ids_are_the_owners_shapes():
    """grammars/position.lark spells a Position ID, a Match ID and a GNUbg ID in its own terminals (a
    grammar file cannot import): each is held here to the owner's pattern, so that a change of one fails."""
    from bgcli.core.ids import MATCH_ID_PATTERN
    from bgcli.core.position import BASE64_CLASS, ID_PATTERN

    grammar = (ROOT / "grammars" / "position.lark").read_text(encoding="utf-8")
    terminals = {name: body.replace("\\/", "/") for name, body in
                 re.findall(r"^(POSITION_ID|MATCH_ID|GNUBG_ID)\.\d+: /(.*)/$", grammar, re.M)}
    after = f"(?!{BASE64_CLASS})"
    assert terminals == {"POSITION_ID": ID_PATTERN + after, "MATCH_ID": MATCH_ID_PATTERN + after,
                         "GNUBG_ID": f"{ID_PATTERN}:{MATCH_ID_PATTERN}{after}"}


def test_an_ids_shape_is_its_reader():
    from hypothesis import given, strategies as st

    from bgcli.core.ids import MATCH_ID_PATTERN, parse_match_id
    from bgcli.core.position import BASE64_DIGITS, ID_PATTERN, Position, parse_position_id

    digits = "".join(sorted(BASE64_DIGITS))

    @given(st.text(alphabet=digits + "=-. ", max_size=16))
    def agree(text):
        for pattern, read in ((ID_PATTERN, parse_position_id), (MATCH_ID_PATTERN, parse_match_id)):
            try:
                read(text)
            except ValueError as exc:
                shaped = "base64 characters" not in str(exc)
            else:
                shaped = True
            assert shaped == bool(re.fullmatch(pattern, text.strip())), text

    agree()
    assert re.fullmatch(ID_PATTERN, Position.start().id())


def test_no_module_spells_an_ids_alphabet_again():
    again = found(ID_ALPHABET_AGAIN, {name: text for name, text in sources().items() if name != OWNER_OF_POSITION_ID})
    assert not again, f"build it from bgcli.core.position (BASE64_CLASS, ID_PATTERN) or core.ids.MATCH_ID_PATTERN: {again}"


def test_the_id_alphabet_check_sees_a_copy():
    copies = {"m.py": 'R = re.compile(r"[A-Za-z0-9+/]{14}")\nG = "/[A-Za-z0-9+\\/]{12}/"\nok = re.compile(ID_PATTERN)\n'}
    assert [hit.split(":")[1] for hit in found(ID_ALPHABET_AGAIN, copies)] == ["1", "2"]


# --- gnubg's names of a cube error: bgcli.judging.rating (DecisionKind.verdict, CubeError) ---

VERDICT_AGAIN = re.compile(r"""["'](?:missed|wrong) (?:double|take|pass)["']""")
OWNER_OF_VERDICTS = "bgcli/judging/rating.py"


def test_every_cube_decision_has_gnubgs_name_for_its_error():
    from bgcli.judging.rating import CubeError, Decision, DecisionKind

    def decision(kind: DecisionKind, error: float) -> Decision:
        return Decision(1, 1, 1, 1, 0, "a", kind, "", "", error=error)

    for kind in DecisionKind:
        named = decision(kind, 0.1)
        assert named.verdict == kind.verdict and decision(kind, 0.0).verdict == ""
        assert bool(kind.verdict) == named.is_cube
        # the kinds gnubg counts apart begin with the decision's own name
        assert named.cube_error is None or str(named.cube_error.value).startswith(kind.verdict)
    assert {k.verdict for k in DecisionKind if k.verdict} == {"missed double", "wrong double"} | {
        CubeError.WRONG_TAKE.value, CubeError.WRONG_PASS.value}


# --- the three lines of a cube decision: bgcli.core.cube.Line (gnubg's words; .word in lower case) --

CUBE_LINE_AGAIN = re.compile(r"""["'](?:no double|double, take|double, pass)["']""", re.IGNORECASE)
OWNER_OF_CUBE_LINES = "bgcli/core/cube.py"


def test_a_rolled_out_line_is_named_as_the_cube_module_names_it():
    from bgcli.core.cube import Line
    from bgcli.judging.rating import DecisionKind
    from bgcli.judging.rollout import LineKind

    assert [kind.cube_line for kind in LineKind] == [None, *Line]
    assert [str(kind) for kind in LineKind][1:] == [line.word for line in Line] == ["no double", "double, take",
                                                                                    "double, pass"]
    assert str(DecisionKind.NO_DOUBLE) == Line.NO_DOUBLE.word


# --- the value a double, beaver or raccoon turns the cube to: bgcli.core.cube (turned, value_after, value_reached) ---

# a cube's value doubled (or quadrupled, for a beaver) by its own arithmetic: cube * 2, value * 4, cube *= 2,
# 2 * cube, cube * (2 if ... else 4)
CUBE_VALUE_AGAIN = re.compile(r"\b(?:cube|value)(?:\[0\]|[\"']\])?\s*(?:\*=?\s*[24]\b|\*\s*\(\s*[24]\b)|\b[24]\s*\*\s*(?:[\w.]*\.)?cube\b")
OWNER_OF_CUBE_VALUE = "bgcli/core/cube.py"
# a format's own encoding of the cube (a log2 field, a count of doubles) may keep its arithmetic, named here
# with why; a rule's arithmetic may not (a reader that follows the cube through "a double was made" asks turned)
CUBE_VALUE_ENCODINGS: dict[str, str] = {}


def test_the_cube_value_check_sees_a_copy():
    copies = {"m.py": "v = m.cube * 2\nw = event.before.match.cube * 4\ncube *= 2\nx = 2 * cube\n"
                      "y = s.cube * (2 if d else 4)\no = self.cube[0] * 2\nok = turned(m.cube)\nz = k * 2\n"
                      "e = q * state.match.cube / self.cube * (1 if mine else -1)\nc = game['cube'] * 2\n"}
    assert [hit.split(":")[1] for hit in found(CUBE_VALUE_AGAIN, copies)] == ["1", "2", "3", "4", "5", "6", "10"]


# a count of turns made a cube's value by a shift or a power of two (1 << cube_log, 1 << min(abs(code), 15),
# 2 ** k), a cube's count of turns read by its bits (cube.bit_length()), or a value tested for one turns make
# (cube & (cube - 1)): ask bgcli.core.cube (after_turns, turns_within, is_turned, turns)
CUBE_SHIFT_AGAIN = re.compile(r"\b[12]\s*<<\s*(?:min\()?[\w.\[\]\"'(]*(?:cube|log|limit|auto|double|turn)"
                              r"|\b2\s*\*\*\s*[A-Za-z_(]|\b([\w.]*(?:cube|limit))\s*&\s*\(\s*\1\s*-\s*1\s*\)"
                              r"|\b[\w.]*(?:cube|limit)\w*\.bit_length\(\)")
# the one copy left, and why: a state sits below the cube module (which reads states), so MatchState.problem
# keeps its own test of a cube's value, fenced and held to is_turned by the test below
CUBE_SHIFT_FENCED = {"bgcli/core/state.py"}


# what: (the copy's pattern, the copies left in their modules and why, whom to ask instead)
CUBE_ARITHMETIC = {
    "a turn of the cube": (CUBE_VALUE_AGAIN, CUBE_VALUE_ENCODINGS, "turned, value_after, value_reached"),
    "a count of turns by a shift": (CUBE_SHIFT_AGAIN, CUBE_SHIFT_FENCED, "after_turns, turns_within, is_turned"),
}


@pytest.mark.parametrize("what", sorted(CUBE_ARITHMETIC))
def test_no_module_but_the_cube_owner_does_the_cubes_arithmetic(what):
    pattern, left, ask = CUBE_ARITHMETIC[what]
    texts = {name: text for name, text in sources().items() if name != OWNER_OF_CUBE_VALUE and name not in left}
    again = found(pattern, texts)
    assert not again, f"{what}: ask bgcli.core.cube ({ask}): {again}"
    assert all(found(pattern, {name: sources()[name]}) for name in left), "a copy left is gone: strike it"


def test_the_cube_shift_check_sees_a_copy():
    copies = {"m.py": "c = 1 << cube_log\nv = MatchState(cube=1 << min(abs(cube_code), 15))\nw = 2 ** k\n"
                      "bad = cube & (cube - 1)\nlog = m.cube.bit_length() - 1\nx = 2 << autos\nl = 1 << limit\n"
                      "ok = after_turns(k)\nmask = (1 << width) - 1\nn = 1 << 16\nb = bits & (bits - 1)\n"}
    assert [hit.split(":")[1] for hit in found(CUBE_SHIFT_AGAIN, copies)] == ["1", "2", "3", "4", "5", "6", "7"]


def test_a_states_cube_is_a_value_turns_make():
    """A cube's count of turns and back (the Match ID's, an XGID's and XG's logarithm), and MatchState's
    own test of a cube's value (a fenced mirror of is_turned), against the turns of the cube."""
    from hypothesis import given, strategies as st

    from bgcli.core.cube import after_turns, is_turned, turns, turns_within
    from bgcli.core.state import MAX_CUBE, MatchState

    values = turns(turns_within(MAX_CUBE) + 1)
    assert values[-2] == MAX_CUBE and turns_within(MAX_CUBE) == 15   # the Match ID's four bits

    @given(st.integers(-3, 2 * MAX_CUBE + 3) | st.sampled_from(values) | st.sampled_from([v - 1 for v in values]))
    def agree(value):
        made = value in values
        assert is_turned(value) == made
        assert (MatchState(cube=value).problem() == "") == (made and value <= MAX_CUBE)
        count = turns_within(value)
        assert after_turns(count) <= max(value, 1) < after_turns(count + 1)
        assert after_turns(count) == turns(count)[-1]

    agree()


# --- what a win counts, and the checkers of a side, written again ---------------------------

# a single win, a gammon and a backgammon counted by hand ((1, 2, 3), 3 * cube): ask bgcli.core.value
# (Win, STANDARD_WORTH, game_value, cubeless_worth)
WIN_WORTH_AGAIN = re.compile(r"(?<!\w)[(\[]1, 2, 3[)\]]|\b3\s*\*\s*[\w.]*cube\b|\bcube\s*\*\s*3\b")
OWNER_OF_WIN_WORTH = "bgcli/core/value.py"
# a message that writes a side's checkers as a bare 15 ("more than 15", "15 checkers at most"): say {CHECKERS}
CHECKERS_WORDS_AGAIN = re.compile(r'f?"[^"\n]*\b(?:checkers?|count)\b[^"\n]*\b(?:more than|at most|up to|0 to) 15\b'
                                  r'|f?"[^"\n]*\b15 checkers\b')


def test_no_module_counts_a_win_or_a_sides_checkers_by_hand():
    texts = sources()
    worth = found(WIN_WORTH_AGAIN, {name: text for name, text in texts.items() if name != OWNER_OF_WIN_WORTH})
    words = found(CHECKERS_WORDS_AGAIN, {name: text for name, text in texts.items() if name != "bgcli/core/position.py"})
    assert not worth, f"ask bgcli.core.value (STANDARD_WORTH, game_value): {worth}"
    assert not words, f"say bgcli.core.position.CHECKERS: {words}"


def test_the_win_and_checkers_checks_see_a_copy():
    copies = {"m.py": "v = {result.cube * k for k in (1, 2, 3)}\nif p > max(3 * cube, n):\nw = [1, 2, 3]\n"
                      "ok = cube * max(STANDARD_WORTH)\nr = range(1, 2, 3)\n"}
    assert [hit.split(":")[1] for hit in found(WIN_WORTH_AGAIN, copies)] == ["1", "2", "3"]
    words = {"m.py": 'raise bad(f"{who} has {n} checkers, more than 15")\nx = "(six counts, 15 checkers at most)"\n'
                     'ok = f"more than {CHECKERS}"\n# up to 15 checkers on six points\nm = "to 15 points"\ne = f"count {c}, expected 0 to 15"\n'}
    assert [hit.split(":")[1] for hit in found(CHECKERS_WORDS_AGAIN, words)] == ["1", "2", "6"]


# --- the scores of the Crawford game: bgcli.core.rules (one_away, crawford_game) ------------

# a player one point from the match found by hand ("length - 1 in score", "max(score) == length - 1")
CRAWFORD_AGAIN = re.compile(r"\b[\w.]*length\s*-\s*1\s+(?:not\s+)?in\b|\bmax\([^)\n]*\)\s*==\s*[\w.]*length\s*-\s*1\b")
OWNER_OF_CRAWFORD = "bgcli/core/rules.py"


def test_the_crawford_game_is_the_first_at_one_away():
    """one_away and crawford_game against the rule said plainly, and the XGID's and FIBS board's
    Crawford flags read as they say."""
    from hypothesis import given, strategies as st

    from bgcli.core.ids import parse_position
    from bgcli.core.rules import Rules, crawford_game, one_away

    @given(st.integers(0, 9), st.integers(0, 11), st.integers(0, 11), st.booleans(), st.booleans())
    def agree(length, a, b, crawford, done):
        needs_one = length > 0 and (a == length - 1 or b == length - 1)
        assert one_away(length, (a, b)) == needs_one
        rules = Rules(match_length=length, crawford=crawford)
        expected = crawford and length > 0 and not done and max(a, b) == length - 1 and min(a, b) < length - 1
        assert crawford_game(rules, (a, b), done) == expected
        if length and a < length and b < length:
            try:
                parse_position(f"XGID=-b----E-C---eE---c-e----B-:0:0:1:00:{a}:{b}:1:{length}:10")
            except ValueError as exc:
                assert not needs_one and "Crawford" in str(exc)
            else:
                assert needs_one

    agree()


def test_one_away_in_points_left_agrees_with_the_score_form():
    """one_away_left (the points each side still needs, as the match equity tables and the rating count)
    says what one_away says at every score of a match still in play; never in money play nor once a side
    has won; and the engine's post-Crawford is one away in a game that is not the Crawford game."""
    from hypothesis import given, strategies as st

    from bgcli.core.rules import one_away, one_away_left
    from bgcli.engines.met import MatchSide

    @given(st.integers(1, 64).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n - 1), st.integers(0, n - 1))),
           st.booleans())
    def agree(match, crawford):
        length, a, b = match
        assert one_away_left((length - a, length - b)) == one_away(length, (a, b))
        side = MatchSide(length - a, length - b, crawford=crawford)
        assert side.post_crawford == (one_away(length, (a, b)) and not crawford)

    agree()
    assert not one_away_left((0, 0)) and not MatchSide().post_crawford
    assert not any(one_away_left(won) for won in ((0, 1), (1, 0), (-1, 1), (1, -2)))


# the points a side still needs turned from the score by hand ("length - score[side]", "m.match_length - m.score[me]")
AWAY_AGAIN = re.compile(r"\b[\w.]*length\s*-\s*[\w.]*score\s*\[")


def test_the_points_a_side_needs_are_the_owners():
    """points_away (the score turned into the points each side still needs) is what the cube's turn, the match
    equity's side and the replay's stake read: the length less the side's score in a match, 0 in money play."""
    from hypothesis import given, strategies as st

    from bgcli.core.cube import CubeTurn
    from bgcli.core.rules import Rules, points_away
    from bgcli.core.state import GameState, MatchState
    from bgcli.engines.met import MatchSide
    from bgcli.core.position import Position

    @given(st.sampled_from([0, 1, 3, 7, 25]).flatmap(lambda n: st.tuples(
        st.just(n), st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0)))), st.integers(0, 1))
    def agree(match, side):
        length, a, b = match
        score = (a, b)
        away = points_away(length, score, side)
        assert away == (length - score[side] if length else 0) and (away > 0) == bool(length)
        turn = CubeTurn.at(1, -1, side, score, False, Rules(match_length=length))
        assert (turn.away, turn.opponent_away) == (away, points_away(length, score, 1 - side))
        state = GameState(Position.start(), MatchState(score=score, on_roll=side, rules=Rules(match_length=length)))
        seen = MatchSide.of(state)
        assert (seen.away, seen.opponent_away) == (turn.away, turn.opponent_away)

    agree()


# a player one point from the match found by hand in the points left ("min(away) == 1", "1 in away")
ONE_AWAY_LEFT_AGAIN = re.compile(r"\bmin\([^)\n]*\)\s*[=!]=\s*1\b|\b1\s+(?:not\s+)?in\s+\(?[\w.]*away")


# --- the geometry of the board: bgcli.core.position (other_side, OTHER_SIDE, from_other_side, HOME, in_home) ---

# a point numbered from the other side again ('25 - p', '24 - i' / '23 - i' on a 0-based array) or a side's
# slots turned round by hand ('opponent[::-1]', 'side[24:0:-1]'); in code only: prose may say "25 - p"
GEOMETRY_AGAIN = re.compile(r"(?<![\w.])2[345]\s*-\s*[A-Za-z_(]"
                            r"|\b(?:player|opponent|side\w*|board\w*|theirs|mine|me|opp)\[(?:24:0)?:?:-1\]")
OWNER_OF_GEOMETRY = "bgcli/core/position.py"
# The C accelerator keeps its own arithmetic, fenced (its property tests compare it with the Python code), and
# so does the script that runs inside GNU Backgammon (engines/gnubg_driver.py), which cannot import bgcli.
GEOMETRY_OWN_ARITHMETIC = {"bgcli/engines/gnubg_driver.py"}


def code(text: str) -> str:
    """``text`` with its comments and plain strings (docstrings, messages) blanked, lines kept; an
    f-string stays, as the code in its braces is code."""
    import io
    import tokenize

    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out = list(text)
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        plain_string = token.type == tokenize.STRING and "f" not in token.string.split(token.string[-1])[0].lower()
        if token.type == tokenize.COMMENT or plain_string:
            begin, end = starts[token.start[0] - 1] + token.start[1], starts[token.end[0] - 1] + token.end[1]
            out[begin:end] = [c if c == "\n" else " " for c in text[begin:end]]
    return "".join(out)


def test_no_module_but_the_owner_numbers_a_point_from_the_other_side():
    again = found(GEOMETRY_AGAIN, {name: code(text) for name, text in sources().items()
                                   if name != OWNER_OF_GEOMETRY and name not in GEOMETRY_OWN_ARITHMETIC})
    assert not again, f"ask bgcli.core.position (other_side, OTHER_SIDE, from_other_side): {again}"


def test_the_geometry_check_sees_a_copy():
    copies = {"m.py": ("hit = opp[25 - end]\nx = 24 - index\nopp = bytes(position.opponent[::-1])\n"
                       "t = theirs[24:0:-1]\n"
                       's = f"{25 - point}"\n'
                       '"""O\'s point 25 - p"""  # 25 - p\n'
                       "ok = opp[other_side(end)]\nn = x25 - y\nk = a.b25 - c\nm = 25 - 1\n")}
    assert [hit.split(":")[1] for hit in found(GEOMETRY_AGAIN, {n: code(t) for n, t in copies.items()})] \
        == ["1", "2", "3", "4", "5"]


def test_other_side_is_its_own_inverse_and_the_tables_agree():
    from bgcli.core.position import (BAR, HOME, HOME_BOARD, OFF, OTHER_SIDE, OUTSIDE_HOME, POINTS, from_other_side,
                                     in_home, other_side)

    slots = range(26)
    assert all(other_side(other_side(p)) == p for p in slots)
    assert OTHER_SIDE == tuple(map(other_side, slots)) and sorted(OTHER_SIDE) == list(slots)
    assert other_side(BAR) == OFF and other_side(1) == 24 and sorted(map(other_side, POINTS)) == list(POINTS)
    assert from_other_side(slots) == OTHER_SIDE and from_other_side(from_other_side(slots)) == tuple(slots)
    assert [p for p in slots if in_home(p)] == [OFF, *HOME_BOARD] and HOME_BOARD[-1] == HOME
    assert list(slots[OUTSIDE_HOME]) == [p for p in slots if not in_home(p)]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(any_positions())
def test_the_other_side_is_the_boards_flip(position):
    """The owner's numbering from the other side is how the board turns for the other player: the swapped
    position's plain board is this one's, turned round and with the colours changed; the opponent's point
    other_side(p) is the player's point p; and the pips, the ID and a game's kind follow."""
    from bgcli.core.position import POINTS, Position, from_other_side, other_side, shared_point

    board, turned = position.board26(), position.swap().board26()
    assert turned == [-n for n in from_other_side(board)]
    assert all(board[p] == position.player[p] - position.opponent[other_side(p)] for p in POINTS)
    assert Position.from_board26(turned) == position.swap()
    assert position.swap().swap() == position and position.swap().pips() == position.pips()[::-1]
    assert shared_point(position.player, position.opponent) == 0


# --- contact between the sides: bgcli.core.position (is_contact, back_point) ---------------

# the two back checkers' points added and held against 24 or 25 ('back + other > 24', 'mine + theirs >= 25'), or a
# module's own test of contact ('def is_contact'): it lived in bgcli.analysis.counts, above the core, and a data
# script kept its own copy
CONTACT_AGAIN = re.compile(r"\b\w+\s*\+\s*\w+\s*(?:>\s*24|>=\s*25)(?![\d.])|^\s*def \w*contact\w*\(", re.M)
OWNER_OF_CONTACT = "bgcli/core/position.py"


def scripts() -> dict[str, str]:
    """The benchmarks and the scripts that made the test data: they import bgcli and ask its owners too."""
    paths = [*(ROOT / "benchmarks").rglob("*.py"), *(ROOT / "tests" / "data").rglob("*.py")]
    return {str(path.relative_to(ROOT)): path.read_text(encoding="utf-8") for path in sorted(paths)}


def test_no_module_or_script_decides_contact_again():
    texts = {name: code(text) for name, text in {**sources(), **scripts()}.items() if name != OWNER_OF_CONTACT}
    again = found(CONTACT_AGAIN, texts)
    assert not again, f"ask bgcli.core.position.is_contact: {again}"


def test_the_contact_check_sees_a_copy():
    copies = {"m.py": ("x = back + other > 24\ny = mine + theirs >= 25\ndef is_contact(p):\n    def _contact(p):\n"
                       "ok = is_contact(p)\nn = a + b > 245\nm = a + b >= 25.5\n")}
    assert [hit.split(":")[1] for hit in found(CONTACT_AGAIN, copies)] == ["1", "2", "3", "4"]


# --- the board after a play inside GNU Backgammon: bgcli/engines/gnubg_driver.py (after_play) ---------------

# a blot hit on gnubg's board of two 25-slot halves ('if opp[24 - end] == 1'): the driver bgcli ships is the one copy
# a script run inside gnubg imports (it cannot import bgcli); five scripts that made test data and benchmarks held
# their own, two of them (the oracle's legal plays, the held-out extremes) whole functions alike
GNUBG_AFTER_AGAIN = re.compile(r"\bopp\[24 - \w+\] == 1")
OWNER_OF_GNUBG_AFTER = "bgcli/engines/gnubg_driver.py"
# the corrupter's apply checks every step of a play a damaged file may hold (None for a bad one): not a copy
GNUBG_AFTER_LEFT = {"tests/data/oracle/tools/gnubg_corrupt.py"}


def test_no_script_run_inside_gnubg_applies_a_play_again():
    texts = {name: text for name, text in {**sources(), **scripts()}.items()
             if name != OWNER_OF_GNUBG_AFTER and name not in GNUBG_AFTER_LEFT}
    again = found(GNUBG_AFTER_AGAIN, texts)
    assert not again, f"import after_play from bgcli/engines/gnubg_driver.py: {again}"
    assert all(found(GNUBG_AFTER_AGAIN, {name: scripts()[name]}) for name in GNUBG_AFTER_LEFT), "a copy left is gone"


def test_the_gnubg_after_check_sees_a_copy():
    copies = {"m.py": "            if opp[24 - t] == 1:\nif opp[24 - end] == 1:\nok = after_play(b, s)\nx = opp[23 - i] == 0\n"}
    assert [hit.split(":")[1] for hit in found(GNUBG_AFTER_AGAIN, copies)] == ["1", "2"]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(any_positions())
def test_contact_is_a_checker_that_must_still_pass_one(position):
    """is_contact against the rule said plainly: some checker of the player on roll stands beyond (further from
    its home than) some opponent checker, seen from the player's side; the position's class asks it."""
    from bgcli.analysis.counts import PositionClass, position_class
    from bgcli.core.position import BAR, POINTS, back_point, is_contact, other_side

    slots = [*POINTS, BAR]
    plainly = any(position.player[p] and position.opponent[q] and p > other_side(q) for p in slots for q in slots)
    assert is_contact(position) == is_contact(position.swap()) == plainly
    assert all(back_point(side) == max([p for p in slots if side[p]], default=0)
               for side in (position.player, position.opponent))
    assert (position_class(position) is PositionClass.CONTACT) == (plainly and not position.is_over())


# --- the home board and a die's faces by their numbers: bgcli.core.position (HOME, HOME_BOARD, HOME_BOARD_SLOTS,
# OUTSIDE_HOME, in_home; FACES, ORDERED_ROLLS) ----------------------------------------------------------------

# the home board written as numbers: a slice or a range of its points or of the points outside it ('side[7:26]',
# 'side[1:7]', 'range(19, 25)', 'range(7, 25)', 'range(6, 0, -1)'), a point held against 6 or 7 ('p > 6',
# 'point <= 6', '7 <= start') or a distance from the 6-point ('(p - 6)')
HOME_AGAIN = re.compile(r"\[(?:1:7|:7|7:2[56]|19:2[56])\]"
                        r"|range\(\s*(?:7|19)\s*,\s*2[56]\s*\)|range\(\s*(?:24\s*,\s*18|6\s*,\s*0)\s*,\s*-1\s*\)"
                        r"|\b(?:p|q|s|t|point|start|end|highest|back|furthest)\s*(?:<=\s*6|<\s*7|>\s*6|>=\s*7)(?![\d.])"
                        r"|(?<![-\w])[67]\s*(?:>=|<|<=|>)\s*(?:p|q|s|t|point|start|end|highest)\b"
                        r"|\(\s*(?:p|point|q)\s*-\s*6\s*\)")
# a die's faces written as numbers ('range(1, 7)' is a die's faces or the home board: either has its owner),
# a die tested against them by hand ('1 <= die <= 6')
FACES_AGAIN = re.compile(r"range\(\s*1\s*,\s*7\s*\)|\b1\s*<=\s*(?:die|d|a|b|first|second|high|low|face)\s*<=\s*6\b")
# the copies left, by file, and why: each file may hold at most this many (a new copy fails; one taken off
# passes, so that its owner's landing is not held up: lower the number when you see it lower). None left: the dice
# tally's race arithmetic and the hitting walk's bear-off test ask HOME_BOARD, OUTSIDE_HOME, HOME and FACES
HOME_AND_FACES_LEFT: dict[str, int] = {}


def home_and_faces_copies(texts: dict[str, str]) -> dict[str, list[str]]:
    """Each module's copies of the home board's or a die's numbers (comments and plain strings left out)."""
    copies: dict[str, list[str]] = {}
    for name, text in texts.items():
        hits = found(HOME_AGAIN, {name: code(text)}) + found(FACES_AGAIN, {name: code(text)})
        if hits:
            copies[name] = hits
    return copies


def test_no_module_but_the_owner_writes_the_home_board_or_a_die_as_numbers():
    copies = home_and_faces_copies({name: text for name, text in sources().items() if name != OWNER_OF_GEOMETRY})
    again = [hit for name, hits in copies.items() if len(hits) > HOME_AND_FACES_LEFT.get(name, 0) for hit in hits]
    assert not again, ("ask bgcli.core.position (HOME, HOME_BOARD, HOME_BOARD_SLOTS, OUTSIDE_HOME, in_home; "
                       f"FACES, ORDERED_ROLLS, ROLLS): {again}")


def test_the_home_and_faces_check_sees_a_copy():
    copies = {"m.py": ("if any(player[7:26]):\nh = {q for q in range(19, 25)}\nc = tuple(side[1:7])\n"
                       "if p > 6:\nn = -(-(p - 6) // a)\nfor d in range(1, 7):\nok = 1 <= die <= 6\n"
                       "top = (range(6, 0, -1), range(7, 25))\nif 7 <= start:\n"
                       "fine = side[OUTSIDE_HOME], side[:26], range(24, 0, -1), -6 <= end, left <= 6, x[1:25]\n"
                       '"""points 1..6: side[1:7]"""  # range(1, 7)\n')}
    hits = home_and_faces_copies(copies)["m.py"]
    assert sorted(int(hit.split(":")[1]) for hit in hits) == [1, 2, 3, 4, 5, 6, 7, 8, 8, 9]


# the 36 throws of two dice written as a number in a chance's arithmetic ('/ 36', '/ 36.0', '* 36', '< 36', '36 -'):
# ask bgcli.core.position.ALL_THROWS (and throws, ORDERED_ROLLS)
THROWS_NUMBER_AGAIN = re.compile(r"(?<![\w.*])(?:/=?\s*36(?:\.0)?|36(?:\.0)?\s*-|[<>]=?\s*36(?:\.0)?|\*\s*36(?:\.0)?)(?![\w.*])")
# the copies left, by file (at most this many; one taken off passes). None left: the dice tally's chances
# (bearoff_count, _chances_of) and the dice statistics' chances ask ALL_THROWS
THROWS_NUMBER_LEFT: dict[str, int] = {}


def test_no_module_but_the_owner_writes_the_36_throws_as_a_number():
    texts = {name: code(text) for name, text in sources().items() if name != OWNER_OF_ROLLS}
    again = [hit for name, text in texts.items() for hits in [found(THROWS_NUMBER_AGAIN, {name: text})]
             if len(hits) > THROWS_NUMBER_LEFT.get(name, 0) for hit in hits]
    assert not again, f"ask bgcli.core.position.ALL_THROWS: {again}"


def test_the_throws_number_check_sees_a_copy():
    copies = {"m.py": ("p = total / 36.0\nt /= 36.0\nn = round(d * 36)\nif c < 36:\nk = 36 - h * h\n"
                       "ok = x / ALL_THROWS, _zeros(36), 1296, x / 360, 2 ** 36, b'36'\n"
                       'w = "of 36"  # / 36\n')}
    hits = found(THROWS_NUMBER_AGAIN, {n: code(t) for n, t in copies.items()})
    assert [hit.split(":")[1] for hit in hits] == ["1", "2", "3", "4", "5"]


def test_the_home_board_and_the_faces_are_the_rules_numbers():
    from bgcli.core.position import (ALL_THROWS, BAR, FACES, HOME, HOME_BOARD, HOME_BOARD_SLOTS, KINDS_OF_ROLL, OFF,
                                     ORDERED_ROLLS, OUTSIDE_HOME, POINTS, ROLLS, in_home, throws)

    slots = list(range(26))
    assert list(FACES) == [1, 2, 3, 4, 5, 6] and HOME == max(FACES) and list(HOME_BOARD) == slots[HOME_BOARD_SLOTS]
    assert slots[HOME_BOARD_SLOTS] + slots[OUTSIDE_HOME] == [*POINTS, BAR] and not in_home(HOME + 1) and in_home(OFF)
    assert len(set(ORDERED_ROLLS)) == ALL_THROWS == 36 == sum(map(throws, KINDS_OF_ROLL))
    assert sorted(set(ROLLS[roll] for roll in ORDERED_ROLLS)) == list(KINDS_OF_ROLL)
    assert all(ORDERED_ROLLS.count(kind) + ORDERED_ROLLS.count(kind[::-1]) - (kind[0] == kind[1]) == throws(kind)
               for kind in KINDS_OF_ROLL)


# --- what a command says as a signal ends it: bgcli.errors (INTERRUPTED, TERMINATED) -------

SIGNAL_WORDS_AGAIN = re.compile(r"""["']Error: (?:interrupted|terminated)""")
OWNER_OF_EXIT_WORDS = "bgcli/errors.py"


# --- a state's centred cube: bgcli.core.state.MatchState.centred ---

# a match state's cube owner held against -1 or below 0 by hand ('m.cube_owner < 0', 'state.cube_owner == -1'); a
# record's set-up may hold no owner at all (None), and is left out: set_up.cube_owner, self.cube_owner in a record
CENTRED_AGAIN = re.compile(r"\b(?!set_up\b|self\b)\w+\.cube_owner\s*(?:<\s*0|[=!]=\s*-1)")


# --- the word for a game with no result: bgcli.core.kinds.UNFINISHED (it stood in six places) ---

UNFINISHED_AGAIN = re.compile(r"""["']unfinished["']""")
OWNER_OF_UNFINISHED = "bgcli/core/kinds.py"


# --- each copy check above, with its owner: nothing outside the owner matches, and the check sees a copy ---

# what: (the copy's pattern, the owner's file, whom to ask instead)
OWNED = {
    "a position id's text": (POSITION_ID_AGAIN, OWNER_OF_POSITION_ID, "bgcli.core.position (id_text, id_of_halves)"),
    "a cube error's name": (VERDICT_AGAIN, OWNER_OF_VERDICTS, "bgcli.judging.rating (DecisionKind.verdict)"),
    "a cube line": (CUBE_LINE_AGAIN, OWNER_OF_CUBE_LINES, "bgcli.core.cube.Line (str() or .word)"),
    "the Crawford score": (CRAWFORD_AGAIN, OWNER_OF_CRAWFORD, "bgcli.core.rules (one_away, crawford_game)"),
    "one away in points left": (ONE_AWAY_LEFT_AGAIN, OWNER_OF_CRAWFORD, "bgcli.core.rules.one_away_left "
                                "(bgcli.engines.met.MatchSide.post_crawford)"),
    "the points a side still needs": (AWAY_AGAIN, OWNER_OF_CRAWFORD, "bgcli.core.rules.points_away"),
    "a centred cube": (CENTRED_AGAIN, "bgcli/core/state.py", "MatchState.centred (CubeState.centred)"),
    "the words of a signal": (SIGNAL_WORDS_AGAIN, OWNER_OF_EXIT_WORDS,
                              "bgcli.errors (INTERRUPTED, TERMINATED; bgcli.cli.common.end_interrupted)"),
    "the word for a game with no result": (UNFINISHED_AGAIN, OWNER_OF_UNFINISHED, "bgcli.core.kinds.UNFINISHED"),
}
# what: a module with copies, and the lines the check must see
SEEN = {
    "a position id's text": ('pid = b2a_base64((a | b << n).to_bytes(10, "little"), newline=False)[:14].decode()\n'
                             'ok = id_text(bits)\nq = block.to_bytes(12, "little")\n', ["1", "1"]),
    "a cube error's name": ('v = {"no double": "missed double", "take": "wrong take"}[kind]\n'
                            'ok = DecisionKind(kind).verdict\n', ["1", "1"]),
    "a cube line": ('NO_DOUBLE = "no double"\nname = "Double, pass"\nok = Line.DOUBLE_TAKE.word\n', ["1", "2"]),
    "the Crawford score": ("c = bool(n) and n.length - 1 in m.score\nif crawford and length - 1 not in (a, b):\n"
                           "x = max(s) == rules.match_length - 1\nok = one_away(length, score)\ny = length - 1\n",
                           ["1", "2", "3"]),
    "one away in points left": ("done = crawford or min(away) == 1\npost = min(self.away, self.opponent_away) == 1\n"
                                "if 1 in (away, opponent_away):\nok = one_away_left(away)\ndmp = away == 1 and x\n",
                                ["1", "2", "3"]),
    "the points a side still needs": ("a = rules.match_length - score[side] if rules.match_length else 0\n"
                                      "b = (length - score[0], length - s.score [1])\nok = points_away(length, score, side)\n"
                                      "c = length - 1\n", ["1", "2", "2"]),
    "a centred cube": ("if m.cube_owner < 0:\nc = state.match.cube_owner == -1\nok = m.centred\nx = owner == -1\n",
                       ["1", "2"]),
    "the words of a signal": ('say("Error: interrupted", err=True)\nsys.stderr.write("Error: terminated\\n")\n'
                              'say(INTERRUPTED)\n', ["1", "2"]),
    "the word for a game with no result": ('r = "unfinished"\nsay(f"{\'unfinished\':<12}")\nok = UNFINISHED\n',
                                           ["1", "2"]),
}


@pytest.mark.parametrize("what", sorted(OWNED))
def test_no_module_but_the_owner_writes_it(what):
    pattern, owner, ask = OWNED[what]
    again = found(pattern, {name: text for name, text in sources().items() if name != owner})
    assert not again, f"{what}: ask {ask}: {again}"


@pytest.mark.parametrize("what", sorted(OWNED))
def test_the_check_sees_a_copy(what):
    sample, lines = SEEN[what]
    assert [hit.split(":")[1] for hit in found(OWNED[what][0], {"m.py": sample})] == lines
