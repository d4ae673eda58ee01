"""Bot games per second for every game, on one core and on every core, beside a fixed
pure-Python baseline timed in the same process.

The baseline (sorting and summing a seeded list) does not change with the project, so the
ratio `games per baseline run` compares machines and commits fairly on a shared, noisy box.
One core is `lab.simulate(..., workers=1)` (the lean game loop in this process); every core
is the process pool, pool start-up included.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import lab
from lab.core import default_workers

__all__ = ["WORKLOADS", "Workload", "baseline_ms", "format_simulations", "run_simulations"]


@dataclass(frozen=True)
class Workload:
    name: str
    game: str
    variants: str
    #: games per timing on one core; every core plays `all_cores_factor` times as many.
    games: int


WORKLOADS = (
    Workload("leerdam, 10 households", "leerdam", "bots=free-rider,fair,conditional,altruist,fair,free-rider,fair,conditional,altruist,fair", 100),
    Workload("new-rule, 4 bots", "new-rule", "", 60),
    Workload("danger-world, 3 characters", "danger-world", "sweep_trials=0", 200),
    Workload("dangerous-ideas, 4 bots", "dangerous-ideas", "", 6),
)
ALL_CORES_FACTOR = 4


def _baseline(seed: int) -> float:
    values = [random.Random(seed).random() for _ in range(20_000)]
    return sum(sorted(values))


def baseline_ms(repeats: int = 3) -> float:
    """The best of `repeats` runs of the fixed baseline, in milliseconds."""
    best = float("inf")
    for seed in range(repeats):
        start = time.perf_counter()
        _baseline(seed)
        best = min(best, time.perf_counter() - start)
    return best * 1000


def _rate(workload: Workload, games: int, workers: int, repeats: int) -> float:
    """Best-of-`repeats` games per second (the best run is the least disturbed one)."""
    best = float("inf")
    for attempt in range(repeats):
        start = time.perf_counter()
        lab.simulate(workload.game, games, attempt, workload.variants, workers=workers)
        best = min(best, time.perf_counter() - start)
    return games / best


def run_simulations(repeats: int = 3, quick: bool = False) -> list[dict[str, float | str | int]]:
    cores = default_workers()
    base = baseline_ms()
    rows = []
    for w in WORKLOADS:
        games = 2 if quick else w.games
        one = _rate(w, games, 1, 1 if quick else repeats)
        every = _rate(w, games * (1 if quick else ALL_CORES_FACTOR), cores, 1 if quick else 2)
        rows.append(
            {
                "workload": w.name,
                "one_core_per_second": round(one, 2),
                "one_core_per_baseline_run": round(one * base / 1000, 4),
                "cores": cores,
                "all_cores_per_second": round(every, 2),
                "all_cores_per_baseline_run": round(every * base / 1000, 4),
                "all_vs_one": round(every / one, 2),
            }
        )
    return rows


def format_simulations(rows: list[dict[str, float | str | int]]) -> str:
    lines = [f"{'workload':28} {'1 core/s':>9} {'per base':>9} {'all/s':>8} {'per base':>9} {'all/1':>6}", "-" * 74]
    for r in rows:
        lines.append(
            f"{r['workload']!s:28} {r['one_core_per_second']:>9} {r['one_core_per_baseline_run']:>9} {r['all_cores_per_second']:>8} {r['all_cores_per_baseline_run']:>9} {r['all_vs_one']:>6}"
        )
    return "\n".join(lines)
