"""Findings every game's lab can state: a dominant strategy, a seat advantage, a comparison.

Each rule reads plain per-game numbers and returns the findings that hold in them (none when
the numbers do not show it), so a test can hand it crafted results either way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .core import Finding

__all__ = ["DOMINANT", "SEAT_Z", "by_kind", "compared", "dominance", "mean_by_kind", "seat_advantage", "share_text", "table_findings", "win_shares", "winners_of"]

#: a kind of bot dominates when its seats win this share of all games.
DOMINANT = 0.9
#: no kind dominates when the best kind's wins per seat are at most this many times the next's.
OPEN = 1.25
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


def win_shares(bots: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, float | None]]:
    """Win shares per seat, by kind of bot and by seat (a shared win counts as a share)."""
    n = len(rows)
    by_seat = [0.0] * len(bots)
    for row in rows:
        winners = winners_of(row)
        for seat in winners:
            by_seat[seat] += 1 / len(winners)
    kinds = {k: [s for s, b in enumerate(bots) if b == k] for k in sorted(set(bots))}
    return {
        "by_kind": {k: round(sum(by_seat[s] for s in seats) / (n * len(seats)), 4) if n else None for k, seats in kinds.items()},
        "by_seat": {str(s + 1): round(w / n, 4) if n else None for s, w in enumerate(by_seat)},
    }


def mean_by_kind(bots: Sequence[str], rows: Sequence[Mapping[str, Any]], column: str) -> dict[str, float | None]:
    """The mean of `column1`, `column2`, ... per seat, by kind of bot, over all games."""
    per_game = by_kind(bots, rows, column, "mean")
    return {label.split(": ", 1)[1]: round(sum(v) / len(v), 3) if v else None for label, v in per_game.items()}


def table_findings(bots: Sequence[str], rows: Sequence[Mapping[str, Any]], column: str, unit: str) -> list[Finding]:
    """Whether a strategy dominates (by the rows' winners, with the seats' `column1`, `column2`,
    ... as scores) and whether a seat has an advantage."""
    scores = [[r[f"{column}{s + 1}"] for s in range(len(bots))] for r in rows]
    winners = [winners_of(r) for r in rows]
    return dominance(bots, winners, scores, unit) + seat_advantage(bots, winners)


def dominance(bots: Sequence[str], winners: Sequence[Sequence[int]], scores: Sequence[Sequence[float]], unit: str = "points") -> list[Finding]:
    """Whether one kind of bot wins game after game, and out-wins every other kind seat for seat.

    `winners[g]` are game g's winning seats (a shared win counts as a share), `scores[g][seat]`
    its scores. With one kind at the table there is nothing to say.
    """
    kinds = sorted(set(bots))
    n = len(winners)
    if len(kinds) < 2 or not n:
        return []
    seats = {k: [s for s, b in enumerate(bots) if b == k] for k in kinds}
    won = dict.fromkeys(kinds, 0.0)
    for game in winners:
        for s in game:
            won[bots[s]] += 1 / len(game)
    per_seat = {k: won[k] / (n * len(seats[k])) for k in kinds}
    mean = {k: sum(sum(g[s] for s in seats[k]) / len(seats[k]) for g in scores) / len(scores) for k in kinds} if scores else {}
    top, second = sorted(kinds, key=lambda k: -per_seat[k])[:2]
    numbers = {"strategy": top, "win_share": round(won[top] / n, 4), "per_seat": round(per_seat[top], 4), "best_other_per_seat": round(per_seat[second], 4)}
    if won[top] / n >= DOMINANT:
        means = f"; mean {mean[top]:.1f} {unit} against {max(mean[k] for k in kinds if k != top):.1f}" if mean else ""
        return [
            Finding(
                "dominant-strategy",
                f"{top} dominates: its seats win {won[top] / n:.0%} of games, {per_seat[top]:.0%} per seat against at most "
                f"{per_seat[second]:.0%} for any other kind{means}.",
                numbers,
            )
        ]
    if per_seat[top] <= OPEN * per_seat[second]:
        return [
            Finding(
                "no-dominant-strategy",
                f"No strategy dominates: per seat, {top} wins {per_seat[top]:.0%} of games and {second} {per_seat[second]:.0%}.",
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
