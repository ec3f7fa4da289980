"""Match files written by somebody else, or by an attacker: every command
reads them or refuses them with one line and a documented exit status,
never a traceback, and one bad file never takes the others down."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


from conftest import ROOT, invoke
SAMPLE = (ROOT / "samples" / "sp05001_3pt.mat").read_text(encoding="utf-8")
LOG = (ROOT / "tests" / "data" / "imports" / "sp05001_3pt.fibs").read_text(encoding="utf-8")   # FIBS's oldmoves
SAVED = (ROOT / "tests" / "data" / "imports" / "sp05017_3pt.sgg").read_text(encoding="utf-8")  # GamesGrid's .sgg
TMG = (ROOT / "tests" / "data" / "imports" / "sp05003_7pt.tmg").read_text(encoding="utf-8")    # TrueMoneyGames
BIG = "9" * 5000
COMMANDS = [["audit"], ["replay"], ["replay", "--json"], ["replay", "--boards"], ["score"], ["score", "--json"],
            ["export", "--to", "mat"], ["export", "--to", "sgf"], ["export", "--to", "json"]]

HOSTILE = {
    "length.mat": SAMPLE.replace(" 3 point match", f" {BIG} point match"),
    "game.mat": SAMPLE.replace(" Game 1", f" Game {BIG}", 1),
    "score.mat": SAMPLE.replace("gnubg : 0", f"gnubg : {BIG}", 1),
    "move-number.mat": SAMPLE.replace("  1) ", f"  {BIG}) ", 1),
    "doubles.mat": SAMPLE.replace("Doubles => 2", f"Doubles => {BIG}", 1),
    "wins.mat": SAMPLE.replace("Wins 1 point", f"Wins {BIG} point", 1),
    "superscript-tag.mat": '; [CubeLimit "²"]\n' + SAMPLE,
    "fullwidth.mat": SAMPLE.replace(" 3 point match", " ３ point match"),
    "tag-of-spaces.mat": "; [" + " " * 250_000 + "\n" + SAMPLE,
    "tag-name-then-spaces.mat": "; [a" + " " * 250_000 + "\n" + SAMPLE,
    "row-of-spaces.mat": SAMPLE.replace("  1) ", "  1) " + " " * 100_000, 1),
    "long-line.mat": SAMPLE + "x" * (2 << 20),
    "infinite.json": '{"format": "bgcli-match", "version": 1, "players": ["a", "b"], "match_length": 1, '
                     '"games": [{"actions": [{"line": 1e999, "player": 0, "action": "move", "dice": [1e999, 2]}]}]}',
    "tags-list.json": '{"format": "bgcli-match", "version": 1, "players": ["a", "b"], "match_length": 1, '
                      '"tags": ["x"], "games": []}',
    "players-text.json": '{"format": "bgcli-match", "version": 1, "players": "ab", "match_length": 1, "games": []}',
    "nested.json": "[" * 100_000 + "]" * 100_000,
    "nested.sgf": "(;FF[4]GM[6]" + "(;W[31hefe]" * 5000 + ")" * 5001,
    "negative-length.sgf": "(;FF[4]GM[6]MI[length:-3]PW[a]PB[b];W[31hefe])",
    "huge-length.sgf": f"(;FF[4]GM[6]MI[length:{BIG}]PW[a]PB[b];W[31hefe])",
    "after-the-match.mat": SAMPLE + "\n Game 5\n gnubg : 4                      root : 1\n"
                           "  1) 31: 8/5 6/5                 21: 13/11 24/23\n      Wins 1 point\n",
    "40000-points.mat": SAMPLE.replace(" 3 point match", " 40000 point match"),
    "length.fibs": LOG.replace(" 3 point match", f" {BIG} point match", 1),
    "score.fibs": LOG.replace("Score is 0-1", f"Score is {BIG}-1", 1),
    "row-of-spaces.fibs": LOG.replace("X: (2 1) ", "X: (2 1) " + " " * 100_000, 1),
    "long-line.fibs": LOG + "x" * (2 << 20),
    "names-of-spaces.fibs": LOG.replace("  gnubg is X", " " * 100_000 + "gnubg is X", 1),
    "length.sgg": SAVED.replace("Game 2. 0-1/3", f"Game 2. 0-1/{BIG}", 1),
    "row-of-spaces.sgg": SAVED.replace("1\t\t53: 8/3, 6/3", "1\t\t53: " + " " * 100_000 + "8/3, 6/3", 1),
    "wins-of-spaces.sgg": SAVED.replace("gnubg wins 1 point.", "gnubg" + " " * 100_000 + "wins 1 point.", 1),
    "long-line.sgg": SAVED + "x" * (2 << 20),
    "score.tmg": TMG.replace("Game 2: 0-2", f"Game 2: 0-{BIG}", 1),
    "length.tmg": TMG.replace("Length: 7", f"Length: {BIG}", 1),
    "row-of-spaces.tmg": TMG.replace("-1 4 13/7 8/7", "-1 4 " + " " * 100_000 + "13/7 8/7", 1),
    "long-line.tmg": TMG + "x" * (2 << 20),
}


def run(args):
    return invoke(*args)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    for name, text in HOSTILE.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("name", sorted(HOSTILE))
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_hostile_file_gives_a_documented_answer(hostile, name, command):
    result = run(command + [str(hostile / name)])
    assert result.exit_code in (0, 1, 2)
    assert "Traceback" not in result.output
    for line in result.output.splitlines():
        if line.startswith("Error:"):
            assert len(line) < 400, "the error quotes the input cut short"


@pytest.mark.parametrize("name", ["length.mat", "game.mat", "score.mat", "doubles.mat", "superscript-tag.mat",
                                  "negative-length.sgf", "huge-length.sgf", "score.fibs", "length.fibs",
                                  "length.sgg", "score.tmg", "length.tmg"])
def test_out_of_bounds_numbers_are_problems_at_their_line(hostile, name):
    result = run(["audit", "--json", str(hostile / name)])
    report = json.loads(result.output.splitlines()[0])
    assert result.exit_code == 1
    assert report["problems"][0]["kind"] == "syntax" and report["problems"][0]["line"] >= 1


@pytest.mark.parametrize("name", ["long-line.mat", "infinite.json", "tags-list.json", "players-text.json",
                                  "nested.json", "nested.sgf", "long-line.fibs", "long-line.sgg",
                                  "long-line.tmg"])
def test_what_is_not_a_match_file_is_refused_with_one_line(hostile, name):
    result = run(["audit", str(hostile / name)])
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and str(hostile / name) in errors[0]


@pytest.mark.parametrize("command", [["replay"], ["score"]], ids=" ".join)
def test_one_bad_file_does_not_take_the_others_down(hostile, command):
    good = str(ROOT / "samples" / "sp05001_3pt.mat")
    result = run(command + [good, str(hostile / "nested.json"), good])
    assert result.exit_code == 2
    assert result.output.count("Error:") == 1
    alone = run(command + [good]).output
    assert result.output.count(alone.splitlines()[0]) == 2, "both good files were read"


def test_flawed_states_are_exported_and_drawn(hostile):
    for name in ("after-the-match.mat", "40000-points.mat"):
        doc = json.loads(run(["export", "--to", "json", str(hostile / name)]).output)
        actions = [a for game in doc["games"] for a in game["actions"]]
        assert any(a["match_id"] is None for a in actions)
        boards = run(["replay", "--boards", str(hostile / name)])
        assert boards.exit_code == 0 and "drawn without its match state" in boards.output


def test_standard_input_is_read_once_as_a_stream():
    # a pipe cannot be opened twice: the format is told from the bytes already read
    args = [sys.executable, "-m", "bgcli", "score", "--json", "-"]
    for name in ("sp05001_3pt.mat",):
        text = (ROOT / "samples" / name).read_bytes()
        piped = subprocess.run(args, input=text, capture_output=True, timeout=120)
        direct = run(["score", "--json", str(ROOT / "samples" / name)])
        assert piped.returncode == 0 and piped.stdout.decode() == direct.output


LINES = SAMPLE.splitlines()


def _mutated(lines, mutations, keep_one: bool = False) -> list[str]:
    """``lines`` with each mutation (kind, where, junk) applied in turn: a line dropped, two swapped,
    one garbled by ``junk`` in its middle, the rest cut off, or one written twice. ``keep_one``: a
    drop never takes the last line."""
    lines = list(lines)
    for kind, where, junk in mutations:
        if not lines:
            break
        where %= len(lines)
        if kind == "drop":
            if len(lines) > 1 or not keep_one:
                del lines[where]
        elif kind == "swap" and where + 1 < len(lines):
            lines[where], lines[where + 1] = lines[where + 1], lines[where]
        elif kind == "garble":
            cut = len(lines[where]) // 2
            lines[where] = lines[where][:cut] + junk + lines[where][cut:]
        elif kind == "cut":
            lines = lines[:where]
        else:
            lines.insert(where, lines[where])
    return lines


@settings(max_examples=60)
@given(st.lists(st.tuples(st.sampled_from(["drop", "swap", "garble", "cut", "dup"]), st.integers(0, len(LINES) - 1),
                          st.text(max_size=8)), max_size=6))
def test_mutated_real_matches_give_only_documented_answers(tmp_path_factory, mutations):
    lines = _mutated(LINES, mutations)
    path = tmp_path_factory.mktemp("mutated") / "m.mat"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for command in (["audit"], ["score", "--json"], ["export", "--to", "json"]):
        result = run(command + [str(path)])
        assert result.exit_code in (0, 1, 2)


IMPORTS = {"log.fibs": LOG, "saved.sgg": SAVED, "match.tmg": TMG}


@settings(max_examples=25)
@given(st.sampled_from(sorted(IMPORTS)), st.lists(st.tuples(st.sampled_from(["drop", "swap", "garble", "dup"]),
                                                             st.integers(0, 10 ** 6), st.text(max_size=8)), max_size=5))
def test_mutated_imported_formats_give_only_documented_answers(tmp_path_factory, name, mutations):
    """FIBS's oldmoves logs, GamesGrid's and TrueMoneyGames's files, cut and garbled: read, or one line and 2."""
    lines = _mutated(IMPORTS[name].splitlines(), mutations, keep_one=True)
    path = tmp_path_factory.mktemp("mutated") / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run(["audit", str(path)])
    assert result.exit_code in (0, 1, 2) and "Traceback" not in result.output


