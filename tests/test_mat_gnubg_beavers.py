"""A money session's .mat that GNU Backgammon's 'export match mat' wrote (its header: the date and only the
tags gnubg writes, then ' 0 point match') with a beaver in it is read with the beaver rule on, as its SGF is
(test_sgf_gnubg_beavers.py): gnubg plays a beaver only where its rule allows it, but neither file writes the
rule. The sessions are gnubg 1.07's own (tests/data/gnubg-autodouble-scores, heldout-autodoubles: NOTE.md)."""
from __future__ import annotations

import pytest

from bgcli.core.rules import Rules
from bgcli.formats import mat, sgf
from bgcli.match.conventions import GNUBG_RACCOONS
from bgcli.match.records import Writer

from conftest import DATA, committed, invoke

SESSIONS = DATA / "gnubg-autodouble-scores"
HELDOUT = DATA / "heldout-autodoubles" / "dr44601_money.mat"
NAMES = sorted(path.stem for path in SESSIONS.glob("*.mat"))


def _mat(text: str):
    (record,) = list(mat.iter_matches(text.splitlines(), "t.mat"))
    return record


def _rules(tags: dict[str, str]) -> Rules:
    return Rules().with_tags(tags)


def test_gnubgs_mat_with_a_beaver_is_read_with_the_rule_on():
    record = _mat(committed(HELDOUT).read_text())
    assert record.writer is Writer.GNUBG
    rules = _rules(record.tags)
    assert rules.beavers and rules.raccoons == GNUBG_RACCOONS
    result = invoke("audit", committed(HELDOUT))
    assert result.exit_code == 0 and "no problems" in result.output, result.output


@pytest.mark.parametrize("name", NAMES)
def test_the_mat_and_the_sgf_gnubg_wrote_of_one_session_say_the_same_rule(name):
    (from_sgf,) = sgf.read_sgf(committed(SESSIONS / f"{name}.sgf").read_text())
    from_mat = _mat(committed(SESSIONS / f"{name}.mat").read_text())
    assert (_rules(from_mat.tags).beavers, _rules(from_mat.tags).raccoons) == \
        (_rules(from_sgf.tags).beavers, _rules(from_sgf.tags).raccoons) == (True, GNUBG_RACCOONS)


@pytest.mark.parametrize("change", [
    lambda text: text.replace(' 0 point match', '0 point match'),                          # not gnubg's header
    lambda text: text.replace('; [EventDate "2026.12.07"]', ''),                           # no date
    lambda text: text.replace('; [EventDate', '; [Player 1 "gnubg"]\n; [EventDate'),       # a tag gnubg drops
    lambda text: text.replace('; [EventDate', '; a comment\n; [EventDate'),
])
def test_a_mat_without_gnubgs_header_still_needs_its_rule(change):
    text = change(committed(HELDOUT).read_text())
    record = _mat(text)
    assert record.writer is None
    assert not _rules(record.tags).beavers


def test_gnubgs_mat_is_read_under_gnubgs_default_rule_of_beavers_from_its_head():
    """decided from the header and the first game, so that no game is held (a 10,000-game session in the
    memory of one: benchmarks/bench_memory.py --gnubg): gnubg's default, beaver or not in the session"""
    text = committed(HELDOUT).read_text()
    first_game = text[:text.index(" Game 2")]
    assert "Beavers" not in first_game
    record = _mat(first_game)
    assert record.writer is Writer.GNUBG
    assert record.tags == {"EventDate": "2026.12.07", "Beavers": "On", "Raccoons": str(GNUBG_RACCOONS)}


def test_a_written_rule_stands():
    text = committed(HELDOUT).read_text().replace('; [EventDate', '; [Beavers "Off"]\n; [EventDate')
    assert not _rules(_mat(text).tags).beavers


