"""Hostile files on the reading side: a file that opens but fails to read
(an I/O error), and an endless or huge file given to a command that reads
its input whole, are one line and status 2, never a traceback nor a
machine run out of memory."""
from __future__ import annotations

import errno
import io
import json
import os

import pytest

from conftest import SAMPLES, invoke


class FailingStream(io.RawIOBase):
    """A binary stream that gives ``head`` and then an I/O error, as a failing disk does."""

    def __init__(self, head: bytes = b""):
        self.head = head

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if not self.head:
            raise OSError(errno.EIO, "Input/output error")
        n = min(len(buffer), len(self.head))
        buffer[:n], self.head = self.head[:n], self.head[n:]
        return n


def test_a_batch_that_fails_to_read_ends_with_that_line_s_error():
    from bgcli.cli.batch import BadLine, batch_lines

    lines = list(batch_lines(io.BufferedReader(FailingStream(b"start 31\n"))))
    assert lines == ["start 31", BadLine("cannot be read: Input/output error; the rest of the input is not read",
                                         last=True)]


def test_the_accelerated_batch_says_the_same_of_a_failing_read():
    from bgcli.cli import batch

    if batch._speedups is None:
        pytest.skip("the C accelerator is not built here")
    written = io.StringIO()
    status = batch.run_moves_stream(io.BufferedReader(FailingStream(b"4HPwATDgc/ABMA 31\n")), "gnubg", written)
    assert status == 2
    assert written.getvalue().splitlines()[-1] == \
        '{"error": "line 2: cannot be read: Input/output error; the rest of the input is not read"}'


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="Linux's /proc/self/mem opens but cannot be read")
@pytest.mark.parametrize("command", ["moves", "hint", "analyze"])
def test_a_batch_file_that_opens_but_cannot_be_read_is_status_2_not_a_traceback(command):
    result = invoke(command, "--batch", "/proc/self/mem")
    assert result.exit_code == 2
    assert json.loads(result.stdout.splitlines()[-1])["error"] == \
        "line 1: cannot be read: Input/output error; the rest of the input is not read"


def test_an_endless_chouette_is_refused_at_its_bound(monkeypatch):
    """``bgcli chouette /dev/zero`` read the file whole: the machine ran out of memory."""
    from bgcli.judging import chouette

    monkeypatch.setattr(chouette, "CHOUETTE_LIMIT", 1 << 10)
    result = invoke("chouette", "-", input=b"Chouette: a, b, c\n" + b" " * 2000)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: -:1:1: the file is larger than ") and result.stderr.count("\n") == 1


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_as_a_chouette_is_one_line_and_status_2():
    result = invoke("chouette", "/dev/zero")
    assert result.exit_code == 2
    assert result.stderr == "Error: /dev/zero:1:1: the file is larger than 16 MB, more than bgcli reads as a chouette\n"


def test_binary_data_is_not_a_chouette(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes(b"Chouette: a, b, c\n\x00\x01\x02")
    result = invoke("chouette", str(path))
    assert result.exit_code == 2
    assert result.stderr == f"Error: {path}:2:1: binary data, not a chouette\n"


def test_a_chouette_is_read_as_before():
    result = invoke("chouette", str(SAMPLES / "chouette.txt"))
    assert result.exit_code in (0, 1) and "Traceback" not in result.output


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("where", ["/dev/zero", "-"])
def test_dev_zero_to_repair_is_one_line_and_status_2(where):
    """``bgcli repair /dev/zero`` read the file whole: the machine ran out of memory."""
    if where == "-":
        with open("/dev/zero", "rb") as zeros:
            import subprocess
            import sys

            done = subprocess.run([sys.executable, "-m", "bgcli", "repair", "-"], stdin=zeros, capture_output=True,
                                  text=True, timeout=300)
        status, err = done.returncode, done.stderr
    else:
        result = invoke("repair", where)
        status, err = result.exit_code, result.stderr
    assert status == 2
    assert err.splitlines()[0] == f"Error: {where}:1:1: the file is larger than 64 MB, more than bgcli reads as a match to repair"
    assert "Traceback" not in err
