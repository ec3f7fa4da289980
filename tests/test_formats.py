"""The Format protocol (bgcli/formats/protocol.py): every format module
implements it and the registry lists it; every format bgcli writes reads its
own output back to the same text; sniffing picks the right format for every
match file in tests/data; a writer leaves out only what its format says it
cannot hold."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bgcli.formats import registry
from bgcli.formats.files import export, read_any
from bgcli.formats.protocol import Format, FormatModule, Lack, WrittenFormatModule

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
FORMATS_DIR = ROOT / "bgcli" / "formats"

# Where each format's files are in tests/data, by what they are (not by what the registry says).
EXPECTED = {
    "gammonview/xg/*.xg": "xg", "gammonview/bgf/*.bgf": "bgf", "gammonview/mat/*.mat": "mat",
    "corpus/gnubg-text-export/*.txt": "gnubg-text", "corpus/galaxy/*.txt": "mat",
    "corpus/backgammon-studio/*.txt": "mat", "matchfiles/*": "mat", "oracle/selfplay/*.mat": "mat",
    "oracle/audit_sample/*.mat": "mat", "rating/*.mat": "mat", "rating/*.txt": "mat", "sgf/*.sgf": "sgf",
    "imports/*.fibs": "oldmoves", "imports/*.sgg": "sgg", "imports/*.tmg": "tmg", "real/bgammon-org/*.match": "bgammon", "real/javafibs/*.match": "javafibs", "real/gibbon-gmd/*.gmd": "gmd", "imports/*.gnubg.mat": "mat",
}
# one file or a few of each format bgcli writes, to write and read back
SOURCES = [DATA / "oracle" / "selfplay" / "sp05003_7pt.mat", DATA / "oracle" / "selfplay" / "sp05007_money.mat",
           DATA / "matchfiles" / "money_beaver.mat", DATA / "sgf" / "galaxy801715.sgf",
           DATA / "corpus" / "gnubg-text-export" / "match956620.txt",
           *sorted((DATA / "gammonview" / "xg").glob("*.xg"))[:1], *sorted((DATA / "gammonview" / "bgf").glob("*.bgf"))[:1]]


def format_modules() -> set[str]:
    """The modules of bgcli/formats that read a format (a top-level ``read_stream``)."""
    found = set()
    for path in FORMATS_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(node, ast.FunctionDef) and node.name == "read_stream" for node in tree.body):
            found.add(f"bgcli.formats.{path.stem}")
    return found


def test_every_format_module_is_in_the_registry():
    listed = {kind.module for kind in registry.FORMATS}
    assert format_modules() <= listed, f"add these to registry.FORMATS: {format_modules() - listed}"
    assert {"bgcli.formats.gnubgtext", "bgcli.formats.mat", "bgcli.formats.sgf"} <= format_modules()


@pytest.mark.parametrize("kind", registry.FORMATS, ids=str)
def test_every_entry_is_a_format_and_its_module_a_format_module(kind):
    entry: Format = kind
    assert entry.extensions == kind.suffixes and entry.name in registry.NAMES
    module = kind.load()
    assert isinstance(module, FormatModule)
    assert isinstance(module, WrittenFormatModule) == kind.writes
    assert kind.cannot_hold <= set(Lack) and (not kind.cannot_hold or kind.writes)


def expected_formats() -> list[tuple[Path, str]]:
    return [(path, name) for pattern, name in EXPECTED.items() for path in sorted(DATA.glob(pattern))
            if path.is_file() and path.suffix not in (".py", ".md")]


def test_sniffing_picks_the_right_format_for_every_match_file_in_tests_data():
    cases = expected_formats()
    assert {name for _, name in cases} == set(registry.NAMES) - {"json"}   # no bgcli document is kept there
    wrong = []
    for path, name in cases:
        head = path.read_bytes()[:registry.HEAD_SIZE]
        chosen = registry.choose(str(path), head)
        if chosen is None or chosen.name != name or not chosen.sniff(head):
            wrong.append((str(path.relative_to(DATA)), name, chosen and chosen.name))
        # named otherwise or not at all, a file whose head is sure is still read in its format
        if registry.by_name(name).sure:
            assert registry.choose("x.mat", head).name == name and registry.choose("-", head).name == name
    assert not wrong, wrong


@pytest.mark.parametrize("kind", [k for k in registry.FORMATS if k.writes], ids=str)
def test_every_written_format_reads_its_own_output_back_to_the_same_text(kind, tmp_path):
    for source in SOURCES:
        text, _ = export(read_any(source), kind.name)
        written = tmp_path / f"{source.stem}{kind.extensions[0]}"
        written.write_text(text, encoding="utf-8")
        assert registry.choose(str(written), written.read_bytes()[:registry.HEAD_SIZE]) is kind
        again, left_out = export(read_any(written), kind.name)
        assert again == text, (source.name, kind.name)


def test_a_writer_leaves_out_only_what_its_format_says_it_cannot_hold():
    sources = [path for path, _ in expected_formats()][::3]
    lacking: dict[str, set[Lack]] = {kind.name: set() for kind in registry.FORMATS if kind.writes}
    for kind in registry.FORMATS:
        if not kind.writes:
            continue
        for source in sources:
            try:
                records = read_any(source)
            except Exception:   # a file tests/data keeps broken on purpose
                continue
            from bgcli.match.replay import replay_match

            for number, record in enumerate(records, 1):
                writer = kind.writer(None)
                writer.comments = record.comments
                replay_match(record, number, None, visitor=writer)
                lacking[kind.name] |= writer.lacking
        assert lacking[kind.name] <= kind.cannot_hold, (kind.name, lacking[kind.name] - kind.cannot_hold)
    assert any(lacking.values())   # the check saw something left out


def test_a_writer_that_leaves_out_what_its_format_holds_is_seen():
    kind = registry.by_name("json")
    writer = kind.writer(None)
    writer.leave_out(Lack.TAG_NAMES, "tag 'x y': not a name")
    assert writer.lacking - kind.cannot_hold == {Lack.TAG_NAMES}
    assert writer.left_out == ["tag 'x y': not a name"]
