"""The balance lab: lean games equal to the Game driver, runs that do not depend on who plays
them, the VARIANTS syntax, comparisons and every finding's rule on crafted results."""

from __future__ import annotations

import itertools
import random
import re
import statistics

import pytest

import lab
from lab import danger_world as dw_lab
from lab import dangerous_ideas as di_lab
from lab import leerdam as ld_lab
from lab import new_rule as nr_lab
from lab.core import Spec, game_seed, paired_difference, play_lean, play_out, run_games, seat_chooser, share_interval, summary, t_quantile, t_two_sided
from lab.findings import MIN_GAMES, compared, dominance, holm, per_seat_lead, per_seat_share, seat_advantage, seat_order, verdict, what_wins
from rules import GAMES, Game
from rules import leerdam as ld
from rules.core import RuleError, rng_for

pytestmark = pytest.mark.timeout(120)


# -- lean games and the runner --------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["new-rule", "leerdam", "dangerous-ideas"])
def test_a_lean_game_reaches_the_state_the_game_driver_reaches(slug: str) -> None:
    spec = lab.spec(slug)
    setup = lab.GAMES[slug].setup(spec)
    bots = [lab.BOTS[slug][b] for b in spec.bots]
    for seed in (3, 4):
        game = play_out(Game(GAMES[slug], setup, seed), bots, rng_for(seed, -1))
        for check in (True, False):
            lean = play_lean(GAMES[slug], setup, seed, seat_chooser(bots, rng_for(seed, -1)), check=check)
            assert lean == game.state


def test_a_lean_danger_world_encounter_replays_in_the_game_driver() -> None:
    spec = lab.spec("danger-world", "sweep_trials=0")
    row = dw_lab.play_game(spec, 5, 0)
    assert row["checks"] > 0 and len(row["damage_by_round"]) == 5
    assert row["successes"] + row["partials"] + row["failures"] == row["checks"]
    assert row == dw_lab.play_game(spec, 5, 0)


def test_a_bot_that_breaks_a_rule_is_caught_when_moves_are_checked() -> None:
    spec = lab.spec("leerdam", "checked=true")
    setup = lab.GAMES["leerdam"].setup(spec)

    def greedy(state, seat, rng):  # pledges more than any household has
        return ld.Contribute(seat=seat, units=99)

    with pytest.raises(RuleError, match="capacity"):
        play_lean(GAMES["leerdam"], setup, 1, seat_chooser([greedy] * len(spec.bots), random.Random(1)), check=True)


def test_the_same_seed_gives_the_same_rows_on_one_worker_and_on_two() -> None:
    spec = lab.spec("leerdam", "bots=free-rider,fair,threshold,reciprocal,altruist")
    one = run_games(ld_lab.play_game, spec, 60, 7, workers=1)
    two = run_games(ld_lab.play_game, spec, 60, 7, workers=2)
    assert one == two and [r["game"] for r in one] == list(range(60))
    assert run_games(ld_lab.play_game, spec, 60, 8, workers=1) != one
    # game i depends on (seed, i) alone: a shorter run is the start of a longer one
    assert run_games(ld_lab.play_game, spec, 10, 7, workers=1) == one[:10]
    assert {r["seed"] for r in one} == {game_seed(7, i) for i in range(60)}


def test_runs_with_different_seeds_share_no_game() -> None:
    spec = lab.spec("new-rule")
    runs = {seed: run_games(nr_lab.play_game, spec, 40, seed, workers=1) for seed in (0, 1, 2)}
    seeds = {seed: {r["seed"] for r in rows} for seed, rows in runs.items()}
    assert all(len(games) == 40 for games in seeds.values())
    assert not seeds[0] & seeds[1] and not seeds[0] & seeds[2] and not seeds[1] & seeds[2]
    # ... and the games differ, not only their labels.
    plays = {seed: {tuple(sorted((k, repr(v)) for k, v in r.items() if k not in ("game", "seed"))) for r in rows} for seed, rows in runs.items()}
    assert len(plays[0] & plays[1]) < 10
    # A run as long as the command line allows (a million games) meets no game of another seed's run.
    for seed in range(3):
        others = {game_seed(other, i) for other in range(3) if other != seed for i in range(1000)}
        assert not any(game_seed(seed, i) in others for i in range(1_000_000)), f"seed {seed} meets another run"


def test_summary_spreads_are_sample_standard_deviations() -> None:
    # Worked by hand: mean 5, squared deviations add up to 32; over n - 1 = 7 that is 32/7.
    s = summary([2, 4, 4, 4, 5, 5, 7, 9])
    assert (s["mean"], s["min"], s["max"]) == (5, 2, 9)
    assert s["sd"] == pytest.approx(2.1381, abs=1e-4)  # sqrt(32/7); sqrt(32/8) would be 2
    assert summary([1, None, 3])["sd"] == pytest.approx(1.4142, abs=1e-4)  # sqrt(2/1): the missing game is left out
    assert summary([7])["sd"] == 0.0 and summary([])["sd"] is None


