"""The words of GNU Backgammon's ``export match text`` in every language gnubg
writes it: the one table the text export's reader (formats.gnubgtext) and the
registry's first-line test ask.

gnubg translates its text export into the language it runs in (``set lang``,
or the system's): the score line, ``Move number 1:``, ``* NAME moves 8/5 6/5``,
``NAME wins 1 point``, the match information's fields, the labels of the
Position ID and the Match ID. Each translation is partial and each phrase
left untranslated stays in English (a Japanese gnubg writes ``スコア (0
ゲーム後): ...`` but ``* NAME moves``; a Turkish one the English score line but
``* NAME 24/23 13/11 oynuyor``), and which ones are translated changes with
gnubg's version: so every phrase is read in English or in any language's words,
whatever the file's first line says. The words below are those gnubg 1.07.001
printed here (its text export of one self-play match in each language it ships,
tests/data/real/gnubg-text-localized/), written out by hand as observed: no
translation catalogue is read. gnubg's .mat and SGF are alike in every language.

Each phrase is a regular expression's text; a ``{play}``, ``{n}`` or ``{name}``
marks where the play, a number or a player's name stands. No character class
holds a letter past ASCII (``(?:ы|а)``, not ``[ыа]``): the registry matches the
score line's head in the file's UTF-8 bytes, where a class takes one byte.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any


class Words:
    """One language's phrases, as gnubg 1.07.001 printed them (only those it
    translates: the English ones are read in every file); a slot not given has
    none. A plain class, not a NamedTuple: the registry imports this module in
    every command that sniffs a file, and building a NamedTuple of 17 fields
    cost more than the rest of the module."""
    score: tuple[str, ...] = ()        # the score line's head, up to its colon; {n}: the games played
    length: tuple[str, ...] = ()       # inside the score line's parentheses; {n}: the match's length
    move_number: tuple[str, ...] = ()  # the heading of a decision, before its number's colon; {n}
    to_play: tuple[str, ...] = ()      # "NAME to play 64"
    mark: tuple[str, ...] = ()         # what starts the line of the action taken, for "* "
    moves: tuple[str, ...] = ()        # {play}
    cannot_move: tuple[str, ...] = ()
    doubles: tuple[str, ...] = ()
    accepts: tuple[str, ...] = ()
    rejects: tuple[str, ...] = ()
    resigns: tuple[str, ...] = ()      # (gnubg's text export of a resignation was not seen in another language)
    wins: tuple[str, ...] = ()         # after the winner's name; {n}: the points
    information: tuple[str, ...] = ()  # the heading of the match information
    fields: tuple[tuple[str, str], ...] = ()   # a field's name, and its English name
    rating: tuple[str, ...] = ()       # {name}: whose rating
    position_id: tuple[str, ...] = ()  # the label of the Position ID
    match_id: tuple[str, ...] = ()     # and of the Match ID
    crawford_game: tuple[str, ...] = ()   # after the score line's parentheses: this game is the Crawford game
    post_crawford: tuple[str, ...] = ()   # and: the Crawford game was played before this one

    def __init__(self, **slots: tuple[Any, ...]) -> None:
        if not _SLOTS.issuperset(slots):
            raise TypeError(f"no slot {', '.join(sorted(slots.keys() - _SLOTS))} in Words")
        self.__dict__.update(slots)


SLOTS = tuple(Words.__annotations__)   # the slots' names, in order
_SLOTS = frozenset(SLOTS)

ENGLISH = Words(
    score=(r"The score \(after {n} games?\) is",), length=(r"match to {n} points?",),
    move_number=(r"Move number {n}",), to_play=("to play",), mark=(r"\* ",),
    moves=("moves {play}",), cannot_move=("cannot move",), doubles=("doubles",), accepts=("accepts",),
    rejects=("rejects",), resigns=("resigns",), wins=(r"wins {n} points?",), information=("Match Information",),
    fields=(("Date", "Date"), ("Place", "Place"), ("Event", "Event"), ("Round", "Round"),
            ("Annotator", "Annotator"), ("Comments?", "Comments")),
    rating=("{name}'s rating",), position_id=("Position ID",), match_id=("Match ID",),
    crawford_game=("Crawford game",), post_crawford=("post-Crawford play",))

# by language, as gnubg 1.07.001 printed them (LC_ALL=de_DE.UTF-8 and so on)
LANGUAGES: dict[str, Words] = {
    "English": ENGLISH,
    "German": Words(
        score=(r"Der Spielstand \(nach {n} Partien?\) ist",), length=(r"Match auf {n} Punkte?",),
        move_number=(r"Zug Nr\. {n}",), mark=(r"\*\.",), moves=("zieht {play}",),
        cannot_move=("kann nicht ziehen",), accepts=("nimmt an",), rejects=("lehnt ab",),
        fields=(("Datum", "Date"), ("Ort", "Place"), ("Turnier", "Event"), ("Runde", "Round"),
                ("Kommentator", "Annotator"), ("Kommentare", "Comments")),
        rating=("{name}'s Rating",)),
    "French": Words(
        score=(r"Le score \(après {n} parties?\) est",), length=(r"match en {n} points?",),
        to_play=("doit jouer",), doubles=("double",), accepts=("accepte",), rejects=("refuse",),
        wins=(r"gagne {n} points?",), information=("Informations sur le match",),
        fields=(("Commentaires", "Comments"),), position_id=("ID de position",), match_id=("ID de match",)),
    "Spanish": Words(
        score=(r"El marcador \(después de {n} juegos?\) es",), length=(r"partida a {n} puntos?",),
        move_number=(r"Movimiento número {n}",), moves=("mueve {play}",), cannot_move=("no puede mover",),
        accepts=("acepta",), rejects=("rechaza",), wins=(r"gana {n} puntos?",),
        fields=(("Fecha", "Date"), ("Lugar", "Place"), ("Evento", "Event"), ("Ronda", "Round"),
                ("Anotador", "Annotator"), ("Comentarios", "Comments")),
        rating=("Calificación de {name}",), position_id=("ID de posición",), match_id=("ID de partida",)),
    "Italian": Words(
        score=(r"Il punteggio \(dopo {n} games?\) è",), length=(r"match a {n} punt[oi]",),
        move_number=(r"Mossa numero {n}",), moves=("mosse {play}",), cannot_move=("non può muovere",),
        accepts=("accetta",), rejects=("rifiuta",), wins=(r"vince {n} punt[oi]",),
        fields=(("Data", "Date"), ("Luogo", "Place"), ("Evento", "Event"), ("Turno", "Round"),
                ("Annotatore", "Annotator"), ("Commenti", "Comments")),
        rating=("rating di {name}",), position_id=("ID Posizione",), match_id=("ID Match",)),
    "Japanese": Words(
        score=(r"スコア \({n} ゲーム後\)",), accepts=("承認",), rejects=("拒否",),
        fields=(("場所", "Place"), ("注記", "Annotator"))),
    "Russian": Words(
        score=(r"Счёт \(после {n} игр(?:ы|а)?\)",), length=(r"встреча до {n} очк(?:а|ов)",),
        move_number=(r"Ход номер: {n}",), moves=("ходит {play}",), cannot_move=("не может ходить",),
        fields=(("Дата", "Date"), ("Комментарии", "Comments")), rating=("Рейтинг для {name}",)),
    "Czech": Words(
        score=(r"Skóre \(po {n} (?:hrách|hře|hrou)\) je",), length=(r"zápas do {n} bod(?:ů|y|u)?",),
        move_number=(r"Tah číslo {n}",), moves=("hraje {play}",), cannot_move=("nemůže táhnout",),
        accepts=("přijímá",), rejects=("odmítá",), wins=(r"vyhrává {n} bod(?:ů|y)?",),
        fields=(("Datum", "Date"), ("Místo", "Place"), ("Událost", "Event"), ("Kolo", "Round"),
                ("Komentátor", "Annotator"), ("Poznámky", "Comments")),
        rating=("Rating {name}",), position_id=("ID pozice",), match_id=("ID zápasu",)),
    "Danish": Words(
        score=(r"Stillingen \(efter {n} parti(?:er)?\) er",), length=(r"kamp til {n} point",),
        move_number=(r"Træk nummer {n}",), moves=("flytter {play}",), cannot_move=("kan har intet lovlige træk",),
        doubles=("dobler",), accepts=("accepterer",), rejects=("afslår",), wins=(r"vinder {n} point",),
        fields=(("Dato", "Date"), ("Sted", "Place"), ("Begivenhed", "Event"), ("Runde", "Round"),
                ("Notar", "Annotator"), ("Kommentarer", "Comments")),
        rating=("{name}s rating",), position_id=("Positions ID: ",), match_id=("MatchID",)),
    "Finnish": Words(
        score=(r"Tulos \({n} pelatun pelin\) on",), length=(r"{n} pisteen ottelu",),
        move_number=(r"Siirto numero {n}",), to_play=("heitti",), moves=("siirto {play}",),
        cannot_move=("ei voi suorittaa siirtoa",), doubles=("tuplasi",), accepts=("ottaa tuplauksen vastaan",),
        rejects=("ei ota vastaan",), wins=(r"voitti {n} pisteen", r"voitti pistein {n}"),
        information=("Ottelu informaatio",),
        fields=(("Päivä", "Date"), ("Paikka", "Place"), ("Tapahtuma", "Event"), ("Kierros", "Round"),
                ("Kirjuri", "Annotator"), ("Kommentit", "Comments")),
        rating=("{name} luokitus",), position_id=("Peliaseman ID",), match_id=("Ottelun ID",)),
    "Romanian": Words(
        score=(r"Scorul \(după {n} jocuri\) este", r"Scorul \(după {n} joc\) este"),
        length=(r"partidă la {n} puncte?",), move_number=(r"Mutare număr {n}",), moves=("mutări {play}",),
        cannot_move=("nu poate muta",), accepts=("acceptă",), rejects=("refuză",),
        fields=(("Data", "Date"), ("Locaţie", "Place"), ("Eveniment", "Event"), ("Rundă", "Round"),
                ("Adnotator", "Annotator"), ("Comentarii", "Comments")),
        rating=("punctajul lui {name}",)),
    "Turkish": Words(moves=("{play} oynuyor",), cannot_move=("hamle yapamıyor",)),
    "Icelandic": Words(accepts=("þiggur",), rejects=("hafnar",)),
}


def phrases(slot: str) -> tuple[str, ...]:
    """Every language's phrases of one slot (a field of Words), English first,
    each once."""
    seen: dict[str, None] = {}
    for words in LANGUAGES.values():
        for phrase in getattr(words, slot):
            seen.setdefault(phrase)
    return tuple(seen)


def either(slot: str, number: str | None = None, **marks: str) -> str:
    """One regular expression's text that matches any language's phrase of
    ``slot``, its marks (``{play}``, ``{name}``) written as ``marks`` says. Its
    ``{n}`` is taken as the group ``number`` (the phrase's only number: a group
    named once, ahead of the alternatives, since a name may not be repeated)."""
    ahead = rf"(?=\D{{0,80}}?(?P<{number}>[0-9]{{1,9}}))" if number else ""
    return ahead + "(?:" + "|".join(_marked(phrase, **marks) for phrase in phrases(slot)) + ")"


def _marked(phrase: str, **marks: str) -> str:
    """A phrase as a regular expression's text: its {n} any number, its other marks as ``marks`` says."""
    return phrase.format(n="[0-9]{1,9}", **marks)


