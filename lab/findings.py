"""Findings every game's lab can state: a dominant strategy, a seat advantage, a comparison.

Each rule reads plain per-game numbers and returns the findings that hold in them (none when
the numbers do not show it), so a test can hand it crafted results either way.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from babel.numbers import format_decimal

import i18n
from i18n import _, _n

from .core import LEVEL, Finding, label_of, mean_interval, share_interval

__all__ = ["DOMINANT", "MIN_GAMES", "SEAT_LEVEL", "SEAT_Z", "by_kind", "compared", "dominance", "fixed", "holm", "mean_by_kind", "pct", "pct_interval", "per_seat_lead", "per_seat_share", "per_seat_wins", "points", "seat_advantage", "seat_gaps", "seat_order", "share_text", "signed", "table_findings", "too_few", "verdict", "verdict_word", "what_wins", "win_shares", "winners_of"]

#: fewer games than this per setup: the lab shows the numbers but states no finding.
MIN_GAMES = 30
#: a kind of bot dominates when each of its seats wins at least this many times as often as a
#: seat of any other kind, beyond the noise (the interval of the per-seat lead leaves out 0).
DOMINANT = 2.0
#: a seat's win share must stand this many standard errors from its kind's to be an advantage
#: (well above 1.96: a table has many seats, and one of them is always the luckiest) ...
SEAT_Z = 3.0
#: ... that is, the seat's gap is told by its 99.7% interval, and the sentences print that one.
SEAT_LEVEL = math.erf(SEAT_Z / math.sqrt(2))


def pct(share: float, digits: int = 0) -> str:
    """A share as the reader's language writes a percentage: '42%', '99.7%' (French '42 %')."""
    return i18n.percent(share, digits=digits)


def _decimal(value: float, pattern: str) -> str:
    return format_decimal(value, format=pattern, locale=i18n._locale(i18n.current()))


def fixed(value: float, digits: int = 1) -> str:
    """A number with `digits` decimals, in the reader's language: '12.0' (Dutch '12,0')."""
    return _decimal(value, "#,##0" + ("." + "0" * digits if digits else ""))


def signed(value: float, digits: int = 1) -> str:
    """A difference with its sign, in the reader's language: '+12.5', '-0.3' (Dutch '+12,5')."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return _decimal(value, f"+{pattern};-{pattern}")


def points(share: float | None) -> str:
    """A difference of two shares in percentage points: '+12.5 points'."""
    # TRANSLATORS: a difference of two percentages in percentage points, e.g. "+12.5 points".
    return "—" if share is None else _("{value} points", value=signed(share * 100))


def share_text(count: int, total: int) -> str:
    """'93% (930 of 1,000)'."""
    # TRANSLATORS: a share of games with its count, e.g. "93% (930 of 1,000)".
    return _("{share} ({count} of {total})", share=pct(count / total), count=count, total=total) if total else _("none")


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


def per_seat_wins(bots: Sequence[str], winners: Sequence[Sequence[int]]) -> dict[str, list[float]]:
    """Per game, the share of the win that each seat of a kind took on average (a shared win
    counts as a share): a kind at 9 seats and a kind at 1 winning as often per seat tie."""
    seats = Counter(bots)
    out = {k: [0.0] * len(winners) for k in sorted(seats)}
    for g, game in enumerate(winners):
        for s in game:
            out[bots[s]][g] += 1 / len(game) / seats[bots[s]]
    return out


def per_seat_share(won: float, seats: int, games: int) -> tuple[float, float, float]:
    """A kind's share of games won per seat and its interval: Wilson's on the games the kind
    won (a shared win as a share), over its seats. Sound at 0 or all games, where a t interval
    on per-game values that never vary collapses to a point."""
    low, high = share_interval(won, games)
    return won / games / seats, low / seats, high / seats


def per_seat_lead(top: tuple[float, int], other: tuple[float, int], games: int) -> tuple[float, float, float]:
    """How much more often a seat of one kind wins than a seat of another, (won, seats) each
    over the same games, with its interval: Zou and Donner's MOVER on the two Wilson intervals.
    Two kinds cannot both win a game, so their shares move against each other: the correlation
    of a multinomial's shares (-1 when they take every game between them) widens the interval."""
    p1, p2 = top[0] / games, other[0] / games
    share, low1, high1 = per_seat_share(*top, games)
    other_share, low2, high2 = per_seat_share(*other, games)
    r = -1.0 if p1 + p2 >= 1 else -math.sqrt(p1 * p2 / ((1 - p1) * (1 - p2)))
    lead = share - other_share
    down = math.sqrt(max(0.0, (share - low1) ** 2 + (high2 - other_share) ** 2 - 2 * r * (share - low1) * (high2 - other_share)))
    up = math.sqrt(max(0.0, (high1 - share) ** 2 + (other_share - low2) ** 2 - 2 * r * (high1 - share) * (other_share - low2)))
    return lead, lead - down, lead + up


