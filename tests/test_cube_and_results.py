"""The rules of the cube and of results that files broke silently: a cube of
0, a cube past what any format holds, a result of minus points, beavers and
draws across the formats. Each test is built from the reproduction."""
from __future__ import annotations

import json

from bgcli.core.rules import Rules
from bgcli.formats.files import replay_file
from bgcli.judging.chouette import read_chouette, settle

from conftest import invoke

HEAD = " 0 point match\n\n Game 1\n Ann : 0                              Bob : 0\n"
OPENING = "  1) 31: 8/5 6/5                      21: 13/11 24/23\n"


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def kinds(path, rules: Rules | None = None) -> list[tuple[int, str]]:
    return [(p.line, p.kind.value) for r in replay_file(str(path), rules) for p in r.problems]


# --- a cube of 0 ---------------------------------------------------------------------

def test_doubles_to_0_is_a_cube_problem_and_export_keeps_it(tmp_path):
    path = write(tmp_path, "zero.mat", HEAD + "  1) 31: 8/5 6/5                      Doubles => 0\n"
                                              "  2)  Takes                           21: 13/11 24/23\n"
                                              "      Wins 2 points\n")
    assert kinds(path) == [(5, "cube")]
    out = invoke("export", "--to", "mat", str(path), "-o", "-").output
    assert "Doubles => 0" in out and "Doubles => 2" not in out


def test_beavers_to_0_is_a_cube_problem(tmp_path):
    path = write(tmp_path, "zero.mat", HEAD + "  1) 31: 8/5 6/5                      Doubles => 2\n"
                                              "  2)  Beavers => 0                    21: 13/11 24/23\n"
                                              "      Wins 4 points\n")
    assert (6, "cube") in kinds(path, Rules(beavers=True))
    assert "Beavers => 0" in invoke("export", "--beavers", "--to", "mat", str(path), "-o", "-").output


def test_a_chouette_double_to_0_is_a_cube_problem():
    text = ("Chouette: Ann, Bob, Cho\n\nGame 1\nBox: Ann  Captain: Bob  Team: Cho\n"
            " Ann doubles => 0\n Bob takes  Cho takes\n Ann wins\n")
    problems = [(p.line, str(p.kind)) for p in settle(read_chouette(text)).problems]
    assert (5, "cube") in problems


# --- a cube past what any format holds ------------------------------------------------

def test_thousands_of_doubles_are_a_cube_problem_at_the_line_not_a_crash(tmp_path):
    # 14,300 doubles made the cube 2 ** 14300, past Python's 4,300-digit limit for text
    rows = [f"  {k}) Doubles => 2                     Takes" for k in range(1, 14301)]
    path = write(tmp_path, "huge.mat", HEAD + "\n".join(rows) + "\n")
    result = invoke("audit", "--json", str(path))
    assert result.exit_code == 1
    problems = json.loads(result.output)["problems"]
    past = [p for p in problems if "largest" in p["message"] and p["kind"] == "cube"]
    assert [(p["line"], p["kind"]) for p in past] == [(20, "cube")]   # the 16th double would make 65536
    assert len(problems) < 40
    for command in (["score"], ["replay"], ["export", "--to", "json", "-o", "-"], ["export", "--to", "mat", "-o", "-"]):
        assert invoke(*command, str(path)).exit_code in (0, 1), command


# --- SGF results ------------------------------------------------------------------------

SGF = ("(;FF[4]GM[6]CA[UTF-8]AP[x]MI[length:0][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RE[{result}]\n"
       ";W[31hefe]\n;B[21mkxw])\n")


def test_a_result_of_minus_points_is_a_problem_not_a_resignation(tmp_path):
    path = write(tmp_path, "minus.sgf", SGF.format(result="B+-3"))
    problems = [p for r in replay_file(str(path)) for p in r.problems]
    assert any("RE[B+-3]" in p.message for p in problems)
    (replay,) = replay_file(str(path))
    assert replay.results == []
    ok = write(tmp_path, "ok.sgf", SGF.format(result="B+1R"))
    (replay,) = replay_file(str(ok))
    assert [(r.winner, r.points) for r in replay.results] == [("Bob", 1)]


