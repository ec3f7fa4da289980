"""Untrusted files, round two, on the output side: an export of any length is
written as a stream into a temporary that becomes the output only when all
is well (bounded memory), and a usage error quotes what it was given escaped."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, invoke

SAMPLE_PATH = str(ROOT / "samples" / "sp05001_3pt.mat")
SAMPLE = (ROOT / "samples" / "sp05001_3pt.mat").read_text(encoding="utf-8")


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- export as a stream ---------------------------------------------------------------------

@pytest.mark.parametrize("to", ["json", "mat", "sgf"])
def test_export_writes_each_match_while_the_next_ones_are_still_unread(tmp_path, to):
    from bgcli.formats.files import export, export_to
    from bgcli.formats.mat import iter_file
    from bgcli.match.records import parts_of

    records = list(iter_file(write(tmp_path, "five.mat", SAMPLE * 5)))
    assert len(records) == 5
    taken = 0

    def reading():
        nonlocal taken
        for record in records:
            taken += 1
            yield record

    seen: list[tuple[int, str]] = []
    left_out = export_to(lambda piece: seen.append((taken, piece)), parts_of(reading()), to)
    assert not left_out and taken == 5
    assert seen[0][0] <= 2, "the first match is written before the rest is read"
    assert len(seen) >= 5
    assert "".join(piece for _, piece in seen) == export(iter(records), to)[0], "the same text as written whole"


@pytest.mark.parametrize("to", ["json", "mat", "sgf"])
def test_an_export_of_one_long_match_holds_a_game_at_a_time(tmp_path, monkeypatch, to):
    """A money session of thousands of games is one match: its export keeps
    the games' text in a spool (a temporary file past a bound), so the memory
    it takes does not grow with the session (it grew with it before: 611 MB
    for a JSON export of 10,000 games)."""
    import gc
    import tracemalloc

    from bgcli.formats.files import export_to, iter_parts
    from bgcli.formats.writing import Spool

    monkeypatch.setattr(Spool, "memory", 4096)
    rows = SAMPLE.split(" Game 1\n", 1)[1].split("\n", 1)[1]
    peaks = []
    for games in (20, 20, 160):   # the first run warms what a process builds once (imports, caches), unmeasured
        session = " 0 point match\n\n" + "".join(f" Game {n}\n A : 0                        B : 0\n{rows}\n"
                                                   for n in range(1, games + 1))
        path = write(tmp_path, f"session{games}.mat", session)
        written = []
        gc.collect()   # garbage an earlier test left is not this export's
        tracemalloc.start()
        export_to(lambda piece: written.append(len(piece)), iter_parts(path), to)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert sum(written) > games * 100
    # eight times the games: held whole, the peak grew 2.5 to 3 times; spooled it stays flat
    assert peaks[2] < 2 * peaks[1], f"peak memory grew with the session: {peaks}"


def test_json_pieces_make_one_valid_document_for_none_one_and_many():
    from bgcli.formats.jsondoc import chunks, join
    from bgcli.formats.writing import MatchText

    for outputs in ([], ['{"a": 1}'], ['{"a": 1}', '{\n "b": 2\n}', '{"c": 3}']):
        text = "".join(chunks(MatchText(o) for o in outputs))
        assert text == join(MatchText(o) for o in outputs)
        expected = [json.loads(o) for o in outputs]
        assert json.loads(text) == (expected[0] if len(expected) == 1 else expected)


def test_an_export_that_fails_half_way_leaves_the_old_file_and_no_temporary(tmp_path):
    from bgcli.output import AtomicOutput

    target = tmp_path / "out.json"
    target.write_text("old\n")
    with pytest.raises(RuntimeError):
        with AtomicOutput(str(target)) as out:
            out.write("new, half")
            assert len(list(tmp_path.iterdir())) == 2, "the pieces go to a temporary beside the file"
            raise RuntimeError("the input broke off")
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["out.json"]
    with AtomicOutput(str(target)) as out:
        out.write("new ")
        out.write("whole\n")
        out.commit()
    assert target.read_text() == "new whole\n" and [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_a_text_no_encoding_holds_is_one_output_error_and_nothing_written(tmp_path):
    from bgcli.output import AtomicOutput, OutputError

    target = tmp_path / "out.txt"
    with pytest.raises(OutputError, match="has no utf-8 encoding"):
        with AtomicOutput(str(target)) as out:
            out.write("fine")
            out.write("\ud800")
    assert not list(tmp_path.iterdir())


def test_export_with_something_left_out_leaves_no_temporary_and_standard_output_empty(tmp_path):
    # a row no cell of which can be read (a garbled play cell alone is read as a move, judged once)
    source = write(tmp_path, "bad.mat", SAMPLE.replace("  2) 41: 11/7 8/7", "  2) 41: 11/7 8/7      %%garbled%%", 1))
    refused = subprocess.run([sys.executable, "-m", "bgcli", "export", "--to", "json", source],
                             capture_output=True, cwd=ROOT, timeout=120)
    assert refused.returncode == 1 and refused.stdout == b"", "nothing of a refused export reaches standard output"
    target = tmp_path / "out.json"
    assert invoke("export", "--to", "json", source, "-o", str(target)).exit_code == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mat"], "no file and no temporary"
    forced = subprocess.run([sys.executable, "-m", "bgcli", "export", "--to", "json", "--force", source],
                            capture_output=True, cwd=ROOT, timeout=120)
    assert forced.returncode == 0 and json.loads(forced.stdout)["players"]


def _peak_rss(args: list[str]) -> int:
    """The peak resident memory, in bytes, of one bgcli run in a fresh process."""
    script = ("import resource, subprocess, sys\n"
              "status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode\n"
              "print(status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    out = subprocess.run([sys.executable, "-c", script, sys.executable, "-m", "bgcli", *args],
                         capture_output=True, text=True, cwd=ROOT, timeout=600, check=True).stdout.split()
    assert out[0] == "0"
    return int(out[1]) * 1024   # Linux gives kilobytes


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in kilobytes on Linux")
def test_a_long_json_export_runs_in_the_memory_of_a_short_one(tmp_path):
    # 200 matches make about 11 MB of JSON: held whole, joined and encoded, they cost several times
    # that over the export of one match; written as a stream, they cost nothing more
    long, short = write(tmp_path, "long.mat", SAMPLE * 200), write(tmp_path, "short.mat", SAMPLE)
    target = str(tmp_path / "out.json")
    grown = _peak_rss(["export", "--to", "json", long, "-o", target]) - \
        _peak_rss(["export", "--to", "json", short, "-o", target])
    long_size = 200 * os.path.getsize(target)   # the short one's, written last; the long one's is a bit more
    assert grown < long_size / 4, f"the long export took {grown:,} bytes more for about {long_size:,} bytes of JSON"


# --- usage errors quote what they were given escaped --------------------------------------------

HOSTILE_WORD = "\x1b]0;owned\x07\x1b[31m\x9b2J\u202e\nforged"


@pytest.mark.parametrize("args", [
    ["rules", "standard", HOSTILE_WORD],                  # click's "Got unexpected extra argument (...)"
    ["rules", "standard", "extra", HOSTILE_WORD],         # "Got unexpected extra arguments (...)"; export took one
    ["rules", HOSTILE_WORD],                              # a choice
    ["moves", "--jobs", HOSTILE_WORD, "--batch", "-"],    # a number
    ["moves", "--bogus" + HOSTILE_WORD, "start"],         # an unknown option
    [HOSTILE_WORD],                                       # an unknown command
], ids=["extra-argument", "extra-arguments", "choice", "number", "option", "command"])
def test_a_usage_error_reaches_the_terminal_escaped(args):
    result = subprocess.run([sys.executable, "-m", "bgcli", *args], capture_output=True, cwd=ROOT, timeout=120,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    shown = result.stderr.decode("utf-8")
    for char in "\x1b\x07\x9b\u202e":
        assert char not in shown, f"a raw {char!r} reached the terminal"
    errors = [line for line in shown.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and "\\x1b]0;owned\\x07" in errors[0], "one line, the escapes visible"
    assert not any(line.startswith("forged") for line in shown.splitlines()), "a newline cannot start a line"


# --- an audit database of an older version, keyed by paths as given ------------------------------

OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (id INTEGER PRIMARY KEY, started TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
                   version TEXT NOT NULL, rules TEXT NOT NULL);
CREATE TABLE files (path TEXT PRIMARY KEY, digest TEXT NOT NULL, rules TEXT NOT NULL, games INTEGER NOT NULL,
                    error TEXT, problems INTEGER NOT NULL, run INTEGER NOT NULL REFERENCES runs(id));
CREATE TABLE problems (path TEXT NOT NULL REFERENCES files(path) ON DELETE CASCADE, seq INTEGER NOT NULL,
                       line INTEGER NOT NULL, match INTEGER NOT NULL, game INTEGER NOT NULL, move INTEGER NOT NULL,
                       player TEXT NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL, PRIMARY KEY (path, seq));
CREATE INDEX problems_kind ON problems(kind);
INSERT INTO meta VALUES ('schema', '1'), ('made by', 'bgcli audit');
INSERT INTO runs (id, version, rules) VALUES (1, '0.1', '{}'), (2, '0.1', '{}');
"""


