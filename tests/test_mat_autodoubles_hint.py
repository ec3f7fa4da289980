"""A money .mat GNU Backgammon exported from a session played with automatic doubles, read without a rule
of them: gnubg's .mat writes no such rule and writes each game begun with them as if none was made, so
its next game header is a score error (test_heldout_autodoubles_display.py). The error says, once a
match, that the file looks like that export and names the option that reads it
(bgcli.match.conventions.autodoubles_hint)."""
from __future__ import annotations

from bgcli.core.rules import Rules
from bgcli.formats.files import replay_file

from conftest import DATA, committed, invoke

SESSION = DATA / "heldout-autodoubles-display" / "dr45301_money.mat"


def _messages(rules: Rules | None = None) -> list[str]:
    (replay,) = list(replay_file(str(committed(SESSION)), rules))
    return [p.message for p in replay.problems]


def test_the_first_score_error_names_the_option_once():
    messages = _messages()
    assert len(messages) == 3
    assert "--auto-doubles N" in messages[0] and "GNU Backgammon's .mat export" in messages[0]
    assert "a cube of 2" in messages[0]
    assert not any("--auto-doubles" in message for message in messages[1:])   # once, not per game


def test_a_limit_too_low_is_said_with_the_doubles_the_game_needed():
    (message,) = _messages(Rules(auto_doubles=1))
    assert message.startswith("game 7 starts at 1025-9 but the games before give 257-9: ")
    assert "2 automatic doubles, more than the 1 these rules allow" in message and "(at least 2)" in message


def test_under_the_sessions_rule_no_hint_is_needed():
    assert _messages(Rules(auto_doubles=2)) == []


def test_no_hint_where_the_file_is_not_gnubgs():
    # another program's .mat (no gnubg header): a score slip is only a slip
    text = committed(SESSION).read_text().replace('; [EventDate "2026.12.07"]\n', "")
    (replay,) = list(replay_file_text(text))
    assert replay.problems and not any("--auto-doubles" in p.message for p in replay.problems)


def test_the_audit_prints_it(tmp_path):
    result = invoke("audit", committed(SESSION))
    assert result.exit_code == 1 and result.output.count("--auto-doubles N") == 1, result.output


def replay_file_text(text: str):
    from bgcli.formats import mat
    from bgcli.match.replay import replay_parts
    from bgcli.match.visitor import ReplayBuilder

    return replay_parts(mat.iter_parts(text.splitlines(), "t.mat"), lambda _: ReplayBuilder())
