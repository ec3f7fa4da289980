"""GNU Backgammon's ``export match text`` in every language gnubg writes it.

gnubg translates its text export into the language it runs in: the score
line, ``Zug Nr. 1:``, ``*.NAME zieht 8/5 6/5``, ``NAME gagne 1 point``, the
match information's fields (``Date\u00a0: ...`` with a no-break space in
French), the Position ID's label; each translation in part only (a Turkish
gnubg writes the English score line, then ``* NAME 24/23 13/11 oynuyor``).
tests/data/real/gnubg-text-localized/ holds gnubg 1.07.001's export of one
game of a self-play match in thirteen languages (made by make_localized.py in
that folder, gzip-compressed to keep them small): each must read as the
English one does, with the same plays, cube actions, result and match
information, and audit clean. bgcli refused all but the English, Greek,
Turkish and Icelandic ones ('not a match file'), and called the Turkish plays
and the Icelandic take unreadable actions.
"""
from __future__ import annotations

import gzip
import io
import random
import re
from pathlib import Path

import pytest

from bgcli.errors import MatchFileError
from bgcli.formats import gnubgtext, gnubgwords, registry
from bgcli.formats.files import replay_file

FOLDER = Path(__file__).resolve().parent / "data" / "real" / "gnubg-text-localized"
LANGUAGES = sorted(path.name.split(".")[0] for path in FOLDER.glob("*.txt.gz"))


def text(language: str) -> bytes:
    return gzip.decompress((FOLDER / f"{language}.txt.gz").read_bytes())


def read(data: bytes) -> tuple:
    """The header, the game and the end the reader gives."""
    header, game, end = list(gnubgtext.read_stream(io.BytesIO(data), "-"))
    return header, game, end


def test_every_language_made_is_here():
    # English, and the twelve languages whose export gnubg 1.07.001 translates at least in part
    assert len(LANGUAGES) == 13 and "en_GB" in LANGUAGES


@pytest.mark.parametrize("language", [language for language in LANGUAGES if language != "en_GB"])
def test_habit_gnubg_text_export_in_another_language_reads_as_the_english_one(language):
    english_header, english, _ = read(text("en_GB"))
    header, game, end = read(text(language))
    assert end.errors == ()
    assert (game.number, game.players, game.scores, header.length) == \
        (english.number, english.players, english.scores, english_header.length) == (1, ("gnubg", "root"), (0, 0), 3)

    def did(record) -> list[tuple]:
        return [(a.side, a.kind, a.dice, a.play_text, a.points) for a in record.actions]

    assert did(game) == did(english)
    kinds = {a.kind.name for a in game.actions}
    assert kinds == {"MOVE", "DANCE", "DOUBLE", "TAKE", "DROP", "WIN"}
    # the match information: the date as the language writes it, every other field as the English one
    assert header.tags.pop("EventDate") and english_header.tags.pop("EventDate")
    assert header.tags == english_header.tags == {
        "Player 1 Elo": "1650", "Player 2 Elo": "1720", "Event": "Nordic Open", "Round": "Final",
        "Site": "Copenhagen", "Annotator": "Hunt", "Comment": "a comment"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_localized_export_is_known_by_its_first_line_and_audits_clean(tmp_path, language):
    path = tmp_path / f"{language}.txt"
    path.write_bytes(text(language))
    assert registry.choose(str(path), path.read_bytes()[:4096]).name == "gnubg-text"
    (game,) = list(replay_file(str(path)))
    assert game.problems == []
    (result,) = game.results
    assert (result.winner_side, result.result.value, result.points, result.score) == (1, "drop", 2, (0, 2))


@pytest.mark.parametrize("line", ["Der Spielstand (nach 1 Partie) ist: a b 1, c 0 (Match auf 5 Punkte)",
                                  "Le score (après 2 parties) est : a 1, c 1 (match en 5 points), Crawford game",
                                  "Skóre (po 1 hře) je: a 1, c 0 (zápas do 5 bodů)",
                                  "Счёт (после 1 игры): a 1, c 0 (встреча до 5 очков)",
                                  "Stillingen (efter 1 parti) er: a 1, c 0"])
def test_the_registry_knows_each_languages_score_line_in_its_bytes(line):
    """The registry matches the head in the file's UTF-8 bytes: a phrase's
    letters past ASCII must not stand in a character class (one byte each)."""
    assert registry.of_head(line.encode("utf-8") + b"\n").name == "gnubg-text"


def test_the_languages_phrases_hold_no_class_of_letters_past_ascii():
    for slot in gnubgwords.SLOTS:
        for phrase in gnubgwords.phrases(slot) if slot != "fields" else ():
            assert not re.search(r"\[[^]]*[^\x00-\x7f][^]]*\]", phrase), phrase


def test_a_language_bgcli_does_not_know_is_said_so(tmp_path):
    """A translation bgcli has no words for (gnubg's Greek, should a later
    gnubg translate the score line) is named as gnubg's text export, and the
    languages bgcli reads are listed, with where to turn."""
    english = text("en_GB").decode("utf-8").split("\n")
    path = tmp_path / "export.txt"
    path.write_text("\n".join(["Η βαθμολογία (μετά από 0 παιχνίδια) είναι: gnubg 0, root 0"] + english[1:]),
                    encoding="utf-8")
    with pytest.raises(MatchFileError, match=r"GNU Backgammon's 'export match text' whose first line is no score "
                                             r"line bgcli knows .*German.*Finnish.*\.mat or SGF"):
        list(replay_file(str(path)))


def test_the_registrys_sniff_is_every_languages_score_head():
    """The registry asks gnubgwords.SCORE_HEAD of every file's head: the
    phrases' literal beginnings first, then only the pattern of the phrase a
    head begins as. It says what one pattern of every language's score head
    says, on each export's first line cut at every length, with a byte
    changed, and on other text."""
    whole = re.compile((gnubgwords.either("score") + " ?: ").encode())
    firsts = [text(language).split(b"\n")[0] for language in LANGUAGES]
    firsts += [b"Scorul (dup\xc4\x83 1 joc) este: a 1, b 0", b"Le score (apr\xc3\xa8s 2 parties) est : a 1, b 1",
               b" 1 point match\n", b"; [Site \"x\"]", b"The score is 3", b"", b"\xef\xbb\xbfThe score (after 1 game) is: "]
    rng = random.Random(5)
    heads = []
    for first in firsts:
        heads += [first[:cut] for cut in range(len(first) + 1)]
        for _ in range(40):
            at = rng.randrange(max(len(first), 1))
            heads.append(first[:at] + bytes([rng.choice(first or b"x")]) + first[at + 1:])
    said = [(gnubgwords.SCORE_HEAD.match(head) is not None, whole.match(head) is not None) for head in heads]
    assert all(ours == one for ours, one in said)
    assert sum(one for _, one in said) > 100 and sum(not one for _, one in said) > 100


@pytest.mark.parametrize("phrase, start", [(r"The score \(after {n} games?\) is", "The score "),
                                           (r"Zug Nr\. {n}", "Zug Nr"), ("games?", "game"), ("{n} pisteen", ""),
                                           ("a|b", ""), (r"punt[oi]", "punt"), ("accepts", "accepts")])
def test_a_phrases_literal_start_is_what_all_it_matches_begins_with(phrase, start):
    assert gnubgwords.literal_start(phrase) == start
