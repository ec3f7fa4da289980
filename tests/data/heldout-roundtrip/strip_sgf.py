"""python strip_sgf.py IN OUT: gnubg's SGF without its analysis (the properties A, DA, MR and GS), which
gnubg's players store with every move; nothing else changes (gnubg loads the result to the same match)."""
import re
import sys

PROPS = re.compile(r"(?<![A-Z])(?:A|DA|MR|GS)(?:\[(?:[^]\\]|\\.)*\])+")
text = open(sys.argv[1], encoding="utf-8").read()
open(sys.argv[2], "w", encoding="utf-8").write(PROPS.sub("", text))
