"""One tool, one set of habits: every command reads a POSITION, dice, files
and batch lines the same way, and its messages say what is wrong."""
from __future__ import annotations

import json

import pytest

import bgcli
from bgcli.errors import BgcliError, FileReadError
from conftest import SAMPLES

# the opponent has a checker on the bar: the board's first number is negative
BAR_BOARD = "-1 -1 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0".split()
# the player on roll has all 15 on the bar against a closed board: no legal play
CLOSED_OUT = "0 -3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 -2 -2 -2 -2 -2 -2 15".split()
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"


# --- a POSITION, the same way in every command ---------------------------------------

def test_a_board_of_26_numbers_is_read_by_every_command(run):
    board_id = bgcli.parse_position(" ".join(BAR_BOARD)).position.id()
    show = run("show", *BAR_BOARD)
    assert show.exit_code == 0 and board_id in show.output
    analyze = run("analyze", *BAR_BOARD)
    assert analyze.exit_code == 0 and analyze.output.startswith(f"position         {board_id}")
    convert = run("convert", "--to", "posid", *BAR_BOARD, "start")
    assert convert.exit_code == 0 and convert.output.split() == [board_id, "4HPwATDgc/ABMA"]
    check = run("check", *BAR_BOARD, "31", "8/5", "6/5")
    assert check.exit_code == 0, check.output
    after_dashes = run("check", "--", *BAR_BOARD, "31", "8/5", "6/5")
    assert after_dashes.output == check.output
    assert run("moves", *BAR_BOARD, "31").exit_code == 0


@pytest.mark.parametrize("dice", [["31"], ["3-1"], ["3 1"], ["3", "1"]])
def test_check_reads_dice_as_moves_does(run, dice):
    result = run("check", "start", *dice, "8/5", "6/5")
    assert result.exit_code == 0 and result.output == "8/5 6/5\tsGfwATDgc/ABMA\n"


@pytest.mark.parametrize("words,message", [
    (["start", "3x", "8/5", "6/5"], "invalid dice '3x'"),
    (["start", "77", "8/1"], "invalid dice '77'"),
])
def test_bad_dice_are_blamed_on_the_dice(run, words, message):
    result = run("check", *words)
    assert result.exit_code == 1 and message in result.output and "no dice given" not in result.output


def test_check_without_a_play_says_the_play_is_missing(run):
    result = run("check", "start", "31")
    assert result.exit_code == 2 and "missing PLAY after the dice '31'" in result.output


def test_moves_blames_bad_dice_not_the_position(run):
    result = run("moves", "start", "61a")
    assert result.exit_code == 1 and "invalid dice '61a'" in result.output and "invalid position" not in result.output


def test_no_legal_play_is_said(run):
    result = run("moves", *CLOSED_OUT, "61")
    assert result.exit_code == 0 and "no legal play" in result.output
    as_json = json.loads(run("moves", "--json", *CLOSED_OUT, "61").output)
    assert as_json["plays"] == []


def test_show_refuses_a_style_it_does_not_draw(run):
    assert run("show", "--style", "fibs", "start").exit_code == 2
    assert run("show", "--style", "korean", "start").exit_code == 0


# --- options that mean one thing everywhere -------------------------------------------

@pytest.mark.parametrize("command", [["moves", "start", "31"], ["analyze", "start"]])
def test_jobs_without_batch_is_refused(run, command):
    result = run(*command, "--jobs", "2")
    assert result.exit_code == 2 and "--jobs goes with --batch" in result.output


@pytest.mark.parametrize("command,line", [(["moves", "--batch", "-"], "start 31"), (["analyze", "--batch", "-"], "start")])
def test_batch_comment_lines_are_skipped_and_empty_lines_worded_alike(run, command, line):
    result = run(*command, input=f"# a comment\n{line}\n   # indented\n\n")
    rows = [json.loads(row) for row in result.output.splitlines()]
    assert len(rows) == 2 and "position_id" in rows[0]
    assert rows[1] == {"error": "line 4: empty line"}
    assert result.exit_code == 1


