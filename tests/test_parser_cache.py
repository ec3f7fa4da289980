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


def test_no_parser_is_built_with_lark_own_cache(monkeypatch, tmp_path):
    # Lark's cache option opens a pickle by its path: never used
    import lark

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("BGCLI_NO_CACHE", raising=False)
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
    assert seen and all(value is False for value in seen)
    assert (tmp_path / "bgcli" / grammar.cache_name("play")).is_file()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_pickle_in_the_private_folder_itself_never_runs(tmp_path):
    # the class closed, not the instance: the cache is JSON, never unpickled, wherever it lies
    home, tmp, marker = tmp_path / "cache", tmp_path / "tmp", tmp_path / "pwned"
    tmp.mkdir()
    folder = home / "bgcli"
    folder.mkdir(parents=True, mode=0o700)
    planted = folder / grammar.cache_name("play")
    _plant(planted, marker)
    planted.chmod(0o600)
    result = _run(home, tmp)
    assert result.returncode == 0, result.stderr
    assert not marker.exists()
    assert planted.read_bytes().startswith(b'{"d":'), "the damaged file was built again, as JSON"


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("BGCLI_NO_CACHE", raising=False)
    return tmp_path


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="POSIX descriptors")
def test_cached_files_are_read_back_and_written_private(cache_home):
    assert grammar.write_cached("thing", b"mine")
    assert grammar.read_cached("thing") == b"mine"
    assert (cache_home / "bgcli" / "thing").stat().st_mode & 0o777 == 0o600
    assert grammar.read_cached("missing") is None


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="POSIX descriptors")
def test_a_linked_cache_folder_or_file_is_never_read(cache_home):
    elsewhere = cache_home / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (elsewhere / "thing").write_bytes(b"theirs")
    (cache_home / "bgcli").symlink_to(elsewhere)
    assert grammar.read_cached("thing") is None
    assert not grammar.write_cached("thing", b"mine")
    assert (elsewhere / "thing").read_bytes() == b"theirs"
    (cache_home / "bgcli").unlink()
    (cache_home / "bgcli").mkdir(mode=0o700)
    (cache_home / "bgcli" / "thing").symlink_to(elsewhere / "thing")
    assert grammar.read_cached("thing") is None


def _exchange():
    """renameat2(RENAME_EXCHANGE) through the C library, or None where there is none."""
    import ctypes
    import ctypes.util

    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return None
    at_fdcwd, rename_exchange = -100, 2

    def exchange(a: Path, b: Path) -> int:
        return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)

    return exchange


@pytest.mark.skipif(_exchange() is None, reason="needs Linux renameat2")
def test_a_folder_swapped_between_check_and_read_is_never_read_from(cache_home):
    # another user's folder and ours swapped in a loop, as an attacker who owns the parent can
    import threading

    exchange = _exchange()
    ours, theirs = cache_home / "bgcli", cache_home / "theirs"
    ours.mkdir(mode=0o700)
    (ours / "thing").write_bytes(b"mine")
    theirs.mkdir()
    (theirs / "thing").write_bytes(b"theirs")
    theirs.chmod(0o777)
    (theirs / "thing").chmod(0o666)
    if os.getuid() == 0:   # root can give them away, as the attack has it
        os.chown(theirs, 65534, 65534)
        os.chown(theirs / "thing", 65534, 65534)
    stop = threading.Event()

    def swap():
        while not stop.is_set():
            exchange(ours, theirs)

    swapper = threading.Thread(target=swap)
    swapper.start()
    try:
        seen = {grammar.read_cached("thing") for _ in range(3000)}
    finally:
        stop.set()
        swapper.join()
    assert b"theirs" not in seen
    assert b"mine" in seen, "the swap was not met at all: the test proves nothing"


@pytest.mark.skipif(_exchange() is None, reason="needs Linux renameat2")
@pytest.mark.parametrize("when", ["before the folder is opened", "after the folder is opened"])
def test_a_swap_at_either_moment_gives_ours_or_nothing(cache_home, monkeypatch, when):
    exchange = _exchange()
    ours, theirs = cache_home / "bgcli", cache_home / "theirs"
    ours.mkdir(mode=0o700)
    (ours / "thing").write_bytes(b"mine")
    theirs.mkdir(mode=0o777)
    (theirs / "thing").write_bytes(b"theirs")
    theirs.chmod(0o777)
    real_open = os.open

    def racing_open(path, flags, *args, **kwargs):
        folder = os.fspath(path) == os.fspath(ours)
        if folder and when == "before the folder is opened":
            exchange(ours, theirs)
        fd = real_open(path, flags, *args, **kwargs)
        if folder and when == "after the folder is opened":
            exchange(ours, theirs)
        return fd

    monkeypatch.setattr(os, "open", racing_open)
    found = grammar.read_cached("thing")
    assert found == (None if when == "before the folder is opened" else b"mine")


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="POSIX descriptors")
def test_a_table_as_big_as_the_cubeful_bear_off_table_is_read_back(cache_home):
    # that table (six checkers a side) is 20.5 MB: were it refused, every process would rebuild it, a minute each
    table = bytes(range(256)) * (21 << 12)
    assert grammar.write_cached("bearoff-test.bin", table)
    assert grammar.read_cached("bearoff-test.bin") == table


def test_the_grammars_are_the_running_trees_own():
    # an editable install maps bgcli.grammars to the tree it was made from; the code of another
    # checkout or worktree run with `python -m bgcli` must still read its own grammars beside it
    tree = Path(grammar.__file__).resolve().parent.parent / "grammars"
    for lark in sorted(tree.glob("*.lark")):
        assert grammar.grammar_text(lark.stem) == lark.read_text(encoding="utf-8")
