"""The format registry: every format one entry, and everything that picks or
names a format reads it."""
from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import assume, given
from hypothesis import strategies as st

from bgcli.cli import cli
from bgcli.formats import files, registry
from bgcli.scale import archive

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


@pytest.mark.parametrize("kind", registry.FORMATS, ids=str)
def test_every_entry_names_a_module_that_reads_and_writes_as_it_says(kind):
    module = kind.load()
    assert callable(module.read_stream)
    assert callable(getattr(module, "writer", None)) == kind.writes
    assert callable(getattr(module, "join", None)) == kind.writes
    assert all(s.startswith(".") and s == s.lower() for s in kind.suffixes)


def test_names_and_suffixes_are_unique():
    assert len(set(registry.NAMES)) == len(registry.NAMES)
    assert len(set(registry.SUFFIXES)) == len(registry.SUFFIXES)
    assert sum(1 for f in registry.FORMATS if f.head is None) == 1   # one format takes any other text


def test_the_folder_walk_and_the_export_choices_follow_the_registry(tmp_path):
    assert archive.SUFFIXES == registry.SUFFIXES
    assert ".json" in archive.SUFFIXES
    for suffix in registry.SUFFIXES:
        (tmp_path / f"a{suffix}").write_text(" 1 point match\n")   # a .txt that is no match is skipped
    (tmp_path / "notes.pdf").write_text("x")
    found = {Path(p).suffix for p in archive.find_files([str(tmp_path)])}
    assert found == set(registry.SUFFIXES)
    params = {p.name: p for p in cli.get_command(None, "export").params}
    assert tuple(params["to"].type.choices) == registry.WRITTEN
    help_text = run("export", "--help").output
    assert all(name in help_text for name in registry.NAMES)


# The modules that pick, read or write a format for the commands go through
# the registry: none of them imports a format's module.
THROUGH_THE_REGISTRY = ["bgcli/formats/files.py", "bgcli/scale/archive.py", "bgcli/cli/matches.py",
                        "bgcli/cli/common.py", "bgcli/cli/audit.py", "bgcli/render/view.py"]


# a position file is a position, not a match: the format modules the command line names for one (XG's .xgp,
# Snowie's text, gnubg's saved position in SGF)
POSITION_READERS = {"bgcli/cli/common.py": {"bgcli.formats.xg", "bgcli.formats.snowietxt", "bgcli.formats.sgf"}}


@pytest.mark.parametrize("name", THROUGH_THE_REGISTRY)
def test_no_command_module_imports_a_format_module(name):
    tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
    modules = {f.module for f in registry.FORMATS}
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
    assert not imported & modules - POSITION_READERS.get(name, set())


def test_the_readme_table_is_the_registry():
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    section = text.split("\n## Match formats\n", 1)[1].split("\n## ", 1)[0]
    # the section's first table (others in it, such as gnubg's imports, have columns of their own)
    table_text = section.split("\n| format ", 1)[1].split("\n\n", 1)[0]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table_text.splitlines()[2:]]
    table = {row[0]: (tuple(row[1].split()), row[2], row[3]) for row in rows}
    assert table == {f.name: (f.suffixes, "yes", "yes" if f.writes else "no") for f in registry.FORMATS}


@pytest.mark.parametrize("head, name", [
    (b"(;FF[4]GM[6]", "sgf"), (b"\xef\xbb\xbf\n  {\"format\"", "json"), (b"[{", "json"),
    (b" 7 point match\n", "mat"), (b"", "mat"),
])
def test_a_head_names_its_format(head, name):
    kind = registry.of_head(head)
    assert kind is not None and kind.name == name


@given(st.binary(min_size=256, max_size=256))
def test_random_bytes_look_binary(noise):
    assume(noise.count(b"\0") or sum(b < 32 and b not in (9, 10, 12, 13, 27) for b in noise) > 16)
    assert registry.looks_binary(noise)


def test_a_suffix_wins_over_a_text_head_and_a_binary_head_is_none():
    assert registry.choose("x.mat", b"(;GM[6]").name == "mat"
    assert registry.choose("-", b"(;GM[6]").name == "sgf"
    assert registry.choose("x.mat", bytes(range(256))) is None
    assert registry.of_head(b"\x00\x01\x02abc") is None
    assert registry.of_head("é ü 7 point match".encode("latin-1")).name == "mat"   # Latin-1 text is text


@pytest.mark.parametrize("name", ["noise.dat", "noise.mat", "noise.sgf"])
def test_a_binary_file_is_one_short_line_naming_the_formats_tried(tmp_path, name):
    path = tmp_path / name
    # the same noise every run, so a failure can be run again
    noise = random.Random(name).randbytes(4096)
    path.write_bytes(noise.replace(b"(", b"").replace(b"{", b"").replace(b"[", b"") + b"\0")
    for command in (["audit"], ["score"], ["replay"], ["export", "--to", "mat"]):
        result = run(*command, str(path))
        assert result.exit_code == 2, (command, result.output)
        errors = [line for line in result.output.splitlines() if line.startswith("Error")]
        # short: the path, the formats tried and a few words (no bytes of the noise)
        assert len(errors) == 1 and len(errors[0]) < 80 + len(str(path)) + len(registry.tried()), errors
        assert "binary" in errors[0] and f"tried {', '.join(registry.NAMES)}" in errors[0]
        assert "\\x" not in errors[0]


def test_a_binary_file_on_standard_input_is_named_too():
    result = run("score", "-", input=b"\x00\x01\x02" * 100)
    assert result.exit_code == 2 and "binary data" in result.output


def test_sniff_reports_the_registry_name(tmp_path):
    for source in sorted(SAMPLES.glob("*.mat"))[:2]:
        assert files.sniff(source) == "mat"
    path = tmp_path / "x"
    path.write_bytes(b"\0\0\0")
    assert files.sniff(path) == "binary"


def test_export_refuses_an_unknown_format():
    with pytest.raises(ValueError, match=re.escape("expected one of")):
        files.export_text([], "pdf")


# real files as a printer, a pager or an editor leaves them: a form feed (page break), blank lines or a
# byte order mark before the first text; the format is still the one the first text names
_PAGED = [ROOT / "tests" / "data" / "corpus" / "gnubg-text-export" / "match1004950.txt",
          ROOT / "tests" / "data" / "imports" / "sp05011_7pt.fibs", SAMPLES / "sp05001_3pt.mat",
          ROOT / "tests" / "data" / "sgf" / "sp05000_1pt.sgf"]


@pytest.mark.parametrize("lead", [b"\f", b"\f\n", b"\n\n\f\r\n", b" \f \n", b"\xef\xbb\xbf\f\n", b"\xef\xbb\xbf\n\n"])
@pytest.mark.parametrize("source", _PAGED, ids=lambda p: p.name)
def test_a_page_break_blank_lines_or_a_byte_order_mark_before_the_first_text_name_the_same_format(source, lead,
                                                                                                tmp_path):
    original = source.read_bytes()
    path = tmp_path / ("paged" + source.suffix)   # .txt: the head, not the suffix, says gnubg's text export
    path.write_bytes(lead + original)
    head = path.read_bytes()[:registry.HEAD_SIZE]
    assert registry.choose(str(path), head) == registry.choose(str(source), original[:registry.HEAD_SIZE])
    assert registry.choose("-", head) == registry.choose("-", original[:registry.HEAD_SIZE])

    def results(replays):
        return [[(r.game, r.winner, r.points) for r in replay.results] for replay in replays]
    assert results(files.replay_file(path)) == results(files.replay_file(source))
