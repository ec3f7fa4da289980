"""The rules of the game, nothing about files: positions, dice, legal plays, the state of a match,
scoring and rule settings, and the written forms of positions (IDs) and plays (notation)."""