def test_the_same_seed_gives_the_same_rows_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed")
    spec = lab.spec("new-rule")
    here = run_games(nr_lab.play_game, spec, 12, 3, workers=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        done: list[int] = []
        there = run_games(nr_lab.play_game, spec, 12, 3, scheduler=cluster.scheduler_address, progress=done.append)
    assert there == here and done[-1] == 12


def test_progress_counts_every_game() -> None:
    done: list[int] = []
    run = lab.simulate("new-rule", 30, 1, workers=1, progress=done.append)
    assert done[-1] == 30 and done == sorted(done) and len(run.rows) == 30


# -- the VARIANTS syntax --------------------------------------------------------------------------


def test_variants_read_bots_lists_and_setup_fields() -> None:
    spec = lab.spec("leerdam", "bots=fair*3,free-rider*2,misfortune=3,2,1,0,0,0 sticky_flood=true")
    assert spec.bots == ("fair",) * 3 + ("free-rider",) * 2
    assert dict(spec.options) == {"misfortune": (3, 2, 1, 0, 0, 0), "sticky_flood": True}
    assert lab.GAMES["leerdam"].setup(spec).misfortune == (3, 2, 1, 0, 0, 0)
    assert lab.spec("leerdam", spec.text) == spec  # the text a spec shows reads back the same
    assert lab.spec("new-rule", "max_rounds=none cap=50").options == (("max_rounds", None), ("cap", 50))
    assert lab.spec("leerdam", "players=10").bots == tuple(ld_lab.DEFAULT_BOTS[i % 7] for i in range(10))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bots=fair,genius", "unknown bot 'genius'"),
        ("colour=red", "no variant 'colour'"),
        ("misfortune=3,2,1", "takes 6 values"),
        ("sticky_flood=perhaps", "true or false"),
        ("bots=fair*2", "3-20 households"),
        ("fair", "needs a key"),
    ],
)
def test_variants_refuse_what_does_not_make_a_game(text: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        lab.spec("leerdam", text)


# -- comparisons ------------------------------------------------------------------------------------


def test_paired_interval_of_equal_and_shifted_values() -> None:
    rng = random.Random(1)
    a = [rng.gauss(10, 3) for _ in range(400)]
    same = paired_difference(a, list(a))
    assert same["noise"] and same["identical"] and same["difference"] == 0
    shifted = paired_difference(a, [x + 0.5 + rng.gauss(0, 0.1) for x in a])
    assert not shifted["noise"] and shifted["low"] > 0.4 and shifted["high"] < 0.6
    noisy = paired_difference(a, [x + rng.gauss(0, 3) for x in a])
    assert noisy["noise"] and noisy["low"] < 0 < noisy["high"]


def test_two_identical_setups_differ_by_nothing() -> None:
    comparison = lab.compare("leerdam", "", "", 60, 2, workers=1)
    assert all(r["identical"] and r["noise"] for r in comparison.table)
    assert [f.key for f in comparison.findings] == ["identical"]  # one sentence, no "more games may tell"
    assert "more games" not in comparison.findings[0].text


# Without a correction for their many measures these seedings write a false change in 5 runs
# of 20 (Leerdam) and 3 of 20 (New Rule, the worst case); New Rule's costs about 4 s.
@pytest.mark.heavy
@pytest.mark.parametrize(("slug", "base"), [("leerdam", 100), ("new-rule", 300)])
def test_identical_setups_on_independent_seeds_write_no_false_change_in_nine_runs_of_ten(slug: str, base: int) -> None:
    # The A/A test: whatever a comparison of one setup with itself writes is false.
    runs = 20
    false = [i for i in range(runs) if any(f.key == "changed" for f in lab.compare(slug, "", "", 30, base + 2 * i, seed_b=base + 1 + 2 * i, workers=1).findings)]
    assert len(false) <= runs // 10, false


def test_the_sample_standard_deviation_and_the_t_interval() -> None:
    s = summary([2, 4, 4, 4, 5, 5, 7, 9])
    assert s["mean"] == 5 and s["sd"] == pytest.approx(2.1381, abs=1e-4)  # n - 1, not n (2.0)
    assert t_quantile(4) == pytest.approx(2.7764, abs=1e-4) and t_quantile(1) == pytest.approx(12.7062, abs=1e-4)
    assert t_quantile(100_000) == pytest.approx(1.96, abs=1e-3)
    assert t_two_sided(2.0, 10) == pytest.approx(0.07339, abs=1e-5)
    # five games whose differences are 1..5: mean 3, sd 1.5811, half-width t(4) x sd / sqrt(5)
    row = paired_difference([0] * 5, [1, 2, 3, 4, 5])
    assert (row["low"], row["high"]) == (pytest.approx(3 - 1.9632, abs=1e-3), pytest.approx(3 + 1.9632, abs=1e-3))
    assert row["p"] == pytest.approx(t_two_sided(3 / (1.58114 / 5**0.5), 4), rel=1e-3)
    one = paired_difference([0], [5])
    assert one["noise"] and one["low"] is None  # one game says nothing about the noise


def test_game_seeds_of_different_runs_never_share_a_game() -> None:
    runs = {seed: {game_seed(seed, i) for i in range(0, 2000, 7)} | {game_seed(seed, 2**31)} for seed in (0, 1, 2, 10, 2**20)}
    for a, b in itertools.combinations(runs, 2):
        assert not runs[a] & runs[b]


def test_holm_keeps_a_family_of_measures_to_its_error_rate() -> None:
    rows = [{"measure": f"m{i}", "p": p, "identical": False} for i, p in enumerate((0.001, 0.012, 0.02, 0.04, 0.3))]
    holm(rows)
    # 0.001 <= 0.05/5, 0.012 <= 0.05/4, 0.02 > 0.05/3: Holm stops there, though 0.02 and 0.04 are below 0.05
    assert [r["holds"] for r in rows] == [True, True, False, False, False]
    assert [r["noise"] for r in rows] == [False, False, True, True, True]


@pytest.mark.parametrize(
    "ps, holds",
    [
        # The case: 0.03 > 0.05/2 fails, so 0.04 is never weighed against 0.05/1.
        ((0.03, 0.04), (False, False)),
        # In any order: 0.001 <= 0.05/3 holds, 0.03 > 0.05/2 fails, and 0.04 (<= 0.05) is not reached.
        ((0.04, 0.001, 0.03), (False, True, False)),
    ],
    ids=["0.03 and 0.04", "0.001, 0.03 and 0.04"],
)
def test_holm_stops_at_the_first_measure_that_fails(ps: tuple[float, ...], holds: tuple[bool, ...]) -> None:
    """Holm's step-down test ends at the first p value above its share of the error rate; one
    that carried on would find a change in a measure that is within noise."""
    rows = [
        {"measure": f"m{i}", "a": 1.0, "b": 2.0, "difference": 1.0, "low": 0.1, "high": 1.9, "p": p, "identical": False, "games": 100}
        for i, p in enumerate(ps)
    ]
    holm(rows)
    assert tuple(r["holds"] for r in rows) == holds
    assert [verdict(r, 100) for r in rows] == ["different" if h else "within noise" for h in holds]
    changed = [f.numbers["measure"] for f in compared(rows) if f.key == "changed"]
    assert changed == [r["measure"] for r, h in zip(rows, holds) if h]
    if not any(holds):
        assert [f.key for f in compared(rows)] == ["no-change"]


def test_too_few_games_give_numbers_but_no_findings() -> None:
    run = lab.simulate("leerdam", 5, 1, "bots=altruist*7", workers=1)
    assert [f.key for f in run.findings] == ["too-few-games"] and run.summary["games"] == 5
    comparison = lab.compare("leerdam", "bots=altruist*7", "bots=free-rider*7", 5, 1, workers=1)
    assert [f.key for f in comparison.findings] == ["too-few-games"] and comparison.table
    assert lab.compare("leerdam", "bots=altruist*7", "bots=free-rider*7", MIN_GAMES, 1, workers=1).findings[0].key == "changed"


@pytest.mark.heavy
@pytest.mark.parametrize(("slug", "text"), [("leerdam", "bots=fair*7"), ("leerdam", ""), ("new-rule", "bots=scorer,balanced,random,scorer"), ("new-rule", ""), ("danger-world", "sweep_trials=0"), ("dangerous-ideas", ""), ("dangerous-ideas", "bots=sensible*3")])
def test_each_measure_counts_once(slug: str, text: str) -> None:
    run = lab.simulate(slug, 8 if slug == "dangerous-ideas" else 40, 3, text, workers=1, extras=False)
    measures = lab.GAMES[slug].measures(run.spec, run.rows)
    for (a, x), (b, y) in itertools.combinations(measures.items(), 2):
        pairs = [(u, v) for u, v in zip(x, y) if u is not None and v is not None]
        if len({u for u, _ in pairs}) > 1 and len({v for _, v in pairs}) > 1:
            assert abs(statistics.correlation([u for u, _ in pairs], [v for _, v in pairs])) < 0.999, (a, b)
    names = set(measures)
    assert "score spread" not in names or slug != "new-rule"  # the winning score again: losers score 0
    if slug == "leerdam" and len(set(run.spec.bots)) == 1:
        assert not [n for n in names if n.startswith("mean VP:")]  # the household mean again
    if slug == "dangerous-ideas" and len(set(run.spec.bots)) == 1:
        assert not [n for n in names if n.startswith("mean score:")]  # 4 x memes per player again


def test_altruists_and_free_riders_are_told_apart() -> None:
    comparison = lab.compare("leerdam", "bots=altruist*7", "bots=free-rider*7", 80, 2, workers=1)
    table = {r["measure"]: r for r in comparison.table}
    fell = table["dyke fell to 1 (share)"]
    assert not fell["noise"] and fell["low"] > 0  # free riders let the dyke fall
    assert not table["units pledged per year"]["noise"] and table["units pledged per year"]["difference"] == -14
    assert "villages" in comparison.extras and len(comparison.extras["villages"]["a"]) >= 8
    assert any(f.key == "changed" and "Units pledged per year falls" in f.text for f in comparison.findings)


# -- the new bots --------------------------------------------------------------------------------------


def _village(bots: tuple[str, ...], seed: int = 1) -> ld.State:
    spec = lab.spec("leerdam", "bots=" + ",".join(bots))
    setup = lab.GAMES["leerdam"].setup(spec)
    return play_lean(GAMES["leerdam"], setup, seed, seat_chooser([lab.BOTS["leerdam"][b] for b in bots], rng_for(seed, -1)))


def test_the_reciprocal_bot_stops_paying_after_a_year_the_dyke_fell() -> None:
    state = _village(("reciprocal",) * 4 + ("free-rider",) * 3)
    pledges = {row.year: row.contribution for row in state.ledger if row.seat == 0}
    for year in state.years[:-1]:
        held = year.total >= ld.thresholds(state.n)[0]
        assert pledges[year.year + 1] == (1 if held else 0)


def test_threshold_bots_carry_free_riders_exactly_to_the_threshold() -> None:
    state = _village(("threshold",) * 5 + ("free-rider",) * 2)
    low, _ = ld.thresholds(state.n)
    for year in state.years[1:]:
        assert year.total >= low  # the pledges alone never let the dyke fall
    assert all(lab.bot_doc("leerdam", b) for b in lab.BOTS["leerdam"])


def test_the_scorer_plays_whole_new_rule_games() -> None:
    run = lab.simulate("new-rule", 6, 4, "bots=scorer,scorer,balanced,random", workers=1)
    assert set(run.summary["win_share_per_seat_by_bot"]) == {"scorer", "balanced", "random"}


# -- findings, each on crafted results that do and do not show it -------------------------------------


def test_dominance_rule() -> None:
    bots = ("free-rider", "fair", "free-rider", "fair")
    scores = [[20, 10, 18, 12]] * 100
    found = dominance(bots, [[0]] * 92 + [[1]] * 8, scores, "VP")
    assert [f.key for f in found] == ["dominant-strategy"] and "seats wins 46% of games" in found[0].text
    assert found[0].numbers["lead_low"] > 0
    assert [f.key for f in dominance(bots, [[0], [1]] * 50, scores)] == ["no-dominant-strategy"]
    assert dominance(bots, [[0]] * 60 + [[1]] * 40, scores) == []  # ahead beyond noise, but not twice as often
    assert dominance(("fair",) * 4, [[0]] * 100, scores) == []  # one kind: nothing to say
    assert dominance(bots, [[0]] * 20, scores) == []  # too few games for a finding


def test_dominance_is_per_seat() -> None:
    # nine fair households and one altruist, every seat winning one game in ten: the fair seats
    # win 90% of games between them, but no seat does better than another
    bots = ("fair",) * 9 + ("altruist",)
    winners = [[g % 10] for g in range(400)]
    found = dominance(bots, winners, [[1] * 10] * 400)
    assert [f.key for f in found] == ["no-dominant-strategy"] and "within the noise" in found[0].text
    # the lone altruist winning a game in three is three times the rate of a fair seat
    lucky = [[9] if g % 3 == 0 else [g % 9] for g in range(400)]
    assert [f.key for f in dominance(bots, lucky, [[1] * 10] * 400)] == ["dominant-strategy"]


def test_seat_advantage_rule() -> None:
    bots = ("balanced",) * 4
    fair = [[g % 4] for g in range(400)]
    assert seat_advantage(bots, fair) == []
    first = [[0] if g % 2 else [g % 4] for g in range(400)]
    found = seat_advantage(bots, first)
    assert [f.key for f in found] == ["seat-advantage"] and found[0].numbers["seat"] == 1
    assert seat_advantage(("a", "b", "c", "d"), first) == []  # every seat its own kind: strategy, not seat


def _printed_gap(text: str) -> tuple[float, float]:
    """The interval a seat-order sentence prints for its gap, in points."""
    printed = re.search(r"\d+(?:\.\d)?% interval ([-+]\d+\.\d) points to ([-+]\d+\.\d) points", text)
    assert printed, f"no interval in {text!r}"
    return float(printed[1]), float(printed[2])


def test_the_seat_order_sentence_agrees_with_the_interval_it_prints() -> None:
    # Seat 1 of four alike wins a game with probability p, the others share the rest: from no
    # lead to a clear one, through leads a 95% interval would call real and 3 standard errors not.
    bots = ("balanced",) * 4
    said = set()
    for i, p in enumerate([0.25, 0.3, 0.33, 0.36, 0.4, 0.45, 0.5] * 6):
        rng = random.Random(i)
        rows = [{"winners": "1" if rng.random() < p else str(rng.randrange(2, 5))} for _ in range(60 + 10 * i)]
        found = seat_order(bots, rows)
        low, high = _printed_gap(found.text)
        if found.text.startswith("No seat wins beyond the noise"):
            assert low <= 0 <= high, found.text
            said.add("noise")
        else:
            assert found.text.startswith("Seat order matters") and ((low >= 0 and found.numbers["low"] > 0) or (high <= 0 and found.numbers["high"] < 0)), found.text
            said.add("matters")
        # what the old sentence did: the 95% interval printed beside a 3-standard-error rule
        ninety_five = paired_difference([0.25] * len(rows), [1.0 if r["winners"] == "1" else 0.0 for r in rows])
        if ninety_five["low"] > 0 and found.text.startswith("No seat"):
            said.add("a 95% interval would have contradicted it")
    assert said == {"noise", "matters", "a 95% interval would have contradicted it"}


def test_comparison_rule() -> None:
    changed = {"measure": "final dyke", "a": 1.0, "b": 2.0, "difference": 1.0, "low": 0.8, "high": 1.2, "p": 0.001, "identical": False, "games": 100}
    noise = {**changed, "measure": "years", "low": -0.1, "p": 0.2}
    rows = [dict(changed), dict(noise)]
    holm(rows)
    assert [f.key for f in compared(rows)] == ["changed"]
    assert "Final dyke rises from 1 to 2" in compared(rows)[0].text and "Holm" in compared(rows)[0].text
    lone = [dict(noise)]
    holm(lone)
    assert [f.key for f in compared(lone)] == ["no-change"]
    # 0.03 alone is a change; among four measures it is not
    family = [{**changed, "measure": f"m{i}", "p": 0.03 if i == 0 else 0.5} for i in range(4)]
    holm(family)
    assert [f.key for f in compared(family)] == ["no-change"]


def _leerdam_rows(fell: list[int | None], floods: int = 2, years: int = 8) -> list[dict]:
    return [
        {"dyke_1_year": y, "floods": floods, "years": years, "winners": "1", "vp_1": 10, "vp_2": 5, "vp_3": 4}
        for y in fell
    ]


def test_leerdam_dyke_rules() -> None:
    spec = Spec("leerdam", ("fair",) * 3)
    keys = lambda rows: [f.key for f in ld_lab.findings(spec, rows)]  # noqa: E731
    assert keys(_leerdam_rows([2, 3, 3, None])) == ["dyke-falls"]
    assert "by year 3" in ld_lab.findings(spec, _leerdam_rows([2, 3, 3, None]))[0].text
    assert keys(_leerdam_rows([None] * 4)) == ["dyke-holds"]
    assert keys(_leerdam_rows([2, None, None, None])) == []
    assert keys(_leerdam_rows([None] * 4, floods=6)) == ["dyke-holds", "floods"]


def _new_rule_rows(endings: list[str], lowest: int = 40) -> list[dict]:
    return [
        {"ended": e, "lowest_bowl": lowest, "winners": "1", "score_1": 3, "score_2": 1, "score_3": 1, "out_round_1": None, "out_round_2": 4, "out_round_3": 5}
        for e in endings
    ]


def test_new_rule_ending_rules() -> None:
    as_written = Spec("new-rule", ("balanced",) * 3, (("max_rounds", None), ("cap", 100)))
    keys = lambda spec, rows: [f.key for f in nr_lab.findings(spec, rows)]  # noqa: E731
    assert keys(as_written, _new_rule_rows(["elimination"] * 3 + ["cap"])) == ["bowl-never-empties", "safety-cap", "elimination"]
    assert keys(as_written, _new_rule_rows(["bowl", "elimination", "elimination"])) == ["bowl-empties", "elimination"]
    limited = Spec("new-rule", ("balanced",) * 3)
    assert keys(limited, _new_rule_rows(["round-limit"] * 3)) == ["round-limit"]
    assert keys(limited, _new_rule_rows(["round-limit", "elimination"])) == []


def test_danger_world_rules() -> None:
    spec = Spec("danger-world", ("bold",) * 3)
    row = {"knocked_out": 0, "dead": 0, "checks": 10, "partials": 1, "top_zone": 1}
    assert dw_lab.findings(spec, [row] * 4) == []
    rough = [{**row, "knocked_out": 1, "dead": 1, "partials": 4, "top_zone": 2}] * 3 + [row]
    assert [f.key for f in dw_lab.findings(spec, rough)] == ["knock-outs", "deaths", "partials", "danger-climbs"]
    cell = {"dice": 4, "difficulty": 3, "penalty": 0, "rerolls": 2, "checks": 400, "exact_success": 0.5}
    assert [f.key for f in dw_lab.sweep_findings([{**cell, "success": 0.52}])] == ["sweep-agrees"]
    assert [f.key for f in dw_lab.sweep_findings([{**cell, "success": 0.7}])] == ["sweep-disagrees"]


@pytest.mark.heavy
def test_the_check_sweep_plays_the_rules_and_would_catch_an_error_of_five_points() -> None:
    spec = lab.spec("danger-world", "sweep_trials=10")
    cells = dw_lab.check_sweep(spec, 0, 1, workers=1)["check_sweep"]
    assert len(cells) == 11 * 5 * 4 * 3 and {c["dice"] for c in cells} == set(range(2, 13))
    assert [f.key for f in dw_lab.sweep_findings(cells)] == ["sweep-agrees"]
    # the same cells, each success rate 0.05 off the exact odds (as a coach that locks badly,
    # or a rule read wrong, would make them): ten checks a cell are enough to tell
    for shift in (0.05, -0.05):
        wrong = [{**c, "exact_success": min(1.0, max(0.0, c["exact_success"] + shift))} for c in cells]
        assert [f.key for f in dw_lab.sweep_findings(wrong)] == ["sweep-disagrees"], shift
    # one cell of 2,000 checks 0.05 off is caught alone
    one = {"dice": 6, "difficulty": 4, "penalty": 0, "rerolls": 2, "checks": 2000, "exact_success": 0.5}
    assert [f.key for f in dw_lab.sweep_findings([{**one, "success": 0.55}])] == ["sweep-disagrees"]
    assert [f.key for f in dw_lab.sweep_findings([{**one, "success": 0.52}])] == ["sweep-agrees"]


def test_dangerous_ideas_rules() -> None:
    spec = Spec("dangerous-ideas", ("sensible",) * 3)
    row = {"meme_actions": 10, "successes": 5, "ended": "last chapter", "winners": "1", "score_1": 9, "score_2": 8, "score_3": 8}
    assert di_lab.findings(spec, [row] * 3) == []
    hard = [{**row, "successes": 2, "ended": "full sheet"}] * 3
    assert [f.key for f in di_lab.findings(spec, hard)] == ["memes-fail", "full-sheets"]


# -- every game simulates ------------------------------------------------------------------------------


def test_danger_world_simulates_encounters_and_the_check_sweep() -> None:
    run = lab.simulate("danger-world", 20, 1, "sweep_trials=10", workers=1)
    s = run.summary
    assert s["games"] == 20 and len(s["damage_boxes_by_round"]) == 5
    assert s["damage_boxes_by_round"] == sorted(s["damage_boxes_by_round"])  # damage only builds up in an encounter
    cells = run.extras["check_sweep"]
    assert len(cells) == 11 * 5 * 4 * 3
    easy = next(c for c in cells if (c["dice"], c["difficulty"], c["penalty"], c["rerolls"]) == (12, 2, 0, 2))
    assert easy["success"] > 0.9 and easy["exact_success"] > 0.9
    assert all(abs(c["success"] + c["partial"] + c["failure"] - 1) < 1e-3 for c in cells)


def test_dangerous_ideas_simulates_pools_and_memes() -> None:
    run = lab.simulate("dangerous-ideas", 3, 5, bots=("sensible", "random", "sensible"), workers=1)
    s = run.summary
    assert s["games"] == 3 and s["chapters_played"]["max"] <= 6
    assert set(s["win_share_per_seat_by_bot"]) == {"random", "sensible"}
    assert sum(v["actions"] for v in s["success_rate_by_pool"].values()) == sum(r["meme_actions"] for r in run.rows)
    with pytest.raises(RuleError, match="unknown bot"):
        lab.simulate("dangerous-ideas", 1, 1, bots=("genius",) * 3)


# -- the design review ---------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", ["leerdam", "new-rule", "danger-world", "dangerous-ideas"])
def test_the_review_says_what_wins_the_text_s_end_seat_order_and_what_no_game_reaches(slug: str) -> None:
    review = lab.review(slug, 30, 1, workers=1)
    keys = [f.key for f in review.findings]
    said = {f.key: f for f in review.findings}
    rows = review.run.rows
    assert keys[0] == "bots" and all(lab.bot_doc(slug, b).rstrip(".") in review.findings[0].text for b in set(review.run.spec.bots))
    assert {"text-end", "seat-order", "never"} <= set(keys) and ("what-wins" in keys or slug == "danger-world")
    assert all("95% interval" in f.text for f in review.findings if f.key in ("what-wins", "text-end"))
    if slug == "danger-world":  # the characters do not compete: no gap to put an interval on
        assert "do not compete" in said["seat-order"].text
    else:
        low, high = _printed_gap(said["seat-order"].text)  # the gap's interval, in the sentence
        assert low <= said["seat-order"].numbers["gap"] * 100 <= high
        assert (low <= 0 <= high) == said["seat-order"].text.startswith("No seat wins beyond the noise")
    # "never": what no game of these reached, true of every row, and the most any game reached
    never = said["never"]
    if slug == "leerdam":
        top = max(max(r["dykes"]) for r in rows)
        assert never.numbers["highest_dyke"] == top < 6 and f"above {top} (the track runs to 6) in 30 villages" in never.text
    elif slug == "new-rule":
        both = rows + review.aimed.rows  # the default table and the hoarders', on the same seeds
        assert not any(r["ended"] == "bowl" for r in both) and never.numbers["lowest_bowl"] == min(r["lowest_bowl"] for r in both)
        assert "No game emptied the common bowl, neither at the default table nor at a table of 4 hoarders" in never.text
    elif slug == "danger-world":
        assert not any(r["knocked_out"] for r in rows) and "no character was K.O.'d" in never.text
        assert never.numbers["top_zone"] == max(r["top_zone"] for r in rows)
    else:
        most = max(r[f"memes_{s + 1}"] for r in rows for s in range(len(review.run.spec.bots)))
        assert never.numbers["most_memes"] == most < 12 and f"more than {most} of its 12 branches in 30 stories" in never.text
        # no sheet filled: every story ends on the last chapter, and no sentence speaks of "the rest"
        assert all(r["ended"] != "full sheet" for r in rows) and "none ends on a full sheet" in said["text-end"].text and "the rest" not in said["text-end"].text
    if slug == "new-rule":
        assert review.run.spec.option("max_rounds", 12) is None  # the text as written: no round limit
        assert "winner-scores-0" in keys
        assert review.aimed.spec.bots == ("hoarder",) * 4 and review.aimed.spec.option("max_rounds", 12) is None
        assert [r["seed"] for r in review.aimed.rows] == [r["seed"] for r in review.run.rows]
        assert "hoarder (4 seats)" in said["bots"].text and "a table of 4 hoarders: the common bowl empties in 0%" in said["text-end-aimed"].text
    with pytest.raises(RuleError, match="at least 30"):
        lab.review(slug, 29, 1, workers=1)


def test_review_sentences_on_crafted_villages() -> None:
    spec = Spec("leerdam", ("free-rider", "fair", "fair"))
    rows = [{"ended": "end roll", "dyke_1_year": 3, "dykes": [3, 2, 1, 1, 1, 1, 1, 1], "floods": 6, "years": 8, "winners": "1", "vp_1": 9, "vp_2": 2, "vp_3": 2}] * 40
    found = {f.key: f.text for f in ld_lab.review(spec, rows)}
    assert found["what-wins"].startswith("What wins: a free-rider wins 100% (95% interval 91% to 100%; 40 of 40) of villages")
    assert "The dyke falls to 1 in 100%" in found["dyke"] and "half of them by year 3" in found["dyke"]
    assert found["never"] == "No village ever raised its dyke above 3 (the track runs to 6) in 40 villages."
    assert "No seat wins beyond the noise" in found["seat-order"]


def test_wilson_interval_of_a_share() -> None:
    low, high = share_interval(0, 2000)
    assert low == 0 and 0.0015 < high < 0.0025  # none in 2,000 still allows about 0.2%
    low, high = share_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)


