"""Hypothesis settings: CI runs derandomized and without deadlines, so a run
is repeatable and a slow shared machine does not fail a test."""
import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
