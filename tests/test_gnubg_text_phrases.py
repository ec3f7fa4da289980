"""Every phrase of every language in the table of gnubg's words
(formats.gnubgwords) is read by the text export's reader, where it stands
in a line: the reader's patterns are derived from the table (one pattern of
every language's phrases of a kind), so a phrase left out of one, or read
as another kind, fails here. gnubg's exports of one game in 13 languages
(test_gnubg_text_languages) hold all phrases but three (Romanian's
singular score line ``Scorul (după 1 joc) este``, Finnish's ``voitti N
pisteen`` and ``resigns``, which no export printed); this holds each of them,
with every form its pattern allows (``games?``, ``(?:ы|а)?``, ``punt[oi]``),
the rest of the file in English.
"""
from __future__ import annotations

import re

import pytest

from bgcli.core.position import Position
from bgcli.core.rules import Variation
from bgcli.formats import gnubgtext, gnubgwords
from bgcli.match.records import ActionKind

SCORE = "The score (after 0 games) is: ann 0, bob 0 (match to 3 points)"
MARKS = {"n": "2", "play": "8/5 6/5", "name": "ann"}
NACKGAMMON = Position.start(Variation.NACKGAMMON).id()


def forms(phrase: str) -> list[str]:
    """Every text a phrase's regular expression matches, as far as the
    table's constructs go (literals, escapes, ``x?``, ``(?:a|b)``, ``[ab]``),
    its marks written as MARKS says; a construct it does not know fails."""
    def branches(at: int) -> tuple[list[str], int]:
        found, texts = [], [""]
        while at < len(phrase) and phrase[at] != ")":
            if phrase[at] == "|":
                found, texts, at = found + texts, [""], at + 1
                continue
            atom, at = atom_at(at)
            if phrase[at:at + 1] == "?":
                atom, at = atom + [""], at + 1
            texts = [text + more for text in texts for more in atom]
        return found + texts, at

    def atom_at(at: int) -> tuple[list[str], int]:
        char = phrase[at]
        if char == "\\":
            return [phrase[at + 1]], at + 2
        if char == "(":
            assert phrase.startswith("(?:", at), phrase
            inner, at = branches(at + 3)
            return inner, at + 1
        if char == "[":
            end = phrase.index("]", at)
            return list(phrase[at + 1:end]), end + 1
        if char == "{":
            end = phrase.index("}", at)
            return [MARKS[phrase[at + 1:end]]], end + 1
        assert char not in ".*+^$|)", f"a construct forms() does not know in {phrase!r}"
        return [char], at + 1

    texts, at = branches(0)
    assert at == len(phrase), phrase
    pattern = re.compile(phrase.format(n="[0-9]+", play=".+", name="ann"))
    assert all(pattern.fullmatch(text) for text in texts), phrase
    return texts


def cases(slot: str) -> list[tuple[str, str]]:
    return [(phrase, form) for phrase in gnubgwords.phrases(slot) for form in forms(phrase)]


def read(*lines: str) -> tuple:
    header, game, end = list(gnubgtext.read_text("\n".join(lines) + "\n", "t.txt"))
    return header, game, end


def test_every_slot_is_tested_here():
    tested = {"score", "length", "move_number", "to_play", "mark", "wins", "information", "fields", "rating",
              "position_id", "match_id", "crawford_game", "post_crawford", *ACTIONS}
    assert tested == set(gnubgwords.SLOTS)


@pytest.mark.parametrize("phrase, form", cases("score"))
def test_each_score_line_is_read_and_known_by_the_registry(phrase, form):
    from bgcli.formats import registry

    line = f"{form}: ann 1, bob 0 (match to 5 points)"
    header, game, _ = read(line)
    assert (game.number, game.players, game.scores, header.length) == (3, ("ann", "bob"), (1, 0), 5)
    assert registry.of_head(line.encode() + b"\n").name == "gnubg-text"


@pytest.mark.parametrize("slot, phrase, form", [(slot, *case) for slot in ("crawford_game", "post_crawford")
                                                 for case in cases(slot)])
