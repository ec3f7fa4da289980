#!/bin/sh
# Makes the hypergammon samples (make_hypergammon.py, run in GNU Backgammon 1.07).
# gnubg plays hypergammon from a database of every position, hyper1.bd and hyper2.bd,
# which its makehyper builds (1 checker: a second; 2 checkers: about 2 minutes) and which
# Debian's gnubg looks for in /var/lib/gnubg only: this script builds them in a scratch
# folder and shows them to gnubg there in a mount namespace of its own (unshare, as root),
# so nothing of the system's gnubg changes. The match of 3 checkers needs no database (its plays
# are given to gnubg by hand) but bgcli's generator, which it imports from the repository:
# run from the repository root.
set -e
HERE=$(dirname "$0")
WORK=$(mktemp -d)
cp /var/lib/gnubg/* "$WORK"/
(cd "$WORK" && /usr/games/makehyper -c 1 -n >/dev/null && /usr/games/makehyper -c 2 -n >/dev/null)
unshare -m sh -c "mount --bind '$WORK' /var/lib/gnubg && /usr/games/gnubg -t -q -r -p '$HERE/make_hypergammon.py'"
rm -rf "$WORK"