def _old_database(path, rows) -> None:
    """A results database as bgcli wrote it before files were keyed by their real path:
    ``rows`` are (path as given, games, problems, run)."""
    import sqlite3

    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    for key, games, problems, run in rows:
        db.execute("INSERT INTO files VALUES (?, 'digest', '{}', ?, NULL, ?, ?)", (key, games, problems, run))
        for seq in range(problems):
            db.execute("INSERT INTO problems VALUES (?, ?, 7, 1, 1, 3, 'gnubg', 'cube', 'a cube problem')", (key, seq))
    db.commit()
    db.close()


@pytest.mark.parametrize("with_real_path", [True, False], ids=["and-its-real-path", "relative-only"])
def test_an_old_database_counts_one_file_once_however_it_was_named(tmp_path, monkeypatch, with_real_path):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "a.mat", SAMPLE)
    rows = [("a.mat", 4, 0, 1), ("./a.mat", 4, 2, 2), ("gone/b.mat", 3, 1, 1)]   # b.mat: no such file from here
    if with_real_path:
        rows.append((str(tmp_path / "a.mat"), 4, 0, 2))
    _old_database(tmp_path / "r.sqlite", rows)
    report = json.loads(invoke("audit", "--db", "r.sqlite", "--report", "--json").output)
    assert report["files"] == 2 and report["games"] == 7
    # the latest row of a.mat is kept (the one under its real path, else ./a.mat's, with its problems)
    assert report["problems"] == (1 if with_real_path else 3)
    assert invoke("audit", "--db", "r.sqlite", "a.mat", "./a.mat", str(tmp_path / "a.mat")).exit_code == 0
    again = json.loads(invoke("audit", "--db", "r.sqlite", "--report", "--json").output)
    assert again["files"] == 2 and again["games"] == 4 + 3 and again["problems"] == 1