def test_per_seat_win_shares_of_none_or_all_games_keep_an_interval() -> None:
    # Two free-riders win every one of 1,000 villages, the altruist none: per-game win shares
    # that never vary, on which a t interval collapses to a point ("0% (0% to 0%)").
    bots = ("free-rider", "altruist", "free-rider")
    rows = [{"winners": "1"}] * 1000
    assert per_seat_share(0, 1, 1000)[2] > 0.001  # none in 1,000 still allows about 0.4%
    share, low, high = per_seat_share(1000, 2, 1000)
    assert share == 0.5 and low < 0.499 and high == 0.5
    text = what_wins(bots, rows).text
    assert "altruist 0.0% (0.0% to 0.4%)" in text and "free-rider 50.0% (49.8% to 50.0%)" in text
    found = dominance(bots, [[0]] * 1000, [[9, 1, 9]] * 1000)
    assert found[0].key == "dominant-strategy" and found[0].numbers["lead_low"] < 0.497 and "+50.0 points to +50.0" not in found[0].text
    # two kinds that take every game between them move against each other: the lead's interval
    # is wider than if their shares were independent
    lead, low, high = per_seat_lead((60, 2), (40, 2), 100)
    apart = (per_seat_share(60, 2, 100)[0] - per_seat_share(60, 2, 100)[1]) + (per_seat_share(40, 2, 100)[2] - per_seat_share(40, 2, 100)[0])
    assert lead == pytest.approx(0.1) and low == pytest.approx(lead - apart) and high == pytest.approx(0.1906, abs=1e-4)


