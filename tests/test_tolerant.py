"""What GNU Backgammon 1.07's ``import mat`` reads and bgcli must not call
wrong: variants of a real gnubg self-play .mat that printed, paginated or
hand-edited copies have (each checked in gnubg 1.07: the match imports whole,
its games and moves as without the variant). docs/formats.md's habits table
lists them; the encodings and line ends are tests/test_encodings.py's.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SELFPLAY, committed, invoke
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.errors import MatchFileError
from bgcli.formats import mat, reading
from bgcli.formats.files import iter_records


def clean_match() -> str:
    """A clean gnubg self-play match of four games, its players ``gnubg`` and ``root``."""
    return committed(SELFPLAY / "sp05001_3pt.mat").read_text(encoding="utf-8")


def records(path: Path) -> list:
    return [(r.length, [(g.players, g.scores, [(a.kind, a.dice, a.play_text, a.cube, a.points) for a in g.actions])
                        for g in r.games], r.comments) for r in iter_records(path)]


def assert_reads_as_the_clean_match(tmp_path: Path, text: str) -> None:
    plain = tmp_path / "plain.mat"
    plain.write_text(clean_match(), encoding="utf-8")
    variant = tmp_path / "variant.mat"
    variant.write_bytes(text.encode("utf-8"))
    assert records(variant) == records(plain)
    result = invoke("audit", variant)
    assert result.exit_code == 0 and "no problems" in result.output, result.output


@pytest.mark.parametrize("page_break", ["\f", "\f\n", "\f\r\n", " \f", "\f\f\n  \f"],
                         ids=["before-game", "on-its-own-line", "own-crlf-line", "after-a-blank", "a-run"])
def test_habit_a_form_feed_before_game_n_is_a_page_break(tmp_path, page_break):
    """A printed or paginated export starts each page with a form feed,
    before 'Game N' or on a line alone: gnubg's import reads the match whole
    (checked in gnubg 1.07, a form feed before ' Game N' and a line of one:
    4 games, 147 moves, as without them); bgcli read every line after it as
    an error (38 on one file)."""
    text = re.sub(r"(?m)^(?= Game [0-9])", lambda _: page_break, clean_match())
    assert text.count("\f") == 4 * page_break.count("\f")
    assert_reads_as_the_clean_match(tmp_path, text)


def test_a_form_feed_after_a_lines_first_character_is_text():
    """Only the blanks a line starts with can be a page break: a form feed
    inside a line (a comment's, a name's) is the user's text, kept."""
    assert reading.page_breaks_as_blanks("\f Game 1") == "  Game 1"
    assert reading.page_breaks_as_blanks("\f") == " "
    assert reading.page_breaks_as_blanks("; a\fb \f") == "; a\fb \f"
    assert reading.page_breaks_as_blanks(" 1) 31: 8/5 6/5") == " 1) 31: 8/5 6/5"


def tabified(line: str) -> str:
    """``line`` as an editor saves it that turns runs of blanks into tabs
    (``unexpand -a``): a run of two blanks or more that reaches a tab stop,
    every 8 columns, is a tab."""
    out, run, column = [], 0, 0
    for char in line:
        column += 1
        if char == " ":
            run += 1
            if column % 8 == 0:
                out.append("\t" if run > 1 else " ")
                run = 0
        else:
            out.append(" " * run + char)
            run = 0
    return "".join(out) + " " * run


def test_habit_a_file_saved_with_tabs_for_blanks_keeps_its_columns(tmp_path):
    """A match saved by an editor that turns runs of blanks into tabs: a lone
    cell (the right player's first roll, a 'Wins' in the right column) stood
    in column 5 and was called the left player's ('moves out of turn', the
    score of the next game wrong). A tab reaches the next tab stop, every 8
    columns, as the editor shows it: the match reads as it was. (GNU
    Backgammon 1.07's import misreads such a file: 'Invalid move'.) A tag
    keeps its tabs: its text is the user's."""
    text = "\n".join(map(tabified, clean_match().split("\n")))
    assert text.count("\t") > 100 and re.search(r"(?m)^\s*1\)\t", text)
    assert_reads_as_the_clean_match(tmp_path, text)
    assert mat._laid_out("; [Event \"a\tb\"]") == "; [Event \"a\tb\"]"
    assert mat._laid_out("  1)\t\t 21: 13/11 6/5") == "  1)" + " " * 13 + "21: 13/11 6/5"


def test_habit_a_no_break_space_before_a_score_lines_colon_is_a_blank(tmp_path):
    """A score line whose names end in a no-break space (U+00A0, a name copied
    from a web page): gnubg's import reads the match whole (checked: 4 games,
    147 moves; it keeps the no-break space in the name, 'gnubg\\xa0'); bgcli
    called every score line a syntax error. It reads the names without it, as
    the same players' names are written without one."""
    text = re.sub(r"(?m)^ (gnubg) : ([0-9]+) +(root) : ([0-9]+)$",
                  lambda m: f" {m[1]}\u00a0: {m[2]}                      {m[3]}\u00a0: {m[4]}", clean_match())
    assert text.count("\u00a0") == 8
    assert_reads_as_the_clean_match(tmp_path, text)


_BLANK = st.sampled_from([" ", "\t", "\u00a0"])
_NAME_PART = st.sampled_from(["Alice", "Bob,1623", "Jean\u00a0Pierre", "a b", "", "Mr:X", "a: b:c", ":)", "x:", "Mr:3"])


@settings(deadline=None, max_examples=300)
@given(st.tuples(st.lists(_BLANK, max_size=3).map("".join), _NAME_PART, st.lists(_BLANK, max_size=3).map("".join),
                 st.integers(0, 99), _NAME_PART, st.lists(_BLANK, max_size=3).map("".join), st.integers(0, 99)))
def test_the_score_line_fast_and_grammar_agree(parts):
    """mat._SCORE_LINE is the grammar's score_line, fenced: on generated score
    lines (no-break spaces before, between and after the names) both read the
    same names and scores, or both refuse the line."""
    lead, left, before, left_score, right, before_right, right_score = parts
    line = f"{lead}{left}{before}: {left_score}   {right}{before_right}: {right_score}"
    fast = mat._SCORE_LINE.match(line)
    try:
        slow = mat._grammar_line("score_line", line, 1, "-", "score line")
    except MatchFileError:
        slow = None
    assert (None if fast is None else (fast[1], int(fast[2]), fast[3], int(fast[4]))) == slow, repr(line)
