"""The audit's fast paths give what the slow paths give.

- .mat rows: ``mat._row_actions`` (one pass, cells remembered by their text,
  rows of remembered cells split without the regular expression) equals
  ``_place(_row_segments(...))``, with the cache empty and full, over every row of
  the corpus and generated rows; whole files read the same with the fast
  row path and without it; cube and result cells are read without the
  grammar;
- plays: written pairs that cover several dice are split into die steps so
  that the replay judges them without listing the legal plays, and the replay
  gives the same problems as before;
- the replay's short path for the usual plays (on the sides' counts, no
  Position, no Judgement), and for rolls with no play that the counts prove
  have none, changes no audit of any file in tests/data; the proof of no
  play holds against the generator.
"""
from __future__ import annotations

import glob
import io
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import bgcli.core.judge as judge
import bgcli.match.game as game_module
from bgcli.core.rules import Rules
from bgcli.errors import MatchFileError
from bgcli.formats import mat, reading
from bgcli.match.records import Action
from bgcli.match import plays
from bgcli.match.plays import die_steps as _die_steps, sides_after_play
from bgcli.match.events import EventKind
from bgcli.scale.archive import audit_file
from bgcli.core.position import Position
from bgcli.core.generator import legal_plays
from bgcli.core.judge import play_from_steps

from conftest import DATA
from test_audit_steps import oracle_queries
from test_legal import positions


def match_files() -> list[str]:
    files = sorted(f for pattern in ("corpus/*/*", "oracle/selfplay/*.mat", "oracle/audit_sample/*.mat", "matchfiles/*")
                   for f in glob.glob(str(DATA / pattern)) if not f.endswith((".md", ".json", ".jsonl")))
    if not files:
        pytest.fail("no match files in tests/data: the repository holds them", pytrace=False)
    return files


def rows() -> list[tuple[int, str]]:
    found = []
    for path in match_files():
        for number, line in enumerate(Path(path).read_bytes().decode("utf-8", "replace").split("\n"), 1):
            line = line.rstrip("\r")
            if re.match(r"[ \t]*[0-9]+\)", line) or re.match(r"[ \t]+(Wins|Losses)", line):
                found.append((number, line))
    return found


def slow_actions(text: str, number: int):
    segments = mat._row_segments(text)
    return None if segments is None else mat._place(segments, text, number, "-")


def test_fast_rows_equal_the_regular_expression_cold_and_warm():
    every = rows()
    assert len(every) > 5000
    mat._CELLS.clear()
    for number, text in every:
        assert mat._row_actions(text, number) == slow_actions(text, number), text
    assert len(mat._CELLS) > 1000
    for number, text in every:   # now nearly every row is split without the expression
        assert mat._row_actions(text, number) == slow_actions(text, number), text


CELL = st.sampled_from([
    "21: 13/11 24/23", "66:", "55: Cannot Move", "31: ???", "64: bar/18* 6/off(2)", "Doubles => 2", "Takes", "Drops",
    "Wins 1 point", "Wins 3 points and the match", "Losses 2 point", "Beavers => 4", "43: 24-20 B/22", "52: 13/8*/6",
    "61: 13/7  8/7", "61:\t13/7 8/7", "16: 13/7 8/7", "8/7", "Doubles => 1234567890", "Wins", "x", "(2)", "3)",
])
SPACE = st.sampled_from([" ", "  ", "   ", "\t", " \t ", "                 ", "\u00a0 "])


@settings(deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.one_of(st.none(), st.integers(0, 120), st.just(1234567890)), lead=SPACE,
       cells=st.lists(CELL, max_size=3), gaps=st.lists(SPACE, min_size=3, max_size=3), tail=st.sampled_from(["", " ", "  "]))
def test_generated_rows_fast_and_slow_agree(number, lead, cells, gaps, tail):
    head = "" if number is None else f"{lead}{number})"
    text = head + "".join(gap + cell for gap, cell in zip(gaps, cells)) + tail
    for cell in cells:   # remembered cells, as after a first pass
        mat._row_actions(f"  1) {cell}", 1)
    assert mat._row_actions(text, 7) == slow_actions(text, 7), text