def test_convert_skips_comments_and_words_empty_lines_alike(run):
    result = run("convert", "--to", "posid", "-", input="# ids\nstart\n\n")
    assert result.output.splitlines()[0] == "4HPwATDgc/ABMA"
    assert "line 3: empty line" in result.output and result.exit_code == 1


@pytest.mark.parametrize("command", [
    ["audit"], ["export", "--to", "mat"], ["chouette"], ["moves", "--batch"], ["analyze", "--batch"],
    ["hint", "--batch"],
])
def test_a_directory_where_a_file_is_expected_is_one_message(run, tmp_path, command):
    folder = tmp_path / "adir"
    folder.mkdir()
    (folder / "notes.txt").write_text("hello\n")
    result = run(*command, folder / "notes.txt" if command == ["audit"] else folder)
    if command == ["audit"]:   # a folder is what audit reads: here a file that is no match
        assert result.exit_code in (1, 2)
        return
    assert result.exit_code == 2, result.output
    if command[0] == "export":   # a folder is what export reads with -o FOLDER: a usage error says so
        assert result.output.splitlines()[-1] == (f"Error: {folder} is a folder: export its files with -o FOLDER "
                                                  "(one output per input file)")
        return
    assert result.output.splitlines() == [f"Error: cannot read {folder}: it is a directory, not a file"]


@pytest.mark.parametrize("command", [["audit"], ["score"], ["replay"]])
def test_a_folder_is_read_as_audit_reads_it_by_score_and_replay_too(run, tmp_path, command):
    # score and replay take files, folders, globs and - as audit does (the archive runner): a folder without a
    # match file is the same error in each, and its matches are read in the order audit reads them
    folder = tmp_path / "adir"
    folder.mkdir()
    (folder / "notes.txt").write_text("hello\n")
    result = run(*command, folder)
    assert result.exit_code == 2, result.output
    assert f"Error: no match files in folder {folder}" in result.output.splitlines()
    for name in ("b.mat", "a.mat"):
        (folder / name).write_bytes((SAMPLES / "sp05001_3pt.mat").read_bytes())
    one = run(*command, folder / "a.mat")
    both = run(*command, "--jobs", "2", folder) if command != ["audit"] else run(*command, folder)
    assert both.exit_code == one.exit_code
    if command != ["audit"]:
        assert both.stdout == one.stdout * 2


def test_chouette_reads_standard_input(run):
    text = (SAMPLES / "chouette.txt").read_text(encoding="utf-8")
    from_file = run("chouette", SAMPLES / "chouette.txt")
    from_stdin = run("chouette", "-", input=text)
    assert from_stdin.exit_code == from_file.exit_code == 0
    assert from_stdin.output == from_file.output


# --- the library -------------------------------------------------------------------------

def test_the_readme_functions_compose():
    game = bgcli.parse_position("start")
    assert len(bgcli.legal_plays(game, (3, 1))) == len(bgcli.legal_plays(game.position, (3, 1))) == 16
    assert bgcli.play_text(bgcli.parse_play("8/5 6/5", game, "31")) == "8/5 6/5"


def test_dice_carried_by_an_xgid_are_used():
    game = bgcli.parse_position(XGID)
    assert bgcli.legal_plays(game) == bgcli.legal_plays(game.position, (5, 2))
    assert bgcli.play_text(bgcli.parse_play("13/11 13/8", game)) == "13/11 13/8"
    with pytest.raises(bgcli.InvalidDiceError, match="no dice given"):
        bgcli.legal_plays(bgcli.parse_position("start"))


def test_dir_and_all_list_the_public_names():
    names = dir(bgcli)
    for name in ("parse_position", "play_text", "analyze", "replay_file", "legal_plays", "parse_play"):
        assert name in names and name in bgcli.__all__
    for name in ("annotations", "importlib", "Any"):
        assert name not in names
    assert all(hasattr(bgcli, name) for name in bgcli.__all__)


