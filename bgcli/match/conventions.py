"""Conventions of real archives that are not problems, each named once.

- a roll with no play followed straight away by the end of the game is a
  resignation made after rolling (FIBS-era transcripts record it so), not a
  dance (the game's replay holds such a dance back until it knows);
- a transcript may start in the middle of a match: the first game's recorded
  score is where the match stands (the driver, :mod:`bgcli.match.replay`);
- how a result's points are written: :class:`PointsConvention`. Backgammon
  Galaxy writes a match-winning game as the points the winner still needed or
  as the winner's final score, and a forfeit (``Losses N`` then ``Wins N and
  the match`` in the middle of a game) as the points still needed: accepted
  in Galaxy's files (its site tag, or its ``Losses`` lines). Elsewhere a
  value that is exactly the points still needed, for a game worth at least
  that, is a warning (FIBS-era archives exported by Snowie write it so), and
  so is ``Wins N points and the match`` with N the match length for a game
  that wins the match (Galaxy's habit, in live-event transcriptions too),
  and so is a resignation that ends the match written with a figure no game
  at its cube is worth (Backgammon Studio's ``Wins 4016 point``); any other
  value that the game is not worth is an error. OpenGammon (and Foxamon, whose
  export is OpenGammon's) writes a match-winning game as the points the winner
  still needed, and a match forfeited before a play (or mid-game) as ``Wins N
  points and the match``, N the points still needed: accepted in their files
  (their site tags). choue.net writes a resignation with more points than
  any resignation at its cube is worth (``53: ????`` then ``Wins 4 point`` at
  cube 1, a resigned backgammon that gnubg's save of the same match, made by
  the site, gives as ``RE[B+3R]``): in its files (its site tag) a warning,
  scored as the most a resignation at that cube is worth, a backgammon;
- Galaxy saves an unlimited game as a single-game match of an even length
  (``16 point match``): a money game with the Jacoby rule
  (:func:`galaxy_unlimited`);
- GNU Backgammon's running score leaves a game's automatic doubles out
  (:func:`score_leaves_out`), and its .mat export writes a game begun with
  them as if none was made (:func:`autodoubled_cube`): read as its habits in
  the files it wrote;
- Gibbon, a FIBS client, writes no result in its match dump (``.gmd``): a game
  ends at its drop, its accepted resignation or its last checker off, and is
  worth what the rules say (:func:`results_written`);
- GNU Backgammon writes no rule of beavers in its SGF or .mat, but plays a
  beaver only where its rule allows it: a money session it wrote that
  records one (an SGF), or any (a .mat, read as it streams), is read with
  the rule on (:func:`gnubg_beaver_tags`).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bgcli.core.cube import is_turned, turns_within
from bgcli.core.rules import SETTING_OF_FIELD, SETTING_OF_TAG
from bgcli.core.value import STANDARD_WORTH
from bgcli.match.records import ActionKind, GameRecord, Writer, site_is


class Reading(Enum):
    """How the points of a ``Wins N points`` line read, best first."""

    WORTH = "worth"      # what the game is worth
    HABIT = "habit"      # a habit of the file's own server: no problem
    NEEDED = "needed"    # the points the winner still needed, in a file not known for it: a warning
    FINAL = "final"      # "and the match" with the match length (the winner's final score), in a file not
                         # known for it (Galaxy's habit, in live-event files too): a warning
    PAST = "past"        # a resignation that ends the match written with a figure no game at its cube is
                         # worth (Backgammon Studio's "Wins 4016 point"): a warning
    BEYOND = "beyond"    # a resignation written with more than a backgammon at its cube, in a file of a
                         # site known for it (choue.net): a warning, scored as a backgammon

    @property
    def rank(self) -> int:
        return _RANKS[self]


_RANKS = {Reading.WORTH: 0, Reading.HABIT: 1, Reading.NEEDED: 2, Reading.FINAL: 3, Reading.PAST: 4, Reading.BEYOND: 5}


@dataclass(frozen=True, slots=True)
class PointsConvention:
    """How the points of a ``Wins N points`` line are written."""

    name: str
    needed_for_match: bool   # a game worth more than the winner needs may be written as what it needs
    final_score: bool = False   # "Wins N points and the match" may give N as the winner's final score
    forfeit: bool = False       # "Wins N points (and the match)" mid-game, N the points needed: the match forfeited
    beyond: bool = False        # a resignation may be written with more than any resignation at its cube is worth

    # The match-ending readings (the final score, the points needed, a forfeit)
    # do not ask for the words "and the match": the figure itself says that the
    # game ends the match, and gnubg's .mat export, which bgcli's follows, never
    # writes the words, so an export of such a file reads back as the original.
    def read(self, written: int, worth: int, needed: int, length: int = 0) -> Reading | None:
        """How ``written`` records a game worth ``worth`` won by a player who
        still needed ``needed`` points (0 in money play) of a match of
        ``length``; None when it is no reading of it. In any file a value that
        is exactly the points needed, for a game worth at least that, is read
        as the points needed (a warning: a habit that cannot be checked)."""
        if written == worth:
            return Reading.WORTH
        if 0 < needed == written < worth:
            return Reading.HABIT if self.needed_for_match else Reading.NEEDED
        if 0 < needed <= worth and written == length:
            return Reading.HABIT if self.final_score else Reading.FINAL
        return None

    def accepts(self, written: int, worth: int, needed: int) -> bool:
        """Whether ``written`` records a game worth ``worth`` without a problem."""
        return self.read(written, worth, needed) in (Reading.WORTH, Reading.HABIT)

    def forfeits(self, written: int, needed: int) -> bool:
        """Whether the result is a forfeit of the match: the points needed,
        whatever the game is worth."""
        return self.forfeit and 0 < needed == written

    def beyond_resignation(self, written: int, worth: list[int]) -> int | None:
        """What a resignation written ``written``, which may be worth one of
        ``worth``, is scored as when the file's site writes more than any
        resignation is worth: the most it may be worth (a backgammon at the
        cube); None elsewhere, or when ``written`` is no such figure."""
        return max(worth) if self.beyond and worth and written > max(worth) else None


EXACT = PointsConvention("the points the game is worth", needed_for_match=False)
GALAXY = PointsConvention("Backgammon Galaxy: a match-winning game as the points still needed or the final score, "
                          "a forfeit as the points still needed", needed_for_match=True, final_score=True, forfeit=True)
# OpenGammon's export (Foxamon's is the same): a match-winning game capped at the
# points the winner still needed (a gammon worth 2 written "Wins 1 points and the
# match" at 0-4 in a 5-point match), and a forfeited match as "Wins 5 points and
# the match" at 0-0 in a 5-point match, with no play (or in the middle of a game).
OPENGAMMON = PointsConvention("OpenGammon: a match-winning game and a forfeit as the points still needed",
                              needed_for_match=True, forfeit=True)
# choue.net's export: a resigned backgammon at cube 1 written "Wins 4 point"
# (its gnubg save of the same match: RE[B+3R]); what it writes for other
# resignations is not known, so the figure is a warning, never silent.
CHOUE_NET = PointsConvention("choue.net: a resignation written with more than a backgammon at its cube",
                             needed_for_match=False, beyond=True)


def points_convention(tags: dict[str, str]) -> PointsConvention:
    """The convention a file's tags announce (a ``Losses`` line announces Galaxy's too)."""
    if site_is(tags, "galaxy"):
        return GALAXY
    if site_is(tags, "choue.net"):
        return CHOUE_NET
    return OPENGAMMON if site_is(tags, "opengammon") or site_is(tags, "foxamon") else EXACT


# Backgammon Galaxy's matches are of an odd length. It saves an unlimited game
# as a single-game match of an even length (16, and 8, 4, 2 in real files):
# it is a money game, scored with the Jacoby rule, and its result is written
# as if that many points were needed.
def galaxy_unlimited(tags: dict[str, str], length: int) -> bool:
    """Whether a match header is Galaxy's unlimited game (a money game)."""
    return length > 0 and length % 2 == 0 and site_is(tags, "galaxy")


