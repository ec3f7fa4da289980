"""GNU Backgammon's ``export match text``: the board and the analysis of
every move, read as the match it records.

gnubg writes one file per game. Each begins with ``The score (after N
games) is: A 1, B 0 (match to 5 points)`` (a money session has no match
length); then come the match information, and for every decision a
``Move number K:  NAME to play 64`` block (or ``NAME on roll, cube
decision?``, ``NAME doubles to 2``) with a board, the action taken on a line
of its own (``* NAME moves 8/5* 6/5``, ``* NAME cannot move``, ``* NAME
doubles``, ``* NAME accepts``, ``* NAME rejects``, ``* NAME resigns ...``)
and gnubg's analysis, which is skipped; the game ends with ``NAME wins N
points``. The players' columns are the order of the score line.

The match information's ratings (``ann's rating: 1600``, first) are the
tags ``Player 1 Elo`` and ``Player 2 Elo``; its ``Comments:`` (lines up to the next blank) is the
match's comment, where gnubg's import keeps the .mat tags it has no field for,
one ``[ClockType "Speed 168/6"]`` a line: read back as those tags.

The registry knows such a file by its first line (gnubg names it .txt, as
the sites name their .mat exports), whatever its suffix. gnubg writes it in the
language it runs in, in part (``Der Spielstand (nach 0 Partie) ist: ...``,
``*.root zieht 8/5 6/5``): every phrase is read in English or in any language's
words, which formats.gnubgwords holds.
The file is one game of a match by design: the record says so
(``MatchHeader.whole`` False), so that its end is not a match cut short.
The score line's note says what the game is under the Crawford rule
(``, Crawford game``, ``, post-Crawford play``): a game read alone at a score
one away is no guess. A money game's automatic doubles have no line of their
own: the cube of the Match ID printed before the first play, centred above 1
on the opening board, is their trace (AUTO_DOUBLE actions, as the SGF
reader reads gnubg's root ``CV``).

gnubg prints the board's Position ID before every play, from the mover's
side, and its Match ID (the cube). A game whose board, cube or turn was set
by hand part-way (gnubg's 'set board', 'set cube', 'set turn'; its SGF says
so in a node of its own) has no record of the edit here, only the printed
IDs jumping: where the Position ID printed before a play is not where the
plays before it left the board, the side that played last plays again, or
the Match ID's cube is not the one the doubles before it made, that play
starts from a set-up (an action of kind SET_UP: what the printed IDs say,
the mover on roll), as the SGF reader reads gnubg's edit. Only a printed ID
says so: a jump with none (or one that is no ID) stays the replay's error.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import IO, Iterable, Iterator

from bgcli.core.cube import is_turned, turned
from bgcli.core.ids import parse_match_id
from bgcli.core.position import Position
from bgcli.core.rules import Variation
from bgcli.core.spelling import DIE_PATTERN, recorded_roll
from bgcli.errors import BgcliError, MatchFileError
from bgcli.formats import gnubgwords
from bgcli.formats.loggame import AUTO_DOUBLES, SITE_AUTO_DOUBLES
from bgcli.formats.mat import tag_of
from bgcli.formats.reading import LINE_END, page_breaks_as_blanks, text_lines, text_of
from bgcli.match.plays import judge_play
from bgcli.match.records import Action, ActionKind, GameRecord, MatchEnd, MatchHeader, MatchPart, SetUp, Writer
from bgcli.match.wording import AS_WRITTEN

# The first player's name ends at the first " N, " (taken in a lookahead, which is never re-entered, then
# matched again by reference: an atomic group Python 3.10 lacks), and so does the trailing ", Crawford
# game": else a line of many "a 1, " made the two lazy names try every split, in quadratic time (20 kB, 2 s).
# The words are any language's gnubg writes (formats.gnubgwords, the one table of them).
_N = "[0-9]{1,9}"
_SCORE = re.compile(rf"{gnubgwords.either('score', 'games')} ?: "
                    rf"(?=(?P<first>.+?) (?P<first_score>{_N}), )(?P=first) (?P=first_score), "
                    rf"(?P<second>.+?) (?P<second_score>{_N})(?: \({gnubgwords.either('length', 'length')}\))?"
                    r'(?=(?P<note>(?:, [\w "-]+)?))(?P=note)\s*$')
_MOVE_NUMBER = re.compile(rf"{gnubgwords.either('move_number')}: +(.+?) {gnubgwords.either('to_play')} "
                          rf"({DIE_PATTERN}{DIE_PATTERN})\s*$")
_WINS = re.compile(rf"(.+) {gnubgwords.either('wins', 'points')}(?P<match> and the match)?\s*$")
_MARK = re.compile(gnubgwords.either("mark") + r"(?! )")   # "*    2. Cubeful ..." marks the analysis's choice
_INFORMATION = re.compile(gnubgwords.either("information") + " ?:")
# the value taken whole and stripped after: a lazy value before \s*$ backtracks in quadratic time over a run of
# blanks (a 100 kB line took 44 s)
# French writes a no-break space before the colon ("Date\u00a0: 07/12/2026")
# the field is the English name of the group that matched (gnubgwords.field_names), the value what follows
_INFO = re.compile(rf"{gnubgwords.field_names()}[ \u00a0]*: *")
_TAGS = {"Place": "Site", "Date": "EventDate"}   # gnubg's words for the .mat tags
_NO_VALUE = "n/a"   # gnubg before 1.0 wrote every field, "Event: n/a" for one the match lacks
# the board before the play, mover's side: the label's words and what stands before them change with the language
# ("GNU Backgammon (Короткие нарды) Position ID:", "Table GNU       Position ID:", "Positions ID: :")
_POSITION_ID = re.compile(rf" ?\S.{{0,60}}?{gnubgwords.either('position_id')}(?: *:)+ *(\S+)\s*$")
_MATCH_ID = re.compile(rf" *{gnubgwords.either('match_id')} *: *(\S+)\s*$")   # under it: the cube's value and owner


def _rating(line: str, players: tuple[str, str]) -> tuple[int, str] | None:
    """The player whose rating ``line`` gives (gnubg has one from an SGF's
    WR/BR: the .mat tags "Player 1 Elo", "Player 2 Elo") and the rating; None
    for no rating line."""
    for side in sorted((0, 1), key=lambda s: -len(players[s])):   # the longer name first: one may begin with the other
        # a line without the name is none of its ratings: no pattern compiled for it (most of the information)
        found = _rating_line(players[side]).match(line) if players[side] in line else None
        if found:
            return side, line[found.end():].strip()
    return None


@lru_cache(maxsize=64)
def _rating_line(name: str) -> re.Pattern[str]:
    """The head of a rating line of the player ``name``, in any language's words."""
    return re.compile(gnubgwords.either("rating", name=re.escape(name)) + " *: *")


