"""What every command shares: the group, the output and rule options, and
the one place that turns errors into exit statuses."""
from __future__ import annotations

import os
import re
import sys
from typing import MutableMapping, NoReturn

import click

from bgcli import __version__, build
from bgcli.core.spelling import STYLES
from bgcli.errors import (  # noqa: F401  (the exit statuses: part of this module's API)
    EXIT_CLOSED_PIPE, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_PROBLEMS, EXIT_TERMINATED, EXIT_UNREADABLE, INTERRUPTED,
    TERMINATED, BgcliError, FileReadError, InvalidPositionError, Terminated,
    os_reason, raise_terminated,
)




def complete_file_names(ctx, param, incomplete):
    """Shell completion of a value that names a file or folder: the shell's own file names (click's "file"
    item). click offers nothing for a plain text value, and bash then completed nothing at all
    (`bgcli audit sam<Tab>`, `bgcli moves --batch pos<Tab>`)."""
    from click.shell_completion import CompletionItem

    return [CompletionItem(incomplete, type="file")]


def files_argument(name: str, required: bool = True):
    """``FILE...``: the match files of a command (files, folders, globs, - for standard input), their names
    completed by the shell."""
    return click.argument(name, nargs=-1, required=required, metavar="FILE...", shell_complete=complete_file_names)


def json_option(function):
    """The shared ``--json`` option: machine-readable output."""
    return click.option("--json", "as_json", is_flag=True, help="Write JSON instead of text.")(function)


def style_option(function):
    return click.option(
        "--style", type=click.Choice(STYLES), default="gnubg", show_default=True,
        help="How plays are written: gnubg's canonical text, .mat numbers, FIBS dashes or Korean point names.",
    )(function)


def home_option(function):
    return click.option(
        "--home", type=click.Choice(("right", "left")), default="right", show_default=True,
        help="Side of the board where the home board of the player on roll is drawn.",
    )(function)


# --- the options that several commands share: one declaration each (docs/options.md has the table,
# tests/test_options.py keeps it and the commands in step) ----------------------------------------

TIMEOUT_LIMITS = (0.1, 3600.0)
MAX_SEED = 2**32 - 1   # gnubg keeps a rollout's seed in 32 bits: a larger one was the same dice as itself mod 2**32
MAX_TRUNCATE = 10_000   # half-moves: far beyond any game; the engines keep it in a 16-bit (gnubg) or 32-bit (sage) int   # seconds: one engine call, the same bounds for every command that asks one
LEVEL_HELP = ("how deep the engine looks, in GNU Backgammon's plies: 0 is the raw network, 1 looks one roll ahead; "
              "eXtreme Gammon counts one more (0 = XG 1-ply, 1 = XG 2-ply, 2 = XG 3-ply, 3 = XG 4-ply).")


def batch_option(help: str):
    """``--batch [FILE]``: lines from FILE, ``-`` standard input; the FILE may
    also be the one word after the options (see :func:`batch_source`)."""
    return click.option("--batch", is_flag=False, flag_value="", default=None, metavar="[FILE]",
                        shell_complete=complete_file_names,
                        help=f"{help} FILE is - for standard input, and may also follow the options.")


def batch_source(batch: str | None, words) -> tuple[str | None, tuple]:
    """``--batch``'s FILE and the words left: ``--batch`` given without a
    value takes the one word after the options. A usage error when words
    are left beside a batch."""
    if batch is None:
        return None, tuple(words)
    if batch == "":
        if len(words) != 1:
            raise click.UsageError("--batch needs one FILE (- for standard input)")
        batch, words = words[0], ()
    if words:
        raise click.UsageError("give either POSITION words or --batch FILE, not both")
    return batch, ()


def engine_option(default: str | None, help: str, name: str = "engine"):
    """``--engine NAME``: one of the engines of bgcli.engines (any letter case)."""
    from bgcli.engines import ENGINE_NAMES  # the registry only: a backend loads when opened

    return click.option("--engine", name, type=click.Choice(ENGINE_NAMES, case_sensitive=False), default=default,
                        show_default=default is not None, help=help)


def met_option(function):
    """``--met NAME|FILE``: the match equity table every judgement of match play uses, a table bgcli knows
    (bgcli.engines.met's registry; ``bgcli met --list``) or a user's file (gnubg's XML or CSV). The option's
    value is the table itself (None: the default, Kazaross-XG2); a name or file that is not one is a usage
    error naming it (exit 2)."""

    def table(ctx, param, value):
        if value is None:
            return None
        from bgcli.engines.met import table_of
        from bgcli.errors import BgcliError

        try:
            return table_of(value)
        except BgcliError as exc:
            raise click.BadParameter(str(exc)) from None

    return click.option("--met", metavar="TABLE", callback=table, default=None, shell_complete=complete_tables,
                        help="The match equity table of match play: a table's name (bgcli met --list; default "
                             "Kazaross-XG2) or a file, gnubg's XML or CSV (docs/met.md).")(function)