# GNU Backgammon 1.07 counts a money game begun with automatic doubles at the cube they made in the game's
# points won, but adds to its running score (the next game's SGF MI[ws/bs], gnubg.match()'s score, its .mat
# export's game headers) the points at the cube without them: 16 points won at a cube that began at 2 add 8.
# So after each of the 13 such games of 9 sessions gnubg played (tests/data/gnubg-autodouble-scores and
# heldout-autodoubles, cubes begun at 2 and 4).
# Those sessions were played with 'set display off', under which gnubg 1.07 does not double the live cube for an
# equal opening roll (the doubling sits in its display branch) while its record counts the automatic doubles; with
# the display on, as a user plays, its running score is the games' total (tests/data/heldout-autodoubles-display).
# Both are read: a score line equal to the games' total clears what this leaves out (MatchReplayer.open_game).
# Checked exactly, so no warning: a score that is neither this nor the games' total is still an error.
def score_leaves_out(writer: Writer | None, points: int, start_cube: int) -> int:
    """The points of a game worth ``points``, its cube begun at ``start_cube`` by automatic doubles, that
    the running score ``writer`` records after it leaves out (0: it counts them all)."""
    if writer is Writer.GNUBG and start_cube > 1:
        return points - points // start_cube
    return 0


# GNU Backgammon 1.07's .mat export writes a money game begun with automatic doubles as if none was made: with its
# display on (where the live cube holds them), a drop at 4 of a game begun at 2 is 'Doubles => 2', 'Wins 1 point',
# under a next game header that counts them (+2): so the 9 such games of 4 sessions (tests/data/
# heldout-autodoubles-display, begun at 2 and 4 under 'set automatic doubles 2'). The next header says the cube the
# game began at, its written cube actions and points relative to it. gnubg's .mat writes no rule of automatic
# doubles, and nothing in the game shows one (the equal opening rolls are not written): so the habit is read only
# under a rule that allows them (--auto-doubles N), which bounds them. Without it a winner's gain of twice the
# written points is a slip of the score line, as in any file (test_repair's slip in gnubg's sp05007, a session
# without automatic doubles). Checked exactly, so no warning: a gain that is no such figure stays an error naming
# both.
def autodoubled_cube(writer: Writer | None, points: int, gained: int, limit: int) -> int:
    """The cube a game recorded by ``writer`` with no automatic double, worth ``points`` as written, began at by
    the writer's habit when the next score line gives its winner ``gained``: a cube of 2 or more that turns of
    a cube at 1 make (bgcli.core.cube), ``gained`` = ``points`` x it, within the ``limit`` of automatic
    doubles the rules allow (0: none, so no such reading); 1 when it is no such reading."""
    if writer is not Writer.GNUBG or not limit or points <= 0 or gained % points:
        return 1
    cube = gained // points
    if cube < 2 or not is_turned(cube) or turns_within(cube) > limit:
        return 1
    return cube


