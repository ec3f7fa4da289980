"""Write tallies.json: for each match file of the folders below, the number of
rolls bgcli's dice tally counts in it and a digest of its units (every count,
label, fingerprint and game mark: bgcli.judging.dice.Unit.to_dict, as JSON
with sorted keys). tests/test_dice.py compares a fresh tally with it, so that
a change meant to make the dice audit faster (the replay's short paths, the C
accelerator) is seen to leave every count as it was.

    python tests/data/dice/make_tallies.py        # from the project root

Made with bgcli itself (the C accelerator and BGCLI_PURE=1 give the same);
write it again only for a change that means to change the counts, and say so.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FOLDERS = ("tests/data/oracle/selfplay", "tests/data/corpus", "tests/data/gammonview", "tests/data/matchfiles")


def tallies() -> dict[str, dict]:
    sys.path.insert(0, str(ROOT))
    from bgcli.scale.archive import find_files
    from bgcli.scale.dice import tally_file

    out = {}
    for path in sorted(find_files([str(ROOT / folder) for folder in FOLDERS])):
        name = Path(path).relative_to(ROOT).as_posix()
        try:
            units = [unit.to_dict() for unit in tally_file(name, path)]
        except Exception as exc:   # a file the formats cannot read: its error, as it is
            out[name] = {"error": type(exc).__name__}
            continue
        text = json.dumps(units, sort_keys=True)
        out[name] = {"rolls": sum(sum(u["kinds"]) + sum(u["opening"]) for u in units),
                     "units": hashlib.sha256(text.encode()).hexdigest()}
    return out


if __name__ == "__main__":
    (Path(__file__).parent / "tallies.json").write_text(json.dumps(tallies(), indent=1, sort_keys=True) + "\n")
