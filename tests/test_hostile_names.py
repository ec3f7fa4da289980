"""Names that strangers wrote, in every format bgcli reads (.mat, XG's .mat
export, gnubg's text export, SGF, bgcli's JSON, eXtreme Gammon's .xg,
BGBlitz's .bgf): whatever characters a player's name holds (controls, ESC,
BEL, line separators, bidirectional overrides, lone surrogates), text output
shows them escaped, JSON output stays valid and gives back the name as read,
and nothing ends in a traceback."""
from __future__ import annotations

import io
import json
import re
import struct
import zlib
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import CORPUS, DATA, ROOT, invoke

SAMPLE = (ROOT / "samples" / "sp05001_3pt.mat").read_text(encoding="utf-8")   # gnubg against root
XG_TEXT = (DATA / "matchfiles" / "xg_bom_crlf.mat").read_bytes().decode("utf-8")  # Alice against Bob
GNUBG_TEXT = (CORPUS / "gnubg-text-export" / "match956620.txt").read_text(encoding="utf-8")  # leos against lasse
XG_FILE = DATA / "gammonview" / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.xg"   # Fox against Bluepoint02
BGF_FILE = DATA / "gammonview" / "bgf" / "B4_SrGcsKAQmoTyHlgJCbM.bgf"

# what a terminal may act on, raw: C0 controls but the line end, C1, DEL, separators, bidi, surrogates
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
NAMES = st.text(alphabet=st.one_of(st.characters(categories=("Cc", "Cf", "Zl", "Zp", "Cs")),
                                   st.sampled_from("ab :,;[]\\\"()\u00e9\x1b\x07\x9b")), min_size=1, max_size=12)
TEXT_COMMANDS = (["score"], ["replay"], ["audit"])
FILE_COMMANDS = (["export", "--to", "mat", "--force"], ["export", "--to", "sgf", "--force"])   # the name is data
JSON_COMMANDS = (["score", "--json"], ["audit", "--json"], ["export", "--to", "json", "--force"])


def _sgf_text(name: str) -> str:
    return name.replace("\\", "\\\\").replace("]", "\\]")


def _xg_file(name: str) -> bytes:
    """The golden .xg file with player 1's name (UTF-16 in the match header) replaced."""
    from bgcli.formats import xg

    good = XG_FILE.read_bytes()
    records = [record for _, _, record in xg.iter_records(XG_FILE)]
    header = bytearray(records[0])
    units = name.encode("utf-16-le", "surrogatepass")[:2 * 128]
    header[880:880 + 2 * 129] = units + bytes(2 * 129 - len(units))
    records[0] = bytes(header)
    head = bytearray(good[:xg.RICH_HEADER])
    struct.pack_into("<I", head, 20, 0)   # no thumbnail
    content = b"".join(records)
    packed = zlib.compress(content)
    entry = bytearray(xg.REGISTRY_ENTRY)
    entry[0] = len(b"temp.xg")
    entry[1:8] = b"temp.xg"
    struct.pack_into("<iiiI", entry, 512, len(content), len(packed), 0, zlib.crc32(content))
    registry = zlib.compress(bytes(entry))
    stream = packed + registry
    trailer = struct.pack("<Iiiii", zlib.crc32(stream), 1, 1, len(registry), len(packed))
    trailer += b"\x01" + bytes(xg.TRAILER - len(trailer) - 1)
    return bytes(head) + stream + trailer


def _bgf_document(name: str) -> dict:
    """The golden .bgf file's document with the green player's name replaced (the Smile
    layer below it decodes only valid UTF-8, so the name is put in above it)."""
    from bgcli.formats import bgf

    if not _BGF:
        _BGF.append(bgf._document(io.BytesIO(BGF_FILE.read_bytes()), str(BGF_FILE)))
    return {**_BGF[0], "nameGreen": name}


_BGF: list[dict] = []


def _sources(folder, name: str) -> dict[str, str]:
    """One file per format, whose first player is called ``name`` (as far as the format can say it)."""
    doc = json.loads(invoke("export", "--to", "json", str(ROOT / "samples" / "sp05001_3pt.mat")).output)
    doc["players"][0] = name
    doc["tags"] = {"Event": name}
    sgf = invoke("export", "--to", "sgf", str(ROOT / "samples" / "sp05001_3pt.mat")).output
    texts = {
        "m.mat": SAMPLE.replace("gnubg", name),
        "xg.mat": XG_TEXT.replace("Alice", name),
        "gnubg.txt": GNUBG_TEXT.replace("leos", name),
        "m.sgf": sgf.replace("PW[gnubg]", f"PW[{_sgf_text(name)}]"),
        "m.json": json.dumps(doc),   # ASCII: a lone surrogate is held as \ud800
    }
    paths = {}
    for file_name, text in texts.items():
        path = folder / file_name
        path.write_bytes(text.encode("utf-8", "surrogatepass"))   # a lone surrogate, raw: bytes no UTF-8 allows
        paths[file_name] = str(path)
    (folder / "m.xg").write_bytes(_xg_file(name))
    paths["m.xg"] = str(folder / "m.xg")
    (folder / "m.bgf").write_bytes(BGF_FILE.read_bytes())
    paths["m.bgf"] = str(folder / "m.bgf")
    return paths


