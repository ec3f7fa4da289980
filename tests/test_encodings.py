"""The encodings real match files come in, each read as text in one place
(bgcli.formats.reading): UTF-16 with a byte order mark, little- and
big-endian (the "Unicode" text of Windows programs: XG's and Snowie's text
exports, Notepad), UTF-8 with a byte order mark, and the legacy encodings of
Windows: Windows-1252 names with accents, EUC-KR (cp949) names of Korean
clubs, Shift-JIS (cp932) names of Japanese clubs. A file that is text in
none of them is one line naming the file and the byte offset. Lines end at
LF, CR LF, or a lone CR (classic Mac OS); a Ctrl-Z after the last line
(DOS's end-of-file mark) is no line, nor are NUL bytes padding the file.
docs/formats.md's habits table lists them.
"""
from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest
from conftest import ROOT, SELFPLAY, committed, invoke
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.formats import reading
from bgcli.formats.files import iter_records, sniff
from bgcli.judging.chouette import read_file as read_chouette

SEEDS = ROOT.parent / "shared" / "seeds"   # rule texts of Korean and Japanese clubs (../shared), when present

KOREAN = ("김철수", "박지성")
JAPANESE = ("田中太郎", "サトウ")
WESTERN = ("Hélène Müller", "François")


def clean_match() -> str:
    """A clean gnubg self-play match, its players named ``gnubg`` and ``root``."""
    return committed(SELFPLAY / "sp05001_3pt.mat").read_text(encoding="utf-8")


def named(text: str, names: tuple[str, str], comment: str = "") -> str:
    head = f"; {comment}\n" if comment else ""
    return head + text.replace("gnubg :", f"{names[0]} :").replace("root :", f"{names[1]} :")


