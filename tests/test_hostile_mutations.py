"""Real files broken the ways files break (cut at a line, a byte flipped, lines swapped or written twice,
another encoding, a NUL, a very long line, a number made huge or negative), given to every command that
reads them: a result, or one error line naming the file, with a documented status (docs/exit-status.md);
never a traceback, never a hang."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from conftest import ROOT, SAMPLES, invoke


def bgcli(*args, timeout: float = 60):
    """The real program in its own process, with a time limit: a hang detector, not a speed target."""
    return subprocess.run([sys.executable, "-m", "bgcli", *map(str, args)], capture_output=True, text=True, cwd=ROOT,
                          timeout=timeout)


def test_a_play_of_300_kb_is_weighed_against_the_legal_plays_in_linear_time(tmp_path):
    """A play with 300,000 characters after it (a line of junk pasted in): repair took 121 s and
    ``audit --suggest`` 170 s, weighing each candidate by an edit distance that copied the line a character
    at a time and set its bits one by one (quadratic); now about a second each, and 60 s is a margin no
    loaded machine needs."""
    lines = (SAMPLES / "flawed_5pt.mat").read_text(encoding="utf-8").splitlines()
    row = next(i for i, line in enumerate(lines) if line.lstrip().startswith("1) "))
    lines[row] += "x" * 300_000
    path = tmp_path / "long.mat"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for command in (["repair"], ["audit", "--suggest"]):
        result = bgcli(*command, path)
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr


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