AUTO_DOUBLES = SETTING_OF_FIELD["auto_doubles"]


def autodoubles_hint(writer: Writer | None, points: int, gained: int, limit: int) -> str:
    """Why a score line that gives the winner of a game worth ``points`` as written ``gained``, an error
    under the rules' ``limit`` of automatic doubles, may be :func:`autodoubled_cube`'s habit, in words that
    name the option that reads it: '' when no rule of automatic doubles reads it so (the gain is no turned
    cube's multiple of the points) or when the writer has no such habit. Said once a match: a hint, since
    a slip of a score line can give the same figure (test_repair's sp05007)."""
    cube = autodoubled_cube(writer, points, gained, AUTO_DOUBLES.high)
    if cube == 1 or turns_within(cube) <= limit:
        return ""
    need = turns_within(cube)
    allowed = f", more than the {limit} these rules allow" if limit else ""
    return (f": the file looks like {writer}'s .mat export of a session played with automatic doubles, which writes "
            f"a game begun with them as if none was made (here {points} point{'s' if points != 1 else ''} at a cube "
            f"of {cube}: {need} automatic double{'s' if need != 1 else ''}{allowed}): {AUTO_DOUBLES.option} N, "
            f"the session's limit (at least {need}), reads it so")


# Gibbon's match dump (.gmd, https://github.com/gitGNU/gnu_gibbon: its writer and reader) records the actions
# alone, never a result or a score: a game is over at its drop, at the accepted resignation (which the reader
# turns into the result it says) or at the last checker off. Such a game is worth what the rules say, with no
# problem; a game that stops before any of these is still one with no result.
def results_written(writer: Writer | None) -> bool:
    """Whether ``writer`` writes each game's result (a ``Wins`` line, ``RE``): every writer but Gibbon's dump."""
    return writer is not Writer.GIBBON


