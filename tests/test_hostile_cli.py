"""Hostile input across the subcommands (a sweep of every command with missing, empty, binary files, folders
where files are expected, odd option values): one line on standard error naming the input and what is wrong
with it, a documented status (docs/exit-status.md), never a traceback."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import DATA, SAMPLES, invoke

FLAWED = str(SAMPLES / "flawed_5pt.mat")


def one_error(result) -> str:
    """The one line of standard error (asserting there is one)."""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize("name", ["empty", "no-such-*.mat"])
def test_a_view_of_paths_that_name_no_match_file_says_so_once(tmp_path, name):
    """view said it twice: the path's own line, then 'no match files found in' it."""
    (tmp_path / "empty").mkdir()
    result = invoke("view", tmp_path / name)
    assert result.exit_code == 2
    assert result.stdout == ""
    line = one_error(result)
    assert str(tmp_path / name) in line


def test_a_folder_exported_to_one_output_is_a_usage_error_that_says_how(tmp_path):
    """It was 'cannot read FOLDER: it is a directory, not a file', as if a folder could never be exported."""
    result = invoke("export", SAMPLES, "--to", "json")
    assert result.exit_code == 2
    assert f"Error: {SAMPLES} is a folder: export its files with -o FOLDER" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("args", [["--report", "--db", "{db}"], ["--db", "{db}", "--report"],
                                  ["--report", "players", "--db", "{db}"]])
def test_rate_report_needs_no_value(tmp_path, args):
    """``rate --report --db F`` took --db for the report's name: "'--db' is not 'players'"; at the end of the
    line, --report was "requires an argument", though the help writes it --report [players]."""
    db = tmp_path / "ratings.sqlite"
    result = invoke("rate", *[a.format(db=db) for a in args])
    assert result.exit_code == 2
    assert one_error(result) == f"Error: no ratings database {db}"


@pytest.mark.parametrize("command, kind", [(["audit", FLAWED], "results"), (["dice", FLAWED], "dice tallies"),
                                           (["audit", "--report"], "results"), (["rate", "--report"], "ratings")])
def test_a_database_that_is_a_folder_or_in_no_folder_is_said_so(tmp_path, command, kind):
    """sqlite's own words were 'unable to open database file', for a folder and for a missing folder alike."""
    result = invoke(*command, "--db", tmp_path)
    assert result.exit_code == 2
    assert one_error(result) == f"Error: cannot use {tmp_path} as a {kind} database: it is a directory, not a file"
    if "--report" in command:
        return
    missing = tmp_path / "nowhere" / "x.db"
    result = invoke(*command, "--db", missing)
    assert result.exit_code == 2
    assert one_error(result) == f"Error: cannot use {missing} as a {kind} database: folder " \
                                f"'{tmp_path / 'nowhere'}' does not exist"


@pytest.mark.parametrize("command", [["moves", "{p}", "31"], ["show", "{p}"], ["analyze", "{p}"], ["hint", "{p}", "31"],
                                     ["check", "{p}", "31", "8/5 6/5"]])
@pytest.mark.parametrize("suffix", [".xgp", ".txt"])
def test_a_position_file_that_is_missing_or_a_folder_is_a_file_that_cannot_be_read(tmp_path, command, suffix):
    """A position file's name (.xgp, .txt) that named no file was 'invalid position ...: expected start, a
    position id, ...' with status 1; it is a file that cannot be read, status 2, as docs/exit-status.md says."""
    missing = tmp_path / f"nope{suffix}"
    result = invoke(*[a.format(p=missing) for a in command])
    assert result.exit_code == 2
    assert one_error(result) == f"Error: cannot read {missing}: No such file or directory"
    folder = tmp_path / f"folder{suffix}"
    folder.mkdir()
    result = invoke(*[a.format(p=folder) for a in command])
    assert result.exit_code == 2
    assert one_error(result) == f"Error: cannot read {folder}: it is a directory, not a file"


