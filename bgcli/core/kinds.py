"""The enums that a message, a report or a JSON field writes as their words.

A member is written as its value (``str(Severity.ERROR) == "error"``, the same in
an f-string): that habit is defined here once, not by a ``__str__`` in each enum.
An enum that is a ``str`` too, to compare equal to its words and to serialise as
them, says so with the mixin first (``class Severity(str, Worded)``)."""
from __future__ import annotations

from enum import Enum


class Worded(Enum):
    """An enum written as its value (its words)."""

    def __str__(self) -> str:
        return self.value


# the word for a game with no result (no Outcome, bgcli.core.value: the record stops in it), written in an
# Outcome's place wherever a game's result is listed (score, the replay's and the chouette's JSON, chouette's
# table, a notebook's tables); here, at the bottom, so that the notebook module, which sits below the core's
# classes that load it, may ask it too
UNFINISHED = "unfinished"