def complete_tables(ctx, param, incomplete):
    """Shell completion of a match equity table: the names of the tables bgcli knows that start so, and
    the shell's file names (a table may be a file)."""
    from click.shell_completion import CompletionItem

    from bgcli.engines.met import KNOWN_NAMES

    return [*complete_file_names(ctx, param, incomplete),
            *(CompletionItem(name) for name in KNOWN_NAMES if name.lower().startswith(incomplete.lower()))]


def check_engine_met(engine: str, table) -> None:
    """A usage error when the engine ``engine`` cannot judge with the table ``table`` (bgcli.engines.met)."""
    from bgcli.engines.met import engine_problem

    problem = engine_problem(engine, table)
    if problem:
        raise click.UsageError(problem)


class FloatRange(click.FloatRange):
    """click's FloatRange that also refuses "nan": every comparison with nan is false, so click's own
    lets it through its bounds (``--timeout nan`` ran with no time limit, ``--until-se nan`` failed
    later with status 1 instead of a usage error naming the option)."""

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if number != number:
            self.fail(f"{value!r} is not a number.", param, ctx)
        return number


def level_option(when: str = "", more: str = "", default: int = 2):
    """``--level PLIES``: 0 to 4, gnubg's plies; ``default`` (2) unless given. Its help is the one meaning
    (LEVEL_HELP) on every command, after ``when`` ("With --engine") and before ``more`` (a sentence)."""
    text = f"{when}: {LEVEL_HELP}" if when else LEVEL_HELP[0].upper() + LEVEL_HELP[1:]
    return click.option("--level", type=click.IntRange(0, 4), default=default, show_default=True, metavar="PLIES",
                        help=f"{text} {more}".strip())


def timeout_option(help: str):
    """``--timeout SECONDS``: one engine call's limit, within TIMEOUT_LIMITS."""
    return click.option("--timeout", type=FloatRange(*TIMEOUT_LIMITS), default=60.0, show_default=True,
                        metavar="SECONDS", help=help)


def rollout_options(function):
    """``--trials``, ``--until-se``, ``--seed``, ``--truncate`` and ``--candidates``: how a rollout is made
    (bgcli.judging.rollout.RolloutSettings), the same on ``rollout`` and ``hint --rollout``."""
    function = click.option("--candidates", type=click.IntRange(1, 100), default=3, show_default=True, metavar="N",
                            help="With DICE: roll out the engine's best N plays.")(function)
    function = click.option("--truncate", type=click.IntRange(0, MAX_TRUNCATE), default=0, show_default=True, metavar="N",
                            help="Stop each trial after N half-moves and take the engine's evaluation "
                                 "(0: play to the end).")(function)
    function = click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True, metavar="N",
                            help="The dice: the same seed gives the same figures to the last digit, however the "
                                 "trials are split.")(function)
    function = click.option("--until-se", type=FloatRange(0, 10, min_open=True), default=None, metavar="SE",
                            help="Stop at the first 36 trials after which every line's equity has a standard error "
                                 "at most SE.")(function)
    return click.option("--trials", type=click.IntRange(1, 10_000_000), default=1296, show_default=True, metavar="N",
                        help="The most trials (a multiple of 36 keeps the first roll balanced).")(function)


def formats_doc(function):
    """Fills ``{read}`` (the formats read, with their suffixes), ``{written}``
    and ``{suffixes}`` in a command's help from the format registry."""
    from bgcli.formats import registry

    read = ", ".join(f"{f.name} ({' '.join(f.suffixes) or 'by its first line'})" for f in registry.FORMATS)
    function.__doc__ = (function.__doc__ or "").replace("{read}", read).replace(
        "{written}", ", ".join(registry.WRITTEN)).replace("{suffixes}", ", ".join(registry.SUFFIXES))
    return function


def emit(data) -> None:
    """One JSON line on standard output, exact (bgcli.output.json_line)."""
    from bgcli.output import json_line

    click.echo(json_line(data))


def end_interrupted() -> NoReturn:
    """End a command that was interrupted after it wrote what it had (a rollout's trials so far)
    as every interrupted command ends."""
    say(INTERRUPTED, err=True)
    sys.exit(EXIT_INTERRUPTED)


def say(line: str, err: bool = False) -> None:
    """One line of text output: whatever it quotes of a file (names, tags,
    file names, messages) goes to the terminal escaped, never raw
    (bgcli.output.printable), and a newline in it cannot make two records."""
    from bgcli.output import printable

    click.echo(printable(line), err=err)


def say_block(text: str, err: bool = False) -> None:
    """Several lines of text output (a board), escaped as :func:`say` does, newlines kept."""
    from bgcli.output import printable

    click.echo(printable(text, block=True), err=err)


class Failure(click.ClickException):
    """A bad-input error: one line on stderr and exit status 1."""

    exit_code = EXIT_PROBLEMS

    @classmethod
    def of(cls, error: BgcliError) -> Failure:
        """What a command's error ends it with (docs/exit-status.md): a file that cannot be read at all (a
        BgcliError that is also an OSError, bgcli.errors.FileReadError), or an engine that fails, times out or
        cannot judge the position (EngineError: rate, view and dice said 2 of it, hint and analyze said 1),
        exit 2; dice left out where the position carries none (MissingDiceError: check start 8/5 6/5), a usage
        error, exit 2; a file that is no file of the format it is read as (NotThisFormatError: an empty .txt
        where a position goes, an .xgp without XG's mark), the wrong file given, exit 2; bad input that was
        read (a position file cut short or damaged), 1."""
        from bgcli.errors import EngineError, MissingDiceError, NotThisFormatError

        if isinstance(error, (OSError, EngineError, MissingDiceError, NotThisFormatError)):
            return Unreadable(str(error))
        return Failure(str(error))

    def show(self, file=None) -> None:
        say(f"Error: {self.message}", err=True)