def read_stream(handle: IO[bytes], path: str = "-") -> Iterator[MatchPart]:
    """The registry's reader: the parts of a binary stream, read line by line."""
    return iter_parts(text_lines(handle, path), path)


def read_text(text: str, path: str = "-") -> Iterator[MatchPart]:
    # split on line ends only (reading.LINE_END): str.splitlines() also splits on a form feed, a page break
    # read as a blank, and would shift the line numbers of everything after it
    return iter_parts(LINE_END.split(text), path)


def iter_parts(lines: Iterable[str | bytes], path: str = "-") -> Iterator[MatchPart]:
    """A MatchHeader, the one GameRecord, a MatchEnd."""
    players: tuple[str, str] | None = None
    heads: tuple[str, ...] = ()   # each player's name and a blank: how a result line starts
    game_number, scores, game_line, length = 1, (0, 0), 1, 0
    tags: dict[str, str] = {}
    actions: list[Action] = []
    set_ups: list[SetUp] = []   # what each SET_UP action set: a board the printed Position ID jumps to
    dice: tuple[int, int] | None = None
    errors: list[MatchFileError] = []
    in_info = False
    comment: list[str] | None = None   # the lines of the match's comment, while it is read
    resigned = False       # an "accepts" or "rejects" next answers the resignation, not a double
    autos_written = False  # a money game's first Match ID was read: it says the automatic doubles played
    crawford: bool | None = None   # the score line says the game is the Crawford game (True) or after it (False)
    move = 0
    track = _Board()   # where the plays leave the board, to meet the Position ID printed before each play
    for number, raw in enumerate(lines, 1):
        line = text_of(raw) if isinstance(raw, bytes) else raw
        if number == 1:
            line = line.lstrip("\ufeff")
        line = line.rstrip("\r\n")
        # a printed or paginated export starts a page with a form feed: a page break, as every reader of lines
        # reads it (reading.page_breaks_as_blanks says where one is); the lines read here are at column 0, so
        # the line of the page starts after it
        paged = page_breaks_as_blanks(line)
        if paged != line:
            line = paged.lstrip(" \t")
        if players is None:
            found = _SCORE.match(line)
            if not found:
                if line.strip():
                    raise MatchFileError("not GNU Backgammon's text export: no 'The score (after N games)' line "
                                         "first", path, number, 1)
                continue
            game_number = int(found.group("games")) + 1
            players = (found.group("first"), found.group("second"))
            heads = (players[0] + " ", players[1] + " ")
            scores = (int(found.group("first_score")), int(found.group("second_score")))
            length = int(found.group("length")) if found.group("length") else 0
            crawford = _crawford_note(found.group("note"))
            game_line = number
            continue
        if _INFORMATION.match(line):
            in_info = True
            continue
        if in_info:
            rating = _rating(line, players) if comment is None else None
            if rating is not None:
                if rating[1] != _NO_VALUE:
                    tags.setdefault(f"Player {rating[0] + 1} Elo", rating[1])
                continue
            found = _INFO.match(line) if comment is None else None
            if found:
                field, value = found.lastgroup or "", line[found.end():]
                if field == "Comments":
                    comment = [value]   # gnubg's comment runs on to the next blank line
                elif value.strip() != _NO_VALUE:
                    tags.setdefault(_TAGS.get(field, field), value.rstrip())
                continue
            if comment is not None and line.strip():
                comment.append(line)
                continue
            if comment is not None:
                for name, value in _comment_tags(comment, number, path).items():
                    tags.setdefault(name, value)
                comment = None
            if not line.strip():
                continue
            in_info = False
        found = _MOVE_NUMBER.match(line)
        if found:
            dice = recorded_roll(found.group(2))
            move += 1
            track.shown = track.shown_match = None
            continue
        # each ID is looked for only where it may stand (after a heading, before the play): most lines are the
        # board and the analysis, and the Position ID's label may stand anywhere in its line's first 60 characters
        found = _POSITION_ID.match(line) if dice is not None and track.shown is None else None
        if found:
            track.shown = found.group(1)
            if move == 1 and "Variation" not in tags and (variation := _variation_of(track.shown)) is not None:
                tags["Variation"] = variation.word   # the opening position printed says the variant played
            continue
        found = _MATCH_ID.match(line) if dice is not None and track.shown is not None and track.shown_match is None \
            else None
        if found:
            track.shown_match = found.group(1)
            continue
        mark = _MARK.match(line)
        if mark:
            action = _action(line[mark.end():], number, players, dice, resigned, move)
            if action is None:
                errors.append(MatchFileError(f"cannot read the action {line.strip()!r}", path, number, 1))
                continue
            if action.kind == ActionKind.RESIGN:
                resigned = True
            elif resigned and action.kind in (ActionKind.TAKE, ActionKind.DROP):
                continue   # the answer to the resignation: the result line says what came of it
            if action.kind in (ActionKind.MOVE, ActionKind.DANCE):
                if not actions and not length:
                    autos = _auto_doubles(track.shown, track.shown_match)
                    autos_written = autos is not None
                    if autos:
                        actions.extend(Action(number, 1, None, 0, ActionKind.AUTO_DOUBLE, cube=value,
                                              raw=f"Match ID {track.shown_match}") for value in autos)
                        # gnubg's text says no rule of automatic doubles, but its Match ID shows them only where
                        # they were played: the session gets the rule, as many as bgcli allows (as gnubg's SGF)
                        tags.setdefault(AUTO_DOUBLES.tag, SITE_AUTO_DOUBLES)
                set_up = track.play(action)
                if set_up is not None:
                    actions.append(Action(number, 1, move, action.side, ActionKind.SET_UP, raw=set_up.how))
                    set_ups.append(set_up)
            else:
                track.cube_action(action)
            actions.append(action)
            continue
        # only a line that starts with a player's name can be the result: the test first, since _WINS tries
        # every language's words (and a lookahead for the points) at each place its greedy name could end
        found = _WINS.match(line) if line.startswith(heads) else None
        if found and found.group(1) in players:
            side = players.index(found.group(1))
            actions.append(Action(number, 1, None, side, ActionKind.WIN, points=int(found.group("points")),
                                  and_match=bool(found.group("match")), raw=line.strip()))
    if players is None:
        raise MatchFileError("not GNU Backgammon's text export: no 'The score (after N games)' line", path, 1, 1)
    yield MatchHeader(length, game_line, tags, path, whole=False, words=AS_WRITTEN, writer=Writer.GNUBG)
    yield GameRecord(game_number, players, scores, tuple(actions), game_line, set_ups_in_game=tuple(set_ups),
                     autos_written=autos_written, crawford=crawford)
    yield MatchEnd(tuple(errors))


