"""BGBlitz's .bgf files: the golden pairs (each .bgf replays to the plays,
cube actions and results of its .mat twin), Smile, and damaged files."""
from __future__ import annotations

import re

import gzip
import zlib
from dataclasses import replace
import io
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bgcli.cli import cli
from bgcli.errors import MatchFileError
from bgcli.formats import bgf
from bgcli.formats.files import iter_parts, iter_records
from bgcli.match.records import ActionKind, DecisionKind, records_of
from test_xg import events, net

DATA = Path(__file__).resolve().parent / "data" / "gammonview"
NAMES = sorted(p.stem for p in (DATA / "bgf").glob("*.bgf"))
# The .mat twin's last "Wins" line is worth less than its final position:
# the twin (and XG, which wrote the same) records the points the winner
# needed; BGBlitz's final score holds what the game was worth.
SHORT_LAST_RESULT = {"3WNK_g1Z-PLsh_HyvQ5j4a": 7, "XCu3RJ0UvDg_Tldl": 2, "baR-U643iUDpvzTC": 3, "eXBNG5wZHS5Alu3P": 3}


def test_the_golden_data_is_all_there():
    assert len(NAMES) == 11


@pytest.mark.parametrize("name", NAMES)
def test_each_bgf_replays_to_its_mat_twin(name):
    games, problems, _ = events(DATA / "bgf" / f"{name}.bgf")
    twin_games, twin_problems, _ = events(DATA / "mat" / f"{name}.mat")
    assert games.keys() == twin_games.keys()
    short = SHORT_LAST_RESULT.get(name)
    for number in games:
        if number != short:
            assert games[number] == twin_games[number], number
            continue
        # every play and cube action the same; the result is the twin's
        # mistake: the twin's audit says so, and the .bgf's result is what
        # the final position is worth
        assert games[number][:-1] == twin_games[number][:-1]
        # (the twin writes the points the winner still needed: a warning, with what the game is worth)
        found = [m for k, g, m in twin_problems if k == "points" and g == number and "still needed" in m]
        assert found
        worth = re.search(r"the game is worth ([0-9]+) point", found[0])
        assert worth is not None and games[number][-1][2] == int(worth.group(1))
    assert not [p for p in problems if p[0] in ("syntax", "points")]


def test_the_header_becomes_the_tags_of_the_mat_twin():
    record = next(iter_records(DATA / "bgf" / "B4_SrGcsKAQmoTyHlgJCbM.bgf"))
    twin = next(iter_records(DATA / "mat" / "B4_SrGcsKAQmoTyHlgJCbM.mat"))
    for tag in ("Site", "Match ID", "EventDate", "Player 1", "Player 2", "Crawford", "Jacoby", "Beaver", "Cubelimit"):
        assert record.tags[tag] == twin.tags[tag], tag


def test_the_analysis_bgblitz_stored_travels_on_the_actions():
    record = next(iter_records(DATA / "bgf" / "B4_SrGcsKAQmoTyHlgJCbM.bgf"))
    moves = [a for g in record.games for a in g.actions if a.kind == ActionKind.MOVE]
    for action in moves:
        play = next(s for s in action.analysis if s.decision == DecisionKind.PLAY)
        assert play.chosen is not None and play.program == "BGBlitz"
        if play.error is not None:
            # what the play lost, by BGBlitz's reckoning: never a gain
            assert play.error <= 0
        assert net(play.candidates[play.chosen].choice) == net(action.play_text)
    doubles = [a for g in record.games for a in g.actions if a.kind == ActionKind.DOUBLE]
    assert doubles and all(a.analysis and a.analysis[0].decision == DecisionKind.CUBE for a in doubles)


@pytest.mark.parametrize("to", ["mat", "sgf", "json"])
def test_export_of_a_bgf_file(tmp_path, to):
    source = DATA / "bgf" / "B4_SrGcsKAQmoTyHlgJCbM.bgf"
    result = CliRunner().invoke(cli, ["export", str(source), "--to", to, "-o", str(tmp_path / f"out.{to}")])
    assert result.exit_code == 0, result.output
    assert events(tmp_path / f"out.{to}")[0] == events(source)[0]