_NUMBER = re.compile(r"-?[0-9]{1,3}")


class Unavailable(Failure):
    """The engine is not installed: exit 2, the message names what to install."""

    exit_code = EXIT_UNREADABLE


def opened(name: str, level: int, timeout: float, met=None):
    """The running command's engine for (name, level, timeout, match equity table), opened once
    and closed when the command ends (a command runs inside
    ``bgcli.engines.kept.keeping``); a missing engine or a bad level in the
    command's words."""
    from bgcli.engines.kept import kept_engine
    from bgcli.errors import EngineUnavailableError

    try:
        return kept_engine(name, level, timeout, met)
    except EngineUnavailableError as exc:
        raise Unavailable(str(exc)) from None
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def is_board_of_numbers(words) -> bool:
    """26 words that are all numbers: one board of 26 numbers."""
    return len(words) == 26 and all(_NUMBER.fullmatch(w) for w in words)


def positions_of(words) -> list[str]:
    """The positions of command-line words, one per word, except that 26
    numbers in a row are one board: the one way every command that takes
    POSITION words reads them."""
    found: list[str] = []
    i = 0
    while i < len(words):
        if is_board_of_numbers(words[i:i + 26]):
            found.append(" ".join(words[i:i + 26]))
            i += 26
        else:
            found.append(words[i])
            i += 1
    return found


def refuse_jobs_without_batch(batch) -> None:
    """--jobs is for --batch only: given without it, a usage error rather than ignored."""
    from click.core import ParameterSource

    ctx = click.get_current_context()
    if batch is None and ctx.get_parameter_source("jobs") not in (ParameterSource.DEFAULT, None):
        raise click.UsageError("--jobs goes with --batch (one position is worked on in one process)")


def read_position(text: str):
    """A position written out, or a position file: eXtreme Gammon's (.xgp), Jellyfish's (.pos), a .txt:
    Snowie's text position or a program's text export of a position (XG's, BGBlitz's), or GNU Backgammon's
    `save position` (.sgf)."""
    from bgcli.core.ids import parse_position

    # no written position ends so: a missing file or a folder is said to be one (exit 2), not "invalid position"
    reader = _POSITION_FILES.get(os.path.splitext(text)[1].lower())
    if reader is not None:
        saved = reader(text)
        if saved is not None:   # None: an SGF that is a match, said so below
            return saved
    try:
        return parse_position(text)
    except InvalidPositionError as exc:
        if os.path.lexists(text) and not os.path.exists(text):   # a link to nothing, or a loop of links
            try:
                os.stat(text)
            except OSError as error:   # said as the file it names, not as a Position ID of the wrong length
                raise FileReadError(text, error) from exc
        if _missing_match_file(text):   # a file's name mistyped, as a missing .pos is said to be (exit 2)
            import errno

            raise FileReadError(text, FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), text)) from exc
        named = _path_named(text)
        if named is None:
            raise
        from bgcli.output import quote

        raise PathNotPositionError(f"invalid position {quote(text)}: {named}") from exc


class PathNotPositionError(InvalidPositionError, OSError):
    """A word where a position goes that names a folder or a file read as no position: the wrong input
    given, as a file that is not there or a match file of another kind is (an OSError: Failure.of ends
    it with status 2, as `cannot read` and `not a match file`), not a position read and found bad (1)."""


def _xgp(path: str):
    from bgcli.formats.xg import read_position as read_xgp

    return read_xgp(path)


def _jellyfish_position(path: str):
    from bgcli.formats import jfpos

    return jfpos.read_position(path)


def _text_position(path: str):
    from bgcli.formats import positionfile

    return positionfile.read(path)


def _saved_position(path: str):
    from bgcli.formats import sgf

    return sgf.read_position(path)   # None for an SGF that is a match


# The position files read_position reads, by suffix: what it reads and what a word that names another
# file is told (_path_named), from one list
_POSITION_FILES = {".xgp": _xgp, ".pos": _jellyfish_position, ".txt": _text_position, ".sgf": _saved_position}


def _missing_match_file(text: str) -> bool:
    """Whether ``text``, read as no position, names a match file that is not there (its name ends as a
    match file's, `samples/nosuch.mat`): said as a missing file, not with the list of every notation."""
    from bgcli.core.ids import id_shaped
    from bgcli.formats import registry

    return (not id_shaped(text) and not any(c.isspace() for c in text)
            and os.path.splitext(text)[1].lower() in registry.SUFFIXES and not os.path.exists(text))


