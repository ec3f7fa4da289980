"""bgcli repair over many files: folders, globs and standard input, as the
repair job of bgcli.scale.repair run by bgcli.scale.runner (--jobs), with -o
naming an output folder that never holds or overwrites an input, and --patch
one diff for all the files."""
from __future__ import annotations

import json
import shutil
import subprocess

from conftest import DATA, invoke
from bgcli.judging.repair import repair_file
from bgcli.scale.repair import RepairJob

SAMPLE = DATA / "oracle" / "audit_sample"
CASES = [json.loads(line) for line in (SAMPLE / "expected.jsonl").read_text().splitlines()]


def _archive(tmp_path, count: int = 4):
    """A folder of planted slips (the first ``count`` of gnubg's sample), one in a sub-folder, and a clean match."""
    folder = tmp_path / "archive"
    (folder / "sub").mkdir(parents=True)
    cases = [c for c in CASES if c["kind"] in ("dice", "cube", "points")][:count]
    for n, case in enumerate(cases):
        shutil.copy(SAMPLE / case["file"], (folder / "sub" if n == 0 else folder) / case["file"])
    shutil.copy(DATA / "oracle" / "selfplay" / "sp05001_3pt.mat", folder / "clean.mat")
    return folder, cases


def test_a_folder_is_repaired_file_by_file_as_each_file_alone(tmp_path):
    """Each file's JSON is what repairing it alone gives, in the order the
    folder is walked (its files by name, then its sub-folders); one process or
    two give the same lines; the exit status is 1 (errors were found)."""
    folder, cases = _archive(tmp_path)
    serial = invoke("repair", "--json", folder)
    pooled = invoke("repair", "--json", "--jobs", "2", folder)
    assert serial.exit_code == pooled.exit_code == 1
    assert pooled.output == serial.output
    found = [json.loads(line) for line in serial.output.splitlines()]
    names = sorted(c["file"] for c in cases[1:]) + [cases[0]["file"]]
    names.insert(sorted(names[:-1] + ["clean.mat"]).index("clean.mat"), "clean.mat")
    assert [f["file"].split("/")[-1] for f in found] == names
    for data in found:
        assert data == repair_file(data["file"]).to_dict()


def test_an_output_folder_gets_the_repaired_files_under_their_paths(tmp_path):
    """-o DIR with a folder: each file with a repair applied is written under
    its path as found, the planted line given back; a file without one is not
    copied; the inputs are untouched."""
    folder, cases = _archive(tmp_path)
    before = {p: p.read_bytes() for p in folder.rglob("*.mat")}
    out = tmp_path / "fixed"
    result = invoke("repair", folder, "-o", out)
    assert result.exit_code == 1
    assert {p: p.read_bytes() for p in folder.rglob("*.mat")} == before
    written = sorted(p.relative_to(out) for p in out.rglob("*.mat"))
    inner = folder.relative_to(folder.anchor)
    assert written == sorted(inner / ("sub/" if n == 0 else "") / c["file"] for n, c in enumerate(cases))
    for n, case in enumerate(cases):
        fixed = (out / inner / ("sub" if n == 0 else "") / case["file"]).read_text().split("\n")
        assert fixed[case["line"] - 1] == case["was"]
    assert "4 errors, 4 with a repair" in result.output   # the totals line, on standard error
    # each file written is named, as export -o FOLDER names them (nothing said where the files went)
    assert sorted(line for line in result.output.splitlines() if line.startswith("wrote ")) == \
        sorted(f"wrote {out / path}" for path in written)


def test_an_output_folder_inside_an_input_folder_or_a_file_is_refused(tmp_path):
    folder, _ = _archive(tmp_path, 2)
    inside = invoke("repair", folder, "-o", folder / "fixed")
    assert inside.exit_code == 2 and "inside the input folder" in inside.output
    assert not (folder / "fixed").exists()
    same = invoke("repair", folder, "-o", folder)
    assert same.exit_code == 2
    a_file = tmp_path / "x.mat"
    a_file.write_text("")
    not_folder = invoke("repair", folder, "-o", a_file)
    assert not_folder.exit_code == 2 and "is not a folder" in not_folder.output


def test_an_output_folder_never_overwrites_an_input(tmp_path, monkeypatch):
    """Files named one by one with -o the folder they sit under: the
    repaired file would land on the input itself; it is refused (exit 2),
    the input as it was."""
    folder, cases = _archive(tmp_path, 2)
    monkeypatch.chdir(tmp_path)
    name = f"archive/{cases[1]['file']}"
    original = (tmp_path / name).read_bytes()
    result = invoke("repair", name, "archive/clean.mat", "-o", ".")
    assert result.exit_code == 2 and "it is the input" in result.output
    assert (tmp_path / name).read_bytes() == original


def test_one_patch_for_many_files_applies_with_patch_p1(tmp_path, monkeypatch):
    folder, cases = _archive(tmp_path)
    monkeypatch.chdir(tmp_path)
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy / "archive")
    result = invoke("repair", "archive", "--patch", "fixes.diff")
    assert result.exit_code == 1
    subprocess.run(["patch", "-s", "-p1", "-d", str(copy), "-i", str(tmp_path / "fixes.diff")], check=True)
    for n, case in enumerate(cases):
        fixed = (copy / "archive" / ("sub" if n == 0 else "") / case["file"]).read_text().split("\n")
        assert fixed[case["line"] - 1] == case["was"]


def test_a_glob_and_standard_input(tmp_path):
    folder, cases = _archive(tmp_path, 2)
    globbed = invoke("repair", "--json", str(folder / "*.mat"))
    assert [json.loads(line)["file"] for line in globbed.output.splitlines()] == \
        sorted(str(p) for p in folder.glob("*.mat"))
    data = (SAMPLE / cases[0]["file"]).read_bytes()
    piped = invoke("repair", "--json", "-", input=data)
    alone = json.loads(invoke("repair", "--json", SAMPLE / cases[0]["file"]).output)
    assert json.loads(piped.output)["problems"] == alone["problems"] and piped.exit_code == 1


def test_a_bad_file_among_many_is_one_line_and_the_others_go_on(tmp_path):
    folder, _ = _archive(tmp_path, 2)
    (folder / "broken.sgf").write_text("(;GM[6]")
    result = invoke("repair", folder)
    assert result.exit_code == 2
    assert "Error: " in result.output and "broken.sgf" in result.output
    assert "clean.mat: no errors, nothing to repair" in result.output


def test_one_file_keeps_its_single_file_output(tmp_path):
    """One file named alone: -o is the repaired file (written even when
    nothing was applied), as before the command took many."""
    clean = DATA / "oracle" / "selfplay" / "sp05001_3pt.mat"
    out = tmp_path / "out.mat"
    result = invoke("repair", clean, "-o", out)
    assert result.exit_code == 0 and out.read_bytes() == clean.read_bytes()
    assert result.output.strip() == f"{clean}: no errors, nothing to repair"


def test_the_job_travels_and_names_the_file_as_given():
    import pickle

    job = pickle.loads(pickle.dumps(RepairJob(None, texts=True)))
    case = CASES[0]
    result = job.run("given.mat", str(SAMPLE / case["file"]), None)
    assert result.path == "given.mat" and result.report["file"] == "given.mat"
    assert result.changed == bool(result.patch) and result.fixed is not None
    missing = job.failed("nope.mat", "cannot read nope.mat: no such file")
    assert missing.to_dict() == {"file": "nope.mat", "error": "cannot read nope.mat: no such file"}