def test_each_crawford_note_after_the_score_line_is_read(slot, phrase, form):
    _, game, _ = read(f"The score (after 2 games) is: ann 4, bob 1 (match to 5 points), {form}")
    assert game.crawford is (slot == "crawford_game")
    _, game, _ = read("The score (after 2 games) is: ann 3, bob 1 (match to 5 points)")
    assert game.crawford is None


@pytest.mark.parametrize("phrase, form", cases("length"))
def test_each_match_length_is_read(phrase, form):
    header, _, _ = read(f"The score (after 0 games) is: ann 0, bob 0 ({form})")
    assert header.length == 2


@pytest.mark.parametrize("slot", ["move_number", "to_play", "mark"])
def test_each_heading_of_a_decision_and_mark_of_the_action_is_read(slot):
    for phrase, form in cases(slot):
        heading = {"move_number": f"{form}:  ann to play 31", "to_play": f"Move number 1:  ann {form} 31"}.get(
            slot, "Move number 1:  ann to play 31")
        action = f"{form}ann moves 8/5 6/5" if slot == "mark" else "* ann moves 8/5 6/5"
        _, game, end = read(SCORE, "", heading, "", action)
        assert end.errors == (), phrase
        assert [(a.kind, a.dice, a.play_text) for a in game.actions] == [(ActionKind.MOVE, (3, 1), "8/5 6/5")], phrase


ACTIONS = {"moves": ActionKind.MOVE, "cannot_move": ActionKind.DANCE, "doubles": ActionKind.DOUBLE,
           "accepts": ActionKind.TAKE, "rejects": ActionKind.DROP, "resigns": ActionKind.RESIGN}


@pytest.mark.parametrize("slot, phrase, form", [(slot, *case) for slot in ACTIONS for case in cases(slot)])
def test_each_action_is_read_as_its_kind(slot, phrase, form):
    _, game, end = read(SCORE, "", "Move number 1:  bob to play 31", "", f"* bob {form}")
    assert end.errors == ()
    play = "8/5 6/5" if slot == "moves" else ""
    assert [(a.side, a.kind, a.play_text) for a in game.actions] == [(1, ACTIONS[slot], play)]


@pytest.mark.parametrize("phrase, form", cases("wins"))
def test_each_result_line_is_read(phrase, form):
    _, game, _ = read(SCORE, "", f"bob {form}")
    assert [(a.side, a.kind, a.points) for a in game.actions] == [(1, ActionKind.WIN, 2)]


@pytest.mark.parametrize("phrase, form", cases("information"))
def test_each_heading_of_the_match_information_is_read(phrase, form):
    header, _, _ = read(SCORE, "", f"{form}:", "Round: Final")
    assert header.tags == {"Round": "Final"}


@pytest.mark.parametrize("name, english", sorted(gnubgwords.FIELDS.items()))
def test_each_field_of_the_match_information_is_read_as_its_english_field(name, english):
    tag = {"Place": "Site", "Date": "EventDate", "Comments": "Comment"}.get(english, english)
    for form in forms(name):
        header, _, _ = read(SCORE, "", "Match Information:", f"{form}: x y", "")
        assert header.tags == {tag: "x y"}, form


@pytest.mark.parametrize("phrase, form", cases("rating"))
def test_each_rating_line_is_read(phrase, form):
    header, _, _ = read(SCORE, "", "Match Information:", f"{form}: 1600")
    assert header.tags == {"Player 1 Elo": "1600"}


@pytest.mark.parametrize("phrase, form", cases("position_id"))
def test_each_label_of_the_position_id_is_read(phrase, form):
    # the board printed before the game's first play is read: a variant's opening says the variant
    header, _, _ = read(SCORE, "", "Move number 1:  ann to play 31", "", f" GNU Backgammon  {form}: {NACKGAMMON}")
    assert header.tags == {"Variation": Variation.NACKGAMMON.word}


@pytest.mark.parametrize("phrase, form", cases("match_id"))
def test_each_label_of_the_match_id_is_read(phrase, form):
    # a Match ID read is met with the cube the doubles before it made: only a cube set by hand shows it, so its
    # pattern is asked here
    found = gnubgtext._MATCH_ID.match(f"                 {form}: cIipABAAAAAE")
    assert found and found.group(1) == "cIipABAAAAAE"
