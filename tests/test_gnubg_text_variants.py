"""GNU Backgammon's ``export match text`` of a nackgammon match.

gnubg's text export has no word for the variant played: the board it prints
before the game's first play (its Position ID) is the only trace. bgcli
replayed such a game from the standard opening and called the first play of
a back checker from the 23-point illegal ('no checker on 23'); the first
board is now read as the variant whose opening it is (the tag ``Variation``,
as a .mat file says it). tests/data/real/gnubg-text-variants/ holds gnubg
1.07.001's export of a nackgammon 1-point match (made by make_nackgammon.py
there, gzip-compressed).
"""
from __future__ import annotations

import gzip
import io

from conftest import DATA

from bgcli.core.position import Position
from bgcli.core.rules import Variation
from bgcli.formats import gnubgtext
from bgcli.formats.files import replay_file

FILE = DATA / "real" / "gnubg-text-variants" / "nackgammon_1pt_seed20.txt.gz"


def test_habit_gnubg_text_export_of_nackgammon_is_read_as_nackgammon(tmp_path):
    data = gzip.decompress(FILE.read_bytes())
    header, _, end = list(gnubgtext.read_stream(io.BytesIO(data)))
    assert header.tags["Variation"] == Variation.NACKGAMMON.word and end.errors == ()
    path = tmp_path / "nackgammon.txt"
    path.write_bytes(data)
    (replay,) = list(replay_file(str(path)))
    assert replay.problems == []
    (result,) = replay.results
    assert (result.winner, result.result.value, result.points) == ("gnubg", "resignation", 2)   # a gammon resigned


def test_a_standard_or_set_up_first_board_says_no_variant():
    assert gnubgtext._variation_of(Position.start().id()) is None
    assert gnubgtext._variation_of("4HPhASKwZ/ABMA") is None   # a board part-way through a game
    assert gnubgtext._variation_of("not an id") is None
    for variation in Variation:
        if variation is not Variation.STANDARD:
            assert gnubgtext._variation_of(Position.start(variation).id()) is variation