def test_the_focused_gm_piles_its_hits_on_one_character() -> None:
    rows = {gm: lab.simulate("danger-world", 60, 2, f"sweep_trials=0 gm={gm}", workers=1, extras=False).rows for gm in ("hits", "focus")}
    share = {gm: sum(r["worst_boxes"] for r in rs) / max(1, sum(r["boxes_filled"] for r in rs)) for gm, rs in rows.items()}
    assert share["focus"] > share["hits"] + 0.2  # most of the damage lands on one character
    assert lab.review("danger-world", 30, 1, workers=1).run.spec.option("gm") == "focus"  # the review plays the harshest GM


def test_the_hoarder_plays_for_the_text_s_end() -> None:
    from rules import new_rule as nr

    bots = [nr_lab.hoarder_bot] * 4
    setup = nr.Setup(names=("A", "B", "C", "D"), max_rounds=None)
    game = play_out(Game(GAMES["new-rule"], setup, 3, keep=None), bots, rng_for(3, -1))
    paid = 0
    for state, action in zip(game.states, game.actions):
        assert not isinstance(action, nr.Swap)  # keeps every draw: the bowl gets nothing back
        if isinstance(action, nr.Pay):
            fewest = min(len(p.returned) for p in nr.legal_payments(state, action.seat, limit=nr_lab.PAYMENTS))
            assert len(action.returned) == fewest
            paid += 1
    assert paid > 0 and game.state.over
    # ... and gets nearer it than the balanced bots: a lower bowl over the same seeded games
    lowest = {b: [r["lowest_bowl"] for r in lab.simulate("new-rule", 30, 1, f"max_rounds=none bots={b}*4", workers=1).rows] for b in ("hoarder", "balanced")}
    assert min(lowest["hoarder"]) < min(lowest["balanced"]) and statistics.mean(lowest["hoarder"]) < statistics.mean(lowest["balanced"]) - 5


