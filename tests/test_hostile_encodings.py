"""Text saved as UTF-32 (an editor's or a script's choice: Python's ``encode("utf-32")``, iconv), with its
byte order mark or without: read as its text by every reader, as UTF-16 is; it was 'binary data, not a
match file in any format bgcli reads'. Binary files are never taken for UTF-32 text."""
from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from conftest import SAMPLES, committed, invoke
from test_hostile_mutations import SEEDS   # one real file of each format

TEXTS = {kind: SEEDS[kind] for kind in ("mat", "sgf", "txt", "fibs", "sgg", "tmg", "gam", "match")}   # the text formats
BINARIES = [SEEDS["xg"], SEEDS["bgf"]]
SAVED = {"utf-32 with its mark": lambda t: t.encode("utf-32"), "utf-32-le": lambda t: t.encode("utf-32-le"),
         "utf-32-be": lambda t: t.encode("utf-32-be"), "utf-32-be with its mark": lambda t: b"\0\0\xfe\xff" + t.encode("utf-32-be")}


def _scores(path) -> tuple[int, list]:
    result = invoke("score", "--json", path)
    assert "Traceback" not in result.output and "internal error" not in result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    for line in lines:
        line.pop("file", None)
    return result.exit_code, lines


@pytest.mark.parametrize("saved", sorted(SAVED))
@pytest.mark.parametrize("fmt", sorted(TEXTS))
def test_a_match_saved_as_utf_32_reads_as_its_text(tmp_path, fmt, saved):
    original = committed(TEXTS[fmt])
    text = original.read_bytes().decode("utf-8-sig")
    path = tmp_path / f"saved.{fmt}"
    path.write_bytes(SAVED[saved](text))
    plain = tmp_path / f"plain.{fmt}"
    plain.write_text(text, encoding="utf-8", newline="")
    assert _scores(path) == _scores(plain)


@pytest.mark.parametrize("saved", sorted(SAVED))
def test_repair_writes_a_utf_32_file_back_in_utf_32(tmp_path, saved):
    """The lines no repair touched come back byte for byte, in the file's own encoding."""
    text = (SAMPLES / "flawed_5pt.mat").read_text(encoding="utf-8")
    path, fixed = tmp_path / "saved.mat", tmp_path / "fixed.mat"
    path.write_bytes(SAVED[saved](text))
    assert invoke("repair", path, "-o", fixed).exit_code == 1
    encoding = "utf-32-be" if "be" in saved else "utf-32-le"
    mark = {"utf-32 with its mark": "\ufeff", "utf-32-be with its mark": "\ufeff"}.get(saved, "")
    assert fixed.read_bytes() == (mark + text.replace("Doubles => 8", "Doubles => 2")).encode(encoding)
    assert invoke("audit", fixed).exit_code == 0


def test_a_chouette_saved_as_utf_32_reads_as_its_text(tmp_path):
    text = (SAMPLES / "chouette.txt").read_text(encoding="utf-8")
    path = tmp_path / "c.txt"
    path.write_bytes(text.encode("utf-32"))
    assert invoke("chouette", path).stdout == invoke("chouette", SAMPLES / "chouette.txt").stdout


@pytest.mark.parametrize("binary", BINARIES, ids=lambda p: p.suffix)
def test_binary_match_files_are_not_taken_for_utf_32(binary):
    from bgcli.formats.reading import unicode_encoding

    data = committed(binary).read_bytes()
    assert unicode_encoding(data[:4096]) is None


@given(st.lists(st.integers(0, 255), min_size=2, max_size=64))
def test_a_table_of_small_numbers_is_not_utf_32(numbers):
    """A binary file's table of 32-bit numbers under 256 has three NULs beside each byte, as ASCII in
    UTF-32 has: a number under 32 that is no blank (a control) says it is not text."""
    from bgcli.formats.reading import unicode_encoding

    data = b"".join(n.to_bytes(4, "little") for n in numbers)
    found = unicode_encoding(data)
    if found is not None:
        assert found[0] == "utf-32-le"
        assert all(n >= 32 or n in (9, 10, 12, 13) for n in numbers[:len(data) // 4])


def _utf32_by_the_letter(head: bytes) -> str | None:
    """The unmarked UTF-32 guess as its rule says it, place by place (the reader counts it with
    bytes.count and one OR of three ints, since every file's head goes through it)."""
    quads = len(head) // 4
    if quads < 2:
        return None
    cells = [head[i:4 * quads:4] for i in range(4)]
    for chars, nuls, name in ((cells[0], cells[1:], "utf-32-le"), (cells[3], cells[:3], "utf-32-be")):
        plain = sum(1 for i in range(quads) if not (nuls[0][i] or nuls[1][i] or nuls[2][i]))
        if b"\0" not in chars and plain * 8 >= quads * 7 and not any(c < 32 and c not in (9, 10, 12, 13) for c in chars):
            return name
    return None


def _flipped(text: str, order: str, flips: list[int]) -> bytes:
    """``text`` in UTF-32 with a byte beside some characters made non-NUL, each flip in another of the three
    places by turns: each place alone may keep 7 NULs in 8 while the characters with all three do not."""
    data = bytearray(text.encode(order))
    for n, j in enumerate(flips):
        place = 1 + n % 3 if order.endswith("le") else n % 3
        data[4 * (j % len(text)) + place] = 0x41
    return bytes(data)


_NEAR_UTF32 = st.builds(_flipped, st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF), min_size=8, max_size=40),
                        st.sampled_from(["utf-32-le", "utf-32-be"]), st.lists(st.integers(0, 39), max_size=12))


@example(_flipped("abcdefghijklmnopqrstuvwx", "utf-32-le", [0, 1, 2, 3, 4, 5]))   # each place 7 in 8, all three not
@example(_flipped("abcdefghijklmnopqrstuvwx", "utf-32-be", [3, 7, 11, 15, 19, 23]))
@given(st.one_of(_NEAR_UTF32, st.text(min_size=2, max_size=40).map(lambda t: t.encode("utf-16-le")), st.binary(min_size=8, max_size=96)))
def test_the_utf_32_guess_counts_as_its_rule_says(head):
    """unicode_encoding's count of the places with three NULs (one OR of three ints) against the place by
    place count, on UTF-32 texts with some NULs flipped, other encodings and random bytes."""
    from bgcli.formats.reading import _MARKS, unicode_encoding

    head = bytes(head)
    if any(head.startswith(mark) for mark, _ in _MARKS):
        return
    found = unicode_encoding(head)
    expected = _utf32_by_the_letter(head)
    if expected is not None:
        assert found == (expected, 0)
    else:
        assert found is None or found[0].startswith("utf-16")