def test_a_missing_file_is_a_bgcli_error_and_an_os_error(tmp_path):
    missing = tmp_path / "missing.mat"
    with pytest.raises(FileReadError) as error:
        list(bgcli.replay_file(missing))
    assert isinstance(error.value, BgcliError)
    assert isinstance(error.value, OSError) and error.value.errno == 2 and error.value.filename == str(missing)
    with pytest.raises(FileReadError, match="it is a directory, not a file"):
        list(bgcli.replay_file(tmp_path))


# --- messages that say what is wrong ------------------------------------------------------

@pytest.mark.parametrize("play,message", [
    ("13/7(5)", "repeat (5) must be 1 to 4"),
    ("99/7", "not '99' (column 1)"),
])
def test_play_errors_quote_the_text_not_the_parser_token(run, play, message):
    result = run("check", "start", "66", play)
    assert result.exit_code == 1 and message in result.output and "Token" not in result.output


@pytest.mark.parametrize("position,message", [
    ("XGID=-b----E-C---eE---c-e----B-a:0:0:1:52:0:0:0:0:10", "the XGID's board field"),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:77:0:0:0:0:10", "the XGID's dice field '77' at column 39 must be 00"),
    ("XGID=-b----E-C---eE---c-e----B-:0:x:1:52:0:0:0:0:10", "the XGID's cube owner field 'x' at column 35 must be a number"),
    ("4HPwATDgc/ABM", "a Position ID has 14 characters"),
    ("4HPwATDgc/ABMA:cAkAAAAAAAA", "the Match ID has 11"),
])
def test_id_errors_name_the_field_and_what_it_must_be(run, position, message):
    result = run("show", position)
    assert result.exit_code == 1 and message in result.output, result.output


def test_a_huge_match_length_names_the_field_and_no_game_0(run, tmp_path):
    path = tmp_path / "huge.mat"
    text = (SAMPLES / "sp05001_3pt.mat").read_text(encoding="utf-8")
    path.write_text(text.replace(" 3 point match", " 99999999999999999999 point match"), encoding="utf-8")
    result = run("audit", path)
    first = result.output.splitlines()[0]
    assert "match length '99999999999999999999' has 20 digits" in first and "game 0" not in first


def test_a_clean_audit_says_no_problems(run):
    result = run("audit", SAMPLES / "sp05001_3pt.mat")
    assert result.exit_code == 0 and result.output == "1 file checked, no problems\n"


def test_a_db_rerun_says_which_results_come_from_the_database(run, tmp_path):
    db = tmp_path / "results.sqlite"
    files = [SAMPLES / "sp05001_3pt.mat", SAMPLES / "flawed_5pt.mat"]
    first = run("audit", "--db", db, *files)
    assert "database" not in first.output
    again = run("audit", "--db", db, *files)
    assert again.output.splitlines()[:-1] == first.output.splitlines()[:-1]
    assert again.output.splitlines()[-1].endswith(f"2 of them unchanged since the last run: "
                                                  f"their results come from the database {db}")


# --- the README's promises ----------------------------------------------------------------