# --- export never drops what it could not read, and never forges records ------------------

def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_export_of_a_file_with_an_unreadable_row_writes_nothing_without_force(tmp_path):
    source = write(tmp_path, "bad.mat", SAMPLE.replace("  2) 41: 11/7 8/7", "  2) %%garbled%% 8/7", 1))
    target = tmp_path / "out.mat"
    refused = run(["export", "--to", "mat", source, "-o", str(target)])
    assert refused.exit_code == 1 and not target.exists()
    assert "nothing was written" in refused.output and "line 8" in refused.output
    forced = run(["export", "--to", "mat", "--force", source, "-o", str(target)])
    assert forced.exit_code == 0 and target.exists() and "left out" in forced.output


def test_sgf_cannot_carry_a_wrong_double_so_the_export_says_so(tmp_path):
    source = write(tmp_path, "cube.mat", SAMPLE.replace("Doubles => 2", "Doubles => 8", 1))
    assert run(["export", "--to", "sgf", source]).exit_code == 1
    assert run(["export", "--to", "mat", source]).exit_code == 0     # .mat keeps the written value


def test_a_name_cannot_forge_records_in_a_mat_export(tmp_path):
    doc = json.loads(run(["export", "--to", "json", str(ROOT / "samples" / "sp05001_3pt.mat")]).output)
    doc["players"][0] = "Eve\n\n 1 point match\n\n Game 1\n Eve : 0   Bob : 0\n      Wins 1 point\n"
    source = write(tmp_path, "forged.json", json.dumps(doc))
    assert run(["export", "--to", "mat", source]).exit_code == 1
    forced = run(["export", "--to", "mat", "--force", source, "-o", str(tmp_path / "out.mat")])
    assert forced.exit_code == 0
    back = run(["score", "--json", str(tmp_path / "out.mat")])
    scores = [json.loads(line) for line in back.output.splitlines()]
    assert len(scores) == 1 and len(scores[0]["games"]) == 4, "still one match of four games"