def test_a_snowie_position_that_is_not_text_names_its_file(tmp_path):
    """The error named '-' (standard input) instead of the file."""
    path = tmp_path / "position.txt"
    path.write_bytes(b"0;0;0;\x81\x8d\x8f\x90\x9d" * 10)
    result = invoke("show", path)
    assert result.exit_code == 1
    assert one_error(result).startswith(f"Error: {path}:1: the byte at offset ")


def test_an_error_about_a_file_as_a_whole_names_no_line_0(tmp_path):
    """'F:0: not an eXtreme Gammon file' read as line 0 of the file, which is not there. An XG file (its mark
    RGMH) cut short in its header is a position file found damaged: status 1 (docs/exit-status.md)."""
    path = tmp_path / "short.xgp"
    path.write_bytes(b"RGMH" + bytes(100))
    result = invoke("show", path)
    assert result.exit_code == 1
    line = one_error(result)
    assert line == f"Error: {path}: the file is cut short: 104 bytes, shorter than XG's 8232-byte header"


_NO_POSITION_FILES = {   # what a file named as a position file holds that is no file of its kind at all
    "empty.txt": b"", "words.txt": b"hello world\n", "empty.pos": b"", "words.pos": b"hello world\n",
    "empty.xgp": b"", "picture.xgp": b"\x89PNG\r\n\x1a\n" + bytes(9000), "words.sgf": b"hello world\n",
    "empty.sgf": b"", "blank.sgf": b"  \n",
}


@pytest.mark.parametrize("command", [["show", "{p}"], ["moves", "{p}", "31"], ["check", "{p}", "31", "8/5 6/5"]])
@pytest.mark.parametrize("name", sorted(_NO_POSITION_FILES))
def test_a_position_file_that_is_no_file_of_its_kind_is_the_wrong_file_given(tmp_path, command, name):
    """An empty .txt, or an .xgp without XG's mark, where a position goes exited 1, as a position read and
    found bad, while a folder or a match file there exits 2 and a match command exits 2 for a file of another
    kind: a file that is no position file at all is the wrong file given, status 2 (docs/exit-status.md)."""
    path = tmp_path / name
    path.write_bytes(_NO_POSITION_FILES[name])
    result = invoke(*[a.format(p=path) for a in command])
    assert result.exit_code == 2, result.stderr
    assert one_error(result).startswith(f"Error: {path}")


@pytest.mark.parametrize("command", [["moves", "{p}", "31"], ["hint", "{p}"], ["show", "{p}"]])
@pytest.mark.parametrize("text", [b"", b"  \n"], ids=["empty", "blank"])
def test_an_sgf_with_no_game_tree_is_no_sgf_not_a_match_file(tmp_path, command, text):
    """An empty .sgf where a position goes was called a match file ('that is a match file, not a position'):
    it holds no game tree, so it is no SGF at all, the wrong file given, as a .sgf whose text opens none."""
    path = tmp_path / "empty.sgf"
    path.write_bytes(text)
    result = invoke(*[a.format(p=path) for a in command])
    assert result.exit_code == 2, result.stderr
    assert one_error(result) == f"Error: {path}:1:1: cannot read SGF: the file holds no game tree"


def test_a_position_file_cut_short_is_a_position_read_and_found_bad(tmp_path):
    """A real Jellyfish position cut short, or an SGF file whose tree is cut short, is a position file whose
    contents are damaged: status 1, as a position written out that breaks the rules (an empty .pos, no version
    at all, or a .sgf that opens no tree, is 2: above)."""
    whole = (DATA / "jellyfish" / "pos" / "bar_bob_on_roll_52.pos").read_bytes()
    cut = tmp_path / "cut.pos"
    cut.write_bytes(whole[:40])
    result = invoke("show", cut)
    assert result.exit_code == 1
    assert one_error(result).startswith(f"Error: {cut}:1:1: the Jellyfish position is cut short at byte ")
    saved = tmp_path / "cut.sgf"   # an SGF's tree opened and cut short: an SGF file damaged
    saved.write_bytes(b"(;GM[6]\n(;")
    result = invoke("show", saved)
    assert result.exit_code == 1
    assert one_error(result) == f"Error: {saved}:2:3: cannot read SGF: unexpected end of input"


