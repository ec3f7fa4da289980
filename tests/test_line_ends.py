"""Every text reader ends a line where formats.reading.LINE_END does (LF, CR LF, a lone CR, nothing
else), whether it is given the bytes of a file (read_stream) or a text (read_text): one rule, asked
by both (gnubg's text export asked it already). str.splitlines, which tmg, sgg and oldmoves read_text used, also ends a line at a form
feed, U+0085, U+2028 and others, so a name or a comment holding one read as two lines there."""
from __future__ import annotations

import io

from hypothesis import given, settings, strategies as st

from conftest import DATA
from bgcli.errors import MatchFileError
from bgcli.formats import gnubgtext, oldmoves, sgg, tmg
from bgcli.judging.chouette import read_chouette

SAMPLES = [(oldmoves, "imports/sp05001_3pt.fibs"), (sgg, "imports/sp05017_3pt.sgg"), (tmg, "imports/sp05003_7pt.tmg"),
           (gnubgtext, "corpus/gnubg-text-export/match1004950_002.txt")]
# what str.splitlines ends a line at and LINE_END does not
NOT_LINE_ENDS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _parts(parts) -> list:
    """The parts read, and the error that stopped the reading, if one did."""
    read = []
    try:
        for part in parts:
            read.append(repr(part))
    except MatchFileError as exc:
        read.append(str(exc))
    return read


@settings(max_examples=40, deadline=None)
@given(sample=st.sampled_from(SAMPLES), end=st.sampled_from(["\n", "\r\n", "\r"]),
       at=st.integers(0, 10 ** 6), char=st.sampled_from(NOT_LINE_ENDS))
def test_a_text_and_its_bytes_read_as_the_same_lines(sample, end, at, char):
    """A sample file with its line ends changed and a character that is no line end put in one of
    its lines (after the line's first character, so no form feed starts a line, a page break):
    read_text and read_stream give the same parts, with the same line numbers."""
    module, name = sample
    lines = (DATA / name).read_text(encoding="utf-8").split("\n")
    where = at % len(lines)
    if lines[where]:
        lines[where] = lines[where][:1] + char + lines[where][1:]
    text = end.join(lines)
    assert _parts(module.read_text(text, name)) == _parts(module.read_stream(io.BytesIO(text.encode("utf-8")), name))


def test_a_chouette_ends_its_lines_where_the_readers_do():
    """The chouette reader splits on reading.LINE_END (it had a copy of it): a lone CR ends a line."""
    text = "Chouette: Ann, Bob, Cy\n\nGame 1\nbox: Ann  captain: Bob  team: Cy\n Ann Doubles => 2\n Bob take  Cy drop\n"
    assert read_chouette(text.replace("\n", "\r")) == read_chouette(text)
