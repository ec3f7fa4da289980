"""bgcli: backgammon positions, move notation, legal plays and match transcripts."""
from bgcli.errors import (
    AmbiguousPlayError,
    BgcliError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    InvalidPositionError,
    MatchFileError,
)
from bgcli.model import BAR, OFF, Play, Position, Step, legal_plays, parse_dice

__version__ = "0.1.0"

__all__ = [
    "AmbiguousPlayError", "BgcliError", "IllegalPlayError", "InvalidDiceError", "InvalidPlayError",
    "InvalidPositionError", "MatchFileError", "BAR", "OFF", "Play", "Position", "Step", "legal_plays",
    "parse_dice", "__version__",
]
