"""Exact-odds query times: Danger World pools up to 12 dice, 3 penalty dice and 2 re-rolls;
Dangerous Ideas pools up to 20 with up to 3 seeds; and icepool on the questions it answers.

"Cold" is a query with every odds cache of the rules model emptied first (a new kernel's
first click); "warm" is the same query again after a sweep over every query (the cache
cleared of that query's own answer only, so the shared tables stay). The slowest of each is
reported, beside the fixed baseline of `benchmarks.simulation` timed in the same process.
icepool (a dice-probability library) answers the checks without re-rolls and the meme
actions without seeds, asked the way its author recommends (a `MultisetEvaluator` that sees
each face once, with its count in the pool and in the penalty dice); its answers must equal
the rules' exactly, and its time stands beside the rules' cold time on the same questions.
Every time is process (CPU) time: on a shared machine wall time measures the neighbours.
Nothing here asserts a speed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import _lru_cache_wrapper
from types import ModuleType

from benchmarks.simulation import baseline_ms
from rules import danger_world as dw
from rules import dangerous_ideas as di

__all__ = ["format_odds", "icepool_danger_world", "icepool_dangerous_ideas", "run_odds"]

QUERIES = [(dice, difficulty, penalty, rerolls) for dice in range(1, 13) for difficulty in range(2, 7) for penalty in range(4) for rerolls in range(3)]
IDEAS = [(pool, seeds) for pool in range(21) for seeds in range(4)]
#: the checks icepool is asked (no re-rolls): a spread of pools, every difficulty and penalty.
ICEPOOL_DICE = (1, 4, 8, 12)


def _caches(module: ModuleType) -> list[_lru_cache_wrapper[object]]:
    return [value for value in vars(module).values() if isinstance(value, _lru_cache_wrapper)]


def _clear(module: ModuleType) -> None:
    for cache in _caches(module):
        cache.cache_clear()
    tables = getattr(module, "_canonical", None)  # Danger World's table of solved states
    if isinstance(tables, dict):
        tables.clear()


def _timed(call: Callable[[], object]) -> float:
    start = time.process_time()
    call()
    return (time.process_time() - start) * 1000


def _made_set_evaluator(difficulty: int) -> object:
    """An icepool evaluator: whether some face h >= difficulty shows on at least h pool dice
    more than on the penalty dice (a set of height h or more, the rules' success)."""
    import icepool

    class MadeSet(icepool.MultisetEvaluator):
        def initial_state(self, order: object, outcomes: object, *sizes: object) -> bool:
            return False

        def next_state(self, made: bool, order: object, face: int, pool: int, penalty: int) -> bool:
            return made or (face >= difficulty and pool - penalty >= face)

    return MadeSet()


def icepool_danger_world(dice: int, difficulty: int, penalty: int) -> object:
    """icepool's chance of a set of height >= difficulty with no re-roll (a Fraction)."""
    import icepool

    return _made_set_evaluator(difficulty).evaluate(icepool.d6.pool(dice), icepool.d6.pool(penalty)).probability(True)


def icepool_dangerous_ideas(pool: int) -> object:
    """icepool's chance that 2d6 comes in at or under `pool`, 11 and 12 always failing."""
    import icepool

    return (icepool.d6 + icepool.d6).map(lambda total: total <= pool and total < di.ALWAYS_FAILS).probability(True)


def _slowest(times: list[tuple[float, object]]) -> tuple[float, object]:
    return max(times, key=lambda t: t[0])


def run_odds(quick: bool = False) -> dict[str, object]:
    """Cold and warm query times for both games, and the icepool comparison (`quick`: a few queries)."""
    dw_queries = QUERIES[::97] if quick else QUERIES
    cold = []
    for query in (dw_queries[::7] + [(12, 2, 3, 2)]) if not quick else dw_queries:
        _clear(dw)
        cold.append((_timed(lambda q=query: dw.success_chance(*q)), query))
    for query in dw_queries:
        dw.success_chance(*query)  # fill the shared tables
    warm = []
    for query in dw_queries:
        dw.success_chance.cache_clear()  # drop only the answers: the tables stay
        warm.append((_timed(lambda q=query: dw.success_chance(*q)), query))
    ideas = IDEAS[::9] if quick else IDEAS
    ideas_cold = []
    for query in ideas:
        _clear(di)
        ideas_cold.append((_timed(lambda q=query: di.success_chance(*q)), query))
    ideas_warm = [(_timed(lambda q=query: di.success_chance(*q)), query) for query in ideas]

    # icepool, on the questions it can answer, asserting the same numbers.
    checks = [(d, h, p) for d in ((1, 4) if quick else ICEPOOL_DICE) for h in range(2, 7) for p in range(4)]
    ice_ms = ours_ms = 0.0
    for d, h, p in checks:
        start = time.process_time()
        theirs = icepool_danger_world(d, h, p)
        ice_ms += (time.process_time() - start) * 1000
        _clear(dw)
        start = time.process_time()
        ours = dw.success_chance(d, h, p, 0)
        ours_ms += (time.process_time() - start) * 1000
        assert ours == theirs, f"danger-world {d} dice, difficulty {h}, {p} penalty: rules {ours}, icepool {theirs}"
    ice_di_ms = ours_di_ms = 0.0
    for pool in range(21):
        start = time.process_time()
        theirs = icepool_dangerous_ideas(pool)
        ice_di_ms += (time.process_time() - start) * 1000
        _clear(di)
        start = time.process_time()
        ours = di.success_chance(pool, 0)
        ours_di_ms += (time.process_time() - start) * 1000
        assert ours == theirs, f"dangerous-ideas pool {pool}: rules {ours}, icepool {theirs}"

    base = baseline_ms()
    slow_cold, slow_warm = _slowest(cold), _slowest(warm)
    ideas_slow_cold, ideas_slow_warm = _slowest(ideas_cold), _slowest(ideas_warm)
    return {
        "baseline_run_ms": round(base, 2),
        "danger_world": {
            "queries_cold": len(cold),
            "queries_warm": len(warm),
            "slowest_cold_ms": round(slow_cold[0], 2),
            "slowest_cold_query": slow_cold[1],
            "slowest_warm_ms": round(slow_warm[0], 3),
            "slowest_warm_query": slow_warm[1],
        },
        "dangerous_ideas": {
            "queries": len(ideas),
            "slowest_cold_ms": round(ideas_slow_cold[0], 3),
            "slowest_cold_query": ideas_slow_cold[1],
            "slowest_warm_ms": round(ideas_slow_warm[0], 4),
        },
        "coach_12_dice_ms": round(_timed(lambda: dw.best_locks((6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1), (), (2, 3, 4), 2, 2)), 2),
        "icepool": {
            "danger_world_checks": len(checks),
            "danger_world_icepool_ms": round(ice_ms, 1),
            "danger_world_rules_cold_ms": round(ours_ms, 1),
            "dangerous_ideas_pools": 21,
            "dangerous_ideas_icepool_ms": round(ice_di_ms, 2),
            "dangerous_ideas_rules_cold_ms": round(ours_di_ms, 2),
            "same_numbers": True,
        },
    }


def format_odds(report: dict[str, object]) -> str:
    d, i, ice = report["danger_world"], report["dangerous_ideas"], report["icepool"]
    assert isinstance(d, dict) and isinstance(i, dict) and isinstance(ice, dict)
    return "\n".join(
        [
            f"danger-world slowest cold query  {d['slowest_cold_ms']:>9} ms  {d['slowest_cold_query']}",
            f"danger-world slowest warm query  {d['slowest_warm_ms']:>9} ms  {d['slowest_warm_query']}",
            f"dangerous-ideas slowest cold     {i['slowest_cold_ms']:>9} ms  {i['slowest_cold_query']}",
            f"icepool, {ice['danger_world_checks']} checks without re-rolls: {ice['danger_world_icepool_ms']} ms against the rules' {ice['danger_world_rules_cold_ms']} ms cold (same numbers)",
        ]
    )


if __name__ == "__main__":
    print(format_odds(run_odds()))
