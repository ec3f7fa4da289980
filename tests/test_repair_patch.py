"""bgcli repair --patch in the record's own encoding: the diff's lines are the
file's bytes (bgcli.judging.repair.byte_diff), so `patch` applies it to the
record as it is, UTF-16 or a legacy Windows encoding, and gives back what -o
writes. A diff decoded and written as UTF-8 did not apply to a UTF-16 record,
and a hunk whose context held a legacy-encoded name was a traceback."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import ROOT, committed, invoke

PATCH = shutil.which("patch")
needs_patch = pytest.mark.skipif(PATCH is None, reason="GNU patch is not installed")

NAMES = {"utf-16-le": ("김철수", "박지성"), "utf-16-be": ("김철수", "박지성"), "cp949": ("김철수", "박지성"),
         "cp1252": ("Hélène Müller", "François"), "cp932": ("田中太郎", "サトウ"), "utf-8": ("김철수", "박지성")}
MARKS = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}


def _record(encoding: str) -> tuple[bytes, str]:
    """samples/flawed_5pt.mat (its cube slip: Doubles => 8 for 2) with its players named in ``encoding``'s script
    and a roll slip on the first move, right under the names (the hunk's context holds them); its text."""
    text = committed(ROOT / "samples" / "flawed_5pt.mat").read_text(encoding="utf-8")
    first, second = NAMES[encoding]
    text = text.replace("gnubg :", f"{first} :").replace("root :", f"{second} :")
    assert "  1) 42: 8/4 6/4 " in text
    text = text.replace("  1) 42: 8/4 6/4 ", "  1) 41: 8/4 6/4 ", 1)
    return MARKS.get(encoding, b"") + text.encode(encoding), text


@needs_patch
@pytest.mark.parametrize("encoding", sorted(NAMES))
def test_the_patch_applies_to_the_record_in_its_own_encoding(tmp_path, encoding):
    """`patch --dry-run` accepts the diff, and `patch` turns the record into -o's bytes: both slips repaired,
    every other byte as it was (the names in the hunk's context included)."""
    data, text = _record(encoding)
    source = tmp_path / "flawed.mat"
    source.write_bytes(data)
    fixed, diff = tmp_path / "fixed.mat", tmp_path / "fix.diff"
    result = invoke("repair", source, "-o", fixed, "--patch", diff)
    assert result.exit_code == 1 and "2 with a repair; the repaired record has no errors" in result.output, result.output
    repaired = fixed.read_bytes()
    mark = MARKS.get(encoding, b"")
    assert repaired[len(mark):].decode(encoding) == text.replace("1) 41:", "1) 42:", 1).replace("Doubles => 8", "Doubles => 2")
    copy = tmp_path / "copy.mat"
    copy.write_bytes(data)
    dry = subprocess.run([PATCH, "--dry-run", str(copy), str(diff)], capture_output=True)
    assert dry.returncode == 0, dry.stdout + dry.stderr
    subprocess.run([PATCH, "-s", str(copy), str(diff)], check=True)
    assert copy.read_bytes() == repaired


def test_the_patch_on_standard_output_is_the_records_bytes(tmp_path):
    """--patch - writes the same bytes as --patch FILE (an EUC-KR hunk was a traceback: surrogates not allowed)."""
    data, _ = _record("cp949")
    source = tmp_path / "flawed.mat"
    source.write_bytes(data)
    diff = tmp_path / "fix.diff"
    assert invoke("repair", source, "--patch", diff).exit_code == 1
    result = invoke("repair", source, "--patch", "-")
    assert result.exit_code == 1
    assert result.stdout_bytes == diff.read_bytes()
    assert "김철수".encode("cp949") in diff.read_bytes()


@needs_patch
def test_a_last_line_without_its_end_is_patched_as_it_is(tmp_path):
    """A record whose last line has no line end, repaired in the hunk before it: the diff marks the line as
    diff does ('No newline at end of file'), and patch gives back -o's bytes, still without the end."""
    data = committed(ROOT / "samples" / "flawed_5pt.mat").read_bytes().replace(b"Doubles => 8", b"Doubles => 2")
    lines = data.rstrip(b"\n").split(b"\n")
    assert lines[-1].strip() == b"Wins 2 points" and b"54: 19/14 18/14" in lines[-3]
    lines[-3] = lines[-3].replace(b"54: 19/14 18/14", b"53: 19/14 18/14")   # 18/14 is no step of 53
    source = tmp_path / "last.mat"
    source.write_bytes(b"\n".join(lines))
    fixed, diff = tmp_path / "fixed.mat", tmp_path / "fix.diff"
    result = invoke("repair", source, "-o", fixed, "--patch", diff)
    assert result.exit_code == 1 and "1 with a repair" in result.output, result.output
    assert diff.read_bytes().endswith(b"       Wins 2 points\n\\ No newline at end of file\n")
    assert fixed.read_bytes().endswith(b"Wins 2 points") and fixed.read_bytes() != source.read_bytes()
    subprocess.run([PATCH, "-s", str(source), str(diff)], check=True)
    assert source.read_bytes() == fixed.read_bytes()