def dominance(bots: Sequence[str], winners: Sequence[Sequence[int]], scores: Sequence[Sequence[float]], unit: str = "points") -> list[Finding]:
    """Whether one kind of bot out-wins every other kind seat for seat, beyond the noise.

    `winners[g]` are game g's winning seats, `scores[g][seat]` its scores. The best kind per
    seat is set against the next best: it dominates when its seats win at least `DOMINANT`
    times as often and the 95% interval of the lead (`per_seat_lead`) leaves out 0; no kind
    dominates when that interval holds 0. With one kind at the table there is nothing to say.
    """
    kinds = sorted(set(bots))
    n = len(winners)
    if len(kinds) < 2 or n < MIN_GAMES:
        return []
    seats = {k: [s for s, b in enumerate(bots) if b == k] for k in kinds}
    wins = per_seat_wins(bots, winners)
    per_seat = {k: sum(v) / n for k, v in wins.items()}
    top, second = sorted(kinds, key=lambda k: -per_seat[k])[:2]
    won = {k: sum(wins[k]) * len(seats[k]) for k in kinds}  # games each kind won
    difference, low, high = per_seat_lead((won[top], len(seats[top])), (won[second], len(seats[second])), n)
    numbers = {
        "strategy": top,
        "per_seat": round(per_seat[top], 4),
        "best_other": second,
        "best_other_per_seat": round(per_seat[second], 4),
        "lead_low": round(low, 4),
        "lead_high": round(high, 4),
        "games": n,
    }
    interval = _("lead per seat {lead}, 95% interval {low} to {high}", lead=points(difference), low=points(low), high=points(high))
    if low <= 0:
        return [
            Finding(
                "no-dominant-strategy",
                _n(
                    "No strategy dominates: per seat, {top} wins {top_share} of games and {second} {second_share} ({interval}: within the noise of {n} game).",
                    "No strategy dominates: per seat, {top} wins {top_share} of games and {second} {second_share} ({interval}: within the noise of {n} games).",
                    n, top=top, top_share=pct(per_seat[top]), second=second, second_share=pct(per_seat[second]), interval=interval,
                ),
                numbers,
            )
        ]
    if per_seat[top] >= DOMINANT * per_seat[second]:
        mean = {k: sum(sum(g[s] for s in seats[k]) / len(seats[k]) for g in scores) / len(scores) for k in kinds} if scores else {}
        said = dict(strategy=top, share=pct(per_seat[top]), other=pct(per_seat[second]), interval=interval)
        if mean:
            text = _(
                "{strategy} dominates: each of its seats wins {share} of games, against at most {other} for a seat of any other kind ({interval}); mean {mean} {unit} against {other_mean}.",
                **said, mean=fixed(mean[top]), unit=unit, other_mean=fixed(max(mean[k] for k in kinds if k != top)),
            )
        else:
            text = _("{strategy} dominates: each of its seats wins {share} of games, against at most {other} for a seat of any other kind ({interval}).", **said)
        return [Finding("dominant-strategy", text, numbers)]
    return []


