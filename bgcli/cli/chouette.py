"""The chouette command: a session of three or more players, settled."""
from __future__ import annotations

import sys

import click

from bgcli.cli.common import files_argument, result_output
from bgcli.cli.common import EXIT_PROBLEMS, EXIT_UNREADABLE, Unreadable, cli, emit, json_option, say
from bgcli.errors import BgcliError, os_reason


@cli.command("chouette")
@result_output
@files_argument("files")
@json_option
def chouette_command(files, as_json):
    """Settle chouettes: each game's amounts, the running totals, the problems.

    FILE is bgcli's chouette format (a `Chouette:` line naming the players,
    `Stake:`, then per game `Game N`, `Box: A  Captain: B  Team: C, D` and
    lines such as `A doubles => 2`, `B takes  C takes  D drops`, `Team
    doubles => 4`, `A wins gammon`; moves may follow in the Jellyfish
    layout, box on the left). Problems (line, kind, message) are those of
    the rotation, the team's doubles, the answers, members acting after
    dropping, and, for games with moves, those of `bgcli audit`.
    Several FILEs are settled one after another (with --json, one line
    each). Exit status: 0 clean, 1 problems found, 2 a file could not be
    read (the others are settled all the same).

    \b
    Examples:
        bgcli chouette samples/chouette.txt
        bgcli chouette --json samples/chouette_flawed.txt
    """
    status = 0
    for number, file in enumerate(files):
        if number and not as_json:
            click.echo()
        try:
            status = max(status, _settle(file, as_json))
        except Unreadable as exc:
            if len(files) == 1:
                raise
            exc.show()
            status = EXIT_UNREADABLE
    sys.exit(status)


def _settle(file: str, as_json: bool) -> int:
    """One chouette file settled and written out; its exit status."""
    from bgcli.judging.chouette import settle_file

    try:
        settlement = settle_file(file)
    except OSError as exc:
        raise Unreadable(f"cannot read {file}: {os_reason(exc)}") from None
    except BgcliError as exc:
        raise Unreadable(str(exc)) from None
    if as_json:
        emit(settlement.to_dict())
    else:
        for line in table(settlement):
            say(line.rstrip())
        for problem in settlement.problems:
            game = f" game {problem.game}:" if problem.game else ""
            say(f"{file}:{problem.line}:{game} {problem.kind}: {problem.message}")
    return EXIT_PROBLEMS if settlement.problems else 0


def table(settlement) -> list[str]:
    """The settlement as text: one row per game, a row of running totals under it."""
    players = settlement.players
    stakes = {game.stake for game in settlement.games}
    stake = f"; stake {_amount(min(stakes), sign=False)} a point" if len(stakes) == 1 else ""
    lines = [f"Chouette: {', '.join(players)}{stake}"]
    rows = []
    for game, running in zip(settlement.games, settlement.running()):
        lineup = game.lineup
        result = _result(game) + (f" (stake {_amount(game.stake, sign=False)})" if len(stakes) > 1 else "")
        amounts = game.settlement
        rows.append((str(game.number), lineup.box, lineup.captain, result,
                     [_amount(amounts[name]) if name in amounts else "" for name in players]))
        rows.append(("", "", "", "running", [_amount(running.get(name, 0)) for name in players]))
    head = ("game", "box", "captain", "result", list(players))
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(4)]
    columns = [max(len(row[4][i]) for row in [head, *rows]) for i in range(len(players))]
    for number, box, captain, result, cells in [head, *rows]:
        lines.append(f"{number:>{widths[0]}}  {box:<{widths[1]}}  {captain:<{widths[2]}}  {result:<{widths[3]}}  "
                     + "  ".join(f"{cell:>{width}}" for cell, width in zip(cells, columns)))
    return lines


def _result(game) -> str:
    from bgcli.core.cube import turned
    from bgcli.core.kinds import UNFINISHED
    from bgcli.core.value import Outcome
    from bgcli.judging.chouette import Side

    offered = turned(game.cube)   # a dropped double offered a turn of the cube
    if game.result is None:
        return UNFINISHED
    if game.result is Outcome.DROP:
        if game.winner == Side.BOX:
            return f"all drop {game.lineup.box}'s {offered}"
        return f"{game.lineup.box} drops the team's {offered}"
    who = game.lineup.box if game.winner == Side.BOX else "team"
    return f"{who} wins {game.result.value}, cube {game.cube}"


def _amount(value, sign: bool = True) -> str:
    from decimal import Decimal

    value = Decimal(value)
    text = str(int(value)) if value == value.to_integral_value() else format(value.normalize(), "f")
    return f"+{text}" if sign and value > 0 else text
