"""One owner per rule, held by reading the code: a constant, a spelling or a
kind that has an owner is not written again beside it (docs/layout.md). Each
check is shown to see a copy, so that it can fail."""
from __future__ import annotations

import re

from conftest import ROOT

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


# --- kinds are enums -----------------------------------------------------------------------

def test_a_positions_class_is_a_kind_written_as_its_word():
    from bgcli.analysis.counts import CLASSES, PositionClass, analyze
    from bgcli.core.position import Position

    found = analyze(Position.start(), bearoff=False)
    assert found.position_class is PositionClass.CONTACT
    assert found.to_dict()["class"] == "contact" and CLASSES == ("contact", "race", "bearoff", "over")
