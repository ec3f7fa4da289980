"""Which .txt files a folder walk audits: the content decides, as the reader
that would read the file says (bgcli.formats.mat.why_not_a_record, asked
through the registry by bgcli.scale.archive.not_a_match), never the suffix.

``sp05007_money.game.gam`` is gnubg's ``export game gam`` of one game
(tests/data/imports/gnubg_export.py, run in gnubg): no 'N point match' and
no 'Game N' line, only the players' names and the move rows. Saved as .txt
in a folder, it is a record; a README that mentions a game is not.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from conftest import DATA, committed, invoke

from bgcli.errors import MatchFileError
from bgcli.formats import mat
from bgcli.scale.archive import not_a_match

GAM = committed(DATA / "imports" / "sp05007_money.game.gam").read_text(encoding="utf-8")
README = "About these files\n\nGame 1 was fun, game 2 less so.\n"
NOTES = "Shopping\n1) buy milk\n2) buy bread\n"


def _folder(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "game.txt").write_text(GAM, encoding="utf-8")
    (folder / "README.txt").write_text(README, encoding="utf-8")
    (folder / "notes.txt").write_text(NOTES, encoding="utf-8")
    (folder / "empty.txt").write_text("", encoding="utf-8")
    return folder


def test_a_headerless_gam_named_txt_in_a_folder_is_audited_as_when_named_alone(tmp_path):
    folder = _folder(tmp_path)
    walked = invoke("audit", "--json", str(folder))
    alone = invoke("audit", "--json", str(folder / "game.txt"))
    assert walked.exit_code == alone.exit_code == 0
    results = [json.loads(line) for line in walked.stdout.splitlines()]
    assert [r["file"] for r in results] == [str(folder / "game.txt")]
    assert results == [json.loads(line) for line in alone.stdout.splitlines()]


def test_what_a_folder_walk_skips_is_said_in_one_note_with_the_reasons(tmp_path):
    folder = _folder(tmp_path)
    result = invoke("audit", str(folder))
    assert result.exit_code == 0
    assert (f"note: skipped 3 files in {folder} that are not matches: README.txt, notes.txt "
            f"({mat.NO_READABLE_START}); empty.txt (the file is empty: no match in it)") in result.stderr
    assert "1 file checked, no problems" in result.stderr


@pytest.mark.parametrize("text, why", [
    (GAM, None),
    ("; a site's preface\n\n" + GAM, None),
    ("Exported by a site\n 5 point match\n\n Game 1\n ann : 0   bob : 0\n  1) 31: 8/5 6/5\n", None),
    (README, mat.NO_READABLE_START),
    (NOTES, mat.NO_READABLE_START),
    ("just prose\nwith no game in it\n", mat.NO_RECORD),
    # a first line in brackets looks like JSON's head, but a .txt is read as a .mat: the .mat reader decides
    ("[console_scripts]\nbgcli = bgcli.cli:main\n", mat.NO_RECORD),
])
def test_the_reader_says_whether_a_head_is_plainly_a_record(tmp_path, text, why):
    assert mat.why_not_a_record(text.splitlines()) == why
    path = tmp_path / "a.txt"
    path.write_text(text, encoding="utf-8")
    assert not_a_match(str(path)) == why


# Lines of the shapes a .txt file may hold: a record's, and prose that looks a little like one
_LINES = st.sampled_from([
    " 5 point match", " 0 point match", " Game 1", " Game 2", " ann : 0                      bob : 0",
    " gnubg                          root", "  1) 31: 8/5 6/5                 62: 24/18 13/11",
    "  2) 42: 8/4 6/4                 Doubles => 2", "  3)  Takes", "      Wins 2 points", "; [Site \"x\"]",
    "", "Game 1 was fun", "1) buy milk", "hello there", "5 points matched", "ann bob",
])


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(_LINES, max_size=8))
def test_a_head_that_is_plainly_a_record_is_what_the_reader_reads(lines):
    # one owner: what the folder walk takes for a record is what reading the file finds one in, and a
    # file the reader reads without an error is never skipped
    why = mat.why_not_a_record(lines)
    try:
        result = mat.read_matches("\n".join(lines))
    except MatchFileError:
        assert why == mat.NO_RECORD
        return
    assert why != mat.NO_RECORD
    if why is None:   # the line where the reader starts the first match reads
        first = result.matches[0]
        assert not [e for e in first.errors if e.line == first.line]
    if not result.errors:
        assert why is None


def test_a_match_header_the_grammar_cannot_read_is_one_error_at_its_line_not_an_internal_error(tmp_path):
    # found by the property above: the reader lost the grammar's error (an UnboundLocalError)
    path = tmp_path / "a.mat"
    path.write_text(" 5 points matched\n", encoding="utf-8")
    result = invoke("audit", str(path))
    assert result.exit_code == 1 and "internal error" not in result.output
    assert f"{path}:1: syntax: cannot read match header" in result.stdout


# --- position files: a program's export of one position, not a match --------------------------

POSITIONS = [DATA / "real" / "bgblitz-text-export" / "01_checkerPosition_FR.txt",
             DATA / "real" / "xg-text-export" / "01_checkerPosition_EN.txt",
             DATA / "imports" / "snowietxt" / "pos00.txt"]


def test_a_position_file_in_a_folder_is_named_a_position_and_show_draws_it(tmp_path):
    # BGBlitz's and XG's text export of a position, Snowie's text position: each is a position, said so
    # in the folder's note (it was "no 'N point match', 'Game N' or move row line", as for a README),
    # and when named alone; `bgcli show` reads each (it read Snowie's alone)
    folder = _folder(tmp_path)
    for path in POSITIONS:
        (folder / path.name).write_bytes(committed(path).read_bytes())
    result = invoke("audit", str(folder))
    assert result.exit_code == 0
    assert "01_checkerPosition_EN.txt, 01_checkerPosition_FR.txt (a position (an xgid): `bgcli show FILE` draws it)" in (
        result.stderr)
    assert "pos00.txt (a position (Snowie's text position): `bgcli show FILE` draws it)" in result.stderr
    for path in POSITIONS:
        alone = invoke("audit", str(folder / path.name))
        assert alone.exit_code == 2
        assert "not a match file but a position (" in alone.stderr and f"`bgcli show {folder / path.name}`" in alone.stderr
        shown = invoke("show", str(folder / path.name))
        assert shown.exit_code == 0 and "Pip counts" in shown.stdout
    assert not_a_match(str(folder / "README.txt")) == mat.NO_READABLE_START


def test_json_that_is_no_match_document_in_a_folder_is_skipped_and_a_match_document_is_audited(tmp_path):
    """An archive holds other JSON beside its matches (a site's metadata, an analysis): in a folder
    walk the document's "format" decides, as the JSON reader reads it; a bgcli match document, and a
    broken one that says it is one, are audited; a file named alone is always audited."""
    folder = tmp_path / "archive"
    folder.mkdir()
    source = DATA / "oracle" / "selfplay" / "sp05001_3pt.mat"
    assert invoke("export", "--to", "json", str(source), "-o", str(folder / "match.json")).exit_code == 0
    (folder / "meta.json").write_text('{"site": "a site", "games": [1, 2]}', encoding="utf-8")
    (folder / "list.json").write_text("[1, 2, 3]", encoding="utf-8")
    (folder / "other.json").write_text('{"format": "png", "size": 3}', encoding="utf-8")
    (folder / "cut.json").write_text('{"format": "bgcli-match", "players": ["a"', encoding="utf-8")
    long = '{"format": "other", "pad": "' + "x" * 20_000 + '"}'   # longer than the head a walk reads
    (folder / "long.json").write_text(long, encoding="utf-8")
    result = invoke("audit", str(folder))
    assert result.exit_code == 2   # cut.json: a match document that does not parse
    assert ("note: skipped 4 files in " + str(folder) + " that are not matches: list.json, meta.json (JSON that is "
            "not a bgcli match document: no 'format' member); long.json (JSON that is not a bgcli match document: its "
            "'format' is 'other'); other.json (JSON that is not a bgcli match document: its 'format' is 'png')\n"
            ) in result.stderr
    assert "cut.json:1:" in result.stderr and "1 file checked, no problems; 1 file could not be read" in result.stderr
    alone = invoke("audit", str(folder / "meta.json"))
    assert alone.exit_code == 2 and "not a bgcli match document" in alone.stderr
