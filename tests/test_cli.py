"""The command line, through click's CliRunner, and the README's promises."""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli import __version__
from bgcli.cli import cli, split_position_and_dice
from bgcli.core.position import Position
from bgcli.core.generator import legal_plays

from conftest import ROOT, SAMPLES


def test_version(run):
    result = run("--version")
    assert result.exit_code == 0 and __version__ in result.output


@pytest.mark.parametrize("command", sorted(cli.load_all()))
def test_every_command_has_help_with_an_example_and_is_in_the_readme(run, command):
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "Example" in result.output
    assert f"bgcli {command}" in (ROOT / "README.md").read_text()


def test_moves_lists_every_legal_play_once(run):
    result = run("moves", "start", "31")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == len(set(lines)) == len(legal_plays(Position.start(), (3, 1)))
    assert "8/5 6/5" in lines


@pytest.mark.parametrize("dice", [["31"], ["3-1"], ["3", "1"]])
def test_moves_dice_spellings(run, dice):
    assert run("moves", "start", *dice).output == run("moves", "start", "31").output


def test_moves_json_gives_resulting_positions(run):
    data = json.loads(run("moves", "--json", "start", "66").output)
    assert data["position_id"] == Position.start().id() and data["dice"] == [6, 6]
    ids = {p["position_id"] for p in data["plays"]}
    assert ids == {p.result_id() for p in legal_plays(Position.start(), (6, 6))}


def test_moves_dice_from_the_position(run):
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
    data = json.loads(run("moves", "--json", xgid).output)
    assert data["dice"] == [5, 2] and data["plays"]


def test_moves_bad_position_is_one_line_and_exit_1(run):
    result = run("moves", "nonsense", "31")
    assert result.exit_code == 1
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert "invalid position 'nonsense'" in result.output


def test_batch_writes_one_object_per_line_and_goes_on_past_errors(run):
    text = "start 31\nnot-a-position 31\n4HPwATDgc/ABMA 66\nstart 71\n"
    result = run("moves", "--batch", "-", input=text)
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert len(lines) == 4
    assert "plays" in lines[0] and "plays" in lines[2]
    assert "error" in lines[1] and "error" in lines[3]
    assert result.exit_code == 1


def test_batch_sample_file(run):
    result = run("moves", "--batch", str(SAMPLES / "positions.txt"))
    assert result.exit_code == 0
    assert len(result.output.splitlines()) == len((SAMPLES / "positions.txt").read_text().splitlines())


def test_check_legal_and_illegal(run):
    ok = run("check", "start", "31", "6/5", "8/5")
    assert ok.exit_code == 0
    text, result_id = ok.output.strip().split("\t")
    assert text == "8/5 6/5"
    assert result_id in {p.result_id() for p in legal_plays(Position.start(), (3, 1))}
    bad = run("check", "start", "64", "24/18", "13/11")
    assert bad.exit_code == 1
    assert "illegal play" in bad.output


def test_check_json_says_why(run):
    data = json.loads(run("check", "--json", "start", "31", "24/18").output)
    assert data["legal"] is False and data["kind"] == "IllegalPlayError"


def test_convert_round_trip_through_every_format(run):
    gnubg_id = "4HPwATDgc/ABMA:cAkAAAAAAAAA"
    for fmt in ("xgid", "fibs"):
        other = run("convert", "--to", fmt, gnubg_id).output.strip()
        back = run("convert", "--to", "gnubg", other).output.strip()
        assert back.split(":")[0] == gnubg_id.split(":")[0]


def test_convert_stdin_keeps_one_line_per_input_line(run):
    result = run("convert", "--to", "posid", "-", input="start\nbad\n4HPwATDgc/ABMA\n")
    assert result.exit_code == 1
    out = [line for line in result.output.splitlines() if not line.startswith("Error")]
    assert out == ["4HPwATDgc/ABMA", "", "4HPwATDgc/ABMA"]


def test_convert_json_describes_everything(run):
    data = json.loads(run("convert", "--to", "json", "start").output)
    assert data["player"]["pips"] == data["opponent"]["pips"] == 167
    assert data["cube"]["value"] == 1


def test_show_home_left_mirrors(run):
    right = run("show", "start").output.splitlines()
    left = run("show", "--home", "left", "start").output.splitlines()
    assert right != left and "Pip counts: O 167, X 167" in right


def test_show_svg_to_a_file(run, tmp_path):
    out = tmp_path / "board.svg"
    assert run("show", "--svg", "-o", str(out), "start").exit_code == 0
    assert out.read_text().lstrip().startswith(("<svg", "<?xml"))


