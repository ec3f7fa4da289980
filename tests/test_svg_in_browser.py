"""The SVG board as a real browser draws it (Debian's chromium, headless)."""
from __future__ import annotations

import struct
import subprocess
import zlib

import pytest

from bgcli.core.ids import parse_position
from bgcli.render.board import svg_board

from chromium import CHROMIUM, FLAGS, need_chromium



def png_pixels(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and the raw (still filtered) scanlines of a PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    return width, height, zlib.decompress(idat)


@pytest.mark.parametrize("text", ["start", "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:0:0:0:0:10"])
def test_chromium_draws_the_board(tmp_path, text):
    need_chromium("the SVG")
    svg = tmp_path / "board.svg"
    svg.write_text(svg_board(parse_position(text), size=640))
    shot = tmp_path / "board.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={shot}",
                    "--window-size=700,700", svg.as_uri()], check=True, capture_output=True, timeout=60)
    width, height, raw = png_pixels(shot.read_bytes())
    assert (width, height) == (700, 700)
    # a board has felt, two colours of points and checkers, text: far from a
    # blank or error page, which has a handful of byte values at most
    assert len(set(raw)) > 40