def test_the_audit_help_example_on_samples_audits_the_matches_and_notes_the_rest():
    import subprocess
    import sys

    from conftest import ROOT

    done = subprocess.run([sys.executable, "-m", "bgcli", "audit", "--json", "--jobs", "2", "samples/"],
                          capture_output=True, text=True, cwd=ROOT)
    files = [json.loads(line)["file"] for line in done.stdout.splitlines()]
    assert files == ["samples/flawed_5pt.mat", "samples/galaxy_match3029786.txt", "samples/sp05001_3pt.mat",
                     "samples/sp05007_money.mat", "samples/studio_mrpurple_lasse_3pt.txt"]
    assert done.returncode == 1   # the planted problems, nothing unreadable
    notes = [line for line in done.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and done.stderr.splitlines() == notes
    for name in ("chouette.txt", "chouette_flawed.txt", "positions.txt", "perft.txt"):
        assert name in notes[0]


def test_a_txt_file_named_on_the_command_line_is_always_audited(run):
    assert run("audit", SAMPLES / "positions.txt").exit_code == 2


def test_the_notes_on_where_data_comes_from_point_inside_the_clone():
    from conftest import DATA

    for note in (SAMPLES / "PROVENANCE.md", DATA / "README.md"):
        assert "../shared" not in note.read_text(encoding="utf-8"), note


# --- the viewer -------------------------------------------------------------------------

def test_view_exits_1_on_an_audit_error_and_writes_the_page(run, tmp_path):
    page = tmp_path / "flawed.html"
    flawed = run("view", SAMPLES / "flawed_5pt.mat", "-o", page)
    assert flawed.exit_code == 1 and page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert f"wrote {page}" in flawed.output
    clean = run("view", SAMPLES / "sp05001_3pt.mat", "-o", tmp_path / "clean.html")
    assert clean.exit_code == 0


def test_view_to_standard_output_says_no_wrote_line(run):
    result = run("view", SAMPLES / "sp05001_3pt.mat", "-o", "-")
    assert result.exit_code == 0 and result.output.startswith("<!DOCTYPE html>") and "wrote -" not in result.output


def test_export_takes_the_format_from_the_output_suffix(run, tmp_path):
    out = tmp_path / "m.sgf"
    assert run("export", SAMPLES / "sp05001_3pt.mat", "-o", out).exit_code == 0
    assert out.read_text(encoding="utf-8") == run("export", SAMPLES / "sp05001_3pt.mat", "--to", "sgf").output
    assert run("export", SAMPLES / "sp05001_3pt.mat").exit_code == 2


def test_style_and_notation_are_one_option_and_case_is_ignored(run):
    styled = run("export", SAMPLES / "sp05001_3pt.mat", "--to", "JSON", "--style", "fibs").output
    assert styled == run("export", SAMPLES / "sp05001_3pt.mat", "--to", "json", "--notation", "fibs").output
    assert run("convert", "--to", "XGID", "start").output == run("convert", "--to", "xgid", "start").output
    assert run("rules", "KOREAN").exit_code == 0


def test_rules_json(run):
    rules = json.loads(run("rules", "--json").output)
    assert {r["name"] for r in rules} == {"standard", "plyyard", "korean"} and all(r["rules"] for r in rules)
    assert [r["name"] for r in json.loads(run("rules", "--json", "korean").output)] == ["korean"]


def test_the_first_analyze_says_it_builds_the_bear_off_table(tmp_path, monkeypatch):
    from bgcli.analysis import bearoff

    monkeypatch.setattr(bearoff, "_TABLE", None)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    said = []
    first = bearoff.table(announce=lambda: said.append(1))
    bearoff._TABLE = None
    assert bearoff.table(announce=lambda: said.append(2)).means == first.means   # read from the cache: no word
    assert said == [1]


def test_a_fibs_board_says_it_cannot_carry_jacoby_off(run):
    off = run("convert", "--to", "fibs", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    assert off.exit_code == 0 and "a FIBS board cannot carry Jacoby off" in off.output
    on = run("convert", "--to", "fibs", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:1:0:10")
    assert on.exit_code == 0 and "cannot carry" not in on.output


def test_view_takes_folders_and_globs_as_audit_finds_them_on_one_page(run, tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    (folder / "notes.txt").write_text("hello\n")
    empty = run("view", "-o", "-", folder)
    assert empty.exit_code == 2 and f"Error: no match files in folder {folder}" in empty.output.splitlines()
    (folder / "a.mat").write_bytes((SAMPLES / "sp05001_3pt.mat").read_bytes())
    page = run("view", "-o", tmp_path / "page.html", folder, tmp_path / "none*.mat")
    assert page.exit_code == 2 and f"Error: no files match {tmp_path / 'none*.mat'}" in page.stderr   # said, page written
    alone = run("view", "-o", tmp_path / "alone.html", folder / "a.mat")
    assert alone.exit_code == 0
    assert "wrote" in page.stderr and (tmp_path / "page.html").stat().st_size > 0