def seat_gaps(bots: Sequence[str], winners: Sequence[Sequence[int]]) -> list[tuple[int, float, float, float]]:
    """(seat, gap, low, high) for each seat whose kind sits at two seats or more: the seat's
    share of the win minus its kind's average seat's, game by game, with its `SEAT_LEVEL` t
    interval (a shared win counts as a share)."""
    out = []
    for seat, kind in enumerate(bots):
        same = [s for s, b in enumerate(bots) if b == kind]
        if len(same) > 1:
            own = [sum(1 / len(w) for s in w if s == seat) for w in winners]
            kin = [sum(1 / len(w) for s in w if s in same) / len(same) for w in winners]
            mean, low, high, _p = mean_interval([o - k for o, k in zip(own, kin)], SEAT_LEVEL)
            out.append((seat, mean, low, high))
    return out


def _gap_text(gap: float, low: float, high: float) -> str:
    # TRANSLATORS: a seat's gap in percentage points and its interval: "+3.1 points, 99.7% interval +0.5 points to +5.7 points".
    return _("{gap}, {level} interval {low} to {high}", gap=points(gap), level=pct(SEAT_LEVEL, 1), low=points(low), high=points(high))


def seat_advantage(bots: Sequence[str], winners: Sequence[Sequence[int]]) -> list[Finding]:
    """A seat that wins clearly more (or less) often than the other seats of its kind: the
    `SEAT_LEVEL` interval of its gap (see `seat_gaps`) leaves out 0. Only seats whose kind sits
    at two seats or more count."""
    n = len(winners)
    if n < MIN_GAMES:
        return []
    clear = [g for g in seat_gaps(bots, winners) if g[2] > 0 or g[3] < 0]
    if not clear:
        return []
    seat, gap, low, high = max(clear, key=lambda g: abs(g[1]))
    kind = bots[seat]
    observed = sum(1 / len(w) for w in winners for s in w if s == seat) / n
    said = dict(seat=str(seat + 1), kind=kind, share=pct(observed, 1), average=pct(observed - gap, 1), gap=_gap_text(gap, low, high))
    return [
        Finding(
            "seat-advantage",
            _("Seat order matters: seat {seat} ({kind}) wins {share} of games, more than the {average} of an average {kind} seat at this table (gap {gap}).", **said)
            if gap > 0
            else _("Seat order matters: seat {seat} ({kind}) wins {share} of games, less than the {average} of an average {kind} seat at this table (gap {gap}).", **said),
            {"seat": seat + 1, "win_share": round(observed, 4), "kind_share": round(observed - gap, 4), "gap": round(gap, 4), "low": round(low, 4), "high": round(high, 4)},
        )
    ]


def holm(rows: Sequence[dict[str, Any]], level: float = LEVEL) -> None:
    """Mark each row `holds` (and not `noise`) when its change survives Holm's step-down test
    over the whole family, so that a comparison writes a false change at most 1 - `level` of
    the time however many measures it has. Rows are changed in place."""
    tested = sorted((r for r in rows if r.get("p") is not None and not r.get("identical")), key=lambda r: r["p"])
    for r in rows:
        r["holds"] = False
    for rank, r in enumerate(tested):
        if r["p"] > (1 - level) / (len(tested) - rank):
            break  # Holm stops at the first measure that fails its share of the error rate
        r["holds"] = True
    for r in rows:
        r["noise"] = not r["holds"]


def too_few(games: int) -> list[Finding]:
    """The one finding of a run too small for findings (empty list when it is big enough)."""
    if games >= MIN_GAMES:
        return []
    return [
        Finding(
            "too-few-games",
            _n(
                "{n} game per setup: the numbers are shown, but findings need at least {minimum} games.",
                "{n} games per setup: the numbers are shown, but findings need at least {minimum} games.",
                games, minimum=MIN_GAMES,
            ),
            {"games": games, "minimum": MIN_GAMES},
        )
    ]


def verdict(row: Mapping[str, Any], games: int) -> str:
    """A comparison table's word for one measure: 'too few games' below `MIN_GAMES` (no
    verdict, as `compared` writes no finding), else 'identical', 'within noise' or 'different'
    (its change holds after Holm's correction). An id: `verdict_word` says it."""
    if games < MIN_GAMES:
        return "too few games"
    return "identical" if row.get("identical") else "within noise" if row["noise"] else "different"


