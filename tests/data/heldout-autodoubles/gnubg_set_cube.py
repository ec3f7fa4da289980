"""Run inside GNU Backgammon in this folder: gnubg -t -q -r -p gnubg_set_cube.py. A money game set up
with a board and a cube set by hand, saved as gnubg saves it (gnubg_set_cube.sgf)."""
gnubg.command('set automatic doubles 0')
gnubg.command('new match 0')
gnubg.command('set board simple 0 0 0 0 0 -2 0 -3 0 0 0 0 5 -5 0 0 0 3 0 5 0 0 0 0 0 2')
gnubg.command('set cube value 2')
gnubg.command('set cube owner 1')
gnubg.command('save match gnubg_set_cube.sgf')
