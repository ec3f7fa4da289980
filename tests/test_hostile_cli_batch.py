"""Batch input saved with a byte order mark (Windows' editors: "Unicode" is UTF-16, and UTF-8 with its mark):
read as its text by every command that reads a batch, and by the accelerated ``moves --batch -``; bytes that are
not text after the mark are a line's error, never a traceback."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import invoke


BATCH = "start 31\n4HPwATDgc/ABMA 66\n# a comment, café\n"
MARKED = {"utf-8 with its mark": b"\xef\xbb\xbf" + BATCH.encode(), "utf-16": BATCH.encode("utf-16"),
          "utf-16-le": b"\xff\xfe" + BATCH.encode("utf-16-le"), "utf-16-be": b"\xfe\xff" + BATCH.encode("utf-16-be"),
          "utf-32-le": BATCH.encode("utf-32"), "utf-32-be": b"\0\0\xfe\xff" + BATCH.encode("utf-32-be")}


@pytest.mark.parametrize("command", ["moves", "hint", "analyze"])
@pytest.mark.parametrize("encoding", sorted(MARKED))
def test_a_batch_saved_with_a_byte_order_mark_is_read_as_its_text(tmp_path, command, encoding):
    """A batch saved by Windows' editors ("Unicode", or UTF-8 with its mark) was an error on every line
    ("not UTF-8 text", "invalid position '\\x004\\x00H...'"); match files in UTF-16 were read all along."""
    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"
    plain.write_text(BATCH, encoding="utf-8")
    marked.write_bytes(MARKED[encoding])
    options = ["--level", "0"] if command == "hint" else []
    expected = invoke(command, "--batch", plain, *options)
    assert expected.exit_code == 0 and expected.stdout.count("\n") == 2
    result = invoke(command, "--batch", marked, *options)
    assert (result.exit_code, result.stdout) == (0, expected.stdout)


@pytest.mark.parametrize("encoding", sorted(MARKED))
def test_the_accelerated_batch_reads_a_marked_batch_as_the_command_does(encoding):
    """``moves --batch -`` answered before click (bgcli.cli.batch.run_moves_stream, the C accelerator's
    reader of UTF-8 bytes): the same answers as the plain text's."""
    import io

    from bgcli.cli.batch import run_moves_stream

    plain, marked = io.StringIO(), io.StringIO()
    assert run_moves_stream(io.BufferedReader(io.BytesIO(BATCH.encode())), "gnubg", plain) == 0
    assert run_moves_stream(io.BufferedReader(io.BytesIO(MARKED[encoding])), "gnubg", marked) == 0
    assert marked.getvalue() == plain.getvalue() and plain.getvalue().count("\n") == 2


@given(st.binary(max_size=200), st.sampled_from([b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"\xff\xfe\0\0",
                                                 b"\0\0\xfe\xff"]))
def test_any_bytes_after_a_byte_order_mark_are_answered_a_line_each(data, mark):
    """Bytes that are not UTF-16 after its mark (a lone surrogate, an odd last byte) are that line's error,
    never a traceback from the decoder."""
    import io
    import json

    from bgcli.cli.batch import run_moves_stream

    out = io.StringIO()
    status = run_moves_stream(io.BufferedReader(io.BytesIO(mark + data)), "gnubg", out)
    assert status in (0, 1, 2)
    for line in out.getvalue().splitlines():
        json.loads(line)
