"""Danger World's exact odds against exhaustive enumeration and against a seeded simulation.

Timing is never asserted here.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from rules import danger_world as dw
from rules.core import RuleError


def _made(faces: tuple[int, ...], penalty: tuple[int, ...], difficulty: int) -> bool:
    """A set of height >= difficulty, straight from the text: h pool dice showing h beyond the
    penalty dice showing h."""
    return any(faces.count(h) - penalty.count(h) >= h for h in range(max(2, difficulty), 7))


def brute_force(dice: int, difficulty: int, penalty: int, rerolls: int) -> Fraction:
    """Every penalty roll, every pool roll as an ordered tuple, every lock choice as a subset of
    die positions: the best chance by exhaustive search (memoised on the sorted locked faces)."""

    def solve(pen: tuple[int, ...]) -> Fraction:
        @cache
        def value(locked: tuple[int, ...], free: int, left: int) -> Fraction:
            total = Fraction(0)
            for roll in product(range(1, 7), repeat=free):
                if left == 0:
                    total += _made(locked + roll, pen, difficulty)
                    continue
                best = Fraction(0)
                for keep in range(free + 1):
                    for chosen in combinations(range(free), keep):
                        kept = tuple(sorted(locked + tuple(roll[i] for i in chosen)))
                        if keep == free:
                            option = Fraction(int(_made(kept, pen, difficulty)))
                        else:
                            option = value(kept, free - keep, left - 1)
                        best = max(best, option)
                total += best
            return total / 6**free

        return value((), dice, rerolls)

    chances = [solve(pen) for pen in product(range(1, 7), repeat=penalty)]
    return sum(chances, Fraction(0)) / len(chances)


@pytest.mark.parametrize("difficulty", [2, 3, 4])
@pytest.mark.parametrize("penalty", [0, 1])
def test_exact_odds_match_exhaustive_search_for_small_pools(difficulty: int, penalty: int) -> None:
    for dice in range(5):
        for rerolls in range(3):
            if dice == 4 and rerolls == 2 and difficulty != 2:
                continue  # the slowest cases: difficulty 2 (the most sets) stands for them
            assert dw.success_chance(dice, difficulty, penalty, rerolls) == brute_force(dice, difficulty, penalty, rerolls), (dice, difficulty, penalty, rerolls)


def test_heights_beyond_the_pool_never_succeed() -> None:
    for rerolls in range(3):
        assert dw.success_chance(4, 5, 0, rerolls) == 0
        assert dw.success_chance(5, 6, 1, rerolls) == 0
    assert dw.success_chance(0, 2, 3, 2) == 0


def test_known_values() -> None:
    assert dw.success_chance(2, 2, 0, 0) == Fraction(1, 36)
    assert dw.success_chance(6, 6, 0, 0) == Fraction(1, 6**6)
    # Two dice, one re-roll: a pair of 2s now, or lock one 2 and match it, or re-roll both.
    now = Fraction(1, 36)
    one_two = Fraction(10, 36)  # exactly one die shows 2
    assert dw.success_chance(2, 2, 0, 1) == now + one_two * Fraction(1, 6) + (1 - now - one_two) * Fraction(1, 36)


def test_odds_grow_with_dice_and_rerolls_and_fall_with_difficulty_and_penalty() -> None:
    for dice in range(2, 9):
        for difficulty in range(2, 6):
            p = dw.success_chance(dice, difficulty, 1, 2)
            assert dw.success_chance(dice + 1, difficulty, 1, 2) >= p
            assert dw.success_chance(dice, difficulty, 1, 1) <= p
            assert dw.success_chance(dice, difficulty + 1, 1, 2) <= p
            assert dw.success_chance(dice, difficulty, 2, 2) <= p


@pytest.mark.parametrize("dice, difficulty, penalty, trials", [(7, 3, 1, 20_000), (9, 4, 2, 5_000)])
def test_exact_odds_match_a_seeded_simulation_of_the_optimal_policy(dice: int, difficulty: int, penalty: int, trials: int) -> None:
    run = dw.simulate_policy(dice, difficulty, penalty, rerolls=2, trials=trials, seed=2024)
    exact = float(dw.success_chance(dice, difficulty, penalty, 2))
    assert run.trials == trials and 0 < run.rate < 1
    assert abs(run.rate - exact) <= 3 * run.stderr, (run.rate, exact, run.stderr)
    again = dw.simulate_policy(dice, difficulty, penalty, rerolls=2, trials=500, seed=2024)
    assert again == dw.simulate_policy(dice, difficulty, penalty, rerolls=2, trials=500, seed=2024)


def test_the_best_first_lock_gives_the_exact_chance() -> None:
    """Averaging the best lock's chance over every first roll gives success_chance again."""
    dice, difficulty, rerolls = 3, 2, 2
    total = Fraction(0)
    for pen in product(range(1, 7), repeat=1):
        for roll in product(range(1, 7), repeat=dice):
            total += dw.best_locks(roll, (), pen, difficulty, rerolls)[0][1]
    assert total / 6 ** (dice + 1) == dw.success_chance(dice, difficulty, 1, rerolls)