# --- beavers across formats -------------------------------------------------------------

BEAVER = (HEAD + "  1) 31: 8/5 6/5                      Doubles => 2\n"
                 "  2)  Beavers => 4                    21: 13/11 24/23\n"
                 "  3)  Doubles => 8                    Drops\n"
                 "      Wins 4 points\n")


def test_a_beaver_exported_to_sgf_reads_back_at_its_value(tmp_path):
    path = write(tmp_path, "b.mat", BEAVER)
    assert kinds(path, Rules(beavers=True)) == []
    sgf = tmp_path / "b.sgf"
    assert invoke("export", "--beavers", "--to", "sgf", str(path), "-o", str(sgf)).exit_code == 0
    assert "XR[Beavers=On]" in sgf.read_text(encoding="utf-8")
    (replay,) = replay_file(str(sgf))
    assert replay.problems == [] and [r.points for r in replay.results] == [4]   # W[beaver] is 4, not 8
    cubes = [e.cube for e in replay.events if e.kind.value == "beaver"]
    assert cubes == [4]


def test_beavers_and_automatic_doubles_of_a_json_export_are_read(tmp_path):
    path = write(tmp_path, "b.mat", BEAVER)
    doc = tmp_path / "b.json"
    assert invoke("export", "--beavers", "--auto-doubles", "2", "--to", "json", str(path), "-o", str(doc)).exit_code == 0
    rules = json.loads(doc.read_text(encoding="utf-8"))["rules"]
    assert rules["beavers"] is True and rules["auto_doubles"] == 2
    (replay,) = replay_file(str(doc))
    assert replay.rules.beavers and replay.rules.auto_doubles == 2 and replay.problems == []


def test_beavers_exported_to_mat_write_their_tag(tmp_path):
    path = write(tmp_path, "b.mat", BEAVER)
    out = invoke("export", "--beavers", "--to", "mat", str(path), "-o", "-").output
    assert '; [Beavers "On"]' in out
    again = write(tmp_path, "again.mat", out)
    assert kinds(again) == []   # no --beavers needed: the tag says it


# --- draws across formats ---------------------------------------------------------------

DRAW = ('; [Rules "plyyard"]\n\n 0 point match\n\n Game 1\n Alice : 0                      Bob : 0\n'
        "  1) 31: 8/5 6/5                 21: 13/11 24/23\n      Agreed draw\n")


def test_a_draw_exported_to_mat_stays_a_draw(tmp_path):
    path = write(tmp_path, "d.mat", DRAW)
    out = invoke("export", "--to", "mat", str(path), "-o", "-").output
    assert "Agreed draw" in out and "Drops" not in out
    assert kinds(write(tmp_path, "again.mat", out)) == []


def test_a_draw_exported_to_json_and_sgf_reads_back(tmp_path):
    path = write(tmp_path, "d.mat", DRAW)
    for to in ("json", "sgf"):
        out = tmp_path / f"d.{to}"
        assert invoke("export", "--to", to, str(path), "-o", str(out)).exit_code == 0
        (replay,) = replay_file(str(out))
        assert replay.problems == [], to
        assert [r.result.value for r in replay.results] == ["draw"], to


def test_a_json_draw_written_as_an_action_too_reads_as_one_draw(tmp_path):
    path = write(tmp_path, "d.mat", DRAW)
    doc = json.loads(invoke("export", "--to", "json", str(path), "-o", "-").output)
    game = doc["games"][0]
    game["actions"].append({"line": 8, "player": 0, "name": "Alice", "action": "draw", "cube": 1})
    old = write(tmp_path, "old.json", json.dumps(doc))
    (replay,) = replay_file(str(old))
    assert replay.problems == [] and [r.result.value for r in replay.results] == ["draw"]