def _run(args: list[str]):
    result = invoke(*args)
    assert result.exit_code in (0, 1, 2), (args, result.output[-300:])
    assert "Traceback" not in result.output
    return result


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=NAMES)
def test_any_name_in_every_format_is_escaped_in_text_and_valid_in_json(tmp_path_factory, name):
    folder = tmp_path_factory.mktemp("names")
    _bgf_document(name)   # read before the reader is replaced
    with mock.patch("bgcli.formats.bgf._document", lambda handle, path: _bgf_document(name)):
        for kind, path in _sources(folder, name).items():
            for command in TEXT_COMMANDS:
                output = _run(command + [path]).output
                found = RAW.search(output)
                assert found is None, f"bgcli {' '.join(command)} of {kind} wrote a raw {found.group()!r}"
            for command in FILE_COMMANDS:
                _run(command + [path])
            for command in JSON_COMMANDS:
                result = _run(command + [path])
                found = RAW.search(result.stdout)
                assert found is None, f"bgcli {' '.join(command)} of {kind} wrote a raw {found.group()!r}"
                if result.exit_code == 2:
                    continue   # refused with one line: nothing to parse
                text = result.stdout
                documents = [json.loads(text)] if command[0] == "export" else \
                    [json.loads(line) for line in text.splitlines()]
                if command[0] == "score" and kind in ("m.json", "m.xg", "m.bgf"):
                    # these hold a name as it is: JSON gives it back exactly (XG's UTF-16 may end it at a NUL)
                    expected = name.split("\0")[0] if kind == "m.xg" else name
                    if kind != "m.bgf":   # a pair of surrogates, escaped or in UTF-16, is one character
                        expected = expected.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
                    if expected and not any(0xD800 <= ord(c) <= 0xDFFF for c in expected):
                        assert documents[0]["players"][0] == expected, kind


def test_an_export_to_a_terminal_shows_a_name_escaped_and_to_a_file_as_it_is(tmp_path):
    import os
    import pty
    import subprocess
    import sys

    source = tmp_path / "m.mat"
    source.write_text(SAMPLE.replace("gnubg", "gnu\x1b]0;owned\x07bg"), encoding="utf-8")
    leader, follower = pty.openpty()
    try:
        process = subprocess.run([sys.executable, "-m", "bgcli", "export", "--to", "sgf", str(source)],
                                 stdout=follower, stderr=subprocess.PIPE, cwd=ROOT, timeout=120)
        os.close(follower)
        shown = b""
        while True:
            try:
                piece = os.read(leader, 1 << 16)
            except OSError:   # the terminal's other side is closed: all is read
                break
            if not piece:
                break
            shown += piece
    finally:
        os.close(leader)
    assert process.returncode == 0, process.stderr
    assert b"\x1b" not in shown and b"\x07" not in shown and b"PW[gnu\\x1b\\]0;owned\\x07bg]" in shown
    target = tmp_path / "out.sgf"
    assert invoke("export", "--to", "sgf", str(source), "-o", str(target)).exit_code == 0
    assert "PW[gnu\x1b\\]0;owned\x07bg]" in target.read_text(encoding="utf-8"), "the file keeps the name as it is"


def test_a_json_export_holds_c1_controls_and_separators_as_escapes_and_reads_back_exact(tmp_path):
    name = "gnu\x85\x9b2J\x7f\u2028\u202ebg"
    source = tmp_path / "m.mat"
    source.write_text(SAMPLE.replace("gnubg", name), encoding="utf-8")
    text = _run(["export", "--to", "json", str(source)]).stdout
    assert RAW.search(text) is None and "\\u0085\\u009b2J\\u007f\\u2028\\u202e" in text
    assert json.loads(text)["players"][0] == name
    target = tmp_path / "back.json"
    target.write_text(text, encoding="utf-8")
    assert json.loads(_run(["score", "--json", str(target)]).stdout)["players"][0] == name
