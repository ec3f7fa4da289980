"""A money session gnubg saved with a beaver and raccoons in it: gnubg plays a beaver only where its rule
allows it ('set beavers N', on by default), but its SGF writes no rule of beavers; the redoubles it recorded
say the rule was on (tests/data/heldout-autodoubles: gnubg 1.07's own file, NOTE.md says how it was made)."""
from __future__ import annotations

from conftest import TESTS

from bgcli.core.rules import Rules
from bgcli.formats import sgf
from bgcli.match.conventions import GNUBG_RACCOONS

SESSION = TESTS / "data" / "heldout-autodoubles" / "dr44601_money.sgf"


def rules_of(text: str) -> Rules:
    record = sgf.read_sgf(text, str(SESSION))[0]
    return Rules(match_length=record.length).with_tags(record.tags)


def test_gnubgs_beavers_say_its_rule_was_on():
    rules = rules_of(SESSION.read_text())
    assert rules.beavers
    # a beaver and two raccoons at most in one double here; gnubg's default allows two raccoons
    assert rules.raccoons == GNUBG_RACCOONS


def test_another_programs_sgf_is_not_taken_at_gnubgs_word():
    text = SESSION.read_text().replace("AP[GNU Backgammon:1.07.001]", "AP[Other:1.0]")
    assert not rules_of(text).beavers


def test_the_audit_calls_no_beaver_of_gnubgs_wrong(tmp_path):
    from click.testing import CliRunner
    from bgcli.cli import cli

    result = CliRunner().invoke(cli, ["audit", str(SESSION)])
    assert "beavers are not allowed" not in result.output, result.output
    other = tmp_path / "other.sgf"
    other.write_text(SESSION.read_text().replace("AP[GNU Backgammon:1.07.001]", "AP[Other:1.0]"))
    result = CliRunner().invoke(cli, ["audit", str(other)])
    assert "beavers are not allowed (use --beavers)" in result.output, result.output


def test_a_raccoon_rule_the_file_writes_stands_and_a_bad_one_is_an_error_not_a_crash(tmp_path):
    from click.testing import CliRunner
    from bgcli.cli import cli

    text = SESSION.read_text().replace("RU[Jacoby]", "RU[Jacoby]XR[Raccoons=5]", 1)
    assert rules_of(text).raccoons == 5
    bad = tmp_path / "bad.sgf"
    bad.write_text(SESSION.read_text().replace("RU[Jacoby]", "RU[Jacoby]XR[Raccoons=abc]", 1))
    result = CliRunner().invoke(cli, ["audit", str(bad)])
    assert "internal error" not in result.output, result.output
    assert "tag [Raccoons 'abc'] is not a number" in result.output, result.output
