"""The script bgcli runs *inside* GNU Backgammon for gnubg's own rollouts:
``gnubg -t -q -r -p gnubg_rollout_driver.py`` with its standard output a terminal (a pty that bgcli
reads: gnubg prints a rollout's final figures only to a terminal).

bgcli never imports this module (nor gnubg, which is GPL). The request is JSON in the environment
variable ``BGCLI_ROLLOUT``: ``{"settings": [gnubg commands], "positions": [GNU Backgammon IDs],
"met_file": path or null}`` (the match equity table of match play in gnubg's XML; null: gnubg's default).
Each position is rolled out with gnubg's ``rollout`` command (the player on roll, before rolling);
before each, a line ``@@bgcli N`` is written on the terminal, and ``@@bgcli end`` after the last,
so bgcli can tell the positions' figures apart.
"""
import json
import os

import gnubg  # only inside GNU Backgammon


def main():
    request = json.loads(os.environ["BGCLI_ROLLOUT"])
    for command in ("set player 0 human", "set player 1 human", "set display off", "new session",
                    "set output mwc off"):
        gnubg.command(command)
    if request.get("met_file"):   # the match equity table bgcli judges with, written by bgcli in gnubg's XML
        gnubg.command('set matchequitytable "%s"' % request["met_file"].replace('"', ''))
    for command in request["settings"]:
        gnubg.command(command)
    for number, position in enumerate(request["positions"]):
        gnubg.command("set gnubgid " + position)
        os.write(1, ("\n@@bgcli %d\n" % number).encode())
        gnubg.command("rollout")
    os.write(1, b"\n@@bgcli end\n")


if "BGCLI_ROLLOUT" in os.environ:  # started by bgcli, not imported
    main()