def test_a_beaver_after_a_thousand_games_is_gnubgs_too():
    # the reader held 1,000 games to find a beaver (362d4f6): one after them needed --beavers
    text = committed(HELDOUT).read_text()
    head, games = text[:text.index(" Game 1")], text[text.index(" Game 1"):]
    first = games[:games.index(" Game 2")]
    score_line = first.splitlines()[1]
    filler = "".join(first.replace(" Game 1", f" Game {n}", 1) for n in range(1, 1001))
    # every filler game is game 1 again, at 0-0: a money session's headers that restart (one warning)
    later = games.replace(" Game 1", " Game 1001", 1)
    for number in range(10, 1, -1):
        later = later.replace(f" Game {number}\n", f" Game {1000 + number}\n")
    from bgcli.match.replay import replay_parts
    from bgcli.match.visitor import ReplayBuilder

    parts = mat.iter_parts((head + filler + later).splitlines(), "t.mat")
    (replay,) = list(replay_parts(parts, lambda _: ReplayBuilder(keep_events=False)))
    assert len(replay.results) == 1010 and score_line
    assert replay.rules.beavers and not [p for p in replay.problems if "beaver" in p.message]


def test_bgclis_export_of_a_beaver_the_rules_refused_writes_the_rule_off():
    """bgcli's .mat export writes gnubg's layout: a beaver the rules did not allow is written with the rule,
    'Off', so that the file does not read back as gnubg's with the rule on (test_formats' round trip)."""
    from bgcli.formats.files import export, read_any

    text, _ = export(read_any(str(committed(DATA / "matchfiles" / "money_beaver.mat"))), "mat")
    assert '; [Beavers "Off"]' in text
    assert not _rules(_mat(text).tags).beavers
    # gnubg's session, read under gnubg's default rule, is written as gnubg writes it, which reads back so
    text, _ = export(read_any(str(committed(HELDOUT))), "mat")
    assert "Beavers" not in text.split(" 0 point match")[0]
    assert text == committed(HELDOUT).read_text()
    (again,) = mat.iter_matches(text.splitlines())
    assert _rules(again.tags).beavers and _rules(again.tags).raccoons == GNUBG_RACCOONS


def test_the_export_of_gnubgs_session_with_another_tag_writes_the_rule(tmp_path):
    from bgcli.formats.files import export, read_any

    path = tmp_path / "s.mat"
    path.write_text(committed(HELDOUT).read_text().replace('; [EventDate', '; [Player 1 "gnubg"]\n; [EventDate'))
    text, _ = export(read_any(str(path)), "mat", rules=Rules(beavers=True, raccoons=2))
    assert '; [Beavers "On"]' in text and '; [Raccoons "2"]' in text


HAND_MADE = DATA / "matchfiles" / "money_beaver.mat"


def test_a_hand_made_mat_in_gnubgs_layout_is_not_read_as_gnubgs():
    """A header is easy to copy: gnubg's own mark is in its rows too, the blank after a move of fewer than
    four steps at the end of a row (gnubg's FormatMovePlain, mat.gnubg_row), which a hand-typed file or one
    a text editor saved has not. money_beaver.mat (hand-made, gnubg's columns) with gnubg's date and header
    stays a file of no known writer: its beaver needs its rule."""
    text = '; [EventDate "2024.05.01"]\n\n' + committed(HAND_MADE).read_text()
    record = _mat(text)
    assert record.writer is None and not _rules(record.tags).beavers
    result = invoke("audit", "-", input=text)
    assert result.exit_code == 1 and "beavers are not allowed" in result.output, result.output


def test_gnubgs_own_mat_saved_by_an_editor_that_strips_trailing_blanks_is_not_gnubgs():
    text = "\n".join(line.rstrip() for line in committed(HELDOUT).read_text().splitlines())
    assert _mat(text).writer is None


def test_gnubgs_mark_in_one_row_of_the_first_game_is_enough():
    # a slip of one play (test_repair's planted rows) leaves gnubg's other rows as gnubg wrote them
    text = committed(HELDOUT).read_text()
    first_row = next(line for line in text.splitlines() if line.startswith("  1)"))
    assert _mat(text.replace(first_row, first_row.rstrip())).writer is Writer.GNUBG
