"""The met command: a match equity table printed, the known tables listed, a table written as a file.
The tables are bgcli.engines.met's; this module reads the options and writes what they ask."""
from __future__ import annotations

import click

from bgcli.cli.common import cli, complete_tables, emit, json_option, result_output

MAX_LENGTH = 64   # gnubg's longest table; past a table's own size the figures are the extension's


@cli.command("met")
@result_output
@click.argument("table", required=False, metavar="[NAME|FILE]", shell_complete=complete_tables)
@click.option("--length", type=click.IntRange(1, MAX_LENGTH), default=None, metavar="N",
              help="Show the scores to N-away (default: the table's own size, at most 15); past the table's size "
                   "the figures are extended as GNU Backgammon extends them.")
@click.option("--post-crawford", is_flag=True, help="Show the post-Crawford chances (the trailer n-away against 1-away "
                                                    "after the Crawford game) instead of the table.")
@click.option("--list", "listing", is_flag=True, help="List the tables bgcli knows, with where each was published.")
@click.option("--to", "to", type=click.Choice(("csv", "xml")), default=None,
              help="Write the table as a file bgcli and gnubg read back (xml: gnubg's format; csv: docs/met.md), "
                   "to --length or its own size.")
@json_option
def met_command(table, length, post_crawford, listing, to, as_json):
    """Print the match equity table NAME (a table bgcli knows; default
    Kazaross-XG2) or FILE (gnubg's XML or a CSV): the chance of winning the
    match of the player n-away (rows) against m-away (columns) before a game,
    1-away being the Crawford game; --post-crawford the trailer's chance
    against 1-away after it. --list names the tables and where each was
    published. The same NAME or FILE is what --met takes on every command
    that judges match play (analyze, hint, rollout, rate, view).

    Exit status: 0; 2 for a name bgcli does not know or a file that is not a
    table (one line naming the file and the line where it is wrong).

    \b
    Examples:
        bgcli met
        bgcli met Woolsey --length 9
        bgcli met G11 --post-crawford
        bgcli met --list
        bgcli met Zadeh --to csv -o zadeh.csv
    """
    from bgcli.engines import met

    if listing:
        if table:
            raise click.UsageError("--list lists every table: give no NAME")
        return _list(as_json)
    try:
        found = met.table_of(table)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="NAME|FILE") from None
    size = length or (found.size if to else min(found.size, 15))
    if to:
        from bgcli.engines.met_tables import to_csv, to_xml

        shown = found if size == found.size else found.extended(size)
        click.echo(to_csv(shown) if to == "csv" else to_xml(shown), nl=False)
        return 0
    if as_json:
        data = {"name": found.name, "source": found.source, "size": found.size, "length": size}
        if found.path:
            data["file"] = found.path
        if post_crawford:
            data["post_crawford"] = [found.post_crawford(n) for n in range(1, size + 1)]
        else:
            data["pre_crawford"] = [[found.pre_crawford(i, j) for j in range(1, size + 1)] for i in range(1, size + 1)]
        emit(data)
        return 0
    for line in text_of(found, size, post_crawford):
        click.echo(line)
    return 0


def text_of(table, size: int, post_crawford: bool = False) -> list[str]:
    """The table for people: its name and source, then percentages, rows the player, columns the opponent."""
    lines = [f"{table.name}" + (f" ({table.path})" if table.path else ""), f"  {table.source}" if table.source else ""]
    lines = [line for line in lines if line]
    if size > table.size:
        lines.append(f"  published to {table.size}-away; past it extended as GNU Backgammon extends a table")
    heads = "".join(f"{f'{j}-away':>8}" for j in range(1, size + 1))
    if post_crawford:
        lines.append("Post-Crawford: the trailer n-away against the leader 1-away, the trailer's chance")
        lines.append(f"{'':8}{heads}")
        lines.append(f"{'1-away':<8}" + "".join(f"{100 * table.post_crawford(n):8.2f}" for n in range(1, size + 1)))
        return lines
    lines.append("Before a game (1-away: the Crawford game): the chance of the player n-away (row) against m-away (column)")
    lines.append(f"{'':8}{heads}")
    for i in range(1, size + 1):
        lines.append(f"{f'{i}-away':<8}" + "".join(f"{100 * table.pre_crawford(i, j):8.2f}" for j in range(1, size + 1)))
    return lines


def _list(as_json: bool) -> int:
    from bgcli.engines.met import FORMULAS, KNOWN, TABLE_NAME, known_table

    for known in KNOWN + FORMULAS:
        size = known_table(known.name).size
        if as_json:
            emit({"name": known.name, "aliases": list(known.aliases), "size": size, "default": known.name == TABLE_NAME,
                  "source": known.source})
        else:
            default = " (default)" if known.name == TABLE_NAME else ""
            click.echo(f"{known.name}{default}: to {size}-away; {known.source}")
    return 0
