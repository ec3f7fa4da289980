"""Every reader with every writer: read, write, read back gives the same
match (players, length, rules, every play, cube action and result) and the
same tags; and what a writer has no place for is said, not dropped."""
from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgcli.cli import cli
from bgcli.core.cube import value_reached
from bgcli.formats import registry
from bgcli.formats.files import export, iter_records, replay_file
from bgcli.formats.writing import RULE_TAGS
from bgcli.match.records import parts_of, records_of
from bgcli.match.replay import ReplayBuilder, replay_parts

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
GOLDEN = DATA / "gammonview"
# one file of every format bgcli reads, a few dialects of .mat among them
SOURCES = sorted([
    *(ROOT / "samples").glob("sp050*.mat"), ROOT / "samples" / "galaxy_match3029786.txt",
    ROOT / "samples" / "studio_mrpurple_lasse_3pt.txt",
    *sorted((DATA / "corpus" / "backgammon-studio").glob("*.txt"))[:2],
    *sorted((DATA / "corpus" / "galaxy").glob("*.txt"))[:1],
    *(GOLDEN / "xg" / f"{name}.xg" for name in ("B4_SrGcsKAQmoTyHlgJCbM", "MYdvw1qGuyaRUH__")),
    *(GOLDEN / "bgf" / f"{name}.bgf" for name in ("B4_SrGcsKAQmoTyHlgJCbM", "XCu3RJ0UvDg_Tldl")),
    *(GOLDEN / "mat" / "uwvEbd63UvdX7SDin5o_Iw.mat",),
    DATA / "corpus" / "gnubg-text-export" / "match956620.txt",
    *(DATA / "imports" / name for name in ("sp05001_3pt.fibs", "sp05006_13pt.sgg", "sp05003_7pt.tmg")),
    DATA / "real" / "bgammon-org" / "gnubg-root_3pt_sp05001.match", DATA / "real" / "javafibs" / "root_3pt_sp05001.match",
    DATA / "real" / "gibbon-gmd" / "gnubg-root_3pt_sp05001.gmd",
])


def test_the_sources_cover_every_format_read():
    assert all(path.is_file() for path in SOURCES)
    assert {registry.choose(str(p), p.read_bytes()[:256]).name for p in SOURCES} >= set(registry.NAMES) - {"sgf", "json"}


def replays(parts):
    return list(replay_parts(parts, lambda number: ReplayBuilder(True), None))


def match_of(replay) -> dict:
    """What must survive a round trip, per match."""
    actions = []
    for e in replay.events:
        kind = e.kind.value
        if kind == "move":
            what = e.legal.result.id() if e.legal is not None else sorted(e.play.split())
            actions.append((e.game, kind, e.side, tuple(sorted(e.dice)), what))
        elif kind in ("win", "resign"):
            actions.append((e.game, kind, e.side, e.points))
        elif kind == "roll":   # a roll with no play, before a resignation
            actions.append((e.game, kind, e.side, tuple(sorted(e.dice))))
        elif kind in ("double", "beaver", "raccoon"):
            # a log that writes no value (FIBS's "doubles") means the value the double makes, which the
            # .mat writer spells out
            actions.append((e.game, kind, e.side, value_reached(e.before.match, e.cube)))
        else:
            actions.append((e.game, kind, e.side, e.cube))
    # a limit of 1024 or more is no limit (the sites write 1024 for none)
    rules = replace(replay.rules, cube_limit=0) if replay.rules.cube_limit >= 1024 else replay.rules
    return dict(players=replay.players, length=replay.length, rules=rules, actions=actions,
                tags={k: v for k, v in replay.tags.items() if k.lower() not in RULE_TAGS})


def read_text(text: str, name: str):
    kind = registry.of_name(name)
    assert kind is not None
    return replays(kind.load().read_stream(io.BytesIO(text.encode("utf-8")), name))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=st.sampled_from(SOURCES), to=st.sampled_from(registry.WRITTEN),
       notation=st.sampled_from([None, "gnubg", "fibs", "mat"]))
def test_read_write_read_gives_the_same_match(source, to, notation):
    text, left_out = export(iter_records(source), to, notation)
    original = [match_of(r) for r in replay_file(source)]
    if left_out:
        # what cannot be written is said; the CLI then writes nothing without --force
        assert all(isinstance(line, str) and line for line in left_out)
        return
    back = [match_of(r) for r in read_text(text, f"out.{to}")]
    for before, after in zip(original, back, strict=True):
        if "EventDate" not in before["tags"]:
            after["tags"].pop("EventDate", None)   # the .mat layout always has a date: the day it was written
        assert after == before
    # and writing what was read back gives the same text
    again, _ = export(records_of(parts_of(iter_records_text(text, f"out.{to}"))), to, notation)
    if to == "sgf":
        assert again == text
    elif to == "json":
        # the reader gives the document's rules as tags too: those are the rules' own to compare
        def without_rule_tags(doc_text):
            docs = json.loads(doc_text)
            for doc in docs if isinstance(docs, list) else [docs]:
                doc["tags"] = {k: v for k, v in doc["tags"].items() if k.lower() not in RULE_TAGS}
                for game in doc["games"]:
                    for action in game["actions"]:
                        action.pop("play", None)   # its text may order the steps differently; the steps stay
            return docs
        assert without_rule_tags(again) == without_rule_tags(text)


def iter_records_text(text: str, name: str):
    kind = registry.of_name(name)
    assert kind is not None
    return list(records_of(kind.load().read_stream(io.BytesIO(text.encode("utf-8")), name)))


STUDIO = sorted((DATA / "corpus" / "backgammon-studio").glob("*.txt"))[0]


@pytest.mark.parametrize("to", ["sgf", "mat", "json"])
def test_a_studio_file_keeps_its_tags_in_every_format(tmp_path, to):
    out = tmp_path / f"out.{to}"
    result = CliRunner().invoke(cli, ["export", str(STUDIO), "--to", to, "-o", str(out)])
    assert result.exit_code == 0, result.output
    source = {k: v for k, v in next(iter_records(STUDIO)).tags.items() if k.lower() not in RULE_TAGS}
    # (its Variation "Backgammon" is a rule tag, the standard game, as its Crawford "On": the rules write it)
    assert {"ClockType", "Match ID", "EventTime", "Unrated"} <= source.keys()
    written = {k: v for k, v in next(iter_records(out)).tags.items() if k.lower() not in RULE_TAGS}
    assert written == source


@pytest.mark.parametrize("to", ["mat", "sgf", "json"])
def test_comments_are_written_and_read_back(tmp_path, to):
    path = tmp_path / "commented.mat"
    text = (ROOT / "samples" / "sp05001_3pt.mat").read_text(encoding="utf-8")
    path.write_text("; a note about this match\n; and a second [one]\n" + text, encoding="utf-8")
    comments = [c for _, c in next(iter_records(path)).comments]
    assert [c.lstrip("; ") for c in comments] == ["a note about this match", "and a second [one]"]
    out = tmp_path / f"out.{to}"
    result = CliRunner().invoke(cli, ["export", str(path), "--to", to, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert [c for _, c in next(iter_records(out)).comments] == comments


def test_a_comment_line_mat_would_read_as_a_tag_is_said():
    record = next(iter_records(ROOT / "samples" / "sp05001_3pt.mat"))
    forged = type(record)(record.length, record.games, record.line, record.tags, ((3, '[Site "forged"]'),))
    text, left_out = export([forged], "mat")
    assert "forged" not in text and any("would read as a tag" in line for line in left_out)