def read_all(path: str):
    """The records of a file, errors as text (exceptions compare by identity)."""
    try:
        return [replace(record, errors=tuple(map(str, record.errors))) for record in mat.iter_file(path)]
    except MatchFileError as exc:
        return str(exc)


def test_files_read_the_same_without_the_fast_row(monkeypatch):
    files = match_files()
    fast = {path: read_all(path) for path in files}
    assert sum(isinstance(records, list) for records in fast.values()) > 100
    # the one-pass rows against the regular expression and _place (the C accelerator's rows too)
    monkeypatch.setattr(mat, "_rows_in_c", None)
    monkeypatch.setattr(mat, "_row_actions", slow_actions)
    for path in files:
        assert read_all(path) == fast[path], path
    # every row through _Reader.feed and the grammar
    monkeypatch.setattr(mat, "_row_actions", lambda text, number: None)
    for path in files:
        assert read_all(path) == fast[path], path


def test_cube_and_result_cells_need_no_grammar(monkeypatch):
    def refused(*args):
        raise AssertionError("the grammar was asked")

    monkeypatch.setattr(mat, "_grammar_line", refused)
    for text in ("  2)  Doubles => 2                Takes", "  7)                              Drops",
                 "      Wins 2 points", "                                  Wins 4 points and the match",
                 "      Losses 1 point"):
        assert mat._COMMON_ROW.match(text), text
        assert mat.read_row(text, 3)


# --- plays: splitting pairs that cover several dice ------------------------------------


def test_pairs_of_several_dice_are_split_through_open_points(monkeypatch):
    start = Position.start()
    cases = [((2, 1), "24/21"), ((4, 4), "13/5 13/5"), ((4, 4), "24/16 13/5"), ((3, 3), "24/15 13/10"), ((6, 5), "24/13")]
    wanted = []
    for dice, text in cases:
        moves = _die_steps(start, dice, text)
        assert len(moves) == (4 if dice[0] == dice[1] else 2), (text, moves)
        wanted.append(play_from_steps(start, dice, moves).result)

    def refused(*args):
        raise AssertionError("legal_plays was called")

    monkeypatch.setattr(judge, "legal_plays", refused)
    for (dice, text), result in zip(cases, wanted):
        assert play_from_steps(start, dice, _die_steps(start, dice, text)).result == result


def test_a_pair_through_a_blot_or_a_block_stays_whole():
    # the opponent's blots on our 22 and 23, built by hand
    player = Position.start().player
    opponent = list(Position.start().opponent)
    opponent[24] = 0            # the opponent's back checkers moved...
    opponent[3], opponent[2] = 1, 1   # ...to its 3 (our 22) and 2 (our 23) as blots
    opponent[0] = 0
    position = Position(player, tuple(opponent))
    assert _die_steps(position, (2, 1), "24/21") == ((24, 21),)
    # every way through hits a blot, so no legal play reaches what "24/21" (no hit) reaches
    assert all(p.hits for p in legal_plays(position, (2, 1)) if str(p).startswith("24/2"))
    assert play_from_steps(position, (2, 1), [(24, 21)]) is None


# --- plays: the spelling of gnubg's .mat export, read without the notation's reader ----------

plain_pair = st.tuples(st.integers(0, 30), st.integers(0, 30), st.booleans()).map(
    lambda p: f"{p[0]}/{p[1]}{'*' if p[2] else ''}")
blanks = st.sampled_from([" ", "  ", "\t", " \t"])


shown_point = st.one_of(st.integers(0, 30).map(str), st.sampled_from(["bar", "off", "Bar", "b", "o", "상3", "하12", "05"]))
shown_move = st.tuples(st.lists(st.tuples(shown_point, st.booleans()), min_size=2, max_size=4),
                       st.sampled_from(["", "", "(1)", "(2)", "(3)", "(4)", "(5)", "(0)"])).map(
    lambda m: "/".join(p + ("*" if hit else "") for p, hit in m[0]) + m[1])


