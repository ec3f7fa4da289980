"""Real files broken the ways files break (cut at a line, a byte flipped, lines swapped or written twice,
another encoding, a NUL, a very long line, a number made huge or negative), given to every command that
reads them: a result, or one error line naming the file, with a documented status (docs/exit-status.md);
never a traceback, never a hang."""
from __future__ import annotations

import subprocess
import sys

from conftest import ROOT, SAMPLES


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
