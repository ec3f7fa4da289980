"""-o/--output on every command that writes a result, and progress on a
terminal only: the habits every command shares."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from bgcli.errors import Terminated
from conftest import ROOT, SAMPLES, read_in_background

BEAR_OFF = "OwAAwA4AAAAAAA"   # no contact: the exact engine judges it at once

# a command that writes a result, with arguments that make one
WRITERS = {
    "moves": ["moves", "start", "31"],
    "moves --batch": ["moves", "--batch", SAMPLES / "positions.txt"],
    "check": ["check", "start", "31", "8/5", "6/5"],
    "check --json (illegal)": ["check", "--json", "start", "31", "24/18"],
    "analyze": ["analyze", "start"],
    "convert": ["convert", "--to", "xgid", "start", "4HPwATDgc/ABMA"],
    "rules": ["rules", "--json"],
    "audit": ["audit", SAMPLES / "flawed_5pt.mat"],
    "replay": ["replay", SAMPLES / "sp05001_3pt.mat"],
    "score": ["score", "--json", SAMPLES / "sp05001_3pt.mat"],
    "chouette": ["chouette", SAMPLES / "chouette.txt"],
    "hint": ["hint", "--engine", "exact", BEAR_OFF, "31"],
}

# a command that fails before it writes anything
FAILURES = {
    "moves": ["moves", "start", "3x"],
    "check": ["check", "start", "31"],
    "analyze": ["analyze", "nonsense"],
    "audit": ["audit", "missing.mat"],
    "replay": ["replay", "missing.mat"],
    "score": ["score", "missing.mat"],
    "chouette": ["chouette", "missing.txt"],
    "hint": ["hint", "--engine", "exact", "nonsense"],
    "rate": ["rate", "missing.mat"],
    "rules": ["rules", "nonsense"],
    "convert": ["convert", "--to", "nonsense", "start"],
}

EVERY_WRITER = sorted({words[0] for words in [*WRITERS.values(), *FAILURES.values()]} | {"show", "export", "view"})


@pytest.mark.parametrize("command", EVERY_WRITER)
def test_every_command_that_writes_a_result_has_output_option(run, command):
    shown = run(command, "--help").output
    assert "-o, --output FILE" in shown


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_output_file_holds_what_standard_output_shows(run, tmp_path, name):
    words = WRITERS[name]
    plain = run(*words)
    target = tmp_path / "out.txt"
    target.write_text("the old content\n")
    written = run(*words, "-o", target)
    assert written.exit_code == plain.exit_code
    assert plain.stdout and target.read_text() == plain.stdout
    assert written.stdout == ""   # all of it went to the file
    assert os.listdir(tmp_path) == ["out.txt"]   # no temporary left beside it


@pytest.mark.parametrize("name", sorted(WRITERS)[:3])
def test_output_dash_is_standard_output(run, name):
    words = WRITERS[name]
    assert run(*words, "-o", "-").stdout == run(*words).stdout


@pytest.mark.parametrize("name", sorted(FAILURES))
def test_a_command_that_fails_having_written_nothing_leaves_the_old_file(run, tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "out.txt"
    target.write_text("the old content\n")
    result = run(*FAILURES[name], "-o", target)
    assert result.exit_code in (1, 2) and "Traceback" not in result.output
    assert target.read_text() == "the old content\n"
    assert sorted(os.listdir(tmp_path)) == ["out.txt"]


def test_output_into_a_missing_folder_is_one_line_and_exit_2(run, tmp_path):
    result = run("replay", SAMPLES / "sp05001_3pt.mat", "-o", tmp_path / "nowhere" / "out.txt")
    assert result.exit_code == 2
    [line] = result.output.splitlines()
    assert line.startswith("Error: cannot write '") and line.endswith("' does not exist")


# every command that writes one file it names: -o FILE (and repair's --patch FILE)
ONE_FILE = {
    "replay": ["replay", SAMPLES / "sp05001_3pt.mat", "-o"],
    "show --svg": ["show", "--svg", "start", "-o"],
    "export": ["export", SAMPLES / "sp05001_3pt.mat", "--to", "sgf", "-o"],
    "view": ["view", SAMPLES / "sp05001_3pt.mat", "-o"],
    "repair -o": ["repair", SAMPLES / "flawed_5pt.mat", "-o"],
    "repair --patch": ["repair", SAMPLES / "flawed_5pt.mat", "--patch"],
}


@pytest.mark.parametrize("name", sorted(ONE_FILE))
def test_one_output_file_into_a_missing_folder_is_refused_by_every_command(run, tmp_path, monkeypatch, name):
    """One file's missing folder is never made (a typing slip in its name would
    make a stray folder): every command says so in one line, exit 2 (repair
    made it, where every other command refused); only -o FOLDER makes folders."""
    monkeypatch.chdir(tmp_path)
    result = run(*ONE_FILE[name], "nowhere/out")
    assert result.exit_code == 2
    assert "Error: cannot write 'nowhere/out': folder 'nowhere' does not exist" in result.output.splitlines()
    assert os.listdir(tmp_path) == []


def test_output_that_is_an_input_is_refused(run, tmp_path):
    copy = tmp_path / "positions.txt"
    copy.write_bytes((SAMPLES / "positions.txt").read_bytes())
    result = run("moves", "--batch", copy, "-o", copy)
    assert result.exit_code == 2 and "one of the inputs" in result.output
    assert copy.read_bytes() == (SAMPLES / "positions.txt").read_bytes()


def test_an_empty_output_name_is_a_usage_error(run):
    result = run("moves", "start", "31", "-o", "")
    assert result.exit_code == 2 and "empty" in result.output


def test_a_batch_with_bad_lines_still_writes_its_output(run, tmp_path):
    target = tmp_path / "out.jsonl"
    result = run("moves", "--batch", "-", "-o", target, input="start 31\nnonsense\n")
    assert result.exit_code == 1
    assert len(target.read_text().splitlines()) == 2 and '"error"' in target.read_text()


def test_a_batch_ended_by_sigterm_leaves_the_old_file(tmp_path):
    """A kill in the middle: the old file stays whole and no temporary is left."""
    target = tmp_path / "out.jsonl"
    target.write_text("the old content\n")
    process = subprocess.Popen([sys.executable, "-m", "bgcli", "moves", "--batch", "-", "-o", str(target)],
                               stdin=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    assert process.stdin is not None
    process.stdin.write(b"start 31\n" * 100)
    process.stdin.flush()
    deadline = time.monotonic() + 60
    while len(os.listdir(tmp_path)) < 2 and time.monotonic() < deadline:   # the temporary is there: it is at work
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143 and b"terminated" in err
    assert target.read_text() == "the old content\n"
    assert os.listdir(tmp_path) == ["out.jsonl"]


@pytest.mark.parametrize("error, status", [(Terminated, 143), (KeyboardInterrupt, 130)], ids=["SIGTERM", "Ctrl-C"])
def test_a_signal_right_after_the_temporary_is_made_leaves_nothing(tmp_path, monkeypatch, error, status):
    """The test above sends SIGTERM as soon as the temporary appears; on a loaded machine the signal
    once came before the AtomicOutput knew the temporary's name, which was left behind. A signal at
    that instant (raised here by the function that makes it) must leave the old file and nothing else."""
    import io

    import bgcli.cli.common as common
    from bgcli import output

    target = tmp_path / "out.jsonl"
    target.write_text("the old content\n")
    made = output._create_beside

    def cut_off(where):
        made(where)   # the file exists, its name not yet returned
        raise error()

    monkeypatch.setattr(output, "_create_beside", cut_off)
    monkeypatch.setattr(common, "end_process", lambda status: None)
    monkeypatch.setattr(sys, "argv", ["bgcli", "moves", "--batch", "-", "-o", str(target)])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"start 31\n")))
    with pytest.raises(SystemExit) as stopped:
        common.main()
    assert stopped.value.code == status
    assert sorted(os.listdir(tmp_path)) == ["out.jsonl"] and target.read_text() == "the old content\n"


# --- progress on a terminal only ------------------------------------------------------

def _halves(path):
    """A file's bytes cut in two at a line's end near the middle."""
    data = path.read_bytes()
    cut = data.index(b"\n", len(data) // 3) + 1
    return data[:cut], data[cut:]


PROGRESS = {
    "replay": (["replay", "-"], _halves(SAMPLES / "sp05001_3pt.mat"), b"replaying: "),
    "score": (["score", "-"], _halves(SAMPLES / "sp05001_3pt.mat"), b"scoring: "),
    "export": (["export", "-", "--to", "json"], _halves(SAMPLES / "sp05001_3pt.mat"), b"exporting: "),
    "view": (["view", "-", "-o", "-"], _halves(SAMPLES / "sp05001_3pt.mat"), b"reading: "),
    "moves --batch": (["moves", "--batch", "-"], (b"start 31\n" * 3, b"start 31\n" * 50), b"moves: "),
    "moves --batch --jobs 2": (["moves", "--batch", "-", "--jobs", "2"], (b"start 31\n" * 3, b"start 31\n" * 5000),
                               b"moves: "),
    "analyze --batch": (["analyze", "--batch", "-"], (b"start\n" * 3, b"start\n" * 50), b"analysing: "),
}


def _wait_until_read(pipe, timeout: float) -> None:
    """Until the process at the other end of ``pipe`` has read all that was written to it."""
    import fcntl
    import struct
    import termios

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        waiting = struct.unpack("i", fcntl.ioctl(pipe.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0]
        if not waiting:
            return
        time.sleep(0.05)


def _run_slowly(words, halves, terminal: bool):
    """bgcli with ``words``, its standard input given in two halves more than
    the progress delay apart (the work takes long enough to be shown), its
    standard error a pseudo-terminal or a pipe; (stdout, stderr, status)."""
    import pty

    from bgcli.cli.common import PROGRESS_DELAY

    if terminal:
        master, err_end = pty.openpty()
    else:
        master, err_end = os.pipe()
    process = subprocess.Popen([sys.executable, "-m", "bgcli", *words], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=err_end, cwd=ROOT)
    os.close(err_end)
    reader, shown = read_in_background(master)
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(halves[0])
        process.stdin.flush()
        _wait_until_read(process.stdin, 120)   # it is at work: its counter has started
        time.sleep(PROGRESS_DELAY + 0.5)
        out, _ = process.communicate(halves[1], timeout=300)
    finally:
        process.kill()
        reader.join(60)
        os.close(master)
    return out, bytes(shown), process.returncode


@pytest.mark.parametrize("name", sorted(PROGRESS))
def test_progress_is_shown_on_a_terminal_and_not_in_a_pipe(name):
    words, halves, label = PROGRESS[name]
    out, shown, status = _run_slowly(words, halves, terminal=True)
    assert label in shown and status in (0, 1)
    piped_out, piped, piped_status = _run_slowly(words, halves, terminal=False)
    assert label not in piped and b"\r" not in piped
    assert piped_status == status and piped_out == out   # the results are the same either way


def test_no_progress_when_the_results_go_to_the_same_terminal():
    """On one terminal the results show the progress; a redrawn line would break them."""
    import pty

    master, terminal = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", "import sys; from bgcli.cli.common import progress_wanted; "
                                "sys.stderr.write(str(progress_wanted()))"], stdout=terminal, stderr=terminal)
    os.close(terminal)
    process.wait(60)
    said = os.read(master, 100)
    os.close(master)
    assert said == b"False"


@pytest.mark.parametrize("words", [["analyze", "start"], ["analyze", "--batch", "-"]], ids=["one", "batch"])
def test_the_first_analyze_says_once_that_it_builds_the_bear_off_table(tmp_path, words):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}   # a cache folder of its own: no table yet
    first = subprocess.run([sys.executable, "-m", "bgcli", *words], input=b"start\n",
                           capture_output=True, env=env, timeout=300)
    assert first.returncode == 0 and first.stderr.count(b"building the exact bear-off table") == 1
    again = subprocess.run([sys.executable, "-m", "bgcli", *words], input=b"start\n",
                           capture_output=True, env=env, timeout=300)
    assert again.returncode == 0 and again.stderr == b"" and again.stdout == first.stdout


# --- `-` is standard input in every command that reads a file ----------------------------

READERS = {
    "audit": (["audit"], SAMPLES / "flawed_5pt.mat"),
    "replay": (["replay"], SAMPLES / "sp05001_3pt.mat"),
    "score": (["score"], SAMPLES / "sp05001_3pt.mat"),
    "export": (["export", "--to", "mat"], SAMPLES / "sp05001_3pt.mat"),
    "view": (["view", "-o", "-"], SAMPLES / "flawed_5pt.mat"),
    "chouette": (["chouette"], SAMPLES / "chouette.txt"),
    "moves --batch": (["moves", "--batch"], SAMPLES / "positions.txt"),
    "analyze --batch": (["analyze", "--batch"], SAMPLES / "positions.txt"),
    "convert": (["convert", "--to", "xgid"], SAMPLES / "positions.txt"),
}


@pytest.mark.parametrize("name", sorted(READERS))
def test_dash_reads_standard_input_as_the_file_is_read(run, name):
    words, path = READERS[name]
    by_stdin = run(*words, "-", input=path.read_bytes())
    assert by_stdin.stdout and "Traceback" not in by_stdin.output
    if name == "convert":   # convert's words are positions: a file of them comes on standard input
        assert len(by_stdin.stdout.splitlines()) == len(path.read_text().splitlines())
        return
    by_name = run(*words, path)
    assert by_stdin.exit_code == by_name.exit_code
    if name != "view":   # the page is titled with the file's name
        assert by_stdin.stdout == by_name.stdout.replace(str(path), "-")


def test_the_counter_says_nothing_for_quick_work_then_redraws_and_ends_its_line(monkeypatch, capsys):
    from bgcli.cli import common

    monkeypatch.setattr(common, "progress_wanted", lambda: True)
    now = [0.0]
    counter = common.Counter("replaying", "games")
    counter._clock = lambda: now[0]
    counter._start = counter._shown = 0.0
    counter.tick()                          # quick: nothing yet
    assert capsys.readouterr().err == ""
    now[0] = common.PROGRESS_DELAY
    counter.tick()
    now[0] += common.PROGRESS_EVERY / 2     # too soon to redraw
    counter.tick()
    counter.close()
    assert capsys.readouterr().err == "\rreplaying: 2 games\rreplaying: 3 games\n"
    one = common.Counter("reading", "games")
    one._clock, one._start, one._shown = (lambda: 10.0), 0.0, 0.0
    one.tick()
    one.close()
    assert capsys.readouterr().err == "\rreading: 1 game\rreading: 1 game\n"


@pytest.mark.parametrize("command", [["export", "--to", "sgf", "--force"], ["repair"]])
def test_an_output_folder_is_made_with_the_inputs_paths_under_it_by_one_owner(run, tmp_path, monkeypatch, command):
    """-o FOLDER (export) and -o DIR (repair of a folder) make the folder and
    each input's path under it (bgcli.output.make_folders, for both); where a
    file stands in the way, each file is one line, exit 2."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in" / "sub").mkdir(parents=True)
    (tmp_path / "in" / "sub" / "a.mat").write_bytes((SAMPLES / "flawed_5pt.mat").read_bytes())
    result = run(*command, "in", "-o", "out/")
    assert result.exit_code in (0, 1), result.output
    assert [p.parent.relative_to(tmp_path) for p in (tmp_path / "out").rglob("a.*")] == [
        (tmp_path / "out" / "in" / "sub").relative_to(tmp_path)]
    (tmp_path / "blocked").write_text("a file\\n")
    result = run(*command, "in", "-o", "blocked/out/")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert any(line.startswith("Error: cannot write 'blocked/out/in/sub/a.") for line in result.output.splitlines())