def test_a_bgf_file_is_not_taken_for_json(tmp_path):
    path = tmp_path / "match.json"
    path.write_bytes((DATA / "bgf" / "B4_SrGcsKAQmoTyHlgJCbM.bgf").read_bytes())
    assert CliRunner().invoke(cli, ["score", str(path)]).exit_code == 0


# --- Smile and damaged files ------------------------------------------------------------

GOOD = (DATA / "bgf" / "B4_SrGcsKAQmoTyHlgJCbM.bgf").read_bytes()
HEAD, PACKED = GOOD.split(b"\n", 1)


def read(raw: bytes):
    return list(records_of(bgf.read_stream(io.BytesIO(raw), "t.bgf")))


@pytest.mark.parametrize("data, value", [
    (b":)\n\x00\xfa\x80a\xc2\xfb", {"a": 1}),                    # a one-letter name, small int 1
    (b":)\n\x00\xf8\x21\x22\x23\x20\xf9", [None, False, True, ""]),
    (b":)\n\x00\xf8\x24\x01\xbf\xf9", [(((1 << 6) | 0x3F) >> 1) ^ -((((1 << 6) | 0x3F)) & 1)]),
    (b":)\n\x00\xf8\x42abc\xe0long\xfc\xf9", ["abc", "long"]),
    (b":)\n\x01\xf8\xfa\x80a\xc2\xfb\xfa\x40\xc4\xfb\xf9", [{"a": 1}, {"a": 2}]),   # a shared name
])
def test_smile_values(data, value):
    assert bgf.decode_smile(data) == value