# GNU Backgammon 1.07 scores a resignation of a gammon or a backgammon, accepted in a money game under the Jacoby
# rule with the cube centred, at the cube times the kind resigned (gnubg.match()'s points won, its SGF RE[B+3R],
# its text export's 'wins 3 points', and its running score adds them), where the same gammon played out to the end
# counts single (tests/data/heldout-text-export, docs/gnubg-differences.md). Checked exactly, so no warning.
def resignation_habit(writer: Writer | None, jacoby_centred: bool, cube: int) -> tuple[int, ...]:
    """What a resignation may be worth by ``writer``'s habit beyond what the rules say
    (``jacoby_centred``: the Jacoby rule in force and the cube centred): none but gnubg's."""
    if writer is Writer.GNUBG and jacoby_centred:
        return tuple(cube * worth for worth in STANDARD_WORTH)
    return ()


BEAVERS, RACCOONS = SETTING_OF_TAG["beavers"], SETTING_OF_TAG["raccoons"]
# what gnubg allows when not told otherwise: 'set beavers 3', a beaver and two raccoons
GNUBG_RACCOONS = 2
_ENDS_A_DOUBLE = (ActionKind.TAKE, ActionKind.DROP, ActionKind.MOVE, ActionKind.DANCE)


def instant_redoubles(game: GameRecord) -> int:
    """The most redoubles made at once in one of the game's doubles, a beaver and its raccoons (gnubg writes
    each as a double with no answer between them: an SGF node, a .mat cell), 0 when none."""
    most = run = 0
    waiting = False   # a double made and not yet answered
    for action in game.actions:
        if action.kind in (ActionKind.DOUBLE, ActionKind.BEAVER, ActionKind.RACCOON):
            run = run + 1 if waiting else 0
            waiting = True
            most = max(most, run)
        elif action.kind in _ENDS_A_DOUBLE:
            waiting, run = False, 0
    return most


def gnubg_beaver_tags(tags: dict[str, str], most: int | None = None) -> dict[str, str]:
    """The tags of a money session GNU Backgammon wrote, with its rule of beavers: gnubg plays a beaver or
    raccoon only where its rule allows it ('set beavers N', on by default) but writes no rule of beavers (SGF
    or .mat). ``most``: the most instant redoubles made at once in the session (:func:`instant_redoubles`),
    where the reader knows them (an SGF, read whole): none says nothing of the rule, and the tags are as
    written; any says it was on, allowing at least gnubg's default raccoons (its 'set beavers 3': two) and as
    many as were made at once. None where the reader cannot know them without holding the session's games
    (a .mat, read as it streams): gnubg's default, the rule on with two raccoons, which a session played
    with its rule off, having no beaver, cannot tell from its own (a third raccoon at once then needs
    --raccoons). A rule the file writes stands (its values checked by the rules)."""
    if most == 0:
        return tags
    ruled = dict(tags)
    ruled.setdefault(BEAVERS.tag, "On")
    ruled.setdefault(RACCOONS.tag, str(max((most or 0) - 1, GNUBG_RACCOONS)))
    return ruled
