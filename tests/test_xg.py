"""eXtreme Gammon's .xg files: the golden pairs (each .xg replays to the plays,
cube actions and results of its .mat twin), the analysis XG stored, and
damaged files (cut short, bit-flipped, huge declared sizes, a zip bomb, a
record of an unknown kind)."""
from __future__ import annotations

import io
import json
import struct
import threading
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.cli import cli
from bgcli.core.rules import Variation
from bgcli.errors import MatchFileError
from bgcli.formats import xg
from bgcli.formats.files import export, iter_records, replay_file
from bgcli.match.records import ActionKind, DecisionKind, records_of
from bgcli.match.replay import replay_match

DATA = Path(__file__).resolve().parent / "data" / "gammonview"
NAMES = sorted(p.stem for p in (DATA / "xg").glob("*.xg"))
# recompressed without the archive's registry and trailer (see data/gammonview/README.md)
NO_INDEX = {"hQ8sVn2LbTdF4wRm", "rK7pXm4TqLb9NzWd"}
NO_INDEX_NOTE = "the archive's trailer at the end of the file is missing or damaged"


def test_the_golden_data_is_all_there():
    assert len(NAMES) == 13
    assert all((DATA / "mat" / f"{name}.mat").is_file() for name in NAMES)


def hops(text: str) -> list[str]:
    return sorted(text.split())


def net(text: str) -> dict[int, int]:
    """What a play does to the mover's checkers, whatever order its steps are in."""
    change: dict[int, int] = {}
    for step in text.split():
        start, end = (int(p) for p in step.split("/"))
        change[start] = change.get(start, 0) - 1
        change[end] = change.get(end, 0) + 1
    return {point: n for point, n in change.items() if n}


def events(path: Path):
    """Per game: (kind, side, dice, what) of every action, the result, and the problems."""
    games: dict[int, list] = {}
    problems = []
    for match in replay_file(path):
        for e in match.events:
            if e.kind.value == "move":
                what = e.legal.result.id() if e.legal is not None else hops(e.play)
                games.setdefault(e.game, []).append(("move", e.side, tuple(sorted(e.dice)), what))
            elif e.kind.value in ("win", "resign"):
                games.setdefault(e.game, []).append((e.kind.value, e.side, e.points))
            else:
                games.setdefault(e.game, []).append((e.kind.value, e.side, e.cube))
        problems += [(p.kind.value, p.game, p.message) for p in match.problems]
        score = match.score
    return games, problems, score


@pytest.mark.parametrize("name", NAMES)
def test_each_xg_replays_to_its_mat_twin(name):
    games, problems, score = events(DATA / "xg" / f"{name}.xg")
    twin_games, twin_problems, twin_score = events(DATA / "mat" / f"{name}.mat")
    assert games == twin_games
    assert score == twin_score
    # the same rules broken in the same games, whichever file says it
    rule_problems = sorted((kind, game) for kind, game, _ in problems if kind not in ("syntax", "unchecked"))
    twin_rule_problems = sorted((kind, game) for kind, game, _ in twin_problems if kind not in ("syntax", "unchecked"))
    assert rule_problems == twin_rule_problems
    notes = [message for kind, _, message in problems if kind == "syntax"]
    if name in NO_INDEX:
        assert any(NO_INDEX_NOTE in message for message in notes)
    else:
        assert not any(NO_INDEX_NOTE in message for message in notes)


def test_a_play_xg_stored_as_a_board_is_read_from_the_boards():
    # White played 6-5 as 14/8 15/10 6/8, a checker backwards. The .mat twin
    # writes that; XG's record holds only two of the steps (its step list
    # cannot hold a backward step) and the board the play led to. Both files
    # break the rules, the same way: the board XG stored after the move is
    # the .mat's play applied as written, so the .mat's text is what happened.
    path = DATA / "xg" / "hQ8sVn2LbTdF4wRm.xg"
    _, problems, _ = events(path)
    note = next(m for kind, _, m in problems if kind == "syntax" and "do not reach the board" in m)
    assert "(14/8 15/10)" in note and note.endswith("15/10 14/8 6/8")
    _, twin_problems, _ = events(DATA / "mat" / "hQ8sVn2LbTdF4wRm.mat")
    assert ("play", 2, "6/8 moves backwards") in [(k, g, m.split(": ")[-1]) for k, g, m in twin_problems]
    assert any(k == "play" and g == 2 and "6/8 moves backwards" in m for k, g, m in problems)


