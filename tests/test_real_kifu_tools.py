"""The .mat that hinacoppy's kifu tools write (bgKifuInputTool, bgKifuEditor,
GammonApp: web apps that record a live match position by position and write
it as a Jellyfish .mat, https://github.com/hinacoppy/bgKifuInputTool, MIT).

Their writer (``js/BgKifu_class.js``) heads a money session ``unlimited game``
where Jellyfish writes ``0 point match``, and writes a resignation in the
resigner's column with the kind resigned, ``Resign Single``, ``Resign
Gammon``, ``Resign BackGammon``, the winner's ``Wins N point`` on a numbered
row after it. bgcli called the first 'not part of a match' and each
resignation an unreadable row. The tools' other habits (cells 35 columns
wide, ``  10)`` pushing a row one column right, ``Cannot Move``, ``Bar/18``,
``1/Off(4)``, ``Wins N point and the match`` in a numbered row, the game's
XGIDs as comments after the match) were read already: the tools' own sample
matches audit clean (tests/data/real/PROVENANCE.md).
"""
from __future__ import annotations

from conftest import DATA

from bgcli.formats.files import replay_file
from bgcli.formats.mat import read_row
from bgcli.match.records import ActionKind

KIFU = DATA / "real" / "hinacoppy-kifu" / "money_session_unlimited_resign_kinds.txt"


def test_habit_kifu_tools_unlimited_game_and_resign_kinds_read_clean():
    (replay,) = list(replay_file(str(KIFU)))
    assert replay.problems == []
    assert replay.length == 0   # a money session
    assert [(r.winner, r.result.value, r.points) for r in replay.results] == [
        ("Poem", "resignation", 2), ("Poem", "resignation", 2), ("hinacoppy", "resignation", 3)]


def test_resign_with_its_kind_is_one_resignation_and_other_words_are_not():
    for kind in ("Single", "Gammon", "BackGammon", "gammon"):
        (action,) = read_row(f"  3)  Resign {kind}")
        assert action.kind is ActionKind.RESIGN
    # "Resigns" and "Resign" alone as before; a word that only starts like a kind is still no cell
    assert [a.kind for a in read_row("  3)  Resign")] == [ActionKind.RESIGN]
    try:
        read_row("  3)  Resign Gammons")
    except Exception as exc:   # a syntax error at its column, as any unreadable row
        assert "cannot read move row" in str(exc)
    else:
        raise AssertionError("'Resign Gammons' read as a resignation")