def _path_named(text: str) -> str | None:
    """What a word that reads as no position but names a file or folder is, and what to do instead (a
    position is read from a file only when its name ends as read_position's do): the notations'
    list said nothing of the file a newcomer meant (`bgcli show samples/flawed_5pt.mat`)."""
    from bgcli.core.ids import id_shaped

    if id_shaped(text) or not os.path.exists(text):
        return None
    *others, last = _POSITION_FILES
    files = f"a position file's name ends {', '.join(others)} or {last}"
    if os.path.isdir(text):
        return f"that is a folder, not a position ({files})"
    from bgcli.formats import registry

    if os.path.splitext(text)[1].lower() in registry.SUFFIXES:
        return "that is a match file, not a position: `bgcli replay --boards FILE` draws its positions"
    return f"that is a file, not a position ({files})"


def read_position_words(words):
    """(game, dice or None) of the words of a command that takes POSITION [DICE] (show, analyze), read as
    moves and hint read theirs (bgcli.cli.batch.position_and_dice: ``31``, ``3-1``, ``3 1`` after the
    position; a typo in the dice is an error about the dice). The game as the position says it; dice
    None when none are written (the position's own, if any, stay in the game)."""
    from bgcli.cli.batch import position_and_dice   # here: the batch module is no part of a match command (start-up)

    return position_and_dice(list(words), read_position, dice_needed=False)


# Each command: the module (bgcli.cli.NAME) that defines it, and what it does in
# a few words, as `bgcli --help` lists it (the README's table of the commands and
# docs/index.md say the same, in this order: tests/test_cli_help.py). A command's
# module is imported when the command is run, so that one command does not pay
# for the imports of all (``bgcli moves`` starts in a fraction of the time), and
# the list of `bgcli --help` imports none.
COMMANDS = {
    "moves": ("positions", "the legal plays of a position and roll"),
    "check": ("positions", "is this play legal, and if not why"),
    "convert": ("positions", "a position in another notation"),
    "show": ("positions", "draw a position (text or SVG)"),
    "analyze": ("analyze", "pip and race counts, shots, bear-off odds"),
    "hint": ("hint", "an engine's best plays, or its cube action"),
    "rollout": ("rollout", "plays or a cube decision settled by rollouts"),
    "replay": ("matches", "every action of a match with the position before it"),
    "audit": ("audit", "what is wrong in match files"),
    "repair": ("repair", "the smallest fix for each problem, as a patch"),
    "rules": ("matches", "what each named set of rules means"),
    "score": ("matches", "a match game by game"),
    "export": ("matches", "a match in another format"),
    "rate": ("rate", "how well each player played"),
    "dice": ("dice", "are the dice consistent with fair dice"),
    "view": ("matches", "a match as an HTML page"),
    "chouette": ("chouette", "settle a chouette"),
    "met": ("met", "a match equity table"),
}
COMMAND_MODULES = {name: module for name, (module, _) in COMMANDS.items()}


class LazyGroup(click.Group):
    """A group whose commands are imported when first asked for, by
    COMMAND_MODULES; each module registers its commands (``@cli.command``)."""

    def list_commands(self, ctx) -> list[str]:
        return sorted(set(self.commands) | set(COMMAND_MODULES))

    def get_command(self, ctx, cmd_name: str):
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            import importlib

            importlib.import_module(f"bgcli.cli.{COMMAND_MODULES[cmd_name]}")
        return self.commands.get(cmd_name)

    def add_command(self, cmd, name=None) -> None:
        super().add_command(cmd, name)
        if cmd.name in COMMANDS:   # its few words as the list says them (shell completion shows them too)
            cmd.short_help = COMMANDS[cmd.name][1]

    def format_commands(self, ctx, formatter) -> None:
        """The commands in COMMANDS' order (what a position is, then judging, then match files), each with
        its few words whole (click's own list cut a command's first sentence at the terminal's width)."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, summary) for name, (_, summary) in COMMANDS.items()])

    def resolve_command(self, ctx, args):
        """click's, with a suggestion for a name that is close to a command's (``movs``: moves)."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as exc:
            import difflib

            name = args[0] if args else ""
            close = difflib.get_close_matches(name, self.list_commands(ctx), n=2) if name else []
            if close and name not in self.list_commands(ctx):
                setattr(exc, "message", f"{exc.message} Did you mean {' or '.join(close)}?")   # Final in click
            raise

    def load_all(self) -> MutableMapping[str, click.Command]:
        """Every command, its module imported: ``commands`` complete."""
        for name in self.list_commands(None):
            self.get_command(None, name)
        return self.commands


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="bgcli", message=f"%(prog)s, version %(version)s, {build}")
def cli():
    """bgcli: backgammon positions, move notation, legal plays and match transcripts.

    Positions are written as a GNU Backgammon Position ID, a GNUbg ID
    (PositionID:MatchID, also pasted from gnubg's board printout), an XGID,
    a FIBS board string, `start`, or 26 numbers. `bgcli COMMAND --help`
    says what a command takes, with examples; docs/index.md lists every page.

    \b
    Examples:
        bgcli moves start 31
        bgcli audit samples/flawed_5pt.mat
        bgcli hint start 31
    """


# --- transcripts: shared rule options ------------------------------------------

