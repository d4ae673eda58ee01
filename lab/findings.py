"""Findings every game's lab can state: a dominant strategy, a seat advantage, a comparison.

Each rule reads plain per-game numbers and returns the findings that hold in them (none when
the numbers do not show it), so a test can hand it crafted results either way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .core import Finding

__all__ = ["DOMINANT", "SEAT_Z", "by_kind", "compared", "dominance", "seat_advantage", "share_text", "table_findings", "winners_of"]

#: a kind of bot dominates when its seats out-score every other kind's in this share of games.
DOMINANT = 0.9
#: below this share, say that no kind dominates.
OPEN = 0.6
#: a seat's win share must stand this many standard errors from its kind's to be an advantage
#: (well above 1.96: a table has many seats, and one of them is always the luckiest).
SEAT_Z = 3.0


def share_text(count: int, total: int) -> str:
    """'93% (930 of 1,000)'."""
    return f"{count / total:.0%} ({count:,} of {total:,})" if total else "none"


def winners_of(row: Mapping[str, Any]) -> list[int]:
    """The winning seats (0-based) of a game's row: its `winners` column reads '1 4'."""
    return [int(s) - 1 for s in str(row["winners"]).split()]


def by_kind(bots: Sequence[str], rows: Sequence[Mapping[str, Any]], column: str, label: str) -> dict[str, list[float]]:
    """Per game, the mean of `column1`, `column2`, ... over the seats of each kind of bot."""
    out = {}
    for kind in sorted(set(bots)):
        seats = [s for s, b in enumerate(bots) if b == kind]
        out[f"{label}: {kind}"] = [sum(r[f"{column}{s + 1}"] for s in seats) / len(seats) for r in rows]
    return out


def table_findings(bots: Sequence[str], rows: Sequence[Mapping[str, Any]], column: str, unit: str) -> list[Finding]:
    """Whether a strategy dominates (by the seats' `column1`, `column2`, ...) and whether a seat
    has an advantage (by the rows' winners)."""
    scores = [[r[f"{column}{s + 1}"] for s in range(len(bots))] for r in rows]
    return dominance(bots, scores, unit) + seat_advantage(bots, [winners_of(r) for r in rows])


def dominance(bots: Sequence[str], scores: Sequence[Sequence[float]], unit: str = "points") -> list[Finding]:
    """Whether one kind of bot out-scores every other kind (mean over its seats) game after game.

    `scores[g][seat]` is game g's score of each seat. With one kind at the table there is
    nothing to say.
    """
    kinds = sorted(set(bots))
    if len(kinds) < 2 or not scores:
        return []
    seats = {k: [s for s, b in enumerate(bots) if b == k] for k in kinds}
    ahead = dict.fromkeys(kinds, 0)
    means = dict.fromkeys(kinds, 0.0)
    for game in scores:
        mean = {k: sum(game[s] for s in seats[k]) / len(seats[k]) for k in kinds}
        for k in kinds:
            means[k] += mean[k] / len(scores)
        best = max(mean.values())
        leaders = [k for k in kinds if mean[k] == best]
        if len(leaders) == 1:
            ahead[leaders[0]] += 1
    top = max(kinds, key=lambda k: ahead[k])
    share = ahead[top] / len(scores)
    others = max(means[k] for k in kinds if k != top)
    numbers = {"strategy": top, "share": round(share, 4), "mean": round(means[top], 3), "best_other_mean": round(others, 3)}
    if share >= DOMINANT:
        return [
            Finding(
                "dominant-strategy",
                f"{top} dominates: its households out-score every other kind in {share_text(ahead[top], len(scores))} of games "
                f"(mean {means[top]:.1f} {unit}, the best other kind {others:.1f}).",
                numbers,
            )
        ]
    if share < OPEN:
        return [
            Finding(
                "no-dominant-strategy",
                f"No strategy dominates: the most successful, {top}, out-scores every other kind in only {share:.0%} of games.",
                numbers,
            )
        ]
    return []


def seat_advantage(bots: Sequence[str], winners: Sequence[Sequence[int]]) -> list[Finding]:
    """A seat that wins clearly more (or less) often than the other seats of its kind.

    `winners[g]` are game g's winning seats (a shared win counts as a share). Each seat is set
    against its kind's average seat; only seats whose kind sits at two seats or more count.
    """
    n = len(winners)
    if not n:
        return []
    wins = [0.0] * len(bots)
    for seats in winners:
        for s in seats:
            wins[s] += 1 / len(seats)
    best: tuple[float, int, float, float] | None = None
    for seat, kind in enumerate(bots):
        same = [s for s, b in enumerate(bots) if b == kind]
        if len(same) < 2:
            continue
        expected = sum(wins[s] for s in same) / len(same) / n
        observed = wins[seat] / n
        if expected <= 0 or expected >= 1:
            continue
        z = (observed - expected) / math.sqrt(expected * (1 - expected) / n)
        if abs(z) >= SEAT_Z and (best is None or abs(z) > abs(best[0])):
            best = (z, seat, observed, expected)
    if best is None:
        return []
    z, seat, observed, expected = best
    kind = bots[seat]
    word = "more" if z > 0 else "less"
    return [
        Finding(
            "seat-advantage",
            f"Seat order matters: seat {seat + 1} ({kind}) wins {observed:.1%} of games, {word} than the "
            f"{expected:.1%} of an average {kind} seat at this table.",
            {"seat": seat + 1, "win_share": round(observed, 4), "kind_share": round(expected, 4), "z": round(z, 2)},
        )
    ]


def compared(rows: Sequence[Mapping[str, Any]]) -> list[Finding]:
    """What changed from setup A to B: each measure whose 95% interval leaves out 0."""
    found = []
    for row in rows:
        if row["noise"] or row["difference"] is None or row.get("identical"):
            continue
        direction = "rises" if row["difference"] > 0 else "falls"
        found.append(
            Finding(
                "changed",
                f"{row['measure'][:1].upper()}{row['measure'][1:]} {direction} from {_num(row['a'])} to {_num(row['b'])} "
                f"(difference {_num(row['difference'], True)}, 95% interval {_num(row['low'], True)} to {_num(row['high'], True)}).",
                dict(row),
            )
        )
    same = [row["measure"] for row in rows if row.get("identical")]
    if same:
        found.append(Finding("unchanged", f"The same in every game of A and B (played on the same dice): {', '.join(same)}.", {"measures": same}))
    if rows and not any(f.key == "changed" for f in found):
        found.append(Finding("no-change", "No measure differs beyond the noise of this many games: more games may tell them apart."))
    return found


def _num(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "—"
    text = f"{value:+.3g}" if signed else f"{value:.3g}"
    return text
