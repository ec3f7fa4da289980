"""bgcli dice: the dice audit.

- the chances it expects in a position (entering, hitting, bearing off the
  last checkers) against the 36 rolls enumerated through the generator, on
  generated positions;
- calibration: on many simulated groups of fair dice (a seeded generator,
  counts drawn directly: tests/dice_simulation.py) each test rejects at 0.05
  about 5% of the time, within a binomial bound, and the corrected family
  rejects anything less than 5% of the time;
- power: planted biases are flagged at the rate the power statement promises;
- the command on real archives (tests/data), its JSON, its one-line error
  without scipy, its results database.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import DATA, ROOT, committed
from bgcli.analysis.counts import enter_count, hit_rolls
from bgcli.core.generator import legal_plays
from bgcli.core.position import BAR, CHECKERS, OFF, Position, is_contact
from bgcli.formats.files import replay_file
from bgcli.match.events import EventKind
from bgcli.judging.dice import KINDS, bearoff_count, bears_off_all, enters, kind_of
from bgcli.scale.dice import tally_file

scipy_stats = pytest.importorskip("scipy.stats")
np = pytest.importorskip("numpy")

from dice_simulation import CHANCES, unit  # noqa: E402
from bgcli.judging import dicestats  # noqa: E402
from bgcli.judging.dicereport import build, group_tests, one_face  # noqa: E402

ALL_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]   # the 36, ordered


@st.composite
def positions(draw, kind=None) -> Position:
    """Legal positions: with checkers on the bar, in contact with blots, and all home."""
    kind = kind or draw(st.sampled_from(["bar", "contact", "home"]))
    player, opponent = [0] * 26, [0] * 26
    player[BAR] = draw(st.integers(1, 3)) if kind == "bar" else 0
    top = 6 if kind == "home" else 24
    for _ in range(draw(st.integers(1, 15 - player[BAR]))):
        player[draw(st.integers(1, top))] += 1
    for _ in range(draw(st.integers(1, 15))):
        mine = draw(st.integers(1, 24))   # the point in the mover's numbering
        if player[mine] or (kind == "home" and mine <= 6):
            continue
        opponent[25 - mine] += 1
    player[OFF] = 15 - sum(player)
    opponent[OFF] = 15 - sum(opponent)
    return Position(tuple(player), tuple(opponent)).validated()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions("bar"))
def test_entering_chance_is_the_generators(position):
    entering = sum(1 for roll in ALL_ROLLS if enters(position, roll))
    assert enter_count(position) == entering
    # the tally's own test of a roll (a die on a point the opponent does not hold) is the generator's too
    for a, b in ALL_ROLLS:
        assert (position.opponent[a] < 2 or position.opponent[b] < 2) == enters(position, (a, b))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions("contact"))
def test_the_shot_counter_is_exact(position):
    # every roll whose legal plays include a hit, the 36 enumerated, against bgcli's shot counter
    hitting = {(max(r), min(r)) for r in ALL_ROLLS if any(play.hits for play in legal_plays(position, r))}
    assert set(hit_rolls(position)) == hitting


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions("home"))
def test_bearoff_chance_is_the_enumerations(position):
    if position.player[OFF] == 15:
        return
    finishing = sum(1 for roll in ALL_ROLLS if bears_off_all(position, roll))
    assert bearoff_count(position) == finishing


def test_the_kinds_are_the_21_rolls():
    assert len(KINDS) == 21 and len(set(KINDS)) == 21
    assert sorted({kind_of(r) for r in ALL_ROLLS}) == list(range(21))


def test_poisson_binomial_is_scipys():
    trials, chances = [3, 5, 2], [5 / 36, 20 / 36, 35 / 36]
    ours = dicestats.poisson_binomial_pmf(trials, chances)
    theirs = scipy_stats.poisson_binom([p for n, p in zip(trials, chances) for _ in range(n)]).pmf(np.arange(11))
    assert np.allclose(ours, theirs, atol=1e-12)


def test_holm_and_bh():
    ps = [0.01, 0.04, 0.03, 0.005]
    assert dicestats.holm(ps) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert dicestats.benjamini_hochberg(ps) == pytest.approx([0.02, 0.04, 0.04, 0.02])


# --- calibration and power, on counts drawn directly ----------------------------------------

REPEATS = 300
TESTED = ("kinds", "doubles", "faces", "order", "opening", "after_double", "own_after_double", "enter", "hit", "bearoff")


def binomial_bounds(n: int, p: float, tail: float = 0.0005) -> tuple[int, int]:
    """Where the number of n trials at chance p falls but one time in a thousand."""
    return int(scipy_stats.binom.ppf(tail, n, p)), int(scipy_stats.binom.isf(tail, n, p)) + 1


def test_fair_dice_are_rejected_about_five_percent_of_the_time():
    rng = np.random.default_rng(20261203)
    rejected = {name: 0 for name in TESTED}
    for _ in range(REPEATS):
        for test in group_tests(unit(rng, 4000, opening=150), power=False):
            if test.name in rejected:
                assert test.p is not None, test.name
                rejected[test.name] += test.p < 0.05
    # the exact tests are a little conservative (discrete counts): at least half the level, at most the level
    low, _ = binomial_bounds(REPEATS, 0.025)
    _, high = binomial_bounds(REPEATS, 0.05)
    assert all(low <= count <= high for count in rejected.values()), rejected


def test_the_corrected_family_stays_under_five_percent():
    rng = np.random.default_rng(7)
    repeats, flagged = 150, 0
    for _ in range(repeats):
        units = [unit(rng, 2500, name=f"player {i}", opening=100) for i in range(3)]
        report = build(units, "player", power=False)
        assert report.family >= 3 * 8
        flagged += bool(report.flagged())
    _, high = binomial_bounds(repeats, 0.05)
    assert flagged <= high


def promised_and_seen(simulate, test_name: str, promised: float, repeats: int = 200) -> None:
    rng = np.random.default_rng(99)
    seen = 0
    for _ in range(repeats):
        test = next(t for t in group_tests(simulate(rng), power=False) if t.name == test_name)
        seen += test.p is not None and test.p < 0.05
    low, high = binomial_bounds(repeats, promised)
    assert low <= seen <= high, (seen, repeats, promised)


def test_doubles_at_19_percent_are_flagged_as_promised():
    n = 3000
    promised = dicestats.binomial_power(n, 1 / 6, 0.19)
    assert 0.4 < promised < 0.95   # a test that tells something
    promised_and_seen(lambda rng: unit(rng, n, doubles=0.19), "doubles", promised)
    # the statement the report makes: doubles at some rate detected with 80% power, and 19% needs more rolls
    test = next(t for t in group_tests(unit(np.random.default_rng(1), n)) if t.name == "doubles")
    assert "with 3,000 rolls this group would detect doubles at" in test.power and "80% power" in test.power


def test_a_face_at_one_fifth_is_flagged_as_promised():
    n = 700   # rolls: 1400 dice
    promised = dicestats.goodness_power(2 * n, [1 / 6] * 6, one_face(1 / 5 - 1 / 6))
    assert 0.4 < promised < 0.95
    promised_and_seen(lambda rng: unit(rng, n, face=1 / 5), "faces", promised)


@pytest.mark.parametrize("condition,excess", [("enter", 0.04), ("hit", 0.03)])
def test_too_lucky_in_position_is_flagged_as_promised(condition, excess):
    n = 3000
    rng = np.random.default_rng(5)
    sample = unit(rng, n)
    trials = sample.trials[condition]
    counts = [t for t in trials if t]
    chances = [m / 36 for m, t in enumerate(trials) if t]
    promised = dicestats.chance_power(counts, chances, excess)
    assert 0.3 < promised < 0.97
    # the same trials each time (the promise is for these positions), the successes drawn with the planted excess

    def simulate(rng):
        planted = unit(rng, n, excess={condition: excess})
        planted.trials[condition] = list(trials)
        chance = np.minimum(1.0, np.repeat(np.arange(37) / 36 + excess, trials))
        hits = rng.random(len(chance)) < chance
        planted.successes[condition] = np.bincount(np.repeat(np.arange(37), trials)[hits], minlength=37).tolist()
        return planted

    promised_and_seen(simulate, condition, promised)


def test_a_group_too_small_says_so():
    tests = {t.name: t for t in group_tests(unit(np.random.default_rng(3), 60))}
    assert tests["kinds"].p is None and tests["kinds"].note == "too small: needs 180 rolls, has 60"
    assert tests["pairs"].p is None and "too small" in tests["pairs"].note
    assert tests["doubles"].p is not None   # 60 rolls: 10 doubles expected, enough for the exact test


def test_simulated_chances_are_positions_chances():
    # the simulation's chances are ones a position gives: entering 36 less a square
    assert all(36 - m in (k * k for k in range(7)) for m in CHANCES["enter"])


# --- the command, on files -------------------------------------------------------------------

def test_real_archives_are_consistent_with_fair_dice(run):
    folders = [ROOT / "tests/data/corpus", ROOT / "tests/data/gammonview"]
    result = run("dice", "--json", *folders)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    group = report["groups"][0]
    assert group["rolls"] > 10_000
    assert not report["flagged"]
    tests = {t["test"]: t for t in group["tests"]}
    doubles = tests["doubles"]
    assert abs(doubles["observed"] / doubles["n"] - 1 / 6) < 0.01
    for name in ("enter", "hit"):
        assert tests[name]["p"] is not None and tests[name]["effect"]["low"] < 0 < tests[name]["effect"]["high"]
    assert any("more than one file" in note for note in report["notes"])   # each gammonview match is there as .xg and .mat


def test_text_report_and_exit_status(run):
    result = run("dice", "--by", "player", ROOT / "samples/sp05001_3pt.mat")
    assert result.exit_code == 0
    assert result.output.startswith("gnubg: 67 rolls in 1 match")
    assert "too small: needs 180 rolls, has 67" in result.output
    assert "rigged" not in result.output.lower()
    assert "the rolls are consistent with fair dice" in result.output


def test_without_scipy_one_line_and_exit_2(run, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "scipy.stats", None)   # import scipy.stats fails as when it is not installed
    result = run("dice", ROOT / "samples/sp05001_3pt.mat")
    assert result.exit_code == 2
    from bgcli.errors import Extra, install_command

    assert result.output.strip() == f"Error: bgcli dice needs scipy for its statistics: {install_command(Extra.STATS)}"


def test_an_unreadable_file_is_one_line_and_exit_2(run, tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_bytes(b"\xff\xfe 5 point match\n garbage")
    result = run("dice", bad, ROOT / "samples/sp05001_3pt.mat")
    assert result.exit_code == 2
    assert result.stdout.splitlines()[-1] != "no rolls were read"   # the readable file is reported


def test_the_database_keeps_the_counts(run, tmp_path):
    db = tmp_path / "dice.sqlite"
    first = run("dice", "--json", "--db", db, ROOT / "samples/sp05001_3pt.mat", ROOT / "samples/flawed_5pt.mat")
    again = run("dice", "--json", "--db", db, ROOT / "samples/sp05001_3pt.mat", ROOT / "samples/flawed_5pt.mat")
    assert first.exit_code == again.exit_code == 0
    assert json.loads(first.output) == json.loads(again.output)


def test_counts_of_a_file():
    units = tally_file(str(ROOT / "samples/sp05001_3pt.mat"))
    assert [u.player for u in units] == ["gnubg", "root"]
    assert sum(u.rolls for u in units) + sum(sum(u.opening) for u in units) > 100
    assert all(sum(u.faces) == 2 * u.rolls for u in units)


def test_html_report_is_one_self_contained_page(run, tmp_path):
    page = tmp_path / "dice.html"
    result = run("dice", "--html", "--by", "file", "-o", page, ROOT / "samples/sp05001_3pt.mat", ROOT / "samples/sp05007_money.mat")
    assert result.exit_code == 0
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
    # nothing fetched: no script, stylesheet or image from elsewhere (the SVG namespace is a name, not a fetch)
    assert "src=" not in text and "<link" not in text and "url(" not in text
    assert text.count("<svg") >= 3   # the p-values, and observed against expected for the tests that ran
    assert "rigged" not in text.lower()


def test_html_report_in_chromium(run, tmp_path):
    from test_view import Browser, need_chromium

    need_chromium()
    page = tmp_path / "dice.html"
    assert run("dice", "--html", "--by", "player", "-o", page, ROOT / "tests/data/corpus/galaxy").exit_code == 0
    report = json.loads(run("dice", "--json", "--by", "player", ROOT / "tests/data/corpus/galaxy").stdout)
    p_values = sum(1 for g in report["groups"] for t in g["tests"] if t["p"] is not None)
    browser = Browser(tmp_path / "profile", 1366, 768)
    try:
        browser.open(page.as_uri())
        facts = browser.js("""(function () {
          var dots = document.querySelectorAll('svg circle.p');
          var inside = Array.prototype.every.call(dots, function (c) {
            var b = c.getBoundingClientRect(), s = c.ownerSVGElement.getBoundingClientRect();
            return b.width > 0 && b.left >= s.left - 3 && b.right <= s.right + 3 && b.top >= s.top - 3 && b.bottom <= s.bottom + 3;
          });
          var observed = document.querySelectorAll('svg circle.observed').length;
          return {dots: dots.length, inside: inside, observed: observed, groups: document.querySelectorAll('section.group').length,
                  wide: document.documentElement.scrollWidth, width: innerWidth,
                  summary: document.getElementById('summary').textContent};
        })()""")
        shot = browser.screenshot(tmp_path / "dice.png")
    finally:
        browser.close()
    assert facts["dots"] == p_values and facts["inside"], facts   # every p-value drawn, inside its picture
    assert facts["observed"] > 0 and facts["groups"] == len(report["groups"])
    assert facts["wide"] <= facts["width"], "the page scrolls sideways"
    assert facts["summary"] == report["summary"]
    assert len(shot) > 10_000


def test_groups_by_site_and_month_come_from_the_tags(run):
    by_month = json.loads(run("dice", "--json", "--by", "month", ROOT / "tests/data/gammonview/mat").stdout)
    months = [g["group"] for g in by_month["groups"]]
    assert months and all(len(m) == 7 and m[4] == "-" for m in months)   # YYYY-MM, from the EventDate tags
    by_site = json.loads(run("dice", "--json", "--by", "site", ROOT / "tests/data/gammonview/mat",
                             ROOT / "tests/data/corpus/galaxy").stdout)
    sites = {g["group"]: g["matches"] for g in by_site["groups"]}
    assert sites["BackgammonGalaxy"] == len(list((ROOT / "tests/data/corpus/galaxy").glob("*.txt")))
    # every match in one group, whatever the grouping
    assert sum(sites.values()) == sum(g["matches"] for g in json.loads(
        run("dice", "--json", ROOT / "tests/data/gammonview/mat", ROOT / "tests/data/corpus/galaxy").stdout)["groups"])


def test_nothing_read_says_so(run, tmp_path):
    bad = tmp_path / "bad.mat"
    bad.write_text("garbage\n")
    result = run("dice", bad)
    assert result.exit_code == 2
    assert result.stdout.strip() == "no rolls were read"


def test_a_near_copy_of_a_match_is_counted_once(run, tmp_path):
    """The oracle's audit sample holds self-played matches with one roll
    changed: each is the same match as its source but for that roll, so the
    two are counted once (with a note), where a plain count would read the
    same rolls twice and make the pairs of rolls look far too alike."""
    sample = ROOT / "tests/data/oracle/audit_sample"
    cases = [json.loads(line) for line in (sample / "expected.jsonl").read_text().splitlines()]
    case = next(c for c in cases if c["kind"] == "dice" and c["source"] == "sp05001_3pt.mat")
    source = ROOT / "tests/data/oracle/selfplay" / case["source"]
    alone = json.loads(run("dice", "--json", source).stdout)
    both = json.loads(run("dice", "--json", source, sample / case["file"]).stdout)
    assert both["groups"][0]["rolls"] == alone["groups"][0]["rolls"] and both["groups"][0]["matches"] == 1
    assert any("near copy" in note for note in both["notes"])
    # two different matches are never one: every self-played match is counted
    folder = sorted((ROOT / "tests/data/oracle/selfplay").glob("*.mat"))[:12]
    apart = json.loads(run("dice", "--json", *folder).stdout)
    assert apart["groups"][0]["matches"] == 12 and not any("near copy" in note for note in apart["notes"])


def test_game_marks_are_each_long_games_two_ends():
    from bgcli.judging.dice import GAME_MARK, game_marks

    short, long_game = [3] * (GAME_MARK - 1), list(range(21)) + [0] * 5
    marks = game_marks([short, long_game, long_game[::-1]])
    assert len(marks) == 4 and marks[0][0] == "h" and marks[1][0] == "t"
    assert marks[0] != marks[1] and marks[0] == game_marks([long_game[:GAME_MARK] + [7] * 30])[0]


def test_scipy_is_imported_for_the_report_once_the_files_are_read():
    """The dice command asks whether scipy is installed before it reads a file (dicestats.require_stats),
    and imports it for the report: not while the files are read, where its tens of thousands of objects
    would be scanned by the garbage collector again and again (benchmarks/bench_dice.py)."""
    import subprocess
    import sys

    code = ("import sys\nimport bgcli.scale.dice as dice\nseen = []\nread = dice.tally_file\n"
            "def tally(*args, **kwargs):\n    seen.append('scipy.stats' in sys.modules)\n    return read(*args, **kwargs)\n"
            "dice.tally_file = tally\nfrom bgcli.cli import main\nsys.argv[1:] = ['dice', '--json', sys.argv[1]]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print(seen, 'scipy.stats' in sys.modules, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, str(ROOT / "samples" / "sp05001_3pt.mat")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.stderr.strip().splitlines()[-1] == "[False] True", done.stderr
    assert '"rolls"' in done.stdout


def test_the_tallies_of_tests_data_are_the_recorded_ones():
    """Every match file of the folders bench_dice.py reads, tallied afresh: the rolls and every count,
    label, fingerprint and game mark of its units as recorded in tests/data/dice/tallies.json
    (tests/data/dice/make_tallies.py): a change meant to make the dice audit faster changes no count
    (with the C accelerator and with BGCLI_PURE=1)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_tallies", ROOT / "tests" / "data" / "dice" / "make_tallies.py")
    assert spec is not None and spec.loader is not None
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    recorded = json.loads((ROOT / "tests" / "data" / "dice" / "tallies.json").read_text())
    fresh = make.tallies()
    assert sum(entry.get("rolls", 0) for entry in fresh.values()) > 20_000
    assert fresh == recorded