def records(path: Path) -> list:
    return [(r.length, [(g.players, g.scores, [(a.kind, a.dice, a.play_text, a.cube, a.points) for a in g.actions])
                        for g in r.games], r.comments) for r in iter_records(path)]


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("mark, encoding", [
    (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"), (b"", "utf-16-le"), (b"\xef\xbb\xbf", "utf-8")],
    ids=["utf16le-bom", "utf16be-bom", "utf16le-no-bom", "utf8-bom"])
@pytest.mark.parametrize("line_end", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_habit_windows_unicode_text_utf16_and_utf8_with_bom_reads_as_utf8(tmp_path, mark, encoding, line_end):
    text = named(clean_match(), KOREAN, "백개먼 규칙").replace("\n", line_end)
    plain = write(tmp_path / "plain.mat", text.encode("utf-8"))
    unicode = write(tmp_path / "unicode.mat", mark + text.encode(encoding))
    assert records(unicode) == records(plain)
    assert records(plain)[0][1][0][0] == KOREAN
    result = invoke("audit", unicode)
    assert result.exit_code == 0 and "no problems" in result.output, result.output


@pytest.mark.parametrize("mark, encoding", [(b"", "utf-8"), (b"\xff\xfe", "utf-16-le")], ids=["utf8", "utf16le"])
def test_habit_classic_mac_os_line_ends_a_lone_cr_ends_a_line(tmp_path, mark, encoding):
    """Programs of classic Mac OS end every line with a lone CR: the file
    reads as its lines, not as one line that holds no match."""
    text = named(clean_match(), WESTERN)
    plain = write(tmp_path / "plain.mat", text.encode("utf-8"))
    mac = write(tmp_path / "mac.mat", mark + text.replace("\n", "\r").encode(encoding))
    assert records(mac) == records(plain)
    result = invoke("audit", mac)
    assert result.exit_code == 0 and "no problems" in result.output, result.output


@pytest.mark.parametrize("line_end, tail", [("\r\n", b"\x1a"), ("\n", b"\x1a" * 3), ("\r\n", b"")],
                         ids=["crlf-ctrl-z", "lf-ctrl-z-run", "crlf-last-line-then-ctrl-z"])
def test_habit_dos_end_of_file_mark_is_no_line(tmp_path, line_end, tail):
    """DOS-era programs (and DOS's copy) end a text file with Ctrl-Z, CP/M's
    end-of-file mark, or a run of them: gnubg's import reads the match
    whole; so does bgcli, with no syntax error at a line of Ctrl-Z."""
    text = clean_match()
    plain = write(tmp_path / "plain.mat", text.encode("utf-8"))
    data = text.replace("\n", line_end).encode("utf-8") + tail
    if not tail:   # the mark right after the last line's text, no line end between
        data = data.rstrip(b"\r\n") + b"\x1a"
    dos = write(tmp_path / "dos.mat", data)
    assert records(dos) == records(plain)
    result = invoke("audit", dos)
    assert result.exit_code == 0 and "no problems" in result.output, result.output


@pytest.mark.parametrize("tail", [b"\0" * 50, b"\r\n" + b"\0" * 4096, b"\0\x1a\0"],
                         ids=["nul-run", "crlf-then-a-block-of-nuls", "nuls-and-ctrl-z"])
def test_habit_nul_padding_after_the_last_line_is_no_line(tmp_path, tail):
    """A file padded with NUL bytes after its last line (a save or a download
    cut short, a disk image's slack): gnubg's import reads the match whole
    (checked: a gnubg self-play .mat with 50 NULs, 4 games); so does bgcli,
    with no syntax error at a line of NULs."""
    text = clean_match()
    plain = write(tmp_path / "plain.mat", text.encode("utf-8"))
    padded = write(tmp_path / "padded.mat", text.encode("utf-8") + tail)
    assert records(padded) == records(plain)
    result = invoke("audit", padded)
    assert result.exit_code == 0 and "no problems" in result.output, result.output


def test_a_nul_inside_the_text_is_still_an_error(tmp_path):
    """Only the padding after the last line is no text: a NUL in a line, or on a
    line with text after it, is what the user's file says, and is reported."""
    lines = clean_match().split("\n")
    row = max(i for i, line in enumerate(lines) if line.startswith("  1)"))   # the last game's: past the head
    for where, edit in (("in a row", lambda ls: ls.__setitem__(row, ls[row] + "\0")),
                        ("a line of NULs", lambda ls: ls.insert(row + 1, "\0\0"))):
        edited = list(lines)
        edit(edited)
        result = invoke("audit", write(tmp_path / "nul.mat", ("\n".join(edited) + "\0\0").encode("utf-8")))
        line = f"nul.mat:{row + 1 if where == 'in a row' else row + 2}: "
        assert result.exit_code == 1 and line in result.output and "\\x00" in result.output, (where, result.output)


@settings(deadline=None, max_examples=300)
@given(text=st.lists(st.sampled_from(["a", "\n", "\r", "\r\n", "é", "  1) 31: 8/5 6/5"]), max_size=40).map("".join),
       block=st.integers(1, 9))
def test_text_lines_ends_lines_as_the_rule_does(text, block):
    """text_lines' fenced copy of the rule (a lone CR made a LF while the
    blocks are read, a CR cut from its LF by a block's end kept) gives the
    lines reading.LINE_END splits the text into, the CR of a CR LF kept and
    the last line end dropped, wherever the blocks are cut."""
    expected = reading.LINE_END.split(text)
    ends = [m.group() for m in reading.LINE_END.finditer(text)]
    expected = [line + ("\r" if end == "\r\n" else "") for line, end in zip(expected, ends)] + expected[len(ends):]
    if expected[-1] == "":
        expected.pop()
    assert list(reading.text_lines(io.BytesIO(text.encode("utf-8")), "f", block)) == expected


def test_habit_utf16_is_recognised_by_its_text_whatever_the_suffix(tmp_path):
    """The head a format is known by is read as text: gnubg's text export,
    SGF and JSON saved as UTF-16 are still those formats."""
    sgf = invoke("export", "--to", "sgf", committed(SELFPLAY / "sp05001_3pt.mat")).output
    as_sgf = write(tmp_path / "match", b"\xff\xfe" + sgf.encode("utf-16-le"))
    assert sniff(as_sgf) == "sgf"
    assert records(as_sgf) == records(write(tmp_path / "plain.sgf", sgf.encode("utf-8")))
    json = invoke("export", "--to", "json", as_sgf).output
    as_json = write(tmp_path / "match.json", b"\xfe\xff" + json.encode("utf-16-be"))
    assert records(as_json) == records(write(tmp_path / "plain.json", json.encode("utf-8")))
    text = "The score (after 0 games) is: gnubg 0, root 0 (match to 3 points)\n"
    assert sniff(write(tmp_path / "game.txt", b"\xff\xfe" + text.encode("utf-16-le"))) == "gnubg-text"


@pytest.mark.parametrize("encoding, names", [("cp1252", WESTERN), ("cp949", KOREAN), ("euc_kr", KOREAN),
                                             ("cp932", JAPANESE), ("shift_jis", JAPANESE)])
def test_habit_legacy_encodings_read_names_as_their_program_wrote_them(tmp_path, encoding, names):
    path = write(tmp_path / "legacy.mat", named(clean_match(), names, " ".join(names)).encode(encoding))
    found = records(path)
    assert found[0][1][0][0] == names
    assert [text for _, text in found[0][2]] == ["; " + " ".join(names)]
    result = invoke("audit", path)
    assert result.exit_code == 0 and "no problems" in result.output, result.output


def seed_lines(language: str, encoding: str) -> list[str]:
    """The lines of the club rule texts in ``language`` (their first line's script)
    that ``encoding`` can write, with some letter outside ASCII."""
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is not here")
    found = []
    for path in sorted(SEEDS.glob("*.txt")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if not lines or not any(language == _script(char) for char in lines[0]):
            continue
        for line in lines:
            try:
                line.encode(encoding)
            except UnicodeEncodeError:
                continue
            if not line.isascii():
                found.append(line)
    if not found:
        pytest.skip(f"no {language} text in ../shared/seeds")
    return found


def _script(char: str) -> str:
    if "\uac00" <= char <= "\ud7a3":
        return "korean"
    if "\u3040" <= char <= "\u30ff":
        return "japanese"
    return ""


@pytest.mark.parametrize("language, encoding", [("korean", "euc_kr"), ("korean", "cp949"), ("japanese", "shift_jis"),
                                                ("japanese", "cp932")])
def test_habit_korean_and_japanese_clubs_rule_texts_in_legacy_encodings(tmp_path, language, encoding):
    """Every line of the clubs' rule texts, saved in their country's legacy
    encoding as comments of a match, reads back as written."""
    lines = seed_lines(language, encoding)
    text = "".join(f"; {line}\n" for line in lines) + "\n" + clean_match()
    found = records(write(tmp_path / "club.mat", text.encode(encoding)))
    assert [comment for _, comment in found[0][2]] == [f"; {line}".rstrip() for line in lines]


def test_an_undecodable_file_is_one_line_naming_the_file_and_the_byte_offset(tmp_path):
    raw = clean_match().encode("utf-8")
    at = raw.index(b"root")
    path = write(tmp_path / "bad.mat", raw[:at] + b"r\x81 t" + raw[at + 4:])   # 0x81 then a blank: no encoding's byte
    result = invoke("audit", path)
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if str(path) in line]
    line_number = raw[:at].count(b"\n") + 1
    assert lines == [f"Error: {path}:{line_number}: the byte at offset {at + 1} is not text in any encoding bgcli reads "
                     f"({reading.ENCODINGS})"], result.output
    bad_sgf = write(tmp_path / "bad.sgf", b"(;FF[4]GM[6]PB[\x81 ])")
    result = invoke("audit", bad_sgf)
    assert result.exit_code == 2 and f"{bad_sgf}:1: the byte at offset 15 " in result.output, result.output


def test_half_a_utf16_character_is_one_line_naming_the_offset(tmp_path):
    text = named(clean_match(), KOREAN).encode("utf-16-le")
    path = write(tmp_path / "cut.mat", b"\xff\xfe" + text[:40] + b"\x00\xd8" + b"a\x00" + text[40:])   # a lone surrogate
    result = invoke("audit", path)
    assert result.exit_code == 2 and "the byte at offset 42 is not text" in result.output, result.output


def test_a_chouette_in_utf16_reads_as_in_utf8(tmp_path):
    text = committed(ROOT / "samples" / "chouette.txt").read_text(encoding="utf-8")
    plain = read_chouette(write(tmp_path / "plain.txt", text.encode("utf-8")))
    unicode = read_chouette(write(tmp_path / "unicode.txt", b"\xff\xfe" + text.encode("utf-16-le")))
    assert dataclasses.replace(unicode, path=plain.path) == plain


@settings(deadline=None, max_examples=200)
@given(text=st.lists(st.sampled_from(["a", "\n", "\r\n", "김", "田", "é", "  1) 31: 8/5 6/5", "\U0001F3B2"]), max_size=40)
       .map("".join),
       encoding=st.sampled_from(["utf-16-le", "utf-16-be"]), block=st.integers(1, 9))
def test_utf16_read_in_blocks_of_any_size_is_its_text(text, encoding, block):
    """Blocks cut anywhere (inside a character, a surrogate pair, a CR LF):
    the lines of the text."""
    mark = b"\xff\xfe" if encoding == "utf-16-le" else b"\xfe\xff"
    lines = list(reading.text_lines(io.BytesIO(mark + text.encode(encoding)), "f", block))
    assert lines == list(reading.text_lines(io.BytesIO(text.encode("utf-8")), "f", block))


def test_habit_a_folder_walk_takes_a_utf16_txt_match(tmp_path):
    """A folder's .txt file is audited when its head shows a match: a UTF-16 one's head is read as its text."""
    (tmp_path / "match.txt").write_bytes(b"\xff\xfe" + named(clean_match(), KOREAN).encode("utf-16-le"))
    (tmp_path / "notes.txt").write_bytes(b"\xff\xfe" + "shopping list\n".encode("utf-16-le"))
    result = invoke("audit", tmp_path)
    assert result.exit_code == 0 and "1 file checked, no problems" in result.output, result.output


@pytest.mark.parametrize("encoding, mark", [("utf-16-le", b"\xff\xfe"), ("cp949", b"")], ids=["utf16", "euc-kr"])
def test_habit_repair_writes_a_record_back_in_its_own_encoding(tmp_path, encoding, mark):
    """``repair -o`` of a UTF-16 or EUC-KR record: the repair is found as in
    UTF-8 (the text was UTF-8 garbage to it: 'no convincing repair'), and the
    record comes back in its own encoding, the one repaired character the
    only change (EUC-KR names were a traceback: surrogates not allowed)."""
    text = named(committed(ROOT / "samples" / "flawed_5pt.mat").read_text(encoding="utf-8"), KOREAN)
    source = write(tmp_path / "flawed.mat", mark + text.encode(encoding))
    fixed = tmp_path / "fixed.mat"
    result = invoke("repair", source, "-o", fixed)
    assert "1 with a repair; the repaired record has no errors" in result.output, result.output
    before, after = source.read_bytes(), fixed.read_bytes()
    assert len(after) == len(before) and after.startswith(mark)
    assert after[len(mark):].decode(encoding) == text.replace("Doubles => 8", "Doubles => 2")
    assert invoke("audit", fixed).exit_code == 0