@pytest.mark.parametrize("command", [["export", "--to", "json"], ["view", "-o", "-"]], ids=" ".join)
def test_a_reader_that_leaves_after_the_first_byte_makes_a_long_output_141(tmp_path, command):
    # one write of a long text into a pipe whose reader leaves half-way came back without an error
    # (the kernel counts what went in): such an export said nothing and exited 0
    source = write(tmp_path, "ten.mat", SAMPLE * 10)   # far more than a pipe holds
    reader, writer = os.pipe()
    process = subprocess.Popen([sys.executable, "-m", "bgcli", *command[:1], source, *command[1:]], stdout=writer,
                               stderr=subprocess.PIPE, cwd=ROOT)
    os.close(writer)
    try:
        assert os.read(reader, 1)
    finally:
        os.close(reader)
    _, errors = process.communicate(timeout=120)
    assert process.returncode == 141 and errors == b""


# --- an output file is never an input (untrusted input, round three) -----------------------------

def _bgcli_into(path, *args: str) -> subprocess.CompletedProcess:
    """bgcli with standard output redirected to the file ``path``, as a shell's ``> path`` does
    (the file made empty before bgcli starts)."""
    with open(path, "wb") as out:
        return subprocess.run([sys.executable, "-m", "bgcli", *args], stdout=out, stderr=subprocess.PIPE,
                              text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("given", ["folder", "glob"])
def test_audit_of_a_folder_into_a_file_in_it_does_not_read_its_own_output(tmp_path, given):
    # `bgcli audit --json DIR > DIR/out.json` read the half-written out.json as a match: an error, exit 2
    write(tmp_path, "a.mat", SAMPLE)
    out = tmp_path / "out.json"
    result = _bgcli_into(out, "audit", "--json", str(tmp_path) if given == "folder" else str(tmp_path / "*"))
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["file"] for line in out.read_text().splitlines()] == [str(tmp_path / "a.mat")]
    assert result.stderr == f"note: skipped {out}: it is this command's own output (standard output)\n"


