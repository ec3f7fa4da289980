"""Hostile inputs: time and peak memory of bgcli on the inputs that were
unbounded (issue: untrusted files, round two), each beside the same input
cut to a size any real record has, in one run.

Usage: python benchmarks/bench_hostile.py

Measures, for ``bgcli`` start to exit (``/usr/bin/time``-like: the child's
wall time and its peak resident memory from ``resource.getrusage``):

1. ``audit`` of an SGF file with 500,000 unknown properties (2.5 MB), beside
   one with 1,000;
2. ``audit`` of an SGF file with one 50 MB comment (refused at its line),
   beside one with a 1 kB comment;
3. ``audit`` of a .mat file whose tag line has 250 kB of blanks after the
   name, beside 250 blanks;
4. ``export --to json`` of 1,250 copies of a 4-game match (5,000 games,
   4.9 MB of .mat, 68 MB of JSON), beside one copy. The export is written
   as a stream: its peak is that of one match (27 MB beside 26 MB; 223 MB
   when the text was held whole, joined and encoded before it was written).
5. ``audit`` of a 295 kB BGBlitz .bgf whose match decompresses to 256 MB (a
   list of Smile nulls after the golden match's own fields: untrusted input,
   round three), beside the golden file. Refused at the 32 MB bound in 0.8 s
   at 90 MB (it was 166 s at 2.4 GB, called clean, on a machine under load).
6. ``chouette`` of a 20 MB chouette record (the sample's first line, then blanks),
   beside the sample: refused at the 16 MB bound (``chouette /dev/zero``
   read without end until the machine ran out of memory).
7. ``repair`` of a 70 MB match (the sample, then blanks), beside the sample:
   refused at the 64 MB bound (``repair /dev/zero`` did the same).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = (ROOT / "samples" / "sp05001_3pt.mat").read_text(encoding="utf-8")
CHOUETTE = (ROOT / "samples" / "chouette.txt").read_text(encoding="utf-8")
BGF = (ROOT / "tests" / "data" / "gammonview" / "bgf" / "B4_SrGcsKAQmoTyHlgJCbM.bgf").read_bytes()


def bgf_of_nulls(size: int) -> bytes:
    """The golden .bgf with one more key holding a list of Smile nulls, the document ``size`` bytes."""
    import gzip
    import zlib

    head, packed = BGF.split(b"\n", 1)
    document = gzip.decompress(packed)
    start, end = document[:-1] + b"\x81zz\xf8", b"\xf9\xfb"
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts, left = [packer.compress(start)], size - len(start) - len(end)
    while left > 0:
        parts.append(packer.compress(b"\x21" * min(left, 1 << 20)))
        left -= 1 << 20
    return head + b"\n" + b"".join(parts) + packer.compress(end) + packer.flush()


def measure(args: list[str]) -> tuple[float, float, int]:
    """(seconds, peak MB, exit status) of one bgcli run in a fresh child."""
    script = ("import resource, subprocess, sys, time\n"
              "t = time.perf_counter()\n"
              "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
              "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, p.returncode)\n")
    out = subprocess.run([sys.executable, "-c", script, sys.executable, "-m", "bgcli", *args],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout.split()
    return float(out[0]), int(out[1]) / 1024, int(out[2])


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-hostile-"))
    head = "(;FF[4]GM[6]MI[length:1]PW[a]PB[b]"
    cases = [
        ("sgf unknown properties", "audit", head + "ZZ[x]" * 500_000 + ";W[31hefe])", head + "ZZ[x]" * 1000 + ";W[31hefe])"),
        ("sgf 50 MB comment", "audit", head + "C[" + "x" * 50_000_000 + "];W[31hefe])", head + "C[" + "x" * 1000 + "];W[31hefe])"),
        ("mat tag line of blanks", "audit", "; [a" + " " * 250_000 + "\n" + SAMPLE, "; [a" + " " * 250 + "\n" + SAMPLE),
        ("json export, 5,000 games", "export", SAMPLE * 1250, SAMPLE),
        ("bgf of 256 MB decompressed", "audit", bgf_of_nulls(256 << 20), BGF),
        ("chouette of 20 MB", "chouette", CHOUETTE.split("\n", 1)[0] + "\n" + " " * (20 << 20), CHOUETTE),
        ("repair of 70 MB", "repair", SAMPLE + " " * (70 << 20), SAMPLE),
    ]
    print(f"{'case':<28} {'hostile':>22} {'ordinary':>22}")
    for name, command, hostile, ordinary in cases:
        cells = []
        for index, text in enumerate((hostile, ordinary)):
            suffix = ".sgf" if name.startswith("sgf") else ".bgf" if name.startswith("bgf") else \
                ".txt" if name.startswith("chouette") else ".mat"
            path = folder / f"{index}{suffix}"
            if isinstance(text, bytes):
                path.write_bytes(text)
            else:
                path.write_text(text, encoding="utf-8")
            args = [command, str(path)] + (["--to", "json", "-o", str(folder / "out.json")] if command == "export" else [])
            seconds, megabytes, status = measure(args)
            cells.append(f"{seconds:6.2f} s {megabytes:6.0f} MB ({status})")
            os.unlink(path)
        print(f"{name:<28} {cells[0]:>22} {cells[1]:>22}")


if __name__ == "__main__":
    main()
