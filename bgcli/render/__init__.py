"""Drawings: ASCII and SVG boards, and the HTML viewer of a match."""