def rule_options(function):
    """The rule options shared by replay, audit, score, export and view: one
    per setting of ``bgcli.core.rules.SETTINGS`` that has one."""
    from bgcli.core.rules import PROFILES, SETTINGS

    options = [
        click.option("--rules", "profile", type=click.Choice(tuple(PROFILES), case_sensitive=False), default="standard",
                     show_default=True, help="A named set of rules (`bgcli rules` says what each means); "
                                             "the options below adjust it, and a file's tags override both."),
    ]
    for setting in SETTINGS:
        if setting.option is None:
            continue
        if setting.flag:
            options.append(setting_flag(setting))
        elif setting.words:
            # the option says what the setting is ("none", "needed"); a tag may say "off" too
            choices = (setting.words[1], setting.words[0])
            options.append(click.option(setting.option, type=click.Choice(choices), default=None, help=setting.help))
        else:
            options.append(click.option(setting.option, type=click.IntRange(setting.low, setting.high), default=None,
                                        metavar="N", help=setting.help))
    for option in reversed(options):
        function = option(function)
    return function


def setting_flag(setting, more: str = "", name: str | None = None):
    """The flag option of a rule setting (``--jacoby``, ``--no-crawford``), worded as
    ``bgcli.core.rules.SETTINGS`` words it (``more`` after its help); its parameter is ``name``, else the
    option's own; given, it is True (the setting takes ``setting.option_sets``)."""
    return click.option(setting.option, *([name] if name else []), is_flag=True, default=None,
                        help=f"{setting.help} {more}".strip())


def setting_flags(fields: tuple[str, ...], more: str = ""):
    """The flag options of the rule settings ``fields`` (``setting_flag``), each a parameter named as its
    field, for a command that takes those rules alone (hint: a position's rules its ID cannot carry)."""
    from bgcli.core.rules import SETTING_OF_FIELD

    def decorate(function):
        for field in reversed(fields):
            setting = SETTING_OF_FIELD[field]
            function = setting_flag(setting, more.format(play="A match" if setting.play != "match" else "A money"),
                                    field)(function)
        return function
    return decorate


def rules_from(profile="standard", **given):
    """The rules that the options of ``rule_options`` give: the profile, then
    each setting whose option was given."""
    from bgcli.core.rules import SETTINGS, Rules

    values = {}
    for setting in SETTINGS:
        if setting.option is None:
            continue
        value = given.pop(setting.option.lstrip("-").replace("-", "_"), None)
        if setting.flag:
            value = setting.option_sets if value else None
        elif setting.words and value is not None:
            value = value == setting.words[0]
        values[setting.field] = value
    if given:
        raise TypeError(f"rules_from() got unknown options: {', '.join(sorted(given))}")
    return Rules.from_options(profile, **values)


def replays_of(path: str, rules):
    """The replays of every match in ``path``; exit 2 when it cannot be read."""
    from bgcli.formats.files import replay_file

    try:
        return list(replay_file(path, rules))
    except OSError as exc:
        raise Unreadable(f"cannot read {path}: {os_reason(exc)}") from None
    except BgcliError as exc:
        raise Unreadable(str(exc)) from None


class Unreadable(Failure):
    """Exit 2: a file that cannot be read, or a usage error found past click (dice left out)."""

    exit_code = EXIT_UNREADABLE


# --- words, jobs, output, and the exit statuses of main() ------------------------------


MAX_JOBS = 64
_NEGATIVE_NUMBER = re.compile(r"-[0-9]")


