"""What the tests share: where the committed data is, a click runner, and the
hypothesis settings (CI runs derandomized and without deadlines, so a run is
repeatable and a slow shared machine does not fail a test).

The test modules import the paths from here (``from conftest import ORACLE``);
pytest puts this folder on ``sys.path`` before it collects them."""
from __future__ import annotations

import glob
import os
import threading
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """The seed of the run's order (pytest-randomly, in the test extra), last, where a failure is read: the
    header that names it is not shown under -q. Hypothesis draws from its own seed, which the order leaves alone."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int) and config.pluginmanager.hasplugin("randomly") and config.getoption("randomly_reorganize"):
        terminalreporter.write_line(f"tests in random order: python -m pytest -p randomly --randomly-seed={seed} ... replays it")

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SAMPLES = ROOT / "samples"
DATA = TESTS / "data"
ORACLE = DATA / "oracle"
SELFPLAY = ORACLE / "selfplay"
CORPUS = DATA / "corpus"


def committed(path: Path | str) -> Path:
    """``path``, which the repository holds: a test that needs it fails when it
    is missing (a broken checkout must not pass by skipping)."""
    path = Path(path)
    if not path.exists():
        pytest.fail(f"{path} is missing: it is committed with the tests (tests/data/README.md says how it was made)",
                    pytrace=False)
    return path


def gnubgid_norm():
    """The oracle's ``gnubgid_norm`` module (tests/data/oracle/tools): how two
    GNUbg IDs are compared from the side of the player on roll (``canonical``),
    and a Match ID's fields (``match_fields``)."""
    import importlib.util

    path = committed(ORACLE / "tools" / "gnubgid_norm.py")
    spec = importlib.util.spec_from_file_location("gnubgid_norm", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def committed_glob(folder: Path, pattern: str) -> list[str]:
    """The files of ``folder`` matching ``pattern``, sorted; at least one must be there."""
    found = sorted(glob.glob(str(folder / pattern)))
    if not found:
        pytest.fail(f"no {pattern} in {folder}: the repository holds them", pytrace=False)
    return found


def invoke(*args, input=None):
    """bgcli with ``args`` through click's runner; an exception other than an
    exit is raised, not folded into the result."""
    from click.testing import CliRunner

    from bgcli.cli import cli

    return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)


@pytest.fixture(scope="session", autouse=True)
def bearoff_table_built():
    """The exact bear-off table in the cache folder before any test runs: the
    first command that needs it builds it and says so on standard error, and
    on a new machine that would be whichever test came first (one that wants
    standard error empty, say)."""
    from bgcli.analysis.bearoff import table

    table()


def example_command(line: str) -> tuple[str, int]:
    """The command of a page's example line and the exit status the page gives it: 0, or N where the line ends
    with a shell comment that starts ``# exit N`` (the shell ignores it; any other comment is dropped too)."""
    import re

    status = re.search(r"\s#\s*exit (\d+)\b", line)
    return re.sub(r"\s+#.*$", "", line).strip(), int(status.group(1)) if status else 0


def skip_without_gnubg(command: str) -> None:
    """Skip the test of an example ``command`` that asks GNU Backgammon (``--engine gnubg``,
    ``--second-opinion gnubg``) where it is not installed: as the README says, tests that need it skip with a
    message; every other example runs on a fresh machine with the README's install (sage comes with it)."""
    import re

    if re.search(r"--(?:engine|second-opinion)[ =]gnubg\b", command):
        from bgcli.engines.gnubg import INSTALL, find_gnubg

        if find_gnubg() is None:
            pytest.skip(f"GNU Backgammon is not installed ({INSTALL}): {command}")


@pytest.fixture
def run():
    """``run(*args, input=None)``: see ``invoke``."""
    return invoke


def ctrl_c_as_a_terminal_gives() -> None:
    """A subprocess's ``preexec_fn`` for a test that sends it Ctrl-C (SIGINT):
    the signal's default action, as under a terminal, even when the tests
    themselves run where it is ignored (a shell starts a background job, ``&``,
    with SIGINT ignored, and a child inherits that: bgcli would never see it)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def read_in_background(fd: int) -> tuple[threading.Thread, bytearray]:
    """A started thread reading ``fd`` (a terminal's master end, or a pipe) until its
    other end closes, and the bytes it has read so far."""
    shown = bytearray()

    def read() -> None:
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:   # the terminal's other end closed
                return
            if not chunk:
                return
            shown.extend(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    return reader, shown


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """One headless Chromium (tests/chromium.py) for a whole test module; the test skips where it is not installed."""
    from chromium import Browser, need_chromium

    need_chromium()
    opened = Browser(tmp_path_factory.mktemp("profile"))
    yield opened
    opened.close()
