"""Draw the README's pictures: run `python docs/make_pictures.py` with bgcli installed (rsvg-convert makes the PNGs)."""
import shutil
import subprocess
from pathlib import Path

from bgcli.core.ids import GameState, MatchState
from bgcli.core.position import Position
from bgcli.render.board import svg_board

HERE = Path(__file__).parent

# The opening position, player 1 to play 3-1.
start = GameState(Position.start(), MatchState(dice=(3, 1)))
# A bear-off: player 1 (on roll, 6 off) rolled 6-3; player 0 has 4 off and a
# straggler and owns a 2-cube; 7-point match, 4-3.
player = [2, 2, 3, 1, 0, 1] + [0] * 19
opponent = [3, 2, 2, 1, 1, 1] + [0] * 8 + [1] + [0] * 10
bearoff = GameState(Position.from_sides(player, opponent),
                    MatchState(dice=(6, 3), cube=2, cube_owner=0, match_length=7, score=(4, 3), names=("Alice", "Bob")))

for name, game in (("start", start), ("bearoff-cube", bearoff)):
    svg = HERE / f"{name}.svg"
    svg.write_text(svg_board(game))
    if shutil.which("rsvg-convert"):
        subprocess.run(["rsvg-convert", str(svg), "-o", str(HERE / f"{name}.png")], check=True)