@settings(max_examples=400)
@given(pairs=st.lists(st.one_of(plain_pair, shown_move), min_size=1, max_size=5),
       gaps=st.lists(blanks, min_size=5, max_size=5), side=st.sampled_from([0, 1]))
@example(pairs=["25/23*", "4/0"], gaps=[" "] * 5, side=0)
@example(pairs=["26/20"], gaps=[" "] * 5, side=1)
@example(pairs=["bar/19*/18", "6/off(2)"], gaps=[" "] * 5, side=1)
def test_plain_pairs_read_as_the_notation_reads_them(pairs, gaps, side):
    text = "".join(pair + gap for pair, gap in zip(pairs, gaps)).rstrip()
    plays._PAIRS.clear()
    assert plays.written_pairs(text, side) == plays.read_pairs(text, side), text


def test_plain_and_shown_pairs_skip_the_notation_reader(monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("the notation's reader was asked")

    plays._PAIRS.clear()
    monkeypatch.setattr(plays, "parse_play_text", refused)
    assert plays.written_pairs("25/23* 13/10", 1) == ((25, 23), (13, 10))
    assert plays.written_pairs("6/0 5/0 5/0 4/0", 0) == ((6, 0), (5, 0), (5, 0), (4, 0))
    assert plays.written_pairs("bar/20*/15 6/off(2)", 1) == ((25, 20), (20, 15), (6, 0), (6, 0))


def test_chains_and_repeats_are_read_as_pairs():
    plays._PAIRS.clear()
    assert plays.written_pairs("bar/20*/15", 1) == ((25, 20), (20, 15))
    assert plays.written_pairs("13/9(2) 6/2", 1) == ((13, 9), (13, 9), (6, 2))
    assert plays.written_pairs("61: 13/7 8/7", 1) is None
    assert plays.written_pairs("13/x", 1) is None


# --- the replay's short path for the usual plays ----------------------------------------


def audit_all(rules=None) -> dict:
    results = {}
    for path in match_files():
        result = audit_file(path, rules)
        results[path] = (result.games, result.error, result.problems)
    return results


def test_the_short_path_of_plays_changes_no_audit(monkeypatch):
    """Every file of tests/data audits the same (problems, games, errors)
    with the replay's short path for the usual plays and without it; and the
    short path settles most plays."""
    settled = []

    def counted(*args):
        sides = sides_after_play(*args)
        settled.append(sides is not None)
        return sides

    monkeypatch.setattr(plays, "sides_after_play", counted)   # the step of plays.settled_roll
    monkeypatch.setattr(game_module, "sides_after_plays", None)   # each play through sides_after_play, counted
    for rules in (None, Rules(beavers=True, auto_doubles=1)):
        fast = audit_all(rules)
        assert sum(1 for _, _, problems in fast.values() if problems) > 50
        with monkeypatch.context() as m:
            m.setattr(plays, "sides_after_play", lambda *args: None)
            m.setattr(plays, "dances", lambda *args: False)
            assert audit_all(rules) == fast
    assert sum(settled) > 0.9 * len(settled) > 10_000


def test_the_short_path_of_rolls_with_no_play_changes_no_audit(monkeypatch):
    """A roll with no play that the counts prove has none (the bar, every
    entry held) takes the short path; the audits are those of the long way,
    which lists the legal plays to see that there is none."""
    proved = []

    def counted(*args):
        proof = judge.dances(*args)
        proved.append(proof)
        return proof

    monkeypatch.setattr(plays, "dances", counted)   # the proof plays.settled_roll asks
    # the Python short path (the C run settles these rolls too: test_the_run_of_plays_in_c_changes_no_audit
    # holds it to the Python one)
    monkeypatch.setattr(game_module, "sides_after_plays", None)
    fast = audit_all()
    assert sum(proved) > 1000, sum(proved)
    monkeypatch.setattr(plays, "dances", lambda *args: False)
    assert audit_all() == fast


@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions(), high=st.integers(1, 6), low=st.integers(1, 6))
def test_the_proof_of_no_play_holds(position, high, low):
    """``dances`` says a roll has no play only when the generator finds none
    (positions with checkers on the bar and the entries held are drawn often)."""
    high, low = max(high, low), min(high, low)
    if judge.dances(position.player, position.opponent, high, low):
        assert legal_plays(position, (high, low)) == [], (position.id(), high, low)