_CRAWFORD_GAME = re.compile(rf", {gnubgwords.either('crawford_game')}$")
_POST_CRAWFORD = re.compile(rf", {gnubgwords.either('post_crawford')}$")


def _crawford_note(note: str) -> bool | None:
    """What the note after the score line's parentheses says of the Crawford
    rule: True for ", Crawford game", False for ", post-Crawford play" (the
    Crawford game came before), None for no note. A game read alone at a
    score one away is otherwise taken for the Crawford game until a double
    says it is not."""
    if _CRAWFORD_GAME.match(note):
        return True
    return False if _POST_CRAWFORD.match(note) else None


def _auto_doubles(shown: str | None, shown_match: str | None) -> list[int] | None:
    """The cubes a money game's automatic doubles make, one by one, as the
    IDs gnubg printed before the game's first play show them: the opening
    position of the variant played and a centred cube above 1 (gnubg's text
    has no line for an automatic double; the cube of its Match ID is the
    trace, as its SGF's root CV is). Empty for none; None where no Match ID
    was printed, so the file does not say. Any other board or an owned cube
    there is a position set up by hand, which the set-up check reads."""
    cube = _cube(shown_match)
    if cube is None:
        return None
    value, owner = cube
    try:
        opening = shown is not None and any(Position.from_id(shown) == Position.start(v) for v in Variation)
    except BgcliError:
        opening = False
    if value < 2 or owner != -1 or not is_turned(value) or not opening:
        return []
    cubes = [2]
    while cubes[-1] < value:
        cubes.append(turned(cubes[-1]))
    return cubes


