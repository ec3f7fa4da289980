"""The viewer's target alone (bench_targets.py's third): ``bgcli view FILE -o
page.html`` beside ``bgcli audit FILE``, start to exit, taking turns in each
round, and the page's size.

    python benchmarks/bench_view.py              # 3 rounds
    python benchmarks/bench_view.py --rounds 5

Two files: the self-play matches once (40 matches, nothing seen twice), and
five times over (200 matches, bench_targets.py's file). Target: the view
within three times the audit. Each figure is the best of the rounds.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_targets import SELFPLAY, bgcli  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    opts = ap.parse_args()
    paths = sorted(SELFPLAY.glob("*.mat"))
    with tempfile.TemporaryDirectory(prefix="bench-view-") as scratch_name:
        scratch = Path(scratch_name)
        files = {}
        for copies in (1, 5):
            files[copies] = scratch / f"matches{copies}.mat"
            files[copies].write_text("".join(p.read_text() for p in paths * copies))
        page = scratch / "page.html"
        for copies, path in files.items():
            audit, view = [], []
            for _ in range(opts.rounds):
                audit.append(bgcli("audit", str(path)))
                view.append(bgcli("view", str(path), "-o", str(page)))
            print(f"{len(paths) * copies} matches: bgcli audit {min(audit):.2f} s (median {statistics.median(audit):.2f}), "
                  f"bgcli view {min(view):.2f} s (median {statistics.median(view):.2f}): "
                  f"view / audit {min(view) / min(audit):.1f} (target 3); the page {page.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