def test_audit_exit_codes(run, tmp_path):
    clean = run("audit", str(SAMPLES / "sp05001_3pt.mat"))
    assert clean.exit_code == 0
    flawed = run("audit", str(SAMPLES / "flawed_5pt.mat"))
    assert flawed.exit_code == 1
    assert re.search(r"flawed_5pt.mat:44: game 2 move 13 \(gnubg\): cube: ", flawed.output)
    missing = run("audit", str(tmp_path / "missing.mat"))
    assert missing.exit_code == 2


def test_audit_json_and_directories(run):
    result = run("audit", "--json", str(SAMPLES))
    reports = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    by_name = {Path(r["file"]).name: r for r in reports}
    assert by_name["flawed_5pt.mat"]["problems"][0]["line"] == 44
    assert by_name["sp05001_3pt.mat"]["problems"] == []


def test_audit_jobs_gives_the_same_reports(run):
    one = run("audit", "--json", str(SAMPLES)).output
    two = run("audit", "--json", "--jobs", "2", str(SAMPLES)).output
    assert one == two


def test_not_a_match_file_exits_2(run, tmp_path):
    path = tmp_path / "x.mat"
    path.write_text("hello\nworld\n")
    assert run("audit", str(path)).exit_code == 2


def test_score_json(run):
    data = json.loads(run("score", "--json", str(SAMPLES / "sp05001_3pt.mat")).output)
    assert data["match_length"] == 3 and data["players"] == ["gnubg", "root"]
    assert data["score"] == [4, 1] and data["winner"] == "gnubg"
    assert [g["crawford"] for g in data["games"]] == [False, False, True, False]


def test_replay_json_actions(run):
    lines = [json.loads(l) for l in run("replay", "--json", str(SAMPLES / "sp05001_3pt.mat")).output.splitlines()]
    assert lines[0]["position_id"] == Position.start().id()
    assert {l["action"] for l in lines} <= {"move", "double", "take", "drop", "beaver", "resign", "win"}
    assert {"double", "drop", "win", "move"} <= {l["action"] for l in lines}


@pytest.mark.parametrize("words,expected", [
    (["start", "31"], ("start", "31")),
    (["start", "3", "1"], ("start", "31")),
    (["start", "3-1"], ("start", "3-1")),
    (["start"], ("start", None)),
    (["0"] * 24 + ["2", "1"], (" ".join(["0"] * 24 + ["2", "1"]), None)),
    (["0"] * 26 + ["3", "1"], (" ".join(["0"] * 26), "31")),
    (["0"] * 26 + ["3-1"], (" ".join(["0"] * 26), "3-1")),
])
def test_split_position_and_dice(words, expected):
    assert split_position_and_dice(words) == expected


def test_view_writes_a_page(run, tmp_path):
    out = tmp_path / "m.html"
    result = run("view", str(SAMPLES / "flawed_5pt.mat"), "-o", str(out))
    assert result.exit_code == 1   # the planted problem, as audit says; the page is written all the same
    page = out.read_text()
    assert page.lstrip().lower().startswith("<!doctype html") and "Doubles =&gt; 8 but the cube" in page


@pytest.mark.parametrize("style", ["gnubg", "mat", "fibs", "korean"])
def test_batch_json_is_what_json_dumps_writes(style):
    from bgcli.cli import moves_json, moves_json_line
    from bgcli.core.ids import parse_position

    for text, dice in [("start", (3, 1)), ("start", (6, 6)), ("sOfBFQCKz8EBBg", (5, 1))]:
        game = parse_position(text)
        assert moves_json_line(game, dice, style) == json.dumps(moves_json(game, dice, style), ensure_ascii=False) + "\n"


def test_export_mat_of_a_gnubg_file_is_the_file(run):
    out = run("export", str(SAMPLES / "sp05001_3pt.mat"), "--to", "mat").output
    strip = lambda text: [l for l in text.splitlines() if "EventDate" not in l]
    assert strip(out) == strip((SAMPLES / "sp05001_3pt.mat").read_text())


@pytest.mark.parametrize("fmt", ["sgf", "json", "mat"])
def test_export_reads_back_to_the_same_replay(run, tmp_path, fmt):
    out = tmp_path / f"m.{fmt}"
    assert run("export", str(SAMPLES / "galaxy_match3029786.txt"), "--to", fmt, "-o", str(out)).exit_code == 0
    original = [json.loads(l) for l in run("replay", "--json", str(SAMPLES / "galaxy_match3029786.txt")).output.splitlines()]
    again = [json.loads(l) for l in run("replay", "--json", str(out)).output.splitlines()]
    keys = ("game", "action", "dice", "play", "position_id", "match_id")
    assert [[e.get(k) for k in keys] for e in again] == [[e.get(k) for k in keys] for e in original]
    assert run("score", "--json", str(out)).output == run("score", "--json", str(SAMPLES / "galaxy_match3029786.txt")).output


