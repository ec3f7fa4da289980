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
