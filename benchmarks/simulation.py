"""Bot games per second, beside a fixed pure-Python baseline timed in the same process.

The baseline (sorting and summing a seeded list) does not change with the project, so the
ratio `games per baseline run` compares machines and commits fairly on a shared, noisy box.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from rules import leerdam, new_rule

__all__ = ["Workload", "WORKLOADS", "run_simulations", "format_simulations"]


@dataclass(frozen=True)
class Workload:
    name: str
    #: plays `games` games from `seed`.
    play: Callable[[int, int], object]
    games: int


def _baseline(_: int, seed: int) -> object:
    values = [random.Random(seed).random() for _ in range(20_000)]
    return sum(sorted(values))


WORKLOADS = (
    Workload("baseline: sort 20k floats", _baseline, 20),
    Workload("leerdam, 10 bot households", lambda games, seed: leerdam.simulate(games, seed, ("free-rider", "fair", "conditional", "altruist", "fair") * 2), 20),
    Workload("new-rule, 4 bots", lambda games, seed: new_rule.simulate(games, seed), 40),
)


def _rate(workload: Workload, repeats: int) -> float:
    """Best-of-`repeats` units per second (the best run is the least disturbed one)."""
    best = float("inf")
    for attempt in range(repeats):
        start = time.perf_counter()
        workload.play(workload.games, attempt)
        best = min(best, time.perf_counter() - start)
    return workload.games / best


def run_simulations(repeats: int = 3) -> list[dict[str, float | str]]:
    rates = {w.name: _rate(w, repeats) for w in WORKLOADS}
    base = rates[WORKLOADS[0].name]
    return [{"workload": name, "per_second": round(rate, 2), "vs_baseline": round(rate / base, 4)} for name, rate in rates.items()]


def format_simulations(rows: list[dict[str, float | str]]) -> str:
    lines = [f"{'workload':32} {'games/s':>10} {'per baseline run':>17}", "-" * 61]
    for row in rows:
        lines.append(f"{row['workload']!s:32} {row['per_second']:>10} {row['vs_baseline']:>17}")
    return "\n".join(lines)
