# Made with GNU Backgammon 1.07.001: `gnubg -t -q -r -p make_positions.py` run in this folder.
# Each `save position` file (and one match that looks like one), and positions.json: gnubg's own Position ID and Match ID of each
# position as it saved it (tests/test_real_files.py reads each file as a position and compares).
import json

gnubg.command('set seed 11')
gnubg.command('set player gnubg human')
gnubg.command('set player root human')
ids = {}


def save(name):
    gnubg.command('save position %s' % name)
    ids[name] = [gnubg.positionid(), gnubg.matchid()]


gnubg.command('new match 5')                     # the opening, its roll rolled
save('opening_rolled_5pt.sgf')
gnubg.command('move 13/11 6/5')
gnubg.command('roll')
save('second_roll_5pt.sgf')
gnubg.command('new match 3')
gnubg.command('set score 2 1')
gnubg.command('set crawford on')
save('crawford_game_3pt.sgf')
gnubg.command('new match 7')
gnubg.command('set cube value 4')
gnubg.command('set cube owner 0')
gnubg.command('set board sGfwATDgc/ABMA')
gnubg.command('set turn root')
save('cube_4_owned_set_board_7pt.sgf')
gnubg.command('new session')
gnubg.command('set jacoby on')
gnubg.command('set turn gnubg')
gnubg.command('set dice 66')
save('money_jacoby.sgf')
# after a hint, gnubg saves the hint as one last node: the roll's best play, or the cube action
gnubg.command('new match 7')
gnubg.command('set turn gnubg')
gnubg.command('set dice 21')
gnubg.command('move 13/11 6/5')
gnubg.command('hint')
save('cube_hint_7pt.sgf')                       # ;B[double]DA[..]: root on roll, no dice
gnubg.command('set dice 65')
gnubg.command('hint')
save('play_hint_7pt.sgf')                       # ;B[65aggl]A[..]: root to play the roll
gnubg.command('move 24/18 13/8')
gnubg.command('double')
gnubg.command('hint')
save('take_hint_7pt.sgf')                       # ;W[take]DA[..]: gnubg doubled, root to answer
# a match, not a position: a game begun with `set board`, one play made, saved with `save match` (its first node
# after the root is the opening roll's dice, the board after it)
gnubg.command('new match 7')
gnubg.command('set board sGfwATDgc/ABMA')
gnubg.command('set turn gnubg')
gnubg.command('set dice 21')
gnubg.command('move 13/11 6/5')
gnubg.command('save match set_board_one_play_match_7pt.sgf')
json.dump(ids, open('positions.json', 'w'), indent=1, sort_keys=True)