def test_a_file_cut_short_is_named():
    with pytest.raises(MatchFileError, match="cut short"):
        read(GOOD[:len(GOOD) // 2])


def test_a_bit_flip_in_the_compressed_match_is_named():
    raw = bytearray(GOOD)
    raw[len(HEAD) + 200] ^= 0x10
    with pytest.raises(MatchFileError, match="damaged|does not decode|cut short"):
        read(bytes(raw))


def test_a_bad_header_is_one_line():
    with pytest.raises(MatchFileError, match="not a BGBlitz file"):
        read(b'{"format":"XYZ"}\n' + PACKED)


def test_a_zip_bomb_stops_at_the_bound(monkeypatch):
    monkeypatch.setattr(bgf, "DOCUMENT_LIMIT", 1 << 20)
    bomb = HEAD + b"\n" + gzip.compress(b":)\n\x00" + b"\xf8" * 5_000_000)
    assert len(bomb) < 20_000
    with pytest.raises(MatchFileError, match="more than 1 MB"):
        read(bomb)


def test_deep_nesting_is_refused():
    with pytest.raises(MatchFileError, match="nested more than"):
        read(HEAD + b"\n" + gzip.compress(b":)\n\x00" + b"\xf8" * 1000))


@settings(max_examples=80, deadline=None)
@given(st.binary(max_size=200))
def test_any_smile_bytes_decode_or_are_a_smile_error(tail):
    try:
        bgf.decode_smile(b":)\n\x03" + tail)
    except bgf.SmileError:
        pass


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_any_damage_is_a_match_file_error_or_a_read(data):
    document = bytearray(gzip.decompress(PACKED))
    for _ in range(data.draw(st.integers(1, 4))):
        document[data.draw(st.integers(4, len(document) - 1))] ^= 1 << data.draw(st.integers(0, 7))
    try:
        for _ in bgf.read_stream(io.BytesIO(HEAD + b"\n" + gzip.compress(bytes(document))), "t.bgf"):
            pass
    except MatchFileError:
        pass


# --- bounded by what a real match holds (untrusted input, round three) --------------------------

DOCUMENT = gzip.decompress(PACKED)


def packed_with(document_parts, level: int = 1) -> bytes:
    """A .bgf file whose document is ``document_parts`` joined, gzip'd a piece at a time."""
    import zlib

    packer = zlib.compressobj(level, zlib.DEFLATED, 31)
    return HEAD + b"\n" + b"".join(packer.compress(part) for part in document_parts) + packer.flush()


def with_nulls(count: int) -> list[bytes]:
    """The golden document with one more key, "zz", holding a list of ``count`` Smile nulls
    (one byte each): the decoder's dearest bytes; the key goes last, so the shared names stay right."""
    assert DOCUMENT.endswith(b"\xfb")
    chunk = b"\x21" * (1 << 20)
    return [DOCUMENT[:-1] + b"\x81zz\xf8", *[chunk] * (count >> 20), b"\x21" * (count & 0xFFFFF), b"\xf9\xfb"]


def test_a_document_larger_than_a_real_match_is_refused_before_it_is_decoded():
    # the attack was 256 MB of nulls in a 255 kB file, decoded for 94 s at 2.35 GB and called clean;
    # one byte past the bound is enough to show the bound is that of a real match, not 256 MB
    raw = packed_with(with_nulls(bgf.DOCUMENT_LIMIT + 1 - len(DOCUMENT) - 5))
    assert len(raw) < 200_000
    with pytest.raises(MatchFileError, match=f"t.bgf: the match decompresses to more than "
                                             f"{bgf.DOCUMENT_LIMIT >> 20} MB, more than a real match holds"):
        read(raw)


def test_the_bound_holds_a_25_point_match_of_long_analysed_games():
    # the bound's reasoning, on the real files: the most a turn takes, times the longest game thrice,
    # times the games of a 25-point match, fits
    most = 0.0
    for name in NAMES:
        document = bgf._document(io.BytesIO((DATA / "bgf" / f"{name}.bgf").read_bytes()), name)
        raw = gzip.decompress((DATA / "bgf" / f"{name}.bgf").read_bytes().split(b"\n", 1)[1])
        turns = sum(len(game["moves"]) for game in document["games"])
        most = max(most, len(raw) / turns)
        assert max(len(game["moves"]) for game in document["games"]) * 3 <= 250
    assert most * 250 * 49 < bgf.DOCUMENT_LIMIT


def test_every_real_document_holds_far_fewer_values_than_the_bound_allows():
    class Counting(bgf._Smile):
        def value(self, depth: int = 0):
            self.count = getattr(self, "count", 0) + 1
            return super().value(depth)

    for name in NAMES:
        raw = gzip.decompress((DATA / "bgf" / f"{name}.bgf").read_bytes().split(b"\n", 1)[1])
        decoder = Counting(raw)
        decoder.value()
        # at the bound's own proportion of values to bytes, with room to spare
        assert decoder.count * 1.5 < len(raw) * bgf.VALUE_LIMIT / bgf.DOCUMENT_LIMIT, name


def test_a_list_of_nulls_stops_at_the_value_bound(monkeypatch):
    monkeypatch.setattr(bgf, "VALUE_LIMIT", 50_000)
    with pytest.raises(MatchFileError, match="more than 50,000 values, more than a real match holds"):
        read(packed_with(with_nulls(100_000)))


def test_bytes_after_the_document_are_refused():
    # the document decoded, then megabytes of nulls read for nothing and the file called clean
    with pytest.raises(MatchFileError, match="does not decode: 1,000,000 bytes after the end of the document"):
        read(packed_with([DOCUMENT, b"\x00" * 1_000_000]))
    assert read(packed_with([DOCUMENT, b"\xff"])) == read(GOOD)   # Smile's own end marker is no damage


def test_an_oversized_bgf_is_one_line_naming_the_file(tmp_path):
    path = tmp_path / "big.bgf"
    path.write_bytes(packed_with(with_nulls(bgf.DOCUMENT_LIMIT)))
    result = CliRunner().invoke(cli, ["audit", str(path)])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert errors == [f"Error: {path}: the match decompresses to more than {bgf.DOCUMENT_LIMIT >> 20} MB, "
                      "more than a real match holds: not read"]
    assert "Traceback" not in result.output


# --- the plays alone: the analysis walked past (read_stream_bare, the audit's reader) -----------------

def document_of(name: str) -> bytes:
    head, packed = (DATA / "bgf" / f"{name}.bgf").read_bytes().split(b"\n", 1)
    return zlib.decompressobj(31 if packed[:2] == b"\x1f\x8b" else 15).decompress(packed)


def dropped(value, names):
    """``value`` with the value of each name in ``names``, anywhere in it, None."""
    if isinstance(value, dict):
        return {k: None if k in names else dropped(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [dropped(v, names) for v in value]
    return value


def decoded(data: bytes, skipped=frozenset()):
    try:
        return bgf.decode_smile(data, skipped)
    except bgf.SmileError as exc:
        return f"error: {exc}"


@pytest.mark.parametrize("name", NAMES)
def test_a_document_read_without_some_names_is_the_document_without_them(name):
    """Every real document: the analysis (and bigger parts: each turn's equities, each game's turns)
    walked past reads as the whole document with those values None."""
    document = bgf.decode_smile(document_of(name))
    for skipped in (bgf.ANALYSIS_KEYS, frozenset({"equity", "from"}), frozenset({"moves"})):
        assert bgf.decode_smile(document_of(name), skipped) == dropped(document, skipped)


def walked(data: bytes, at: int, flags: int, skip: bool):
    """What reading the value at ``at`` leaves of the decoder (where it stopped, the values still
    allowed, the shared texts and names), by value() or by skip(); or its error."""
    decoder = bgf._Smile(b":)\n" + bytes([flags]) + data)
    decoder.pos = 4 + at
    decoder.names = ["a", "b", "c"]   # as if some were met before
    try:
        decoder.skip(0) if skip else decoder.value()
    except bgf.SmileError as exc:
        return f"error: {exc}"
    return decoder.pos, decoder.left, decoder.names, decoder.values


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(NAMES), start=st.integers(4, 10**6), at=st.integers(0, 300), flags=st.integers(0, 3),
       damage=st.lists(st.tuples(st.integers(0, 4096), st.integers(0, 255)), max_size=3), size=st.integers(1, 4096),
       noise=st.binary(max_size=64))
def test_skipping_a_value_is_reading_it_and_dropping_it(name, start, at, flags, damage, size, noise):
    """_Smile.skip against value(), which it mirrors: from anywhere in a piece of a real document
    (values of every kind, nested), damaged here and there, cut anywhere, shared texts on or off,
    or random bytes: the same stop, the same bound left, the same shared texts and names, or the
    same error at the same byte."""
    document = document_of(name)
    piece = bytearray(document[start % len(document):][:size])
    for where, byte in damage:
        if piece:
            piece[where % len(piece)] = byte
    for data in (bytes(piece), noise):
        assert walked(data, at % (len(data) + 1), flags, True) == walked(data, at % (len(data) + 1), flags, False)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_damaged_document_reads_the_same_without_the_analysis(data):
    """A real document with bytes changed: read with the analysis walked past, the same error at
    the same byte as read whole, or the whole document's values without the analysis."""
    document = bytearray(DOCUMENT)
    for _ in range(data.draw(st.integers(1, 4))):
        document[data.draw(st.integers(4, len(document) - 1))] = data.draw(st.integers(0, 255))
    whole = decoded(bytes(document))
    bare = decoded(bytes(document), bgf.ANALYSIS_KEYS)
    assert bare == (whole if isinstance(whole, str) else dropped(whole, bgf.ANALYSIS_KEYS))


@pytest.mark.parametrize("name", NAMES)
def test_the_plays_alone_are_the_records_without_their_analysis(name):
    """read_stream_bare: the records of read_stream with every Action's analysis empty (and the
    registry hands it to a reader that reads no analysis), so the audit of every .bgf is the same."""
    path = DATA / "bgf" / f"{name}.bgf"
    with open(path, "rb") as handle:
        whole = list(records_of(bgf.read_stream(handle, str(path))))
    with open(path, "rb") as handle:
        bare = list(records_of(bgf.read_stream_bare(handle, str(path))))
    assert any(a.analysis for r in whole for g in r.games for a in g.actions)
    assert bare == [replace(r, games=tuple(replace(g, actions=tuple(a._replace(analysis=()) for a in g.actions))
                                           for g in r.games)) for r in whole]
    assert list(records_of(iter_parts(str(path), analysis=False))) == bare
    assert list(records_of(iter_parts(str(path)))) == whole


@pytest.mark.parametrize("data", [
    b"\xf8\x21\x22\x23\x20\xc4\xf9", b"\xfa\x80a\xc2\x40\xf8\xf9\xfb", b"\xf8\x42abc\x01\xec\x00\xf9",   # whole values
    b"\xf8\xfa\x80ab\xfa\x41\x21\xfb\xfb\xf9", b"\xfa\x34long\xfc\x21\xfb", b"\xf8\x24\x01\xbf\x28\x01\x02\x03\x04\x05\xf9",
    b"\xf8\x29" + b"\x01" * 10 + b"\xe0long\xfc\xe4x\xfc\xf9", b"\xf8\xbf" + b"a" * 65 + b"\xf9",
    b"\xf8", b"\xf8\x21", b"\xfa", b"\xfa\x80a", b"\xfa\x80a\xc2", b"\x24\x01", b"\x24" + b"\x01" * 11,   # cut short
    b"\x28\x01", b"\xe0ab", b"\xfa\x34ab", b"\xec", b"\xfa\x30", b"\xfa\x81a",
    b"\x05", b"\xec\x05", b"\xfa\x30\x05\x21\xfb", b"\xfa\x45\x21\xfb", b"\x00",                            # bad references
    b"\x26", b"\xf9", b"\xfb", b"\xfa\x35\x21\xfb", b"\xfa\xf9", b"\xf8\xfb\xf9",                            # unknown kinds
    b"\xf8" * 70, b"\xf8" * 64 + b"\xfa\x80a" + b"\xf8" * 3,                                                 # too deep
])
def test_skipping_each_kind_of_value_is_reading_it(data):
    """skip() against value() on each kind of value and name, whole, cut short, with a bad
    reference or an unknown kind, nested too deep, with and without shared texts and names."""
    for flags in range(4):
        assert walked(data, 0, flags, True) == walked(data, 0, flags, False), flags


def test_skipping_counts_the_values_against_the_bound(monkeypatch):
    monkeypatch.setattr(bgf, "VALUE_LIMIT", 5)
    for count in (3, 4, 5, 6):
        data = b"\xf8" + b"\x21" * count + b"\xf9"
        assert walked(data, 0, 0, True) == walked(data, 0, 0, False)


def test_the_audit_and_the_dice_audit_leave_the_analysis_undecoded(monkeypatch):
    """Neither reads the analysis a file stores: they read a .bgf with read_stream_bare (the whole
    reader refused here), to the same results as through the whole reader."""
    from bgcli.scale.archive import audit_file
    from bgcli.scale.dice import tally_file

    path = str(DATA / "bgf" / "B4_SrGcsKAQmoTyHlgJCbM.bgf")
    with monkeypatch.context() as m:
        m.setattr(bgf, "read_stream_bare", bgf.read_stream)
        whole = audit_file(path), tally_file(path)
    monkeypatch.setattr(bgf, "read_stream", lambda *args: pytest.fail("the analysis was decoded"))
    bare = audit_file(path), tally_file(path)
    assert bare == whole and whole[0].games > 0 and not whole[0].error