def test_a_colon_in_a_name_cannot_break_the_score_lines(tmp_path):
    sgf = run(["export", "--to", "sgf", str(ROOT / "samples" / "sp05001_3pt.mat")]).output
    source = write(tmp_path, "colon.sgf", sgf.replace("PW[gnubg]", "PW[gnu:bg]"))
    assert run(["export", "--to", "mat", source]).exit_code == 1
    out = tmp_path / "out.mat"
    assert run(["export", "--to", "mat", "--force", source, "-o", str(out)]).exit_code == 0
    assert run(["audit", str(out)]).exit_code == 0


@pytest.mark.parametrize("command", [["export", "--to", "mat"], ["view"]], ids=" ".join)
def test_output_naming_the_input_is_refused(tmp_path, command):
    source = write(tmp_path, "m.mat", SAMPLE)
    result = run(command + [source, "-o", source])
    assert result.exit_code == 2
    assert (tmp_path / "m.mat").read_text(encoding="utf-8") == SAMPLE


@pytest.mark.parametrize("target", ["missing-folder/out.mat", "/dev/full", ""])
def test_output_that_cannot_be_written_is_one_line(tmp_path, target):
    path = target if target.startswith("/") or not target else str(tmp_path / target)
    if path == "/dev/full" and not os.path.exists(path):
        pytest.skip("no /dev/full here")
    result = run(["export", "--to", "mat", str(ROOT / "samples" / "sp05001_3pt.mat"), "-o", path])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.startswith("Error:")]) == 1


