"""Converting a position between notations (``bgcli convert``)."""
from __future__ import annotations

# the notations a position converts to, in the order the help lists them
FORMATS = ("gnubg", "posid", "xgid", "fibs", "json", "ascii")


def convert(position, to: str, home: str = "right") -> str:
    """The position ``position`` (text in any notation bgcli reads, or the game state read already, as
    from a position file) written as ``to`` (one of FORMATS): an ID, JSON, or gnubg's ASCII board."""
    from bgcli.core import ids

    game = ids.parse_position(position) if isinstance(position, str) else position
    if to == "gnubg":
        return ids.gnubg_id(game)
    if to == "posid":
        return game.position.id()
    if to == "xgid":
        return ids.xgid(game)
    if to == "fibs":
        return ids.fibs(game)
    if to == "json":
        import json

        return json.dumps(ids.describe(game), ensure_ascii=False)
    if to == "ascii":
        from bgcli.render.board import ascii_board

        return ascii_board(game, home=home)
    raise ValueError(f"unknown notation {to!r}: expected one of {', '.join(FORMATS)}")