class WordsCommand(click.Command):
    """A command whose words may begin with a minus sign: ``-1 -2 0 ...``, a
    board of 26 numbers, is words, not options (after ``--`` too). Any other
    word that looks like an option and is not one is refused, as usual."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("context_settings", {})["ignore_unknown_options"] = True
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx, args):
        options = {name: p for p in self.get_params(ctx) if isinstance(p, click.Option) for name in p.opts + p.secondary_opts}
        value_next = False
        for arg in args:
            if arg == "--":
                break
            if value_next:  # the value of the option before, whatever it looks like
                value_next = False
                continue
            option = options.get(arg.split("=", 1)[0]) or options.get(arg[:2])
            if option is not None:
                value_next = arg in options and not option.is_flag and not option.count
            elif arg.startswith("-") and arg != "-" and not _NEGATIVE_NUMBER.match(arg):
                import difflib

                name = arg.split("=", 1)[0]
                raise click.NoSuchOption(name, possibilities=difflib.get_close_matches(name, options), ctx=ctx)
        return super().parse_args(ctx, args)


def run_in_chunks(lines, jobs: int, chunk: int, work, serial) -> int:
    """Lines of a batch on up to ``jobs`` processes (bgcli.scale.pool): the
    input is cut into chunks of ``chunk`` lines, a few chunks ahead at most
    (standard input may be endless), ``work((block, first line number))``
    returns ``(status, text)`` for each in a worker, and the texts are
    written in the input's order. No more processes start than there are
    chunks: with one chunk, ``serial(block)`` runs here. A chunk whose worker
    dies gets an error line per line. On Ctrl-C or a closed output the
    chunks not started are dropped. Returns the worst status."""
    from itertools import chain, islice

    from bgcli.scale.pool import OrderedPool

    lines = iter(lines)
    blocks = iter(lambda: list(islice(lines, chunk)), [])
    ahead = list(islice(blocks, jobs))
    if len(ahead) <= 1:
        return serial(ahead[0] if ahead else [])

    def numbered():
        first = 1
        for block in chain(ahead, blocks):
            yield block, first
            first += len(block)

    status = 0
    for code, text in OrderedPool(work, len(ahead), lost=_lost_chunk).run(numbered()):
        sys.stdout.write(text)
        status = max(status, code)
    sys.stdout.flush()
    return status


def _lost_chunk(task) -> tuple[int, str]:
    import json

    block, first = task
    return EXIT_PROBLEMS, "".join(json.dumps({"error": f"line {n}: the process working on it died"}) + "\n"
                                  for n in range(first, first + len(block)))


def jobs_option(help: str):
    """``--jobs N``/``-j N``, checked: 1 to MAX_JOBS."""
    return click.option("--jobs", "-j", type=click.IntRange(1, MAX_JOBS), default=1, show_default=True, metavar="N",
                        help=help)   # click shows the range


class _OutputPath(click.ParamType):
    name = "file"

    def shell_complete(self, ctx, param, incomplete):
        return complete_file_names(ctx, param, incomplete)

    def convert(self, value, param, ctx):
        if not value:
            self.fail("the file name is empty (use - for standard output)", param, ctx)
        return value


OUTPUT_PATH = _OutputPath()


def output_option(function):
    """``-o FILE``/``--output FILE``: ``-`` is standard output, an empty name a usage error."""
    return click.option("-o", "--output", type=OUTPUT_PATH, metavar="FILE",
                        help="Write to FILE (- for standard output); a file is written whole or not at all.")(function)


def write_output(path: str | None, text: str | bytes) -> None:
    """A command's whole output to ``path`` (standard output when None or
    ``-``); a file is written beside and renamed (bgcli.output); bytes as they
    are. Exit 2 with one line when it cannot be written; the old file, if any, stays."""
    from bgcli.output import OutputError, write_text

    try:
        write_text(path or "-", text)
    except OutputError as exc:
        raise Unwritable(str(exc)) from None


class Unwritable(Failure):
    exit_code = EXIT_UNREADABLE


# What a command leaves for the process's end (large results or caches, hundreds of thousands of
# objects): main then ends the process at once, without
# freeing them one by one (a tenth of a second), once its output is flushed. Only the last is kept.
_left_for_exit: tuple = ()


def leave_for_exit(*things: object) -> None:
    """Keep ``things`` alive to the end of the process, and end it without
    freeing them, or anything else the process holds, object by object (see
    main): for a command done with large results or caches."""
    global _left_for_exit
    _left_for_exit = things or (None,)


COMPLETE_VARIABLE = "_BGCLI_COMPLETE"   # click's name for it: `eval "$(_BGCLI_COMPLETE=bash_source bgcli)"`
DEBUG_VARIABLE = "BGCLI_DEBUG"   # set: a bug's one line comes after its Python trace (docs/exit-status.md)


def main() -> None:
    """Run bgcli; the one place that turns what escapes a command into an exit
    status: click's errors as click shows them; Ctrl-C one line and 130
    (worker processes ignore it); a closed standard output quietly 141."""
    # the commands are registered by bgcli/cli/__init__.py, which is imported
    # before this module is: no import back up from here
    from bgcli.output import StandardOutputError, guard_standard_output, printable

    global _left_for_exit
    instruction = os.environ.get(COMPLETE_VARIABLE)
    if instruction:   # the shell asks for completions (docs/options.md says how to turn them on)
        from click.shell_completion import shell_complete

        sys.exit(shell_complete(cli, {}, "bgcli", COMPLETE_VARIABLE, instruction))
    # only the command this main runs decides how the process ends (a test may run several in one process)
    _left_for_exit = ()
    ended_before = _ended_workers()
    guard_standard_output()
    import signal

    signal.signal(signal.SIGTERM, raise_terminated)   # worker processes set it back (bgcli.scale.workers)
    try:
        try:
            with cli.make_context("bgcli", sys.argv[1:]) as ctx:
                cli.invoke(ctx)
            status = 0
        except SystemExit as exc:   # a command's own status: its output is flushed all the same
            status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
            if not isinstance(exc.code, (int, type(None))):
                click.echo(printable(str(exc.code)), err=True)
        sys.stdout.flush()
    except click.exceptions.Exit as exc:
        status = exc.exit_code
    except click.ClickException as exc:
        # click quotes most values with repr, but not all (its extra arguments, a file name): the
        # message may hold what a stranger wrote, and goes to the terminal escaped as all output does;
        # bgcli's own help (`bgcli` with no command) is bgcli's text, shown with its newlines
        if not isinstance(exc, click.exceptions.NoArgsIsHelpError):
            setattr(exc, "message", printable(exc.message))   # typed Final by click, set here only
        exc.show()
        status = exc.exit_code
    except Terminated:
        _remove_temporaries()
        say(TERMINATED, err=True)
        status = EXIT_TERMINATED
    except (KeyboardInterrupt, click.Abort):
        _remove_temporaries()
        click.echo(("\n" if sys.stderr.isatty() else "") + INTERRUPTED, err=True)
        status = EXIT_INTERRUPTED
    except (BrokenPipeError, StandardOutputError) as exc:
        if isinstance(exc, StandardOutputError) and not exc.closed:  # a full disk: say so
            click.echo(f"Error: {exc}", err=True)
            status = EXIT_UNREADABLE
        else:   # the reader went away (| head): nothing to say, to nobody
            status = EXIT_CLOSED_PIPE
        drop_standard_output()
    except Exception as exc:   # a bug of bgcli's, not the input's: one line all the same, the trace on request
        _remove_temporaries()
        debug = bool(os.environ.get(DEBUG_VARIABLE))
        if debug:
            import traceback

            traceback.print_exc()
        where = "" if debug else f" ({DEBUG_VARIABLE}=1 shows where)"
        say(f"Error: internal error, a bug in bgcli: {type(exc).__name__}: {printable(str(exc))[:200]}{where}; "
            "please report it with the command that gave it", err=True)
        status = EXIT_INTERNAL
    if _left_for_exit or _ended_workers() > ended_before:
        # a pool whose worker was ended can leave a thread that Python's exit would wait on for ever;
        # what a command left for the end (leave_for_exit) is not worth freeing object by object
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        end_process(status)
    sys.exit(status)


def end_process(status: int) -> None:
    """End the process at once (os._exit). A test that runs main in its own
    process replaces this, never os._exit itself: a pool's forked worker
    leaves through os._exit, and one that raised instead would go on running
    the test runner's loop in the child (xdist then hears of a test twice)."""
    os._exit(status)


