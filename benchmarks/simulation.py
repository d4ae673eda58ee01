"""Bot games per CPU-second for every game, on one core and on every core, beside a fixed
pure-Python baseline timed in the same process.

Every figure is process (CPU) time, the pool's workers included: on a machine shared with
other work, wall time measures the neighbours. The baseline (sorting and summing a seeded
list) does not change with the project, so the ratio `games per baseline run` compares
machines and commits. One core is `lab.simulate(..., workers=1)` (the lean game loop in this
process); every core is the process pool, pool start-up and shut-down included, so its games
per CPU-second against one core's is what the pool costs (1.0: nothing). The wall-clock
speed-up of every core is reported too, but it depends on the load.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass

import lab
from lab.core import close_pool, default_workers

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
    Workload("dangerous-ideas, 4 bots", "dangerous-ideas", "", 20),
)
ALL_CORES_FACTOR = 4


def _baseline(seed: int) -> float:
    values = [random.Random(seed).random() for _ in range(20_000)]
    return sum(sorted(values))


def baseline_ms(repeats: int = 3) -> float:
    """The best of `repeats` runs of the fixed baseline, in CPU milliseconds."""
    best = float("inf")
    for seed in range(repeats):
        start = time.process_time()
        _baseline(seed)
        best = min(best, time.process_time() - start)
    return best * 1000


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _rate(workload: Workload, games: int, workers: int, repeats: int) -> tuple[float, float]:
    """Best-of-`repeats` games per CPU-second, and per wall second, of one setup. The pool is
    closed after each run so that its workers' CPU time is counted."""
    best_cpu = best_wall = float("inf")
    # One worker plays in this process: its own CPU clock counts in nanoseconds, where
    # os.times() counts in 10 ms ticks (a 0.1 s timing could only read 0.10, 0.11, ...).
    clock = time.process_time if workers == 1 else _cpu
    for attempt in range(repeats):
        close_pool()
        cpu, wall = clock(), time.perf_counter()
        lab.simulate(workload.game, games, attempt, workload.variants, workers=workers)
        close_pool()
        best_cpu = min(best_cpu, clock() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    tick = 1 / os.sysconf("SC_CLK_TCK")  # os.times() counts in ticks: a tiny run may show none
    return games / max(best_cpu, tick), games / max(best_wall, 1e-9)


def run_simulations(repeats: int = 3, quick: bool = False) -> list[dict[str, float | str | int]]:
    cores = default_workers()
    base = baseline_ms()
    rows = []
    for w in WORKLOADS:
        games = 2 if quick else w.games
        one, one_wall = _rate(w, games, 1, 1 if quick else repeats)
        every, every_wall = _rate(w, games * (1 if quick else ALL_CORES_FACTOR), cores, 1 if quick else 2)
        rows.append(
            {
                "workload": w.name,
                "one_core_per_second": round(one, 2),
                "one_core_per_baseline_run": round(one * base / 1000, 4),
                "cores": cores,
                "all_cores_per_second": round(every, 2),
                "all_cores_per_baseline_run": round(every * base / 1000, 4),
                "all_vs_one": round(every / one, 2),
                "wall_speed_up": round(every_wall / one_wall, 2),
            }
        )
    return rows


def format_simulations(rows: list[dict[str, float | str | int]]) -> str:
    lines = [f"{'workload (per CPU-second)':28} {'1 core/s':>9} {'per base':>9} {'all/s':>8} {'per base':>9} {'all/1':>6}", "-" * 74]
    for r in rows:
        lines.append(
            f"{r['workload']!s:28} {r['one_core_per_second']:>9} {r['one_core_per_baseline_run']:>9} {r['all_cores_per_second']:>8} {r['all_cores_per_baseline_run']:>9} {r['all_vs_one']:>6}"
        )
    return "\n".join(lines)