@given(st.binary(max_size=300), st.sampled_from([".txt", ".xgp"]),
       st.sampled_from([["moves", "{p}", "31"], ["show", "{p}"], ["analyze", "{p}"], ["check", "{p}", "31", "8/5 6/5"]]))
def test_any_bytes_as_a_position_file_are_one_line_and_a_documented_status(tmp_path_factory, data, suffix, command):
    path = tmp_path_factory.mktemp("position") / f"p{suffix}"
    path.write_bytes(data)
    result = invoke(*[a.format(p=path) for a in command])
    assert result.exit_code in (0, 1, 2)
    if result.exit_code:
        one_error(result)


def test_a_scheduler_address_dask_cannot_parse_is_one_line_without_python_s_words():
    """It was '...: ValueError: unknown address scheme ...': the name of a Python exception class."""
    pytest.importorskip("distributed")
    result = invoke("audit", FLAWED, "--scheduler", "http://[::1")
    assert result.exit_code == 2
    line = one_error(result)
    assert line.startswith("Error: cannot use 'http://[::1' as a Dask scheduler address: unknown address scheme 'http'")
    assert "ValueError" not in line



@pytest.mark.parametrize("command", [["hint", "start", "31"], ["analyze", "start"], ["rollout", "start", "31", "--trials", "36"],
                                     ["view", FLAWED], ["rate", FLAWED]])
def test_an_engine_that_cannot_judge_is_status_2_on_every_command(command):
    """The exact engine refuses a position with contact: rate and view said so with status 2, hint, analyze and
    rollout with status 1, the status of input that was read and is bad (docs/exit-status.md)."""
    result = invoke(*command, "--engine", "exact")
    assert result.exit_code == 2
    assert "the exact engine cannot judge" in result.stderr.splitlines()[0]


def test_rollout_refuses_jobs_beside_a_scheduler_as_the_archive_commands_do():
    """``rollout --jobs 2 --scheduler local:2`` ran on the scheduler and dropped --jobs without a word."""
    result = invoke("rollout", "start", "31", "--trials", "36", "--jobs", "2", "--scheduler", "local:2")
    assert result.exit_code == 2
    assert "Error: --jobs and --scheduler cannot be used together" in result.stderr


@pytest.mark.parametrize("command", [["moves"], ["show"], ["analyze"], ["hint", "--level", "0"]])
def test_dice_before_the_position_are_said_to_come_after_it(command):
    """``bgcli moves 31 start`` was "invalid position '31 start': unexpected 'start' at column 4"."""
    result = invoke(*command, "31", "start")
    assert result.exit_code == 1
    assert one_error(result) == "Error: invalid position '31 start': the dice come after the position ('start 31')"


def _hostile_file(folder, kind: str):
    """A path of ``kind``: what a stranger may give where a match file is expected."""
    import gzip

    path = folder / f"{kind}.mat"
    if kind == "missing":
        return path
    if kind == "folder":   # a folder without a match file in it
        path.mkdir()
        (path / "notes.png").write_bytes(b"\x89PNG\r\n\x1a\n")
        return path
    path.write_bytes({
        "empty": b"",
        "random": bytes(range(256)) * 8,
        "gzip": gzip.compress((SAMPLES / "sp05001_3pt.mat").read_bytes()),
        "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(17),
        "nul": (SAMPLES / "sp05001_3pt.mat").read_bytes().replace(b"Game 1", b"Ga\x00me 1"),
        "huge line": b"x" * (2 << 20) + b"\n",
    }[kind])
    return path


@pytest.mark.parametrize("command", [["replay"], ["score"], ["audit"], ["dice"], ["repair"], ["chouette"], ["view"],
                                     ["export", "--to", "json"], ["rate", "--engine", "exact"]])