FIELDS = {name: english for words in LANGUAGES.values() for name, english in words.fields}


def field_names() -> str:
    """The match information's field names of every language, as one regular
    expression's alternatives, each in a group named by the field's English
    name (``Date``, ``Comments``): the group that matched (``lastgroup``, when
    the pattern has no group after it) names the field."""
    names: dict[str, list[str]] = {}
    for name, english in FIELDS.items():
        names.setdefault(english, []).append(name)
    return "(?:" + "|".join(f"(?P<{english}>{'|'.join(each)})" for english, each in names.items()) + ")"


def literal_start(phrase: str) -> str:
    """What every text the regular expression's text ``phrase`` matches
    begins with: its characters up to the first that is no plain literal (less
    one before a quantifier, which may drop or repeat it); ``""`` when the
    phrase's first alternative ends first (a ``|`` outside a group)."""
    for index, char in enumerate(phrase):
        if char == "|":
            return ""
        if char in _QUANTIFIERS:
            return phrase[:max(index - 1, 0)]
        if char in _SPECIAL:
            return phrase[:index]
    return phrase


_QUANTIFIERS = frozenset("*+?{")   # "{" is a {n} mark too: what stands before it is kept out either way
_SPECIAL = frozenset("\\.^$[]()|")


class ScoreHead:
    """The score line's head (up to its colon) in a file's first bytes, in any
    language's words: the registry knows gnubg's text export by it, whatever
    the file's name. Every command that reads a file asks it of each file's
    head, and most heads are no text export's: a head is first met with the
    phrases' literal beginnings (``The score ``, ``Der Spielstand ``), built on
    the first ask, and a phrase's pattern is compiled only for a head that
    begins as it does: a head matches one pattern of all the phrases where it
    matches one phrase's (tests/test_gnubg_text_languages.py compares them)."""

    def match(self, head: bytes, /) -> re.Match[bytes] | None:
        starts, phrases = _score_starts()
        if not head.startswith(starts):
            return None
        for start, phrase in zip(starts, phrases):
            found = _score_head(phrase).match(head) if head.startswith(start) else None
            if found:
                return found
        return None


@lru_cache(maxsize=1)
def _score_starts() -> tuple[tuple[bytes, ...], tuple[str, ...]]:
    """Each score phrase's literal beginning, in the file's bytes, and the phrases."""
    score = phrases("score")
    return tuple(literal_start(phrase).encode() for phrase in score), score


@lru_cache(maxsize=None)
def _score_head(phrase: str) -> re.Pattern[bytes]:
    # in the file's bytes: a phrase holds no class of letters past ASCII (the module's docstring)
    return re.compile((_marked(phrase) + " ?: ").encode())


SCORE_HEAD = ScoreHead()