def test_the_dangerous_ideas_bots_shuffle_draws_as_random_shuffle_does() -> None:
    from lab.dangerous_ideas import _PLAIN_SHUFFLE, _shuffle

    assert _PLAIN_SHUFFLE  # on another Python the bots fall back on rng.shuffle
    for seed in range(50):
        for n in (0, 1, 2, 3, 7, 40, 121):
            ours, theirs = list(range(n)), list(range(n))
            a, b = random.Random(seed), random.Random(seed)
            _shuffle(ours, a)
            b.shuffle(theirs)
            assert ours == theirs and a.random() == b.random()


@pytest.mark.parametrize("text", ["", "bots=sensible*3", "bots=sensible,random,sensible,random,sensible seeds=1", "bots=random,sensible,sensible,sensible start_stones=3"])
def test_the_dangerous_ideas_bots_moves_pass_the_rules_checks(text: str) -> None:
    # The bots trust what they make legal by construction (spends, the sensible bot's moves in
    # the phases a seat is asked in): every move of these games is checked by the rules.
    run = lab.simulate("dangerous-ideas", 4, 11, f"{text} checked=true".strip(), workers=1, extras=False)
    assert len(run.rows) == 4 and all(r["meme_actions"] > 0 for r in run.rows)


def test_the_random_bot_makes_each_group_s_candidates_as_the_rules_list_them() -> None:
    # The random bot builds only the candidates it tries (`_lazy_group`): made from their parts,
    # in order, they are the group's own list (so the shuffle picks the same action, and the
    # kinds it takes unchecked stay covered by the test below).
    from lab.dangerous_ideas import _lazy_group
    from rules import dangerous_ideas as di

    bots = [lab.BOTS["dangerous-ideas"][b] for b in ("random", "sensible", "random", "sensible")]
    lazy: set[tuple[str, ...]] = set()
    for seed in (5, 6):
        game = play_out(Game(di.RULES, di.Setup(names=("Ana", "Bo", "Cy", "Di")), seed, keep=None), bots, rng_for(seed, -1))
        for state in game.states:
            for seat in state.waiting_for():
                for names, build in di_lab.candidate_groups(state, seat, limit=120):
                    made = _lazy_group(state, seat, names)
                    if made is not None:
                        make, parts = made
                        assert [make(part) for part in parts] == build()
                        lazy.add(names)
    assert {("place",), ("write",), ("turn-stones",), ("gain",), ("move",), ("create", "spread"), ("conclude",)} <= lazy


def test_the_kinds_the_random_bot_takes_unchecked_are_legal_for_every_waiting_seat() -> None:
    from lab.dangerous_ideas import _LEGAL_KINDS
    from rules import dangerous_ideas as di

    bots = [lab.BOTS["dangerous-ideas"][b] for b in ("random", "sensible", "random", "sensible")]
    tried = 0
    for seed in (5, 6):
        game = play_out(Game(di.RULES, di.Setup(names=("Ana", "Bo", "Cy", "Di")), seed, keep=None), bots, rng_for(seed, -1))
        for state in game.states[::2]:
            for seat in state.waiting_for():
                for _, build in di_lab.candidate_groups(state, seat, limit=120):
                    for action in build():
                        if action.kind in _LEGAL_KINDS:
                            di.check(state, action)
                            tried += 1
    assert tried > 1000