@pytest.mark.parametrize("kind", ["missing", "folder", "empty", "random", "gzip", "png", "nul", "huge line"])
def test_every_command_that_reads_files_says_in_lines_of_errors_why_a_hostile_file_cannot_be_read(tmp_path, command,
                                                                                                    kind):
    """The sweep of every subcommand that reads match files, kept: status 2, nothing on standard output,
    every line of standard error an error naming the file or the command's summary line, no traceback
    (invoke raises one)."""
    if command[0] == "export" and kind == "folder":
        pytest.skip("a folder is exported with -o FOLDER: a usage error (test_a_folder_exported_to_one_output...)")
    path = _hostile_file(tmp_path, kind)
    result = invoke(*command, path)
    assert result.exit_code == 2, result.output
    assert result.stdout in ("", "no rolls were read\n")   # dice's report of no file read
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and str(path) in errors[0], result.stderr
    assert len(result.stderr.splitlines()) <= 2, result.stderr   # the error, and audit's, rate's or repair's summary


def test_a_gzip_file_is_said_to_be_one(tmp_path):
    """A .mat.gz as downloaded was 'binary data, not a match file in any format bgcli reads'."""
    path = _hostile_file(tmp_path, "gzip")
    assert one_error(invoke("score", path)) == f"Error: {path}:1:1: gzip-compressed data: decompress it first (gunzip)"


def test_binary_data_in_a_text_file_is_placed_at_its_line(tmp_path):
    """A match file with a NUL byte on line 5 was 'F:1:1: binary data': the line where it is wrong is 5."""
    path = _hostile_file(tmp_path, "nul")
    assert one_error(invoke("score", path)).startswith(f"Error: {path}:5:1: binary data, not a match file")
    picture = _hostile_file(tmp_path, "png")   # binary from its first byte: line 1, not the line of its first NUL
    assert one_error(invoke("score", picture)).startswith(f"Error: {picture}:1:1: binary data")


@pytest.mark.parametrize("command", [["replay"], ["score"], ["audit"], ["dice"], ["view"], ["rate", "--engine", "exact"]])
@pytest.mark.parametrize("given", ["folder", "glob"])
def test_o_never_replaces_a_match_file_that_an_input_folder_or_glob_finds(tmp_path, command, given):
    """``bgcli replay DIR -o DIR/a.mat`` replaced the match a.mat with the replay: the walk skipped a.mat as
    'this command's own output' (it takes the file at -o for the last run's report), and nothing was kept."""
    match = tmp_path / "a.mat"
    original = (SAMPLES / "sp05001_3pt.mat").read_bytes()
    match.write_bytes(original)
    (tmp_path / "b.mat").write_bytes(original)
    source = str(tmp_path) if given == "folder" else str(tmp_path / "*.mat")
    result = invoke(*command, source, "-o", match)
    assert result.exit_code == 2
    assert f"Error: -o {match} is a match file that the input {source} finds: write somewhere else" in result.stderr
    assert match.read_bytes() == original


@pytest.mark.parametrize("command", [["audit"], ["dice"], ["rate", "--engine", "exact"]])
@pytest.mark.parametrize("exists", [False, True])
def test_o_and_db_naming_one_file_is_a_usage_error(tmp_path, command, exists):
    """``audit F --db R -o R``: the report replaced the database the run had just filled (an empty file left)."""
    database = tmp_path / "results.sqlite"
    if exists:
        assert invoke(*command, FLAWED, "--db", database).exit_code in (0, 1, 2)
        before = database.read_bytes()
    result = invoke(*command, FLAWED, "--db", database, "-o", database)
    assert result.exit_code == 2
    assert f"Error: -o {database} is one of the inputs: write somewhere else" in result.stderr
    assert database.exists() == exists and (not exists or database.read_bytes() == before)


@pytest.mark.parametrize("command", [["hint", "start", "31", "--level", "0"], ["rate", FLAWED], ["view", FLAWED],
                                     ["analyze", "start", "--engine", "sage"]])
