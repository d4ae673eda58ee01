"""Exact-odds query times: Danger World pools up to 12 dice, 3 penalty dice, 2 re-rolls.

"Cold" is a query with every odds cache of the rules model emptied first (a new kernel's
first click); "warm" is the same query again after a sweep over every query (the cache
cleared of that query's own answer only, so the shared tables stay). The slowest of each is
reported, beside the fixed baseline of `benchmarks.simulation` timed in the same process.
Nothing here asserts a speed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import _lru_cache_wrapper

from rules import danger_world as dw

from benchmarks.simulation import WORKLOADS

__all__ = ["run_odds", "format_odds"]

QUERIES = [(dice, difficulty, penalty, rerolls) for dice in range(1, 13) for difficulty in range(2, 7) for penalty in range(4) for rerolls in range(3)]


def _caches() -> list[_lru_cache_wrapper[object]]:
    return [value for value in vars(dw).values() if isinstance(value, _lru_cache_wrapper)]


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def run_odds() -> dict[str, object]:
    cold: list[tuple[float, tuple[int, int, int, int]]] = []
    for query in QUERIES[::7] + [(12, 2, 3, 2)]:  # a spread of queries plus the known worst
        for cache in _caches():
            cache.cache_clear()
        cold.append((_timed(lambda q=query: dw.success_chance(*q)), query))
    for query in QUERIES:
        dw.success_chance(*query)  # fill the shared tables
    warm: list[tuple[float, tuple[int, int, int, int]]] = []
    for query in QUERIES:
        # Drop only the answers: the question is how fast a query is once the tables exist.
        dw.success_chance.cache_clear()
        warm.append((_timed(lambda q=query: dw.success_chance(*q)), query))
    coach_ms = _timed(lambda: dw.best_locks((6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1), (), (2, 3, 4), 2, 2))
    baseline = WORKLOADS[0]
    base_ms = min(_timed(lambda: baseline.play(1, seed)) for seed in range(3))
    slow_cold, slow_warm = max(cold), max(warm)
    return {
        "queries_cold": len(cold),
        "queries_warm": len(warm),
        "slowest_cold_ms": round(slow_cold[0], 2),
        "slowest_cold_query": slow_cold[1],
        "slowest_warm_ms": round(slow_warm[0], 3),
        "slowest_warm_query": slow_warm[1],
        "coach_12_dice_ms": round(coach_ms, 2),
        "baseline_run_ms": round(base_ms, 2),
        "slowest_cold_in_baseline_runs": round(slow_cold[0] / base_ms, 2),
        "slowest_warm_in_baseline_runs": round(slow_warm[0] / base_ms, 4),
    }


def format_odds(report: dict[str, object]) -> str:
    return "\n".join(
        [
            f"slowest cold query  {report['slowest_cold_ms']:>9} ms  {report['slowest_cold_query']}  ({report['slowest_cold_in_baseline_runs']} baseline runs)",
            f"slowest warm query  {report['slowest_warm_ms']:>9} ms  {report['slowest_warm_query']}  ({report['slowest_warm_in_baseline_runs']} baseline runs)",
            f"coach, 12 dice      {report['coach_12_dice_ms']:>9} ms",
            f"(dice, difficulty, penalty, rerolls); {report['queries_cold']} cold and {report['queries_warm']} warm queries; baseline run {report['baseline_run_ms']} ms",
        ]
    )


if __name__ == "__main__":
    print(format_odds(run_odds()))
