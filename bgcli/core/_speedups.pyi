# The C accelerator's functions (bgcli/core/_speedups.c, built with BGCLI_COMPILE=1; see setup.py).
from typing import Callable, Iterable

from bgcli.core.position import Position

Side = bytes | tuple[int, ...]

def legal_keys(player: Side, opponent: Side, high: int, low: int) -> dict[int, tuple[int, ...]]: ...
def query_ids(player: Side, opponent: Side, keys: Iterable[int], own: str | None) -> tuple[str, list[str]]: ...
def moves_line(position: Position, dice: tuple[int, int], own: str | None, quiet: dict[tuple, str],
               hitting: dict[tuple, str], fragment: Callable[[Position, int, tuple], str]) -> str: ...