def test_the_header_becomes_the_tags_of_the_mat_twin():
    record = next(iter_records(DATA / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.xg"))
    twin = next(iter_records(DATA / "mat" / "B4_SrGcsKAQmoTyHlgJCbM.mat"))
    for tag in ("Site", "EventDate", "Player 1", "Player 2", "Variation", "Crawford", "Jacoby", "Beaver", "Cubelimit"):
        assert record.tags[tag] == twin.tags[tag], tag
    assert record.tags["Player 1 Elo"] == "1600.00/0" and record.tags["Unrated"] == "Off"
    assert record.length == twin.length == 0 and record.players == twin.players


def test_the_analysis_xg_stored_travels_on_the_actions():
    record = next(iter_records(DATA / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.xg"))
    moves = [a for g in record.games for a in g.actions if a.kind == ActionKind.MOVE]
    judged = [s for a in moves for s in a.analysis if s.decision == DecisionKind.PLAY]
    assert len(judged) == len(moves)
    for action in moves:
        play = next(s for s in action.analysis if s.decision == DecisionKind.PLAY)
        assert play.chosen is not None and net(play.candidates[play.chosen].choice) == net(action.play_text)
        # best first among the deepest level's (the shallower levels come after)
        deepest = [c.equity for c in play.candidates if c.level == play.candidates[0].level]
        assert deepest == sorted(deepest, reverse=True)
        chosen = play.candidates[play.chosen]
        if play.error is not None and chosen.level == play.candidates[0].level:
            # XG's error is what the play lost against its best
            assert play.error == pytest.approx(chosen.equity - play.candidates[0].equity, abs=1e-4)
    cube = [s for g in record.games for a in g.actions for s in a.analysis if s.decision == DecisionKind.CUBE]
    assert cube and all(len(s.candidates) == 3 for s in cube)


@pytest.mark.parametrize("to", ["mat", "sgf", "json"])
def test_export_of_an_xg_file_reads_back_to_the_same_match(tmp_path, to):
    source = DATA / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.xg"
    result = CliRunner().invoke(cli, ["export", str(source), "--to", to, "-o", str(tmp_path / f"out.{to}")])
    assert result.exit_code == 0, result.output
    assert events(tmp_path / f"out.{to}")[0] == events(source)[0]


def test_the_commands_read_xg_files(tmp_path):
    source = str(DATA / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.xg")
    runner = CliRunner()
    assert runner.invoke(cli, ["audit", source]).exit_code == 0
    score = runner.invoke(cli, ["score", "--json", source])
    assert score.exit_code == 0 and json.loads(score.output)["players"] == ["Fox", "Bluepoint02"]
    replay = runner.invoke(cli, ["replay", source])
    assert replay.exit_code == 0 and "54: 24/20 13/8" in replay.output
    view = runner.invoke(cli, ["view", source, "-o", str(tmp_path / "m.html")])
    assert view.exit_code == 0 and (tmp_path / "m.html").stat().st_size > 1000
    piped = runner.invoke(cli, ["score", "-"], input=(DATA / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.xg").read_bytes())
    assert piped.exit_code == 0 and "Fox" in piped.output


def test_export_says_xg_is_read_not_written():
    with pytest.raises(ValueError, match="does not write"):
        export([], "xg")


# --- damaged files ----------------------------------------------------------------------

GOOD = (DATA / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.xg").read_bytes()


def read(raw: bytes, path: str = "t.xg"):
    return list(records_of(xg.read_stream(io.BytesIO(raw), path)))


def container(records: list[bytes], extra: dict[str, bytes] | None = None) -> bytes:
    """An .xg file around ``records``: the good file's header, no thumbnail,
    the inner files, the registry and the trailer."""
    head = bytearray(GOOD[:xg.RICH_HEADER])
    struct.pack_into("<I", head, 20, 0)
    files = {"temp.xg": b"".join(records), **(extra or {})}
    blobs, registry = b"", b""
    for name, content in files.items():
        packed = zlib.compress(content)
        entry = bytearray(xg.REGISTRY_ENTRY)
        entry[0] = len(name)
        entry[1:1 + len(name)] = name.encode()
        struct.pack_into("<iiiI", entry, 512, len(content), len(packed), len(blobs), zlib.crc32(content))
        registry += bytes(entry)
        blobs += packed
    packed_registry = zlib.compress(registry)
    stream = blobs + packed_registry
    trailer = struct.pack("<Iiiii", zlib.crc32(stream), len(files), 1, len(packed_registry), len(blobs))
    trailer += b"\x01" + bytes(xg.TRAILER - len(trailer) - 1)
    return bytes(head) + stream + trailer


def good_records() -> list[bytes]:
    return [record for _, _, record in xg.iter_records(DATA / "xg" / "B4_SrGcsKAQmoTyHlgJCbM.xg")]


def test_a_rebuilt_container_reads_as_the_original():
    rebuilt = read(container(good_records()))
    original = read(GOOD)
    assert [g.actions for g in rebuilt[0].games] == [g.actions for g in original[0].games]
    assert rebuilt[0].errors == ()


def test_a_bad_checksum_is_named():
    raw = bytearray(container(good_records()))
    raw[xg.RICH_HEADER + 100] ^= 0xFF
    with pytest.raises(MatchFileError, match="bad checksum: the archive's CRC-32"):
        read(bytes(raw))


def test_a_file_cut_inside_the_records_keeps_what_was_read_and_names_the_record():
    raw = GOOD[:xg.RICH_HEADER + struct.unpack_from("<I", GOOD, 20)[0] + 9000]
    records = read(raw)
    messages = [e.reason for e in records[0].errors]
    assert any("the file is cut short: record" in m for m in messages), messages
    assert records[0].games   # the games before the cut are read


def test_a_file_cut_in_its_header_is_one_line():
    with pytest.raises(MatchFileError, match="shorter than XG's 8232-byte header"):
        read(GOOD[:5000])


def test_a_record_of_an_unknown_kind_is_skipped_and_named():
    records = good_records()
    strange = bytearray(records[5])
    strange[8] = 42
    read_back = read(container(records[:5] + [bytes(strange)] + records[5:]))
    assert any("unknown kind 42 (first: record 6) skipped" in e.reason for e in read_back[0].errors)
    assert len(read_back[0].games) == len(read(GOOD)[0].games)


def test_an_unknown_kind_makes_the_audit_exit_1_without_a_traceback(tmp_path):
    records = good_records()
    strange = bytearray(records[5])
    strange[8] = 42
    path = tmp_path / "newer.xg"
    path.write_bytes(container(records[:5] + [bytes(strange)] + records[5:]))
    result = CliRunner().invoke(cli, ["audit", str(path)])
    assert result.exit_code == 1 and "unknown kind 42" in result.output and "Traceback" not in result.output


def test_a_huge_declared_size_is_refused():
    raw = bytearray(container(good_records(), {"temp.xgc": b"a comment\r\n"}))
    # the registry's comment entry claims 2 GB
    registry_size = struct.unpack_from("<i", raw, len(raw) - xg.TRAILER + 12)[0]
    start = len(raw) - xg.TRAILER - registry_size
    registry = bytearray(zlib.decompress(raw[start:len(raw) - xg.TRAILER]))
    struct.pack_into("<i", registry, xg.REGISTRY_ENTRY + 512, 2_000_000_000)
    rebuilt = container(good_records())   # same header; rebuild with the forged registry by hand
    blobs = raw[xg.RICH_HEADER:start]
    packed_registry = zlib.compress(bytes(registry))
    stream = bytes(blobs) + packed_registry
    trailer = struct.pack("<Iiiii", zlib.crc32(stream), 2, 1, len(packed_registry), len(blobs))
    trailer += b"\x01" + bytes(xg.TRAILER - len(trailer) - 1)
    forged = rebuilt[:xg.RICH_HEADER] + stream + trailer
    with pytest.raises(MatchFileError, match="declares 2000000000 bytes"):
        read(forged)


def test_a_zip_bomb_stops_at_the_bound(monkeypatch):
    monkeypatch.setattr(xg, "MAX_GAME_FILE", 1 << 20)
    filler = bytes(8) + bytes([xg.UNUSED]) + bytes(xg.RECORD - 9)
    bomb = container([good_records()[0]] + [filler] * 1000)   # 2.5 MB of records in a few KB
    assert len(bomb) < 20_000
    with pytest.raises(MatchFileError, match="decompress to more than 1 MB"):
        read(bomb)


def test_comments_are_kept():
    records = good_records()
    move = next(i for i, r in enumerate(records) if r[8] == xg.MOVE)
    commented = bytearray(records[move])
    struct.pack_into("<i", commented, 2524, 1)
    records[move] = bytes(commented)
    read_back = read(container(records, {"temp.xgc": b"first\r\nwhy 13/8?\x01\x02two lines\r\n"}))
    assert (move + 1, "why 13/8?\ntwo lines") in read_back[0].comments


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_damage_is_a_match_file_error_or_a_read(data):
    raw = bytearray(container(good_records()[:40]))
    for _ in range(data.draw(st.integers(1, 4))):
        raw[data.draw(st.integers(0, len(raw) - 1))] ^= 1 << data.draw(st.integers(0, 7))
    cut = data.draw(st.integers(0, len(raw)))
    try:
        for _ in xg.read_stream(io.BytesIO(bytes(raw[:cut])), "t.xg"):
            pass
    except MatchFileError:
        pass


def test_the_mat_twins_resigns_cell_is_read():
    # XG and BGBlitz write "Resigns" in the resigning player's column; the
    # "Wins" line after it is the result
    path = DATA / "mat" / "5nqfGw9bWG3deTaU.mat"
    assert "21) Resigns" in path.read_text(encoding="utf-8")
    _, problems, _ = events(path)
    assert not [p for p in problems if p[0] in ("syntax", "incomplete")]
    games, _, _ = events(path)
    assert games[4][-1] == ("resign", 1, 2)


# --- positions (.xgp) -------------------------------------------------------------------

def xgp_of(records: list[bytes], upto: int) -> bytes:
    """An .xgp of the decision at record ``upto``: the match header, its game's header, that record."""
    game = max(i for i in range(upto) if records[i][8] == xg.HEADER_GAME)
    return container([records[0], records[game], records[upto]])


@pytest.mark.parametrize("kind", [xg.MOVE, xg.CUBE])
def test_an_xgp_is_a_position_wherever_one_is_taken(tmp_path, kind):
    source = DATA / "xg" / "3WNK_g1Z-PLsh_HyvQ5j4a.xg"
    records = good_records_of(source)
    replay = next(replay_file(source))
    # a decision late in a game with the cube turned: record 143 is a move at a 4-cube
    index = next(i for i in range(142, len(records)) if records[i][8] == kind)
    path = tmp_path / "position.xgp"
    path.write_bytes(xgp_of(records, index))
    game = xg.read_position(str(path))
    # the decision's event (a cube record with no double has none: the move after it starts there too)
    expected = next(e for e in replay.events if e.line >= index + 1 and e.kind.value in ("move", "double"))
    assert game.position == expected.before.position
    assert game.match.cube == expected.before.match.cube and game.match.cube_owner == expected.before.match.cube_owner
    assert game.match.score == expected.before.match.score and game.match.on_roll == expected.side
    if kind == xg.MOVE:
        assert sorted(game.match.dice) == sorted(expected.dice)
    result = CliRunner().invoke(cli, ["show", str(path)])
    assert result.exit_code == 0 and expected.before.position.id() in result.output


def good_records_of(path: Path) -> list[bytes]:
    return [record for _, _, record in xg.iter_records(path)]


def test_an_xgp_without_a_decision_is_one_line(tmp_path):
    path = tmp_path / "empty.xgp"
    path.write_bytes(container(good_records()[:2]))
    result = CliRunner().invoke(cli, ["show", str(path)])
    assert result.exit_code != 0 and "no position in the file" in result.output and "Traceback" not in result.output


def test_bytes_after_the_records_stream_end_are_damage_not_a_hang(monkeypatch):
    # zlib keeps an unconsumed tail past the end of a stream read with a
    # length limit; the reader once fed it back forever
    real = zlib.compress
    first = []

    def with_tail(content: bytes, *args: object) -> bytes:
        packed = real(content, *args)
        if not first:
            first.append(1)
            return packed + bytes(range(256)) * 300
        return packed

    monkeypatch.setattr(zlib, "compress", with_tail)
    raw = container(good_records()[:40])
    monkeypatch.setattr(zlib, "compress", real)
    done: list[object] = []

    def read_all() -> None:
        try:
            for _ in xg.read_stream(io.BytesIO(raw), "t.xg"):
                pass
            done.append("read")
        except MatchFileError as error:
            done.append(error)

    worker = threading.Thread(target=read_all, daemon=True)
    worker.start()
    worker.join(30)
    assert done, "the reader did not finish"


# --- habits of real files -----------------------------------------------------------------

def bear_offs_past_the_edge(record: bytes) -> bytes:
    """A move record as some files of eXtreme Gammon 2 write it: a checker
    borne off with a die larger than its point stored as the point minus
    the die (from the 5-point with a 6: code 4 to -2, read `5/-1`), not -1."""
    if record[8] != xg.MOVE:
        return record
    dice = struct.unpack_from("<2i", record, 100)
    codes = list(struct.unpack_from("<8i", record, 68))
    for index in range(0, 8, 2):
        start, end = codes[index], codes[index + 1]
        if start < 0:
            break
        if end == -1 and max(dice) > start + 1:
            codes[index + 1] = start - max(dice)
    changed = bytearray(record)
    struct.pack_into("<8i", changed, 68, *codes)
    return bytes(changed)


def test_habit_xg_bear_off_past_the_edge_is_a_bear_off():
    records = good_records_of(DATA / "xg" / "3WNK_g1Z-PLsh_HyvQ5j4a.xg")
    rewritten = [bear_offs_past_the_edge(r) for r in records]
    assert sum(a != b for a, b in zip(records, rewritten)) >= 5   # the habit is really in the file
    habit = read(container(rewritten))
    original = read(container(records))
    assert [g.actions for g in habit[0].games] != []
    assert [[(a.kind, a.side, a.dice, a.play_text) for a in g.actions] for g in habit[0].games] == \
        [[(a.kind, a.side, a.dice, a.play_text) for a in g.actions] for g in original[0].games]
    assert habit[0].errors == ()


# --- automatic doubles (XG 26 on stores each game's count; the match header its maximum) ---------

def with_autos(records: list[bytes], autos: int, allowed: int | None, length: int | None = None) -> list[bytes]:
    """The good money session with its last game started after ``autos`` automatic doubles (its cube
    actions and its points then count from that cube, as XG writes them), the match header allowing
    ``allowed`` (None: automatic doubles off); ``length`` makes it a match of that length."""
    out = [bytearray(record) for record in records]
    header = next(r for r in out if r[8] == xg.HEADER_MATCH)
    header[103] = allowed is not None
    struct.pack_into("<i", header, 616, allowed or 0)
    if length is not None:
        struct.pack_into("<i", header, 92, length)
    last = max(i for i, r in enumerate(out) if r[8] == xg.HEADER_GAME)
    struct.pack_into("<i", out[last], 64, autos)
    footer = next(r for r in out[last:] if r[8] == xg.FOOTER_GAME)
    struct.pack_into("<i", footer, 28, struct.unpack_from("<i", footer, 28)[0] << autos)
    return [bytes(r) for r in out]


def audit_of(tmp_path, records: list[bytes]) -> str:
    path = tmp_path / "autos.xg"
    path.write_bytes(container(records))
    result = CliRunner().invoke(cli, ["audit", str(path)])
    assert "Traceback" not in result.output
    return result.output


def test_an_automatic_double_xg_stored_starts_the_games_cube(tmp_path):
    records = good_records()
    assert struct.unpack_from("<i", next(r for r in records if r[8] == xg.HEADER_MATCH), 552)[0] >= 26
    assert audit_of(tmp_path, records) == "1 file checked, no problems\n"
    # one automatic double, two allowed: the last game is worth twice its points, and nothing is wrong
    assert audit_of(tmp_path, with_autos(records, 1, 2)) == "1 file checked, no problems\n"
    match = read(container(with_autos(records, 2, 2)))[0]
    autos = [a for a in match.games[-1].actions if a.kind == ActionKind.AUTO_DOUBLE]
    assert [a.cube for a in autos] == [2, 4] and match.games[-1].autos_written
    assert match.tags["AutoDoubles"] == "2"


def test_automatic_doubles_past_the_rules_of_the_xg_file_are_errors(tmp_path):
    records = good_records()
    assert "up to 2 automatic doubles" in audit_of(tmp_path, with_autos(records, 3, 2))
    assert "no automatic doubles" in audit_of(tmp_path, with_autos(records, 1, None))
    assert "automatic double" in audit_of(tmp_path, with_autos(records, 1, 2, length=99))


@pytest.mark.parametrize("code, said, variation", [(1, "Nackgammon", Variation.NACKGAMMON),
                                                   (2, "Hypergammon", Variation.HYPERGAMMON_3),
                                                   (3, "Longgammon", Variation.STANDARD)])
def test_the_variant_xg_stores_is_the_rule_of_the_variant(code, said, variation):
    # XG's match header stores the variant (0 backgammon, 1 nackgammon, 2 hypergammon, 3 longgammon):
    # it is the Variation tag its .mat export writes, which the rules read (core.rules): nackgammon
    # and hypergammon (XG's has 3 checkers a side) replay from their own opening; a variant bgcli
    # does not replay is one error at the header
    records = [bytearray(record) for record in good_records()]
    struct.pack_into("<i", next(r for r in records if r[8] == xg.HEADER_MATCH), 96, code)
    (match,) = read(container([bytes(r) for r in records]))
    assert match.tags["Variation"] == said and match.errors == ()
    replay = replay_match(match)
    assert replay.rules.variation == variation
    said_at_header = [p.message for p in replay.problems if "starting position differs" in p.message]
    assert len(said_at_header) == (code == 3)
