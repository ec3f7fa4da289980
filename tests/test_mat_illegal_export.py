"""An export names what it leaves out of a play recorded as illegal by what the record holds: Snowie's
marker with the position the play made ("Illegal play (7;0;...)", tests/data/matchfiles/snowie_illegal.mat),
or an old transcription's bare "42: Illegal play" (tests/data/real/tournament-transcriptions), which is no
note of Snowie's."""
from __future__ import annotations

from conftest import DATA, committed, invoke


def _said(path, tmp_path) -> str:
    result = invoke("export", committed(path), "--to", "sgf", "--force", "-o", tmp_path / "out.sgf")
    assert result.exit_code == 0, result.output
    return result.output


def test_snowies_marker_with_its_position_is_snowies_note(tmp_path):
    said = _said(DATA / "matchfiles" / "snowie_illegal.mat", tmp_path)
    assert "line 5: Snowie's note on an illegal play (the position it made)" in said


def test_a_bare_illegal_play_is_not_called_snowies(tmp_path):
    said = _said(DATA / "real" / "tournament-transcriptions" / "title_box_resign_normal_illegal_play_7pt.mat", tmp_path)
    assert "Snowie" not in said
    assert "line 44: a play recorded only as 'Illegal play' (neither the play nor the position it made)" in said
