"""GNU Backgammon's ``export match text`` read as the match it records:
gnubg's export of two Backgammon Galaxy matches gives the plays, the cube
and the results of Galaxy's own .mat files of them."""
from __future__ import annotations

from pathlib import Path

import pytest

from bgcli.errors import MatchFileError
from bgcli.formats import gnubgtext
from bgcli.formats.files import replay_file, sniff
from bgcli.match.records import ActionKind

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"
EXPORTS = CORPUS / "gnubg-text-export"
# gnubg writes one file per game: match1004950.txt is game 1, _002 game 2, ...
GAMES = {"match1004950": ["match1004950.txt", "match1004950_002.txt", "match1004950_003.txt", "match1004950_004.txt"],
         "match956620": ["match956620.txt"]}


def actions(replay, game: int | None = None) -> list[tuple]:
    """Who did what: every play, double, take and drop (the result is compared apart)."""
    return [(e.player, e.kind.value, e.dice, e.play) for e in replay.events
            if e.kind.value in ("move", "double", "take", "drop") and game in (None, e.game)]


@pytest.mark.parametrize("match", sorted(GAMES))
def test_the_text_export_replays_as_the_galaxy_file_it_was_made_from(match):
    (galaxy,) = list(replay_file(str(CORPUS / "galaxy" / f"{match}.txt")))
    for number, name in enumerate(GAMES[match], 1):
        (game,) = list(replay_file(str(EXPORTS / name)))
        assert game.problems == []
        (result,) = game.results
        assert result.game == number
        expected = galaxy.results[number - 1]
        assert (result.winner, result.result) == (expected.winner, expected.result)
        # gnubg writes what the game is worth; Galaxy's habit of the points needed is read as that too
        assert dict(zip(game.players, result.score)) == dict(zip(galaxy.players, expected.score))
        assert actions(game) == actions(galaxy, number)


def test_the_score_line_names_the_players_the_game_and_the_match():
    text = ("The score (after 2 games) is: Ann Lee 1, Bob 3 (match to 7 points)\n\nMatch Information:\n\n"
            "Date: 16/09/2023\nPlace: Somewhere\n\nMove number 1:  Bob to play 31\n\n* Bob moves 8/5 6/5\n\n"
            "Move number 2:  Ann Lee to play 62\n\n* Ann Lee resigns a gammon\n\n* Bob accepts\n\n"
            "Bob wins 2 points\n")
    header, game, end = list(gnubgtext.read_text(text, "t.txt"))
    assert (header.length, header.tags, header.whole) == (7, {"EventDate": "16/09/2023", "Site": "Somewhere"}, False)
    assert (game.number, game.players, game.scores) == (3, ("Ann Lee", "Bob"), (1, 3))
    assert [(a.line, a.side, a.kind, a.dice, a.play_text) for a in game.actions] == [
        (10, 1, ActionKind.MOVE, (3, 1), "8/5 6/5"), (14, 0, ActionKind.RESIGN, None, ""),
        (18, 1, ActionKind.WIN, None, "")]
    assert end.errors == ()


def test_a_money_session_and_an_unreadable_action():
    text = "The score (after 0 games) is: A 0, B 0\n\n* A moves 8/5 6/5\n\n* B sings\n"
    header, game, end = list(gnubgtext.read_text(text))
    assert header.length == 0
    assert [e.line for e in end.errors] == [3, 5]   # a play before any roll, and a verb gnubg never writes


def test_a_file_that_is_not_a_text_export_is_refused():
    with pytest.raises(MatchFileError, match="not GNU Backgammon's text export"):
        list(gnubgtext.read_text("hello\n"))


def test_a_text_export_is_known_by_its_first_line_whatever_its_name(tmp_path):
    path = tmp_path / "game.mat"
    path.write_bytes((EXPORTS / "match956620.txt").read_bytes())
    (replay,) = list(replay_file(str(path)))
    assert replay.problems == [] and replay.winner == "lasse"
    assert sniff(path) == "gnubg-text"   # a format of its own in the registry, known by its head