def _variation_of(shown: str) -> Variation | None:
    """The variant whose opening position is the Position ID ``shown`` (the
    board gnubg printed before a game's first play), or None for the standard
    game's or any other board. gnubg's text export has no word for the
    variant (nackgammon, hypergammon): its first board is the only trace, and
    without it the game was replayed from the standard opening."""
    try:
        board = Position.from_id(shown)
    except BgcliError:
        return None
    for variation in Variation:
        if variation is not Variation.STANDARD and board == Position.start(variation):
            return variation
    return None


def _comment_tags(lines: list[str], number: int, path: str) -> dict[str, str]:
    """The tags gnubg's match comment holds. gnubg's import keeps each .mat tag
    it has no field for in the comment, one ``[ClockType "Speed 168/6"]`` a
    line: read back as those tags, as the .mat file had them. Any other comment
    is the tag ``Comment`` (its lines joined)."""
    lines = [line.strip() for line in lines if line.strip() and line.strip() != _NO_VALUE]
    if not lines:
        return {}
    tags = [tag_of("; " + line, number, path) for line in lines]
    if all(tag is not None for tag in tags):
        return dict(tag for tag in tags if tag is not None)
    return {"Comment": "\n".join(lines)}


class _Board:
    """Where the plays of a gnubg text export leave the board, met with the
    Position ID gnubg printed before each play: the file's trace of a board
    or a turn set by hand (gnubg's text has no record of the edit itself).
    The plays are applied as the replay applies them (match.plays.judge_play);
    where one cannot be applied the board is not known until the next printed
    ID, which is then taken as it is (the replay says what was wrong); the
    cube likewise, after a cube action other than a double taken."""

    def __init__(self) -> None:
        self.board: Position | None = None   # from the side of player 0; None: not known (before the first play)
        self.last: int | None = None         # the side that played last
        self.shown: str | None = None        # the Position ID printed before the play being read
        self.shown_match: str | None = None  # and the Match ID under it
        self.cube: tuple[int, int] | None = None      # value and owner (-1 centred; gnubg's player = column)
        self.offered: tuple[int, int] | None = None   # what a double offered makes when taken

    def cube_action(self, action: Action) -> None:
        """Follow the cube through a cube action: a double taken is the
        double's; after any other the cube is not known until the next
        printed Match ID."""
        if action.kind is ActionKind.DOUBLE and self.cube is not None and self.offered is None:
            self.offered = (turned(self.cube[0]), 1 - action.side)
            return
        self.cube = self.offered if action.kind is ActionKind.TAKE else None
        self.offered = None

    def play(self, action: Action) -> SetUp | None:
        """Apply the play ``action`` (a MOVE or a DANCE); the set-up before it
        when the printed ID says the board or the turn was set by hand."""
        side, shown, set_up = action.side, None, None
        if self.shown is not None:
            try:
                shown = Position.from_id(self.shown)
            except BgcliError:
                shown = None   # no Position ID: it proves nothing
        said: list[str] = []   # the printed IDs that say what was set
        set_cube: list[int | None] = [None, None]   # the cube's value and owner set, None: as it stands
        cube = _cube(self.shown_match)
        if cube is not None and self.cube is not None and cube != self.cube:
            set_cube = [new if new != old else None for new, old in zip(cube, self.cube)]
            said.append(f"the Match ID {self.shown_match}")
        if cube is not None:
            self.cube = cube
        self.offered = None
        board, position, again = self.board, None, ""
        if shown is not None:
            printed = shown if side == 0 else shown.swap()
            if board is not None and (printed != board or side == self.last):
                position = printed if printed != board else None
                again = f", {'its side' if position is None else 'the same side'} on roll again" \
                    if side == self.last else ""
                said.insert(0, f"the Position ID {self.shown}")
            board = printed
        if said:
            how = f"gnubg text: {' and '.join(said)} printed before move {action.move_number}{again}"
            set_up = SetUp(position, how, set_cube[0], set_cube[1], side)
        self.board, self.last = None, side
        if board is not None and action.dice:
            dice = (max(action.dice), min(action.dice))
            judged = judge_play(board if side == 0 else board.swap(), dice, action.play_text.strip(), side, False, False)
            if judged.after is not None and not judged.problems:
                self.board = judged.after if side == 0 else judged.after.swap()
        return set_up


