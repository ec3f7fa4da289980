"""Real files broken the ways files break (cut at a line, a byte flipped, lines swapped or written twice,
another encoding, a NUL, a very long line, a number made huge or negative), given to every command that
reads them: a result, or one error line naming the file, with a documented status (docs/exit-status.md);
never a traceback, never a hang."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DATA, ROOT, SAMPLES, committed, invoke


def bgcli(*args, timeout: float = 60):
    """The real program in its own process, with a time limit: a hang detector, not a speed target."""
    return subprocess.run([sys.executable, "-m", "bgcli", *map(str, args)], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout)


LINE_BOUND = 1_000   # characters of any line a command writes for people (a message quotes an excerpt)


def _longest_line(text: str) -> int:
    return max(map(len, text.splitlines()), default=0)


@pytest.fixture(scope="module")
def long_play(tmp_path_factory):
    """flawed_5pt.mat with 300,000 characters after a play (a line of junk pasted in)."""
    lines = (SAMPLES / "flawed_5pt.mat").read_text(encoding="utf-8").splitlines()
    row = next(i for i, line in enumerate(lines) if line.lstrip().startswith("1) "))
    lines[row] += "x" * 300_000
    path = tmp_path_factory.mktemp("long") / "long.mat"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["repair"], ["audit", "--suggest"]])
def test_a_play_of_300_kb_is_weighed_against_the_legal_plays_in_linear_time(long_play, command):
    """A play with 300,000 characters after it: repair took 121 s and ``audit --suggest`` 170 s, weighing
    each candidate by an edit distance that copied the line a character at a time and set its bits one by
    one (quadratic); now about a second each, and 60 s is a margin no loaded machine needs. The suggestion
    quoted the whole line before and after (600 kB in one line): now an excerpt of each at the column the
    edit begins, which it names."""
    result = bgcli(*command, long_play)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert _longest_line(result.stdout) <= LINE_BOUND and _longest_line(result.stderr) <= LINE_BOUND
    assert "1. play: line 7 column 57: '... 24/22 24/22 6/4 6/4xxx" in result.stdout
    assert "-> '1) 42: 8/4 6/4                 22: 24/22 24/22 6/4 6/4' (" in result.stdout


@pytest.mark.parametrize("command", [["replay"], ["replay", "--boards"], ["rate", "--level", "0"], ["audit"],
                                     ["score"], ["export", "--to", "sgf"], ["dice"]])
def test_a_play_of_300_kb_is_never_echoed_whole_to_people(long_play, command):
    """What a command writes for people (a listing, a rating, a message) quotes a bounded part of a 300 kB
    play: replay's listing, rate's illegal play and export's 'cannot be written as sgf' wrote it whole.
    The data outputs (--json, a file exported, repair's patch and -o) keep every character."""
    result = invoke(*command, long_play)
    assert result.exit_code in (0, 1), result.output
    assert _longest_line(result.stdout) <= LINE_BOUND and _longest_line(result.stderr) <= LINE_BOUND


def test_repair_keeps_the_whole_line_in_its_patch_and_json(long_play):
    """Nothing is lost where the data goes: the patch and the JSON carry the whole line before."""
    import json

    result = invoke("repair", "--json", long_play)
    edit = json.loads(result.stdout)["problems"][0]["suggestions"][0]["edits"][0]
    assert edit["before"].endswith("x" * 300_000) and "x" not in edit["after"]


@pytest.mark.parametrize("encoding", ["UTF-0", "rot13", "shift_jis", "idna"])
@pytest.mark.parametrize("command", [["met", "{p}"], ["analyze", "start", "--met", "{p}"]])
def test_a_table_in_an_encoding_bgcli_cannot_read_is_one_line_naming_the_file(tmp_path, encoding, command):
    """gnubg's XML table declaring an encoding Python does not know ('UTF-0', a digit mutated) or that is no
    text encoding ('rot13') was 'internal error, a bug in bgcli: LookupError' (70); one expat cannot decode
    ('shift_jis') was 'multi-byte encodings are not supported', naming no file."""
    written = invoke("met", "--to", "xml")
    assert written.exit_code == 0
    path = tmp_path / "table.xml"
    path.write_text(re.sub(r'encoding="[^"]*"', f'encoding="{encoding}"', written.stdout, count=1), encoding="utf-8")
    result = invoke(*[a.format(p=path) for a in command])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1].endswith(
        f"{path}:1: the XML declares the encoding '{encoding}', which bgcli cannot read a table in "
        "(UTF-8, UTF-16 or a one-byte encoding)")


# --- real files of every format, broken, through every command that reads them ----------------------------