def verdict_word(verdict_id: str) -> str:
    """A `verdict` in the reader's language."""
    words = {
        # TRANSLATORS: a comparison table's verdict on a measure: below 30 games the lab gives none.
        "too few games": _("too few games"),
        # TRANSLATORS: a comparison table's verdict: A and B came out the same in every game.
        "identical": _("identical"),
        # TRANSLATORS: a comparison table's verdict: the difference may be luck.
        "within noise": _("within noise"),
        # TRANSLATORS: a comparison table's verdict: the difference holds beyond the noise.
        "different": _("different"),
    }
    return words.get(verdict_id, verdict_id)


def compared(rows: Sequence[Mapping[str, Any]], labels: Mapping[str, Any] | None = None) -> list[Finding]:
    """What changed from setup A to B: the measures that hold after Holm's correction over all
    of them (`holm` marks them), each with its own 95% t interval; each measure said as its
    game's lab says it (`labels`, `label_of`)."""

    def named(measure: str) -> str:
        return i18n.render(label_of(measure, labels, readable=False))

    games = max((row.get("games", 0) for row in rows), default=0)
    if rows and games < MIN_GAMES:
        return too_few(games)
    tested = sum(1 for row in rows if row.get("p") is not None and not row.get("identical"))
    found = []
    for row in rows:
        if not row.get("holds") or row["difference"] is None:
            continue
        measure = named(row["measure"])
        measure = measure[:1].upper() + measure[1:]
        said = dict(
            measure=measure, a=_num(row["a"]), b=_num(row["b"]), difference=_num(row["difference"], True),
            low=_num(row["low"], True), high=_num(row["high"], True), tested=tested,
        )
        found.append(
            Finding(
                "changed",
                _("{measure} rises from {a} to {b} (difference {difference}, 95% interval {low} to {high}; holds over all {tested} measures, Holm).", **said)
                if row["difference"] > 0
                else _("{measure} falls from {a} to {b} (difference {difference}, 95% interval {low} to {high}; holds over all {tested} measures, Holm).", **said),
                dict(row),
            )
        )
    same = [row["measure"] for row in rows if row.get("identical")]
    if rows and len(same) == len(rows):
        said_same = _n(
            "A and B played the same game: every measure came out the same in it ({n} game).",
            "A and B played the same games: every measure came out the same in each of the {n} games.",
            games,
        )
        return [Finding("identical", said_same, {"measures": same})]
    if same:
        found.append(Finding("unchanged", _("The same in every game of A and B (played on the same dice): {measures}.", measures=", ".join(named(m) for m in same)), {"measures": same}))
    if rows and not any(f.key == "changed" for f in found):
        found.append(
            Finding(
                "no-change",
                _n(
                    "No measure differs beyond the noise of {n} game (Holm over {tested} measures, 5% family-wise): a real difference smaller than the intervals may still be there.",
                    "No measure differs beyond the noise of {n} games (Holm over {tested} measures, 5% family-wise): a real difference smaller than the intervals may still be there.",
                    games, tested=tested,
                ),
                {"games": games, "measures": tested},
            )
        )
    return found


def _num(value: float | None, sign: bool = False) -> str:
    """A measure's value to 3 significant digits, in the reader's language ('+1.23' signed)."""
    if value is None:
        return "—"
    rounded = float(f"{value:.3g}")
    return _decimal(rounded, "+#,##0.######;-#,##0.######" if sign else "#,##0.######")


# -- the design review: the text as written, in sentences with intervals ---------------------------


def pct_interval(count: int, total: int) -> str:
    """'62% (95% interval 59% to 65%; 620 of 1,000)': a share of games and Wilson's interval."""
    low, high = share_interval(count, total)
    share, low_text, high_text = _pcts(count / total if total else 0, low, high)
    # TRANSLATORS: a share of games with its 95% interval and its count: "62% (95% interval 59% to 65%; 620 of 1,000)".
    return _("{share} (95% interval {low} to {high}; {count} of {total})", share=share, low=low_text, high=high_text, count=count, total=total)