def _cube(text: str | None) -> tuple[int, int] | None:
    """The cube's value and owner of a printed Match ID; None for none."""
    if text is None:
        return None
    try:
        state = parse_match_id(text)
    except BgcliError:
        return None   # no Match ID: it proves nothing
    return state.cube, state.cube_owner


# the action taken, after the mover's name, as one pattern: every language's phrases of each kind
# (formats.gnubgwords), the kinds in the order they are tried, one group a phrase: its {play}, or the whole phrase
# (and what follows it: "resigns a gammon") when it has no play. The group that matched last (lastindex) says which
# phrase read the line. fullmatch reads it with the first phrase, in this order, that reads it whole, as trying each
# phrase's pattern in turn did, in one call instead of one a phrase
_KINDS = (("moves", ActionKind.MOVE), ("cannot_move", ActionKind.DANCE), ("doubles", ActionKind.DOUBLE),
          ("accepts", ActionKind.TAKE), ("rejects", ActionKind.DROP), ("resigns", ActionKind.RESIGN))
_ROLLED = frozenset({ActionKind.MOVE, ActionKind.DANCE})   # the kinds of action that follow a roll


def _verbs() -> tuple[re.Pattern[str], dict[int, tuple[ActionKind, bool]]]:
    """The pattern of the action taken, and for each of its groups the kind
    of the phrase it is and whether it is the play."""
    phrases: list[str] = []
    read: dict[int, tuple[ActionKind, bool]] = {}
    for slot, kind in _KINDS:
        for phrase in gnubgwords.phrases(slot):
            played = "{play}" in phrase
            phrases.append(phrase.format(play="(.+?)") if played else f"({phrase}(?: .*)?)")
            read[len(phrases)] = (kind, played)
    pattern = re.compile("|".join(phrases))
    assert pattern.groups == len(read), "a phrase of gnubgwords holds a group of its own: write it (?:...)"
    return pattern, read


_VERBS, _READ = _verbs()


def _action(text: str, line: int, players: tuple[str, str], dice: tuple[int, int] | None, resigned: bool,
            move: int) -> Action | None:
    """One ``* NAME verb ...`` line; None when it is not one."""
    # the longer name first: one name may begin with the other
    for side in sorted((0, 1), key=lambda s: -len(players[s])):
        name = players[side]
        if not text.startswith(name + " "):
            continue
        found = _VERBS.fullmatch(text[len(name) + 1:].strip())
        if found and found.lastindex:
            kind, played = _READ[found.lastindex]
            play = found[found.lastindex].strip() if played else ""
            if kind in _ROLLED and dice is None:
                return None
            return Action(line, 1, move, side, kind, dice if kind in _ROLLED else None, play, raw=text)
    return None