def test_best_locks_ranks_the_choices() -> None:
    options = dw.best_locks((4, 4, 4, 2, 1), (), (), 4, 1)
    best, chance = options[0]
    assert best == {0, 1, 2} and chance == Fraction(11, 36)  # one more 4 from two dice
    assert [c for _, c in options] == sorted((c for _, c in options), reverse=True)
    assert all(not ({3, 4} & locks) for locks, _ in options)  # a 2 or a 1 never helps a 4
    assert len({locks for locks, _ in options}) == len(options) == 4  # lock 0-3 of the 4s
    # Locks already made stay in every choice.
    assert all(locks >= {0} for locks, _ in dw.best_locks((4, 4, 4, 2, 1), (0,), (), 4, 1))
    # A made set: lock it and stop.
    assert dw.best_locks((3, 3, 3, 5, 1), (), (), 3, 2)[0] == (frozenset({0, 1, 2}), Fraction(1))
    # No re-roll left: the dice stand.
    assert dw.best_locks((3, 3, 5), (1,), (), 3, 0) == [(frozenset({1}), Fraction(0))]
    # Penalty dice showing 4 raise the need for 4s.
    plain = dict(dw.best_locks((4, 4, 4, 2, 1), (), (), 4, 1))
    hindered = dict(dw.best_locks((4, 4, 4, 2, 1), (), (4,), 4, 1))
    assert hindered[frozenset({0, 1, 2})] == Fraction(1, 36) < plain[frozenset({0, 1, 2})]


def test_refusals() -> None:
    for bad in ((-1, 3, 0, 2), (4, 1, 0, 2), (4, 7, 0, 2), (4, 3, -1, 2), (4, 3, 0, 9), (99, 3, 0, 2)):
        with pytest.raises(RuleError) as err:
            dw.success_chance(*bad)
        assert err.value.rule == "odds", bad
    with pytest.raises(RuleError):
        dw.best_locks((4, 7), (), (), 4, 1)
    with pytest.raises(RuleError):
        dw.best_locks((4, 4), (2,), (), 4, 1)


def test_odds_report() -> None:
    report = dw.odds_report(6, 3, 1, 2)
    exact = dw.success_chance(6, 3, 1, 2)
    assert report["exact"] == f"{exact.numerator}/{exact.denominator}"
    assert report["chance"] == round(float(exact), 6) and report["percent"].endswith("%")
    assert set(report["by_rerolls"]) == {"0", "1", "2"}
    assert report["by_rerolls"]["2"]["exact"] == report["exact"]
    assert {k: report[k] for k in ("game", "dice", "difficulty", "penalty", "rerolls")} == {
        "game": "danger-world",
        "dice": 6,
        "difficulty": 3,
        "penalty": 1,
        "rerolls": 2,
    }