@pytest.mark.parametrize("info, expected", [
    # gnubg 1.07 (real: its export of a Backgammon Studio match, lassehjorthmadsen/bglab data-raw/Llabba/analyzed):
    # each .mat tag its import kept no field for, one a line, in "Comments:"
    ('Comments: [ClockType "Speed 168/6"]\n[Variation "Backgammon"]\n',
     {"ClockType": "Speed 168/6", "Variation": "Backgammon"}),
    ("Comments: played at the club\non a Tuesday\n", {"Comment": "played at the club\non a Tuesday"}),
    # gnubg before 1.0 wrote every field, "n/a" for one the match lacks
    ("Event: n/a\nRound: n/a\nAnnotator: n/a\nComments: n/a\n", {}),
])
def test_habit_gnubg_match_information_comments_are_kept(info, expected):
    """The match's comment is kept (it was dropped, and the fields after it
    with it): gnubg's packing of a .mat file's other tags is read back as
    those tags, so an export to .mat writes them as the .mat file had them."""
    text = (EXPORTS / "match956620.txt").read_text(encoding="utf-8")
    assert "Place: BackgammonGalaxy\n" in text
    text = text.replace("Place: BackgammonGalaxy\n", "Place: BackgammonGalaxy\n" + info, 1)
    header = next(iter(gnubgtext.read_text(text, "match956620.txt")))
    assert header.tags == {"EventDate": "16/09/2023", "Site": "BackgammonGalaxy", **expected}


def test_habit_gnubg_ratings_come_first_and_are_the_elo_tags():
    """gnubg writes the players' ratings first (``leos's rating: 1600``, as
    gnubg 1.07 exports a match loaded from an SGF with WR/BR): they are the
    tags Player 1 Elo and Player 2 Elo, which the SGF export writes as WR/BR
    again, and the fields after them are still read (they were all lost)."""
    text = (EXPORTS / "match956620.txt").read_text(encoding="utf-8")
    assert "Match Information:\nDate:" in text
    text = text.replace("Match Information:\n", "Match Information:\nleos's rating: 1600\nlasse's rating: n/a\n", 1)
    header = next(iter(gnubgtext.read_text(text, "match956620.txt")))
    assert header.tags == {"Player 1 Elo": "1600", "EventDate": "16/09/2023", "Site": "BackgammonGalaxy"}


@pytest.mark.parametrize("page_break", ["\f", "\f\n", "\f\r\n", "\n\f", " \f"],
                         ids=["before-the-line", "on-its-own-line", "own-crlf-line", "blank-line-then", "after-a-blank"])
def test_habit_a_form_feed_is_a_page_break(page_break):
    """A printed or paginated export starts each page with a form feed, before
    a line or on a line alone: a page break, as the .mat reader reads one
    (reading.page_breaks_as_blanks); the text export's lines are read from
    column 0, so the page's line starts after it. Before, each 'Move number'
    line after one was lost with its play, and a form feed shifted the line
    numbers (str.splitlines splits on it)."""
    import io
    import re

    plain = (EXPORTS / "match1004950.txt").read_text(encoding="utf-8")
    paged = re.sub(r"(?m)^(?=Move number|.* wins [0-9]+ point)", lambda _: page_break, plain)
    assert paged.count("\f") >= 20

    def read(text: str, whole: bool) -> list:
        parts = gnubgtext.read_text(text) if whole else gnubgtext.read_stream(io.BytesIO(text.encode("utf-8")))
        header, game, end = list(parts)
        return [(a.side, a.kind, a.dice, a.play_text, a.points) for a in game.actions], end.errors, game.players

    for whole in (True, False):   # a text, and a file read line by line
        assert read(paged, whole) == read(plain, whole) and read(plain, whole)[0]
    if "\n" not in page_break:   # no line added: every action is at its line
        (_, game, _) = list(gnubgtext.read_text(paged))
        (_, clean, _) = list(gnubgtext.read_text(plain))
        assert [a.line for a in game.actions] == [a.line for a in clean.actions]