@pytest.mark.parametrize("option,value", [("--jacoby", None), ("--backgammon-counts", "2"), ("--no-crawford", None),
                                          ("--cube-limit", "1"), ("--beavers", None), ("--auto-doubles", "1")])
def test_rule_options_reach_the_rules(run, tmp_path, option, value, monkeypatch):
    import bgcli.formats.files as files

    seen = {}
    real = files.replay_parts

    def spy(parts, visitor_for, rules=None):
        seen["rules"] = rules
        return real(parts, visitor_for, rules)

    monkeypatch.setattr(files, "replay_parts", spy)
    run("score", *([option] if value is None else [option, value]), str(SAMPLES / "sp05007_money.mat"))
    rules = seen["rules"]
    expected = {"--jacoby": ("jacoby", True), "--backgammon-counts": ("backgammon_counts", 2),
                "--no-crawford": ("crawford", False), "--cube-limit": ("cube_limit", 1),
                "--beavers": ("beavers", True), "--auto-doubles": ("auto_doubles", 1)}[option]
    assert getattr(rules, expected[0]) == expected[1]


def test_batch_on_two_cores_keeps_the_order(tmp_path):
    from bgcli.cli import run_batch_parallel
    import contextlib
    import io

    lines = ["start 31", "bad 31", "4HPwATDgc/ABMA 66", "sOfBFQCKz8EBBg 5-1", "start 71"] * 7
    one = io.StringIO()
    from bgcli.cli import run_batch
    assert run_batch(lines, "gnubg", out=one) == 1
    two = io.StringIO()
    with contextlib.redirect_stdout(two):
        assert run_batch_parallel(lines, "gnubg", jobs=2, chunk=3) == 1
    assert two.getvalue() == one.getvalue()
    assert '"error": "line 2: ' in two.getvalue() and '"error": "line 35: ' in two.getvalue()


@pytest.mark.parametrize("command", [["moves", "--batch", "-"], ["analyze", "--batch", "-"]], ids=" ".join)
def test_jobs_is_checked_for_every_batch(run, command):
    result = run(*command, "--jobs", "99999999999999999999", input="")
    assert result.exit_code == 2 and "--jobs" in result.output


@pytest.mark.parametrize("command, words", [
    ("moves", ["start"]), ("moves", ["4HPwATDgc/ABMB"]), ("check", ["start", "24/18"]),
    ("moves", ["XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"]),
])
def test_no_dice_names_the_position_as_written(run, command, words):
    # it named the Position ID the position reads as ('4HPwATDgc/ABMA' for start, for an XGID, and for
    # 4HPwATDgc/ABMB, whose padding bits differ): not what the user typed. Dice left out are a usage
    # error, status 2 (they were 1, as an illegal play); check says where its dice go
    result = run(command, *words)
    assert result.exit_code == 2
    how = ("write them between the position and the play, as in 'bgcli check start 31 8/5 6/5',"
           if command == "check" else "add them (e.g. 31)")
    assert result.output.splitlines()[-1] == (f"Error: no dice given for '{words[0]}': {how} or use an "
                                              f"ID that carries them")


def test_check_without_dice_is_a_usage_error_in_json_too(run):
    result = run("check", "start", "8/5", "6/5", "--json")
    assert result.exit_code == 2 and json.loads(result.output)["kind"] == "MissingDiceError"


def test_a_batch_line_without_dice_is_a_line_that_failed(run):
    # in a batch the line is data: its error is its answer and the batch's status is 1, as for any bad line
    result = run("moves", "--batch", "-", input="start\nstart 31\n")
    assert result.exit_code == 1 and "no dice given for 'start'" in result.output.splitlines()[0]


def test_convert_names_a_bad_position_by_where_it_was_given(run):
    # a position given on the command line was 'line 1' (of no file); a line of standard input keeps its number
    def error(*args, input=None):
        result = run("convert", "--to", "xgid", *args, input=input)
        assert result.exit_code == 1
        return [line for line in result.output.splitlines() if line.startswith("Error")]

    assert error("strat") == ["Error: invalid position 'strat': expected start, a position id, a gnubg id, XGID=..., "
                              "board:..., 26 numbers or text holding the ids"]
    assert error("start", "strat")[0].startswith("Error: position 2: invalid position 'strat'")
    assert error("start", "-", input="start\nstrat\n")[0].startswith("Error: line 2: invalid position 'strat'")


def test_an_xgid_without_its_name_is_told_to_add_it(run):
    # it was 'expected start, a position id, ...', which an XGID copied from a web page without XGID= did not explain
    body = "-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
    result = run("moves", "--", body)
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (f"Error: invalid position '{body}': an XGID starts with XGID= (this "
                                              f"reads as one without it: write XGID= before it)")
    assert run("moves", f"XGID={body}").exit_code == 0


