"""A non-editable install works from any directory, grammars included."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT


def installed_location(tmp_path) -> Path | None:
    """Where ``import bgcli`` lands when run outside the source tree."""
    found = subprocess.run([sys.executable, "-c", "import bgcli; print(bgcli.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""})
    if found.returncode != 0:
        return None
    return Path(found.stdout.strip()).resolve().parent


def test_installed_package_runs_from_another_directory(tmp_path):
    location = installed_location(tmp_path)
    if location is None:
        pytest.skip("bgcli is not installed in this Python (pip install . first)")
    if location == ROOT / "bgcli":
        pytest.skip("bgcli is installed in editable mode: nothing to check about the wheel's contents")
    # the grammars travel inside the package
    assert sorted(p.name for p in (location / "grammars").glob("*.lark"))
    assert (location / "render" / "view.js").is_file(), "the viewer's script travels inside the package"
    # an XGID needs the position grammar; a board string the FIBS part of it
    env = {**os.environ, "PYTHONPATH": ""}
    run = subprocess.run([sys.executable, "-m", "bgcli", "moves",
                          "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"],
                         cwd=tmp_path, capture_output=True, text=True, env=env)
    assert run.returncode == 0 and "13/8" in run.stdout
    bgcli = Path(sys.executable).parent / "bgcli"
    if bgcli.exists():
        script = subprocess.run([str(bgcli), "--version"], cwd=tmp_path, capture_output=True, text=True, env=env)
        assert script.returncode == 0 and "bgcli" in script.stdout
