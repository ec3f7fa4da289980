"""How bgcli's objects show themselves in a notebook (IPython, Jupyter), as
python-chess's Board does: a Position or a game state draws its board
(``_repr_svg_``), a match its summary (``_repr_html_``).

The drawings are made above the core (bgcli.render.board) and the match
text by the formats (bgcli.formats.files); the core's classes ask this
module, which loads those modules by name when first asked, as the format
registry loads a format: nothing below imports what is above it.
"""
from __future__ import annotations

import importlib
from html import escape
from typing import Any

from bgcli.core.kinds import UNFINISHED


def board_svg(game: Any) -> str:
    """The SVG picture of a Position or GameState (bgcli.render.board.svg_board)."""
    return importlib.import_module("bgcli.render.board").svg_board(game)


def match_text(record: Any) -> str:
    """A match record written as a .mat file, gnubg's layout (bgcli.formats.files.export_text)."""
    return importlib.import_module("bgcli.formats.files").export_text([record], "mat")


def match_summary_html(record: Any) -> str:
    """A small HTML table of a match record: its players and length, and
    each game's score before it and its result as written."""
    left, right = record.players
    length = f"{record.length} point match" if record.length else "money session"
    rows = []
    for game in record.games:
        score = f"{game.scores[0]}-{game.scores[1]}" if game.scores else ""
        result = game.written_result() or UNFINISHED
        rows.append(f"<tr><td>{game.number}</td><td>{escape(score)}</td><td>{escape(result)}</td></tr>")
    return (f"<table class=\"bgcli-match\"><caption>{escape(left)} - {escape(right)}, {length}, "
            f"{len(record.games)} game{'s' if len(record.games) != 1 else ''}</caption>"
            "<tr><th>game</th><th>score</th><th>result</th></tr>" + "".join(rows) + "</table>")


def replay_summary_html(replay: Any) -> str:
    """A small HTML table of a replayed match (bgcli.replay_file): each
    game's winner, how, cube and points and the score after it, the
    problems found, and who won."""
    left, right = replay.players
    length = f"{replay.length} point match" if replay.length else "money session"
    rows = []
    for game in replay.games():
        if hasattr(game, "winner"):
            cells = (game.game, game.winner if game.winner_side >= 0 else "draw", game.result.value, game.cube,
                     game.points, f"{game.score[0]}-{game.score[1]}")
        else:
            cells = (game.game, "", UNFINISHED, game.cube, "", f"{game.score[0]}-{game.score[1]}")
        rows.append("<tr>" + "".join(f"<td>{escape(str(cell))}</td>" for cell in cells) + "</tr>")
    problems = len(replay.problems)
    winner = f"{escape(replay.winner)} wins" if replay.winner else "no winner yet"
    return (f"<table class=\"bgcli-replay\"><caption>{escape(left)} - {escape(right)}, {length}: "
            f"{replay.score[0]}-{replay.score[1]}, {winner}; {problems} problem{'s' if problems != 1 else ''}</caption>"
            "<tr><th>game</th><th>winner</th><th>how</th><th>cube</th><th>points</th><th>score</th></tr>"
            + "".join(rows) + "</table>")