@pytest.mark.parametrize("name", ["hypergammon1_5pt.gnubg.mat", "hypergammon2_5pt.gnubg.mat",
                                  "hypergammon3_3pt.gnubg.mat", "hypergammon1_5pt.gnubg.sgf"])
def test_hypergammon_counts_the_rolls_that_save_the_gammon(name):
    """gnubg's hypergammon matches (tests/data/variants, make_hypergammon.sh): the last chances to save a
    gammon are counted as in the standard game, where a side counts the checkers it lacks as off
    (Variation.off_at_start): each roll's trial and success are those of the 36 rolls enumerated through the
    generator in the position before it (none of the mover's own checkers off, no contact, the opponent off
    next turn with any roll; the rolls with a play that bears one more off)."""
    path = committed(DATA / "variants" / name)
    (replay,) = replay_file(str(path))
    variation = replay.rules.variation
    assert variation.off_at_start
    rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
    trials, successes = [0] * 37, [0] * 37
    games = set()
    for event in replay.events:
        if event.kind not in (EventKind.MOVE, EventKind.ROLL) or not event.dice:
            continue
        if event.game not in games:   # a game's opening roll is counted apart
            games.add(event.game)
            continue
        position = event.before.position
        other = position.swap()
        if (position.player[OFF] != variation.off_at_start or is_contact(position) or
                not all(any(p.result.player[OFF] == CHECKERS for p in legal_plays(other, r)) for r in rolls)):
            continue
        saving = {r for r in rolls if any(p.result.player[OFF] > position.player[OFF] for p in legal_plays(position, r))}
        count = sum(2 - (a == b) for a, b in saving)
        if 0 < count < 36:
            trials[count] += 1
            successes[count] += (max(event.dice), min(event.dice)) in saving
    units = tally_file(str(path))
    assert sum(trials) > 0   # the samples hold last chances (before: none was counted in hypergammon)
    assert [sum(u.trials["gammon"][i] for u in units) for i in range(37)] == trials
    assert [sum(u.successes["gammon"][i] for u in units) for i in range(37)] == successes