SEEDS = {   # one real file of each format bgcli reads (tests/data/README.md and PROVENANCE say where from)
    "mat": SAMPLES / "flawed_5pt.mat",
    "sgf": DATA / "sgf" / "sp05003_7pt.sgf",
    "txt": SAMPLES / "galaxy_match3029786.txt",
    "fibs": DATA / "imports" / "sp05001_3pt.fibs",
    "sgg": DATA / "imports" / "sp05017_3pt.sgg",
    "tmg": DATA / "imports" / "sp05003_7pt.tmg",
    "gam": DATA / "imports" / "empire" / "sp05007_money.gam",
    "xg": DATA / "gammonview" / "xg" / "XCu3RJ0UvDg_Tldl.xg",
    "bgf": DATA / "gammonview" / "bgf" / "5nqfGw9bWG3deTaU.bgf",
    "match": DATA / "real" / "bgammon-org" / "gnubg-root_3pt_sp05001.match",
}
_HUGE = [b"1000000000", b"18446744073709551616", b"0", b"-1", b"9" * 40]


def _broken(data: bytes, kind: str, where: int, junk: bytes) -> bytes:
    """``data`` broken one way: ``where`` picks the line or byte, ``junk`` is what a garble writes."""
    lines = data.split(b"\n")
    i = where % len(lines)
    if kind == "cut at a line":
        return b"\n".join(lines[:i])
    if kind == "cut at a byte":
        return data[:where % (len(data) + 1)]
    if kind == "byte flipped":
        flipped = bytearray(data)
        flipped[where % len(data)] ^= 1 << (where % 8)
        return bytes(flipped)
    if kind == "lines swapped":
        lines[i], lines[i - 1] = lines[i - 1], lines[i]
    elif kind == "line twice":
        lines.insert(i, lines[i])
    elif kind == "line garbled":
        lines[i] = lines[i][:len(lines[i]) // 2] + junk + lines[i][len(lines[i]) // 2:]
    elif kind == "NUL":
        lines[i] = lines[i][:1] + b"\x00" + lines[i][1:]
    elif kind == "long line":
        lines[i] += b"x" * 70_000
    elif kind == "number":
        numbers = [(j, m) for j, line in enumerate(lines) for m in re.finditer(rb"\d+", line)]
        if numbers:
            j, m = numbers[where % len(numbers)]
            lines[j] = lines[j][:m.start()] + _HUGE[where % len(_HUGE)] + lines[j][m.end():]
    elif kind in ("utf-16", "utf-32", "utf-32-be", "latin-1", "BOM"):
        text = data.decode("utf-8", "replace")
        return {"utf-16": text.encode("utf-16"), "utf-32": text.encode("utf-32"), "utf-32-be": text.encode("utf-32-be"),
                "latin-1": text.encode("latin-1", "replace") + b"\xe9\xff", "BOM": b"\xef\xbb\xbf" + data}[kind]
    return b"\n".join(lines)


_KINDS = ["cut at a line", "cut at a byte", "byte flipped", "lines swapped", "line twice", "line garbled", "NUL",
          "long line", "number", "utf-16", "utf-32", "utf-32-be", "latin-1", "BOM"]
_COMMANDS = [["audit"], ["score", "--json"], ["replay", "--boards"], ["export", "--to", "sgf", "-o", "{out}.sgf"],
             ["export", "--to", "mat", "-o", "{out}.mat"], ["repair", "-o", "{out}.mat"], ["dice"], ["view", "-o", "{out}.html"],
             ["audit", "--suggest", "--beavers"], ["replay", "--rules", "korean"], ["score", "--cubeless", "--auto-doubles", "2"]]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fmt=st.sampled_from(sorted(SEEDS)),
       breaks=st.lists(st.tuples(st.sampled_from(_KINDS), st.integers(0, 1 << 20), st.binary(max_size=6)),
                       min_size=1, max_size=3),
       command=st.sampled_from(_COMMANDS))
def test_a_broken_real_file_is_read_or_refused_in_one_line_naming_it(tmp_path_factory, fmt, breaks, command):
    folder = tmp_path_factory.mktemp("broken")
    data = committed(SEEDS[fmt]).read_bytes()
    for kind, where, junk in breaks:
        data = _broken(data, kind, where, junk) or data[:1]
    path = folder / f"broken.{fmt}"
    path.write_bytes(data)
    out = folder / "out"
    result = invoke(*[a.format(out=out) for a in command], path)   # a Python exception is raised, not folded
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output and "internal error" not in result.stderr
    # a long line is quoted as an excerpt, never echoed whole (commands with data on standard output: none here)
    assert _longest_line(result.stdout) <= LINE_BOUND and _longest_line(result.stderr) <= LINE_BOUND
    for line in result.stderr.splitlines():
        if line.startswith("Error: "):
            assert str(path) in line, line
    assert path.read_bytes() == data, "the input was changed"
    written = list(folder.glob("out*"))
    if result.exit_code == 2:   # nothing was read: nothing written, and no half-written file or temporary left
        assert not written, written
    assert not [p for p in folder.iterdir() if p not in (path, *written)], "a temporary was left"