def test_o_never_replaces_the_match_equity_table_the_command_reads(tmp_path, command):
    """``hint start 31 --met T.csv -o T.csv`` replaced the user's table with the hint: the option's value is the
    table read, not its file name, and the check of -o against the inputs did not see it."""
    table = tmp_path / "table.csv"
    assert invoke("met", "--to", "csv", "-o", table).exit_code == 0
    before = table.read_bytes()
    result = invoke(*command, "--met", table, "-o", table)
    assert result.exit_code == 2
    assert f"Error: -o {table} is one of the inputs: write somewhere else" in result.stderr
    assert table.read_bytes() == before


def test_the_report_of_a_database_of_one_file_counts_it_in_the_singular(tmp_path):
    """``audit --report`` of one file said '1 files: 1 clean'."""
    database = tmp_path / "results.sqlite"
    invoke("audit", SAMPLES / "sp05001_3pt.mat", "--db", database)
    result = invoke("audit", "--report", "--db", database)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "1 file: 1 clean, 0 with problems (0 with errors), 0 unreadable"


def test_a_bug_of_bgclis_is_one_line_and_status_70_with_the_trace_on_request(monkeypatch, capsys):
    """What escapes a command that is not the input's fault (a bug) is one line naming it, status 70
    (sysexits' EX_SOFTWARE), never a traceback; BGCLI_DEBUG=1 shows the trace before that line."""
    import sys

    import bgcli.cli.common as common

    def bug(ctx):
        raise ZeroDivisionError("a planted bug")

    monkeypatch.setattr(common.cli, "invoke", bug)
    monkeypatch.setattr(sys, "argv", ["bgcli", "rules"])
    monkeypatch.delenv(common.DEBUG_VARIABLE, raising=False)
    with pytest.raises(SystemExit) as stopped:
        common.main()
    err = capsys.readouterr().err
    assert stopped.value.code == common.EXIT_INTERNAL == 70
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "internal error" in err and "ZeroDivisionError: a planted bug" in err and "BGCLI_DEBUG=1" in err
    monkeypatch.setenv(common.DEBUG_VARIABLE, "1")
    with pytest.raises(SystemExit) as stopped:
        common.main()
    err = capsys.readouterr().err
    assert stopped.value.code == 70 and "Traceback" in err and "in bug" in err
    assert err.splitlines()[-1].startswith("Error: internal error")


@pytest.mark.parametrize("command", ["audit", "replay", "score"])
def test_standard_input_named_twice_is_read_once_and_said_once(command):
    """``-`` named twice: standard input is read once, and the second is one error saying so (status 2),
    not a second file read as empty."""
    match = (SAMPLES / "flawed_5pt.mat").read_text(encoding="utf-8")
    once, twice = invoke(command, "-", input=match), invoke(command, "-", "-", input=match)
    assert twice.exit_code == 2
    assert "- (standard input) is named more than once: it is read once" in twice.stderr
    assert "empty" not in twice.stderr and twice.stdout == once.stdout


@pytest.mark.parametrize("text, field", [
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:1X\n", "maximum cube field '1X'"),
    ("AAAAAAAAAAAAA\n", "a Position ID has 14 characters"),
    ("board:a:b:1\n", "a FIBS board has 52 fields"),
])
def test_a_position_file_meant_but_wrong_is_a_position_read_and_found_bad(tmp_path, text, field):
    """A .txt whose text was meant as a position (an ID, an XGID, a FIBS board: core.ids.meant_as_position)
    with a field wrong is a position read and found bad, status 1, its message the field's, not the wrong file
    given (2, 'not a position file': text of another kind, above)."""
    path = tmp_path / "typo.txt"
    path.write_text(text)
    result = invoke("show", path)
    assert result.exit_code == 1, result.stderr
    line = one_error(result)
    assert line.startswith(f"Error: {path}:1:1: invalid position ") and field in line