def _pcts(*shares: float) -> list[str]:
    """Percents for one sentence: whole ones, or all with a decimal when any lies within a point
    of 0 or 100 without being it (so that 99.6% is not written 100%), or when whole ones would
    write two different shares alike (an interval 49.8% to 50% is not '50% to 50%')."""
    whole = [f"{s:.0%}" for s in shares]
    alike = len(set(whole)) < len(set(shares))
    fine = alike or any(0 < s < 0.01 or 0.99 < s < 1 for s in shares)
    return [pct(s, 1 if fine else 0) for s in shares]


def what_wins(bots: Sequence[str], rows: Sequence[Mapping[str, Any]], game: str = "") -> Finding:
    """Which kind of bot wins, as a share of games and per seat, each with its interval; `game`
    names what is won (a game's own word for its games, "villages"), else "games"."""
    winners = [winners_of(r) for r in rows]
    n = len(rows)
    kinds = sorted(set(bots))
    if len(kinds) < 2:
        return Finding("what-wins", _("Every seat plays {strategy}: this table tells strategies nothing apart.", strategy=kinds[0]), {"kinds": kinds})
    took: Counter[str] = Counter()
    for game_winners in winners:
        for kind in {bots[s] for s in game_winners}:
            took[kind] += 1
    wins = per_seat_wins(bots, winners)
    order = sorted(kinds, key=lambda k: -sum(wins[k]))
    shares = [per_seat_share(sum(wins[kind]) * bots.count(kind), bots.count(kind), n) for kind in order]
    texts = _pcts(*(share for three in shares for share in three))  # one precision for the sentence
    # TRANSLATORS: a strategy's share of games per seat with its interval: "altruist 12% (9% to 15%)".
    parts = [_("{strategy} {share} ({low} to {high})", strategy=kind, share=texts[3 * i], low=texts[3 * i + 1], high=texts[3 * i + 2]) for i, kind in enumerate(order)]
    top = order[0]
    said = dict(strategy=top, share=pct_interval(took[top], n), games=game or _("games"), parts=", ".join(parts))
    return Finding(
        "what-wins",
        # The English article follows the strategy's name: "an altruist", "a free-rider".
        _("What wins: an {strategy} wins {share} of {games}. Per seat, the share of games each seat wins, with 95% intervals: {parts}.", **said)
        if top[:1] in "aeiou"
        else _("What wins: a {strategy} wins {share} of {games}. Per seat, the share of games each seat wins, with 95% intervals: {parts}.", **said),
        {"strategy": top, "share": round(took[top] / n, 4), "per_seat": {k: round(sum(wins[k]) / n, 4) for k in kinds}},
    )


def seat_order(bots: Sequence[str], rows: Sequence[Mapping[str, Any]]) -> Finding:
    """Whether a seat wins more than the other seats of its kind, with the interval of the gap
    that decides it (the same interval either way, so the sentence never contradicts it)."""
    winners = [winners_of(r) for r in rows]
    if all(bots.count(b) < 2 for b in bots):
        return Finding("seat-order", _("Each strategy sits at one seat only, so seat order and strategy cannot be told apart here."), {})
    found = seat_advantage(bots, winners)
    if found:
        return Finding("seat-order", found[0].text, found[0].numbers)
    seat, gap, low, high = max(seat_gaps(bots, winners), key=lambda g: abs(g[1]))
    return Finding(
        "seat-order",
        _n(
            "No seat wins beyond the noise of the other seats of its kind in {n} game (the largest gap: seat {seat} ({kind}), {gap}; {level}, not 95%, as a table has many seats and one is always the luckiest).",
            "No seat wins beyond the noise of the other seats of its kind in {n} games (the largest gap: seat {seat} ({kind}), {gap}; {level}, not 95%, as a table has many seats and one is always the luckiest).",
            len(rows), seat=str(seat + 1), kind=bots[seat], gap=_gap_text(gap, low, high), level=pct(SEAT_LEVEL, 1),
        ),
        {"seat": seat + 1, "gap": round(gap, 4), "low": round(low, 4), "high": round(high, 4)},
    )