@pytest.mark.parametrize("name, said", [("x.pdf", "export writes no '.pdf' files"), ("x", "it has no suffix")])
def test_export_names_an_output_suffix_it_does_not_write(run, tmp_path, name, said):
    # it said 'give --to (mat, sgf, json), or -o FILE with one of their suffixes': not which suffix was wrong,
    # nor the suffixes; the formats and their suffixes are the registry's (a format added is listed)
    from bgcli.formats import registry

    result = run("export", "-o", tmp_path / name, SAMPLES / "sp05001_3pt.mat")
    error = result.output.splitlines()[-1]
    assert result.exit_code == 2 and said in error and not (tmp_path / name).exists()
    for kind in map(registry.by_name, registry.WRITTEN):
        assert f"{kind.name} ({', '.join(kind.suffixes)})" in error


BINARY = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)) * 4   # a picture's start, then bytes of every value


@pytest.mark.parametrize("command, from_stdin", [
    (["moves", "--batch"], False), (["moves", "--batch"], True), (["analyze", "--batch"], False),
    (["convert", "--to", "xgid"], True),   # convert's FILE is a position file: only - is a batch
], ids=lambda x: x if isinstance(x, bool) else " ".join(x))
def test_a_batch_of_binary_data_is_refused_once_by_name(run, tmp_path, command, from_stdin):
    # it was an error for every line ('holds a carriage return', 'not UTF-8 text'...), exit 1 or 2 at the end
    path = tmp_path / "picture.png"
    path.write_bytes(BINARY)
    result = run(*command, "-" if from_stdin else path, input=BINARY if from_stdin else None)
    name = "standard input" if from_stdin else str(path)
    assert result.exit_code == 2
    assert result.output == f"Error: cannot read {name} as a batch: it is binary data, not lines of text\n"


def test_a_batch_of_binary_data_before_click_is_refused_as_the_command_refuses_it():
    # moves --batch - with standard error no terminal is answered before click (bgcli.cli._batch_before_click)
    result = subprocess.run([sys.executable, "-m", "bgcli", "moves", "--batch", "-"], input=BINARY,
                            capture_output=True, cwd=ROOT, timeout=120)
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr == b"Error: cannot read standard input as a batch: it is binary data, not lines of text\n"


def test_a_batch_in_utf16_is_text_not_binary(run, tmp_path):
    # its NUL bytes beside each character are not binary data: the batch reads it (after its byte order mark)
    path = tmp_path / "unicode.txt"
    path.write_bytes("start 31\n".encode("utf-16"))
    result = run("moves", "--batch", path)
    assert result.exit_code == 0 and '"dice": [3, 1]' in result.output


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(alphabet=st.characters(max_codepoint=127)).map(str.encode))
def test_plain_text_is_never_binary(head):
    # the batch's shortcut past the registry's import (bgcli.cli.batch.not_text): a head of printable ASCII and
    # blanks is one the registry's rule never calls binary; and the head looked at is at least the registry's
    from bgcli.cli import batch
    from bgcli.formats.registry import HEAD_SIZE, looks_binary

    assert batch._HEAD >= HEAD_SIZE
    if not head.translate(None, batch._PLAIN):
        assert not looks_binary(head)


class _EndlessText(io.RawIOBase):
    """200 MB of text with no match in it, made as it is read: reading more than ``bound`` bytes of it fails
    the test (the audit must refuse it from its head, not read it to its end)."""

    def __init__(self, bound: int, size: int = 200 << 20):
        self.line, self.bound, self.size, self.given = b"hello, this is not a match\n", bound, size, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        assert self.given <= self.bound, f"read {self.given:,} bytes of a stream refused from its head"
        n = min(len(buffer), self.size - self.given)
        data = (self.line * (n // len(self.line) + 2))[self.given % len(self.line):][:n]
        buffer[:n] = data
        self.given += n
        return n


def test_a_huge_non_match_piped_to_audit_is_refused_from_its_head(run):
    # 200 MB of text piped to audit was read to its end, each line held, for minutes before it was refused
    stream = _EndlessText(bound=2 << 20)   # the head, 1 MB, and a block or so read ahead
    result = run("audit", "-", input=io.BufferedReader(stream))
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == ("Error: -:1:1: not a match file: no 'N point match' line in its first "
                                             "1 MB (first unreadable line 1: 'hello, this is not a match')")


def test_a_match_after_a_long_preface_is_read(run, tmp_path):
    # the bound is on text before the first match: a preface of comments under it does not stop the reading
    preface = b"; a comment line before the match, as a site writes a long preface\n" * 12000   # 0.8 MB
    path = tmp_path / "prefaced.mat"
    path.write_bytes(preface + (SAMPLES / "sp05001_3pt.mat").read_bytes())
    assert len(preface) < 1 << 20
    assert run("audit", path).exit_code == run("audit", SAMPLES / "sp05001_3pt.mat").exit_code == 0
