"""Counting a position: pips, Keith and Thorp counts, shots, exact bear-off tables and race odds."""
