"""The built parsers are cached on disk only where no other user can plant a
file: a pickle from the shared temporary folder would run anyone's code."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from bgcli import grammar

# A pickle that, when loaded, creates a marker file: proof that code ran.
PARSE = "from bgcli import grammar; grammar.parse('play', '8/5, 6/5', lambda *a: ValueError(a))"


class _Plant:
    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _run(env_home: Path, tmp: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "BGCLI_NO_CACHE"}
    env.update(XDG_CACHE_HOME=str(env_home), TMPDIR=str(tmp))
    return subprocess.run([sys.executable, "-c", PARSE], env=env, capture_output=True, text=True, timeout=120)


def _plant(path: Path, marker: Path) -> None:
    # Lark's cache layout: a hash line, then pickles; the first pickle is loaded blindly
    with open(path, "wb") as handle:
        handle.write(b"x\n")
        pickle.dump(_Plant(str(marker)), handle)


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_cache_lives_in_a_private_folder_of_the_user(tmp_path):
    home, tmp = tmp_path / "cache", tmp_path / "tmp"
    tmp.mkdir()
    assert _run(home, tmp).returncode == 0
    folder = home / "bgcli"
    assert folder.is_dir() and folder.stat().st_mode & 0o777 == 0o700
    assert (folder / grammar.cache_name("play")).is_file()
    assert not list(tmp.iterdir()), "nothing may be written to the shared temporary folder"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_folder_others_can_write_is_never_loaded_from(tmp_path):
    home, tmp, marker = tmp_path / "cache", tmp_path / "tmp", tmp_path / "pwned"
    tmp.mkdir()
    folder = home / "bgcli"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    _plant(folder / grammar.cache_name("play"), marker)
    result = _run(home, tmp)
    assert result.returncode == 0, result.stderr
    assert not marker.exists()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_file_others_can_write_is_never_loaded(tmp_path):
    home, tmp, marker = tmp_path / "cache", tmp_path / "tmp", tmp_path / "pwned"
    tmp.mkdir()
    folder = home / "bgcli"
    folder.mkdir(parents=True, mode=0o700)
    planted = folder / grammar.cache_name("play")
    _plant(planted, marker)
    planted.chmod(0o666)
    assert _run(home, tmp).returncode == 0
    assert not marker.exists()


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to give a file away")
def test_a_file_another_user_owns_is_never_loaded(tmp_path):
    home, tmp, marker = tmp_path / "cache", tmp_path / "tmp", tmp_path / "pwned"
    tmp.mkdir()
    folder = home / "bgcli"
    folder.mkdir(parents=True, mode=0o700)
    planted = folder / grammar.cache_name("play")
    _plant(planted, marker)
    planted.chmod(0o644)
    os.chown(planted, 65534, 65534)
    assert _run(home, tmp).returncode == 0
    assert not marker.exists()


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("BGCLI_NO_CACHE", "1")
    assert grammar.cache_dir() is None


def test_no_parser_is_built_with_lark_own_temporary_cache(monkeypatch):
    import lark

    seen = []
    original = lark.Lark.__init__

    def spy(self, *args, **kwargs):
        seen.append(kwargs.get("cache", False))
        original(self, *args, **kwargs)

    monkeypatch.setattr(lark.Lark, "__init__", spy)
    grammar.parser.cache_clear()
    try:
        grammar.parse("play", "8/5, 6/5", lambda *a: ValueError(a))
    finally:
        grammar.parser.cache_clear()
    assert seen and all(value is not True for value in seen)
    folder = grammar.cache_dir()
    assert all(value is False or (folder is not None and Path(value).parent == folder) for value in seen)