def _remove_temporaries() -> None:
    """What a command cut off by a signal left of its output files (bgcli.output.remove_temporaries;
    nothing when no output module was imported: nothing was written)."""
    output = sys.modules.get("bgcli.output")
    if output is not None:
        output.remove_temporaries()


def _ended_workers() -> int:
    """How many pool workers this process has ended so far (none when the
    pool was never imported: importing it only to ask would slow every start)."""
    pool = sys.modules.get("bgcli.scale.pool")
    return getattr(pool, "ended_workers", 0) if pool is not None else 0


def drop_standard_output() -> None:
    """Point standard output at /dev/null, so that nothing left in its buffer
    makes a second error when Python exits."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())  # type: ignore[union-attr]
    except (OSError, AttributeError, ValueError):
        pass


def check_archive_options(paths, db_path: str | None, report: bool, jobs: int, scheduler: str | None) -> None:
    """The options that audit and rate share over an archive, checked one way for both."""
    if db_path is not None and not db_path.strip():
        raise click.UsageError("--db needs a file name, not an empty one")
    if report:
        if not db_path:
            raise click.UsageError("--report reads the database given with --db")
        if paths:
            raise click.UsageError("--report reads only the database: give no FILE")
    elif not paths:
        raise click.UsageError("Missing argument 'FILE...'.")
    refuse_jobs_with_scheduler(jobs, scheduler)


def refuse_jobs_with_scheduler(jobs: int, scheduler: str | None) -> None:
    """--jobs N and --scheduler name two ways to spread the work: both given is a usage error, never one
    of them ignored (rollout took the scheduler and dropped --jobs without a word)."""
    if scheduler and jobs > 1:
        raise click.UsageError("--jobs and --scheduler cannot be used together")


# --- -o/--output on every command that writes a result, and progress on a terminal ------

def result_output(function):
    """``-o FILE``/``--output FILE`` for a command that writes its result to
    standard output (``-`` is standard output): what the command writes goes
    to a temporary file beside FILE, which takes FILE's place when the
    command ends (with any status, if it wrote something: a batch with bad
    lines still has its output). A command that fails having written nothing
    (a usage error, an unreadable input, Ctrl-C) leaves the old file as it was.
    FILE may not be one of the command's inputs (writing it would destroy
    what is being read)."""
    import functools

    @functools.wraps(function)
    def run(*args, output=None, **kwargs):
        if output is None or output == "-":
            return function(*args, **kwargs)
        from bgcli.output import AtomicOutput, OutputError

        # the --db of audit, rate and dice too, made by the run if it is not there: the report would replace it
        database = [kwargs["db_path"]] if kwargs.get("db_path") else []
        refuse_input_as_output(output, [*input_paths(kwargs.values()), *database])
        try:
            target = AtomicOutput(output)
        except OutputError as exc:
            raise Unwritable(str(exc)) from None
        stream = _ResultStream(target)
        saved, sys.stdout = sys.stdout, stream  # type: ignore[assignment]
        keep = False
        try:
            function(*args, **kwargs)
            keep = True
        except SystemExit as exc:
            keep = exc.code in (0, None) or stream.written
            raise
        except OutputError as exc:   # the disk filled up on the way
            raise Unwritable(str(exc)) from None
        finally:
            sys.stdout = saved
            if keep:
                try:
                    target.commit()
                except OutputError as exc:
                    raise Unwritable(str(exc)) from None
            else:
                target.discard()

    return output_option(run)


class _ResultStream:
    """Standard output while a command writes to ``-o FILE``: a text stream
    into the file's bgcli.output.AtomicOutput, which says whether any text came."""

    encoding = "utf-8"
    errors = "strict"

    def __init__(self, target):
        self.target = target
        self.written = False

    def write(self, text: str) -> int:
        if not isinstance(text, str):   # click tells text streams from binary ones so
            raise TypeError("write() argument must be str")
        if text:
            self.written = True
            self.target.write(text)
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True