def test_dash_output_is_standard_output():
    result = run(["export", "--to", "mat", str(ROOT / "samples" / "sp05001_3pt.mat"), "-o", "-"])
    assert result.exit_code == 0 and " 3 point match" in result.output
def test_replay_writes_its_first_line_before_the_file_ends():
    process = subprocess.Popen([sys.executable, "-m", "bgcli", "replay", "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        first_match = SAMPLE.split("\n Game 2")[0]
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(first_match.encode() + b"\n Game 2\n")
        process.stdin.flush()
        line = process.stdout.readline()   # the file is still open: a replay that waited would hang here
        assert b"game 1" in line
    finally:
        process.kill()
        process.wait()




# --- round two: terminal injection, file names, surrogates, pipes, full disks ------------------

SAMPLE_PATH = str(ROOT / "samples" / "sp05001_3pt.mat")
ESCAPES = "\x1b[31m\x1b]0;owned\x07\x9b2J\u202e"   # colour, a window title, BEL, C1 CSI, a bidi override


def bgcli(*args, **kwargs):
    """The real program, in its own process (exit statuses, pipes, signals)."""
    kwargs.setdefault("timeout", 120)
    return subprocess.run([sys.executable, "-m", "bgcli", *args], capture_output=True, cwd=ROOT, **kwargs)


def _no_raw_controls(text: str) -> None:
    for char in "\x1b\x07\x9b\u202e":
        assert char not in text, f"a raw {char!r} reached the terminal"


def test_names_and_tags_reach_the_terminal_escaped_and_json_exact(tmp_path):
    source = write(tmp_path, "m.mat", f'; [Event "{ESCAPES}"]\n' + SAMPLE.replace("gnubg", "gnu" + ESCAPES))
    for command in (["audit"], ["score"], ["replay"], ["replay", "--boards"]):
        result = run(command + [source])
        _no_raw_controls(result.output)
    shown = run(["score", source]).output
    assert "gnu\\x1b[31m\\x1b]0;owned\\x07\\x9b2J\\u202e" in shown, "the escapes are visible"
    doc = json.loads(run(["score", "--json", source]).output.splitlines()[0])
    assert "gnu" + ESCAPES in doc["players"], "JSON keeps the name exact"
    _no_raw_controls(run(["score", "--json", source]).output)


def test_a_file_name_with_controls_or_a_newline_cannot_forge_an_audit_record(tmp_path):
    name = "m\x1b[2J\n" + str(tmp_path / "forged.mat") + ":1: game 1: play: forged.mat"
    (tmp_path / name.replace("/", "_")).write_text(SAMPLE.replace("31: 8/5 6/5", "31: 8/4 6/5", 1), encoding="utf-8")
    result = run(["audit", str(tmp_path)])
    assert result.exit_code == 1
    records = [line for line in result.output.splitlines() if ": game " in line]
    shown = str(tmp_path / "m") + "\\x1b[2J\\x0a"
    assert records and all(line.startswith(shown) for line in records), "every record names the one file"


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS file names must be UTF-8")
def test_a_file_name_that_is_not_utf8_is_kept_in_json_and_the_database(tmp_path):
    folder = os.fsencode(tmp_path)
    with open(os.path.join(folder, b"bad\xff.mat"), "wb") as handle:
        handle.write(SAMPLE.encode())
    with open(os.path.join(folder, b"zz.mat"), "wb") as handle:
        handle.write(SAMPLE.encode())
    db = str(tmp_path / "r.sqlite")
    result = bgcli("audit", "--json", "--db", db, str(tmp_path))
    assert result.returncode == 0, result.stderr
    files = [json.loads(line.decode("utf-8"))["file"] for line in result.stdout.splitlines()]
    assert [os.fsencode(f) for f in files] == [os.path.join(folder, b"bad\xff.mat"), os.path.join(folder, b"zz.mat")]
    again = bgcli("audit", "--json", "--db", db, str(tmp_path))
    assert again.stdout == result.stdout, "the stored result gives back the same name"
    text = bgcli("audit", os.fsdecode(os.path.join(folder, b"missing\xfe.mat")))
    assert text.returncode == 2 and b"missing\\xfe.mat" in text.stderr and b"\xfe" not in text.stderr
    report = bgcli("audit", "--db", db, "--report")
    assert report.returncode == 0 and report.stdout.startswith(b"2 files")


def test_the_same_file_by_three_names_is_one_file_in_the_database(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "a.mat", SAMPLE)
    db = str(tmp_path / "r.sqlite")
    assert run(["audit", "--db", db, "a.mat", "./a.mat", str(tmp_path / "a.mat")]).exit_code == 0
    report = json.loads(run(["audit", "--db", db, "--report", "--json"]).output)
    assert report["files"] == 1 and report["games"] == 4


@pytest.mark.parametrize("command", ["audit", "rate"])
def test_an_empty_database_name_is_a_usage_error(tmp_path, command):
    # audit and rate check their archive options in one place
    result = run([command, "--db", "", SAMPLE_PATH])
    assert result.exit_code == 2 and "--db needs a file name" in result.output
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("command, report, contents", [
    (["audit"], ["--report"], "audit results"),
    (["rate"], ["--report", "players"], "ratings"),
])
def test_report_on_an_empty_file_leaves_it_empty(tmp_path, command, report, contents):
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    result = run(command + ["--db", str(empty)] + report)
    assert result.exit_code == 2 and f"holds no {contents}" in result.output
    assert empty.read_bytes() == b"" and sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite"]


def test_a_lone_surrogate_in_a_json_name_is_one_error_and_the_other_files_go_on(tmp_path):
    doc = json.loads(run(["export", "--to", "json", SAMPLE_PATH]).output)
    text = json.dumps(doc).replace('"gnubg"', '"gnu\\ud800bg"')
    bad = write(tmp_path, "b.json", text)
    good = write(tmp_path, "c.mat", SAMPLE)
    first = write(tmp_path, "a.mat", SAMPLE)
    for command in (["score"], ["replay"], ["score", "--json"], ["replay", "--json"]):
        result = run(command + [first, bad, good])
        assert result.exit_code == 2 and "lone surrogate \\ud800" in result.output
        assert result.output.count("3 point match") == 2 or command[-1] != "score"
    audit = run(["audit", first, bad, good])
    assert audit.exit_code == 2 and "3 files" not in audit.output and "2 files checked" in audit.output
    for command in (["export", "--to", "mat", bad], ["view", bad, "-o", str(tmp_path / "v.html")]):
        result = run(command)
        assert result.exit_code == 2 and "lone surrogate" in result.output
    paired = write(tmp_path, "d.json", json.dumps(doc).replace('"gnubg"', '"gnu\\ud83d\\ude00bg"'))
    assert run(["score", paired]).exit_code == 0, "a surrogate pair is one character"


def test_score_says_what_it_could_not_read_and_exits_non_zero(tmp_path):
    source = write(tmp_path, "bad.mat", SAMPLE.replace("  2) 41: 11/7 8/7", "  2) %%garbled%% 8/7", 1))
    result = run(["score", source])
    assert result.exit_code == 1
    assert f"Error: {source}:8: " in result.output and "left out of the score" in result.output
    assert run(["score", SAMPLE_PATH]).exit_code == 0


EVERY_COMMAND = [
    ["moves", "start", "31"], ["check", "start", "31", "8/5 6/5"], ["convert", "--to", "xgid", "start"],
    ["show", "start"], ["analyze", "start"], ["replay", SAMPLE_PATH, SAMPLE_PATH], ["score", SAMPLE_PATH, SAMPLE_PATH],
    ["export", SAMPLE_PATH, "--to", "json"], ["view", SAMPLE_PATH, "-o", "-"], ["audit", "--json", SAMPLE_PATH],
    ["chouette", str(ROOT / "samples" / "chouette.txt")], ["rules"], ["moves", "--help"],
]


@pytest.mark.parametrize("command", EVERY_COMMAND, ids=" ".join)
def test_a_closed_pipe_is_141_and_silent(command):
    reader, writer = os.pipe()
    os.close(reader)   # the reader went away before the first line
    try:
        result = subprocess.run([sys.executable, "-m", "bgcli", *command], stdout=writer, stderr=subprocess.PIPE,
                                cwd=ROOT, timeout=120)
    finally:
        os.close(writer)
    assert result.returncode == 141 and result.stderr == b""


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("command", EVERY_COMMAND, ids=" ".join)
def test_a_full_disk_on_standard_output_is_one_line_and_2(command):
    with open("/dev/full", "wb") as full:
        result = subprocess.run([sys.executable, "-m", "bgcli", *command], stdout=full, stderr=subprocess.PIPE,
                                cwd=ROOT, timeout=120)
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 2, result.stderr[-500:]
    assert lines[-1] == "Error: cannot write standard output: no space left on device"
    assert "Traceback" not in result.stderr.decode()


def test_sigterm_while_writing_leaves_the_old_file_and_no_temporary(tmp_path):
    # SIGTERM arrives in the middle of the write (at its fsync), as a kill from outside would
    target = tmp_path / "out.json"
    target.write_text("old\n")
    script = ("import os, signal, sys\n"
              "from bgcli.cli import main\n"
              "real = os.fsync\n"
              "def fsync(fd):\n"
              "    os.kill(os.getpid(), signal.SIGTERM)\n"
              "    real(fd)\n"
              "os.fsync = fsync\n"
              f"sys.argv = ['bgcli', 'export', {SAMPLE_PATH!r}, '--to', 'json', '-o', {str(target)!r}]\n"
              "main()\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 143 and result.stderr == "Error: terminated\n"
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"], "no hidden temporary file is left"


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc to find the workers")
@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
@pytest.mark.parametrize("command", [["audit", "--jobs", "2"], ["moves", "--batch", "-", "--jobs", "2"]], ids=" ".join)
def test_workers_end_when_the_main_process_is_killed(tmp_path, how, command):
    import signal
    import time

    if command[0] == "audit":
        files = [write(tmp_path, f"{n}.mat", SAMPLE) for n in range(3)]
        args = command + files + ["-"]   # standard input is read in the main process: it waits there
        feed = b""
    else:
        args = command
        feed = b"start 31\n" * 5000   # more than one chunk: the pool starts; then standard input stays open
    process = subprocess.Popen([sys.executable, "-m", "bgcli", *args], stdin=subprocess.PIPE,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        assert process.stdin is not None
        process.stdin.write(feed)
        process.stdin.flush()
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = _children(process.pid)
        assert len(workers) >= 2, "the workers did not start"
        process.send_signal(getattr(signal, how))
        process.wait(30)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in workers), "a worker outlived the main process"
    finally:
        process.kill()
        process.wait()
        for pid in _children(process.pid):
            os.kill(pid, 9)


# --- a scheduler that never answers -------------------------------------------------------------

@pytest.fixture
def silent_server():
    """A server on 127.0.0.1 that accepts connections and never says a word."""
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join(5)
    for connection in held:
        connection.close()
    server.close()


def test_a_server_that_accepts_and_never_answers_is_one_error_in_bounded_time(silent_server):
    import time

    from bgcli.scale.cluster import ClusterError, probe

    started = time.monotonic()
    with pytest.raises(ClusterError, match="did not answer within 0.5 s"):
        probe(silent_server, answer_seconds=0.5)
    assert time.monotonic() - started < 5


def test_a_closed_port_fails_at_once():
    import time

    from bgcli.scale.cluster import ClusterError, probe

    started = time.monotonic()
    with pytest.raises(ClusterError, match="tcp://127.0.0.1:1: connection refused"):
        probe("tcp://127.0.0.1:1")
    assert time.monotonic() - started < 5


@pytest.mark.skipif(__import__("importlib").util.find_spec("distributed") is None, reason="needs the dask extra")
def test_audit_with_a_silent_scheduler_is_one_line_and_2(silent_server, tmp_path):
    source = write(tmp_path, "m.mat", SAMPLE)
    result = bgcli("audit", "--scheduler", silent_server, source, timeout=60)
    assert result.returncode == 2
    assert result.stderr.decode().splitlines() == [
        f"Error: the server at {silent_server} took the connection but did not answer within 10 s: "
        "not a Dask scheduler, or a stuck one"]
    refused = bgcli("audit", "--scheduler", "tcp://127.0.0.1:1", source, timeout=60)
    assert refused.returncode == 2
    assert refused.stderr.decode() == "Error: cannot reach the Dask scheduler at tcp://127.0.0.1:1: connection refused\n"


def test_a_tag_line_with_a_run_of_blanks_is_read_in_linear_time(tmp_path):
    # 250 kB of blanks after a tag's name took over 30 s (quadratic); linear, it is well under a second
    source = write(tmp_path, "tag.mat", "; [a" + " " * 250_000 + "\n" + SAMPLE)
    result = bgcli("audit", source, timeout=20)
    assert result.returncode == 0, result.stderr


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform != "linux", reason="address-space limit on Linux")
def test_a_50_mb_sgf_comment_is_one_line_in_bounded_memory(tmp_path):
    import resource

    source = tmp_path / "big.sgf"
    source.write_text("(;FF[4]GM[6]MI[length:1]PW[a]PB[b]C[" + "x" * 50_000_000 + "];W[31hefe])")

    def limit():   # it peaked at 3.5 GB
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    result = bgcli("audit", str(source), preexec_fn=limit, timeout=60)
    assert result.returncode == 2
    assert result.stderr.decode().splitlines()[0] == (
        f"Error: {source}:1:36: cannot read SGF: a value of C is longer than 1,048,576 characters, "
        "more than bgcli reads in one property")


def test_many_unknown_sgf_properties_are_read_and_dropped(tmp_path):
    source = write(tmp_path, "many.sgf", "(;FF[4]GM[6]MI[length:1]PW[a]PB[b]" + "ZZ[x]" * 500_000 + ";W[31hefe])")
    result = bgcli("score", "--json", source, timeout=30)   # 29 s and 646 MB before; a second now
    assert json.loads(result.stdout)["players"] == ["a", "b"]


def test_json_export_written_game_by_game_is_json_dumps_exactly(tmp_path):
    from bgcli.formats.files import export
    from bgcli.formats.jsondoc import documents_text, json_document
    from bgcli.formats.mat import iter_file

    source = write(tmp_path, "three.mat", SAMPLE * 3)
    records = list(iter_file(source))
    text, left_out = export(iter(records), "json")
    assert not left_out and text == documents_text([json_document(r) for r in records])
    one, _ = export(iter(records[:1]), "json")
    assert one == documents_text([json_document(records[0])])


def test_a_stake_of_31_digits_is_a_problem_not_a_rounded_amount(tmp_path):
    chouette = (ROOT / "samples" / "chouette.txt").read_text(encoding="utf-8")
    assert "Stake: 1\n" in chouette
    huge = "1234567890123456789012345678901"
    source = write(tmp_path, "c.txt", chouette.replace("Stake: 1\n", f"Stake: {huge}\n", 1))
    result = run(["chouette", "--json", source])
    assert result.exit_code == 1
    settlement = json.loads(result.output)
    assert any("cannot read the stake" in p["message"] and "12 digits" in p["message"] for p in settlement["problems"])
    assert "1234567890123456789012345679" not in result.output, "no amount rounded to 28 digits"
    exact = write(tmp_path, "d.txt", chouette.replace("Stake: 1\n", "Stake: 999999999999.5\n", 1))
    assert "999999999999.5" in run(["chouette", exact]).output


# --- names with control characters and surrogates, in every format ---------------------------------

_RAW = __import__("re").compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_NAMES = st.text(alphabet=st.one_of(st.characters(categories=("Cc", "Cf", "Zl", "Zp", "Cs")),
                                    st.sampled_from("ab :,;[]\\\"()\u00e9")), min_size=1, max_size=10)


def _checked(args) -> list[str]:
    result = run(args)
    assert result.exit_code in (0, 1, 2), (args, result.output[-300:])
    assert "Traceback" not in result.output
    found = _RAW.search(result.output)
    assert found is None, f"bgcli {' '.join(args[:1])} wrote a raw {found.group()!r}"
    return result.output.splitlines()


@settings(max_examples=25, deadline=None)
@given(name=_NAMES)
def test_any_name_in_any_format_reaches_the_terminal_escaped_and_json_exact(tmp_path_factory, name):
    folder = tmp_path_factory.mktemp("names")
    doc = json.loads(run(["export", "--to", "json", SAMPLE_PATH]).output)
    doc["players"][0] = "A" + name
    doc["tags"] = {"Event": name}
    sources = {"json": folder / "m.json"}
    sources["json"].write_text(json.dumps(doc), encoding="ascii")   # escapes: a lone surrogate is held as \ud800
    for to in ("mat", "sgf"):
        sources[to] = folder / f"m.{to}"
        run(["export", "--to", to, "--force", str(sources["json"]), "-o", str(sources[to])])
    for kind, path in sources.items():
        if not path.exists():
            continue   # nothing could be written (a name no .mat can hold is refused, not forged)
        for command in (["score"], ["replay"], ["audit"], ["score", "--json"], ["audit", "--json"]):
            lines = _checked(command + [str(path)])
            documents = [json.loads(line) for line in lines if line.startswith("{")]   # stderr is mixed in
            if command == ["score", "--json"] and kind == "json":
                read = json.loads(json.dumps(name))   # a pair of surrogates escaped is one character read back
                if any(0xD800 <= ord(c) <= 0xDFFF for c in read):
                    assert not documents, "a lone surrogate is an error, never a name"
                else:
                    assert documents[0]["players"][0] == "A" + read, "JSON gives back the very name"


# --- huge numbers in a JSON document (untrusted input, round three) ---------------------------------

@pytest.mark.parametrize("digits, says", [
    (4000, "'points' of a result is 1000000000000000000000000000000000000..., not 0 to "),   # cut as any quote
    (5000, "a number of thousands of digits, which no match holds"),   # was Python's words on its own limit
])
def test_a_number_of_thousands_of_digits_in_a_json_document_is_one_short_line(tmp_path, digits, says):
    document = invoke("export", "--to", "json", ROOT / "samples" / "sp05001_3pt.mat").output
    path = write(tmp_path, "m.json", document.replace('"points": 1', '"points": 1' + "0" * digits, 1))
    result = subprocess.run([sys.executable, "-m", "bgcli", "score", path], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"Error: {path}: not a bgcli match document: {says}")
    assert len(result.stderr) - len(path) < 150 and result.stderr.count("\n") == 1


# --- lines that made a regular expression backtrack in quadratic time ---------------------------------

QUADRATIC = {
    # a .mat row of blanks ending in something no row holds: the row's leading and trailing blanks traded
    "row-blanks-then-x.mat": SAMPLE.replace("  1) 21:", "  1) " + " " * 1_000_000 + "x 21:", 1),
    "blanks-then-control.mat": SAMPLE.replace("  1) 21:", " " * 1_000_000 + "\x01  1) 21:", 1),
    # gnubg's text export: a match information line whose value ends in blanks and then a character
    "info.txt": (ROOT / "tests" / "data" / "corpus" / "gnubg-text-export" / "match1004950.txt").read_text(
        encoding="utf-8").replace("Place: BackgammonGalaxy", "Place: BackgammonGalaxy" + " " * 1_000_000 + "x", 1),
    # its score line, "a 1, " over and over: the two players' names tried at every split (20 kB took 2 s)
    "score.txt": "The score (after 1 games) is: " + "a 1, " * 200_000 + "!\n",
}


@pytest.mark.parametrize("name", sorted(QUADRATIC))
def test_a_megabyte_line_is_read_in_linear_time(tmp_path, name):
    # a hang detector, not a speed target: these took hours (a 100 kB information line 44 s, a 200 kB row
    # minutes); now well under a second, and 60 s is a margin no loaded machine needs
    path = write(tmp_path, name, QUADRATIC[name])
    result = subprocess.run([sys.executable, "-m", "bgcli", "audit", path], capture_output=True, text=True, cwd=ROOT,
                            timeout=60)
    assert result.returncode in (0, 1, 2) and "Traceback" not in result.stderr


def test_the_information_line_keeps_its_value_without_the_blanks_after_it(tmp_path):
    text = QUADRATIC["info.txt"].replace(" " * 1_000_000 + "x", " \t ", 1)
    from bgcli.formats.files import iter_records

    record = next(iter_records(write(tmp_path, "m.txt", text)))
    assert record.tags["Site"] == "BackgammonGalaxy"