def test_the_proof_of_no_play_on_the_oracle_sample():
    """Over gnubg's oracle sample: every roll the proof settles has no legal
    play, and the proof settles the usual dances (the bar, the entries held)."""
    proved = 0
    for position, dice in oracle_queries():
        if judge.dances(position.player, position.opponent, *dice):
            proved += 1
            assert legal_plays(position, dice) == [], (position.id(), dice)
        elif position.player[25] and all(position.opponent[d] >= 2 for d in dice):
            pytest.fail(f"{position.id()} {dice}: a dance from the bar the proof misses")
    assert proved > 20, proved


def test_plays_after_a_borne_off_game_and_out_of_turn_are_problems_on_the_short_path(tmp_path):
    """A play recorded after the last checker is borne off, and one out of
    turn, are what they are on the short path too (the state it moves on is
    the long path's: the game over, the turn)."""
    source = DATA / "oracle" / "selfplay" / "sp05003_7pt.mat"
    lines = source.read_text().split("\n")
    replay = next(mat.replay_match(record) for record in mat.iter_file(source))
    ends = [e for e in replay.events if e.kind == EventKind.MOVE and e.after is not None and e.after.player[0] == 15]
    assert ends, "a game of the file ends by bearing off"
    last = ends[0]
    loser = last.after.swap()   # the loser's view: a legal play of 21 for it, written after the game is over
    play = legal_plays(loser, (2, 1))[0]
    written = " ".join(f"{step.start}/{step.end}" for step in play.steps)
    cell = f"21: {written}"
    late = f" 99) {cell}" if last.side == 1 else f" 99) {'':27} {cell}"   # the loser's column
    path = tmp_path / "late.mat"
    path.write_text("\n".join(lines[:last.line] + [late] + lines[last.line:]))
    problems = audit_file(str(path)).problems
    assert any("after the game was over" in p["message"] and p["line"] == last.line + 1 for p in problems), problems
    # a right-column play again, on a row of its own, after a full row: out of turn
    middle = next(e for e in replay.events if e.kind == EventKind.MOVE and e.game == last.game and e.move > 3 and e.side == 1)
    again = f" 98) {'':27} {middle.dice[0]}{middle.dice[1]}: {middle.record.play_text}"
    path.write_text("\n".join(lines[:middle.line] + [again] + lines[middle.line:]))
    problems = audit_file(str(path)).problems
    assert any("out of turn" in p["message"] and p["line"] == middle.line + 1 for p in problems), problems