def refuse_input_as_output(output: str | None, inputs, option: str = "-o") -> None:
    """Exit 2 when ``-o`` (or ``option``) names one of the inputs: writing it would destroy what is being read.

    The one check of every command that writes a file (the output decorator's, export's, view's, repair's -o and
    --patch): the same file by the file system (a link, ``./``), or by path where the output does not exist yet."""
    if not output or output == "-":
        return
    inputs = list(inputs)
    for path in inputs:
        if path == "-":
            continue
        try:
            same = os.path.samefile(output, path)
        except OSError:
            same = os.path.abspath(output) == os.path.abspath(path)
        if same:
            raise click.UsageError(f"{option} {output} is one of the inputs: write somewhere else")
    _refuse_match_among_inputs(output, inputs, option)


_REPORT_SUFFIXES = (".txt", ".json")   # a match's suffixes that commands' reports are written with too


def _refuse_match_among_inputs(output: str, inputs, option: str) -> None:
    """A match file that an input folder or glob finds is an input too: ``replay DIR -o DIR/a.mat`` replaced
    a.mat with the replay (the walk skips the output file, taking it for the last run's report)."""
    from bgcli.formats import registry
    from bgcli.scale.archive import is_glob

    match_only = tuple(suffix for suffix in registry.SUFFIXES if suffix not in _REPORT_SUFFIXES)
    if not output.lower().endswith(match_only) or not os.path.isfile(output):
        return
    where = os.path.realpath(output)
    for path in inputs:
        if path == "-":
            continue
        if os.path.isdir(path):
            found = where.startswith(os.path.realpath(path).rstrip(os.sep) + os.sep)
        elif is_glob(path) and not os.path.lexists(path):
            import glob

            found = any(os.path.realpath(match) == where for match in glob.glob(path, recursive=True))
        else:
            continue
        if found:
            raise click.UsageError(f"{option} {output} is a match file that the input {path} finds: write somewhere else")


def input_paths(values):
    """The arguments of a command that name existing files, folders or globs: the inputs an output must not
    overwrite."""
    from bgcli.scale.archive import is_glob

    for value in values:
        for item in value if isinstance(value, (tuple, list)) else (value,):
            if not isinstance(item, str):   # a value an option read from a file (a --met table) names the file
                item = getattr(item, "path", None)
            if isinstance(item, str) and item not in ("", "-") and (os.path.exists(item) or is_glob(item)):
                yield item


PROGRESS_DELAY = 1.0   # seconds of work before a counter is shown: quick work says nothing
PROGRESS_EVERY = 0.2   # seconds between redraws


def progress_wanted() -> bool:
    """Progress is drawn on standard error when it is a terminal, unless the
    results go to that same terminal (they show the progress themselves, and
    a redrawn line would break them)."""
    try:
        if not sys.stderr.isatty():
            return False
        if not sys.stdout.isatty():
            return True
        return not os.path.samestat(os.fstat(sys.stdout.fileno()), os.fstat(sys.stderr.fileno()))
    except (AttributeError, ValueError, OSError):
        return False


class Counter:
    """``label: N unit`` on standard error, redrawn as the work goes, once
    the work has taken PROGRESS_DELAY seconds; :meth:`close` ends the line.
    Does nothing when progress is not wanted (:func:`progress_wanted`)."""

    def __init__(self, label: str, unit: str):
        import time

        self.label, self.unit = label, unit
        self.count = 0
        self.on = progress_wanted()
        self._clock = time.monotonic
        self._start = self._shown = self._clock()
        self._drawn = False

    def tick(self, n: int = 1) -> None:
        self.count += n
        if not self.on:
            return
        now = self._clock()
        if now - self._start >= PROGRESS_DELAY and now - self._shown >= PROGRESS_EVERY:
            self._shown = now
            self._draw("")

    def close(self) -> None:
        if self._drawn:
            self._draw("\n")
            self._drawn = False

    def _draw(self, end: str) -> None:
        try:
            unit = self.unit[:-1] if self.count == 1 and self.unit.endswith("s") else self.unit   # 1 game
            sys.stderr.write(f"\r{self.label}: {self.count} {unit}{end}")
            sys.stderr.flush()
            self._drawn = True
        except (OSError, ValueError):
            self.on = False


def progress(items, total: int = 0, label: str = "working", unit: str = "items", count=None):
    """``items``, passed through, with progress on a terminal only
    (:func:`progress_wanted`): a bar when ``total`` (5 or more) is known,
    else a counter of the items (of those for which ``count(item)`` is true)."""
    if not progress_wanted():
        yield from items
        return
    if total >= 5:
        with click.progressbar(items, length=total, file=sys.stderr, label=label) as bar:
            yield from bar
        return
    counter = Counter(label, unit)
    try:
        for item in items:
            yield item
            if count is None or count(item):
                counter.tick()
    finally:
        counter.close()
