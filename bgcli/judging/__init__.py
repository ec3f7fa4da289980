"""Judging recorded play against the rules: the chouette referee."""