def test_rate_of_a_folder_into_a_file_in_it_does_not_rate_its_own_output(tmp_path):
    # the issue's own case (the exact engine, quick: it judges bear-offs only, so the sample's rating
    # fails with its own error; what matters is that out.json is never rated)
    write(tmp_path, "a.mat", SAMPLE)
    out = tmp_path / "out.json"
    result = _bgcli_into(out, "rate", "--json", "--engine", "exact", str(tmp_path))
    assert [json.loads(line)["file"] for line in out.read_text().splitlines()] == [str(tmp_path / "a.mat")]
    assert f"note: skipped {out}: it is this command's own output (standard output)" in result.stderr


def test_the_old_output_of_o_is_not_read_back(tmp_path):
    # `-o DIR/out.json` a second time read the first run's out.json as an input
    write(tmp_path, "a.mat", SAMPLE)
    out = tmp_path / "out.json"
    for _ in range(2):
        result = invoke("audit", "--json", tmp_path, "-o", out)
        assert result.exit_code == 0, result.output
        assert [json.loads(line)["file"] for line in out.read_text().splitlines()] == [str(tmp_path / "a.mat")]
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]


@pytest.mark.parametrize("command", [["score"], ["replay"], ["audit", "--json"]])
def test_a_named_input_that_is_standard_output_is_one_error(tmp_path, command):
    # `bgcli export --to mat *.mat > all.mat` with all.mat left from the last run: the shell names all.mat
    # as an input and empties it; bgcli would read what it is writing
    write(tmp_path, "a.mat", SAMPLE)
    out = tmp_path / "all.mat"
    result = _bgcli_into(out, *command, str(tmp_path / "a.mat"), str(out))
    assert result.returncode == 2, result.stderr
    assert f"cannot read {out}: it is this command's own output (standard output)" in result.stderr
    assert "Traceback" not in result.stderr
    assert out.read_text().strip(), "the other input's result is still written"


def test_own_output_names_standard_output_and_open_outputs_only(tmp_path):
    from bgcli.output import AtomicOutput, own_output

    target = write(tmp_path, "t.json", "{}")
    other = write(tmp_path, "other.json", "{}")
    assert own_output(target) is None
    output = AtomicOutput(target)
    assert own_output(target) == own_output(str(tmp_path / "." / "t.json")) == "the output file"
    assert own_output(other) is None
    os.link(target, tmp_path / "hard.json")
    assert own_output(str(tmp_path / "hard.json")) == "the output file"
    output.discard()
    assert own_output(target) is None


def test_export_of_its_own_output_is_one_error(tmp_path):
    out = tmp_path / "all.json"
    result = _bgcli_into(out, "export", "--to", "json", str(out))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.endswith(f"cannot read {out}: it is this command's own output (standard output)\n")
