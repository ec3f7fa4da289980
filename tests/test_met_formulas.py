"""Match equity tables computed from a published formula (bgcli.engines.met_formulas), registered with the
tables bgcli carries (bgcli.engines.met): the formula's own figures, the tables published from it, and
the rest of the table by the game's arithmetic."""
from __future__ import annotations

import pytest

from bgcli.engines import met
from bgcli.engines.met_formulas import woolsey, woolsey_table


def test_woolseys_formula_at_the_scores_quoted_with_it():
    # 0.5 + 0.85 * D / (T + 6): 2-away against 4-away, 67%; 5-away against 10-away, 76.56%
    assert woolsey(2, 4) == pytest.approx(0.67)
    assert woolsey(5, 10) == pytest.approx(0.765625)
    assert woolsey(4, 2) == pytest.approx(0.33)
    assert woolsey(7, 7) == 0.5


def test_the_formula_table_is_near_the_published_tables_where_the_formula_is_meant_to_serve():
    """Woolsey's formula approximates the published tables: at every pre-Crawford score to 15-away,
    within 2% of the table Woolsey published (Inside Backgammon, 1992) and of Kazaross-XG2 with a lead
    of at most 3 points, within 3% to 5 points (measured: 1.8% and 2.7%, 1.4% and 1.6%)."""
    table = met.table_of("Woolsey-formula")
    for published in (met.table_of("Woolsey"), met.table_of("Kazaross-XG2")):
        for i in range(2, 16):
            for j in range(2, 16):
                if abs(i - j) <= 5:
                    bound = 0.02 if abs(i - j) <= 3 else 0.03
                    assert table.mwc(i, j, False) == pytest.approx(published.mwc(i, j, False), abs=bound), (i, j)


@pytest.mark.parametrize("crawford_1_2, two_three, post_2, post_3", [(0.6875, 0.5944, 0.485, 0.3125)])
def test_corner_values(crawford_1_2, two_three, post_2, post_3):
    """The corners: the Crawford game at 1-away against 2-away (the leader wins at once half the time,
    else meets the trailer's post-Crawford chance), 2-away against 3-away by the formula, and the
    post-Crawford trailer at 2-away (a half, less the free drop, 1.5%) and 3-away."""
    table = met.table_of("woolsey-formula")
    assert table.mwc(1, 2, post_crawford=False) == pytest.approx(crawford_1_2, abs=1e-4)
    assert table.mwc(2, 3, post_crawford=False) == pytest.approx(two_three, abs=1e-4)
    assert table.mwc(2, 1, post_crawford=True) == pytest.approx(post_2, abs=1e-9)
    assert table.mwc(3, 1, post_crawford=True) == pytest.approx(post_3, abs=1e-9)


def test_the_table_is_a_table():
    table = woolsey_table()
    assert table.size == 25 and table.name == "Woolsey-formula" and "Woolsey" in table.source
    for i in range(1, 26):
        assert table.pre_crawford(i, i) == 0.5
        for j in range(1, 26):
            assert table.pre_crawford(i, j) + table.pre_crawford(j, i) == pytest.approx(1.0)
            assert 0.0 < table.pre_crawford(i, j) < 1.0
            if j > 1:   # a better score is never worth less, even where the formula passes 100%
                assert table.pre_crawford(i, j) >= table.pre_crawford(i, j - 1), (i, j)
    assert table.pre_crawford(2, 25) <= table.pre_crawford(1, 25) < 1.0


def test_the_formula_table_is_in_the_one_registry():
    assert "Woolsey-formula" in met.KNOWN_NAMES
    assert met.table_of("Woolsey-formula") == met.table_of("woolsey-formula") == met.table_of("woolsey-law")
    assert not met.is_default(met.table_of("Woolsey-formula"))
    # a match judged with it: its figures, not the default's
    side = met.MatchSide(2, 4, 1, False, met.table_of("Woolsey-formula"))
    assert met.equity_after(side, -2) == pytest.approx(0.5)
    assert met.mwc_at(2, 4, table=side.table) == pytest.approx(0.67)