def test_auditing_a_plain_file_does_not_import_lark():
    """lark is imported when a line first needs the grammar, not with the
    .mat reader: the start-up of an audit of files in the common shapes."""
    script = ("import sys\nfrom bgcli.scale.archive import audit_file\n"
              f"result = audit_file({str(DATA / 'oracle' / 'selfplay' / 'sp05003_7pt.mat')!r})\n"
              "assert result.games and not result.problems, result\n"
              "print('lark' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
    # an odd row still reaches the grammar, and its error (a row whose roll
    # cannot be read: a bad play cell is read as a move the replay judges)
    script = ("import sys\nfrom bgcli.formats import mat\nfrom bgcli.errors import MatchFileError\n"
              "try:\n    mat.read_row('  1) x1: 8/5 6/5 64: 24/18 13/9', 1)\n"
              "except MatchFileError as exc:\n    print('lark' in sys.modules, exc)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("True ") and "unexpected 'x'" in done.stdout, done.stdout


def test_a_folder_walk_opens_no_file_whose_suffix_only_matches_have(monkeypatch, tmp_path):
    """Only a .txt file found in a folder is opened to see whether it is a
    match; a .mat file is audited whatever it holds (and opened once, then)."""
    import builtins

    from bgcli.scale import archive

    (tmp_path / "a.mat").write_text("hello\n")
    (tmp_path / "b.txt").write_text("hello\n")
    opened = []
    real = builtins.open
    monkeypatch.setattr(builtins, "open", lambda path, *args, **kw: opened.append(str(path)) or real(path, *args, **kw))
    found = list(archive.find_files([str(tmp_path)]))
    assert found == [str(tmp_path / "a.mat")]
    assert opened == [str(tmp_path / "b.txt")]


# --- reading a .mat file in blocks ------------------------------------------------------


def lines_one_by_one(raw: bytes) -> tuple[list[str], str | None]:
    """The reference: a line at a time (``readline`` with the bound), each decoded alone; a lone CR
    ends a line as a LF does (reading.LINE_END), so it is a LF here, byte for byte."""
    raw = re.sub(rb"\r(?!\n)", b"\n", raw)
    out: list[str] = []
    handle, decoder = io.BytesIO(raw), reading.Decoder("f")
    offset = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
    handle.seek(offset)
    try:
        while line := handle.readline(reading.LINE_LIMIT + 1):
            if len(line) > reading.LINE_LIMIT:
                raise MatchFileError(f"line {len(out) + 1} is longer than 0 MB: this is not a match file", "f",
                                     len(out) + 1, 1)
            out.append(decoder.line(line[:-1] if line.endswith(b"\n") else line, len(out) + 1, offset))
            offset += len(line)
    except MatchFileError as exc:
        return out, str(exc)
    return out, None


def lines_in_blocks(raw: bytes, block: int) -> tuple[list[str], str | None]:
    out: list[str] = []
    try:
        for line in reading.text_lines(io.BytesIO(raw), "f", block):
            out.append(line)
    except MatchFileError as exc:
        return out, str(exc)
    return out, None


PIECE = st.sampled_from([b"\n", b"\r\n", b"a", b"  1) 31: 8/5 6/5", b"\xc3\xa9", b"\xe9", b"\xc3", b"\xa9", b"x" * 9,
                         b"\xef\xbb\xbf", b"\r", b"\x0c", b"\xb1\xe8", b"\x93\x63", b"\x81"])


@settings(deadline=None, max_examples=500, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(PIECE, max_size=30), block=st.integers(1, 40))
@example(pieces=[b"\xc3\xa9", b"\n", b"\xe9", b"\n"], block=64)     # UTF-8 and Windows-1252 lines in one block
@example(pieces=[b"a", b"\n", b"\x81", b"\n"], block=64)           # a byte no encoding reads: its offset
@example(pieces=[b"x" * 9, b"abc", b"\n", b"a"], block=64)         # a line as long as the bound
@example(pieces=[b"x" * 9, b"ab", b"\n", b"x" * 9, b"abc", b"\n"], block=64)
@example(pieces=[b"a", b"\n", b"x" * 9, b"abcd"], block=5)         # a last line past the bound
@example(pieces=[b"\n", b"aaa", b"x" * 9, b"\r"], block=14)        # a last line as long as the bound, a lone CR after it
def test_lines_read_in_blocks_are_the_lines_read_one_by_one(monkeypatch, pieces, block):
    """The same lines (UTF-8, else a legacy encoding line by line), the same
    bound on a line's length, the same error at the same line, whatever the block."""
    monkeypatch.setattr(reading, "LINE_LIMIT", 12)
    raw = b"".join(pieces)
    assert lines_in_blocks(raw, block) == lines_one_by_one(raw)


def test_a_file_read_in_blocks_reads_as_line_by_line(monkeypatch):
    files = match_files()
    blocks = {path: read_all(path) for path in files}
    monkeypatch.setattr(mat, "text_lines", lambda handle, path: iter(lines_one_by_one(handle.read())[0]))
    for path in files:
        assert read_all(path) == blocks[path], path


# --- the C accelerator's row reader --------------------------------------------------------------

C_CELL = st.one_of(CELL, st.builds(
    lambda dice, blanks, steps: f"{dice}:" + "".join(blank + step for blank, step in zip(blanks, steps)),
    st.sampled_from(["31", "66", "16", "07", "70", "3", "315"]),
    st.lists(st.sampled_from([" ", "  ", "\t"]), min_size=4, max_size=4),
    st.lists(st.builds(lambda points, marks, repeat: "/".join(p + m for p, m in zip(points, marks)) + repeat,
                       st.lists(st.sampled_from(["0", "5", "13", "25", "99", "123", "bar", "off", "", "Bar"]),
                                min_size=1, max_size=4),
                       st.lists(st.sampled_from(["", "", "*", "**"]), min_size=4, max_size=4),
                       st.sampled_from(["", "", "(2)", "(x)", "(12)"])), max_size=4)),
    st.sampled_from(["Doubles => 64", "Doubles =>  2", "Wins 12 points", "Wins 1 point and the match", "Wins 2 pointss",
                     "Losses 3 points", "Losses 1 point and the match", "Takes ", "Drops x", "31: ????", "31: ?x",
                     "31: Cannot Move", "31:  Cannot Move", "31: Cannot  Move", "43: 24/20 상3/하2", "52:"]))


@pytest.mark.skipif(mat._rows_in_c is None, reason="the C accelerator is not built (BGCLI_PURE=1, no compiler)")
@settings(deadline=None, max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.one_of(st.none(), st.integers(0, 120), st.just(1234567890)), lead=SPACE,
       cells=st.lists(C_CELL, max_size=3), gaps=st.lists(SPACE, min_size=3, max_size=3),
       tail=st.sampled_from(["", " ", "  "]), warm=st.booleans())
def test_row_actions_in_c_reads_rows_as_the_python_reader(number, lead, cells, gaps, tail, warm):
    """The C accelerator's row_actions against its owner, mat._row_actions: where C answers,
    the Actions of the Python reader, field for field, its cells remembered or not."""
    head = "" if number is None else f"{lead}{number})"
    text = head + "".join(gap + cell for gap, cell in zip(gaps, cells)) + tail
    if not warm:
        mat._CELLS.clear()
    got = mat._rows_in_c(text, 7)
    if got is not NotImplemented:
        assert got == mat._row_actions(text, 7), text
        assert [type(action) for action in got] == [Action] * len(got)


def test_row_actions_in_c_reads_the_rows_of_every_file_as_the_python_reader():
    """Every row of the match files of tests/data: where C answers, the Python reader's Actions;
    and it answers nearly every numbered row (the rest, unnumbered, tabbed, Korean, goes to Python)."""
    if mat._rows_in_c is None:
        pytest.skip("the C accelerator is not built")
    every = rows()
    mat._CELLS.clear()
    answered = 0
    for number, text in every:
        got = mat._rows_in_c(text, number)
        if got is not NotImplemented:
            answered += 1
            assert got == mat._row_actions(text, number), text
    assert answered > 0.8 * len(every)


def test_the_run_of_plays_in_c_changes_no_audit(monkeypatch):
    """Every file of tests/data audits the same with the C accelerator's run of plays in turn
    (plays.sides_after_plays) and with each play settled by sides_after_play in Python."""
    if game_module.sides_after_plays is None:
        pytest.skip("the C accelerator is not built")
    for rules in (None, Rules(beavers=True, auto_doubles=1)):
        with_c = audit_all(rules)
        with monkeypatch.context() as m:
            m.setattr(game_module, "sides_after_plays", None)
            m.setattr(plays, "_play_in_c", None)
            assert audit_all(rules) == with_c


def test_the_first_roll_of_a_game_takes_the_short_path(monkeypatch):
    """The first play of a game, where move() would find no problem of the opening in it, is settled by
    the short path of plays (GameReplay.plain_opening): of the 181 games of gnubg's self-play files,
    few plays go the long way (judge_play), the first ones no more."""
    long_way = []

    def counted(*args):
        long_way.append(args)
        return plays.judge_play(*args)

    monkeypatch.setattr(game_module, "judge_play", counted)
    results = [audit_file(path) for path in sorted(glob.glob(str(DATA / "oracle" / "selfplay" / "*.mat")))]
    games = sum(result.games for result in results)
    assert games == 181 and not any(result.problems for result in results)
    assert len(long_way) < games / 2, len(long_way)
