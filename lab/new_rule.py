"""New Rule's lab: candy-playing bots, a game's numbers, and what they show.

The rules end a game after `max_rounds` rounds (12 by default) because payments refill the
common bowl and the text's own ending may never come. With `max_rounds=none` the lab plays
the text as written and stops a game itself at `cap` rounds, counting the games it stopped.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from i18n import _, _n
from rules.core import Action, rng_for
from rules.new_rule import RULES, Draw, Keep, Pay, Pick, State, Swap, legal_actions, legal_payments
from rules.text import say

from .core import Finding, LabGame, Measures, Row, Spec, checked, distribution, game_seed, play_lean, seat_chooser, summary
from .findings import pct_interval, seat_order, share_text, table_findings, what_wins, win_shares, winners_of
from .plots import histogram, new_figure, win_share_bars

__all__ = ["BOTS", "DEFAULT_BOTS", "GAME", "play_game"]

#: the most legal payments a bot weighs (a big bowl has thousands).
PAYMENTS = 400


def random_bot(state: State, seat: int, rng: random.Random) -> Action:
    """random: any legal move, uniformly (payments from a capped sample of the legal ones)."""
    options = legal_actions(state, seat, payment_limit=60)
    return rng.choice(options)


def _score(state: State, bowl: dict[str, int]) -> int:
    """The rules' score of a bowl: the smallest non-antibody colour plus the antibodies."""
    antibody = state.setup.antibody
    return min(n for c, n in bowl.items() if c != antibody) + bowl[antibody]


def _best_payment(state: State, seat: int, bowl: dict[str, int]) -> Pay | None:
    """The legal payment that leaves the highest score (fewest antibodies eaten on a tie)."""
    antibody = state.setup.antibody
    scoring = [(c, bowl[c]) for c in state.colours if c != antibody]
    reds = bowl[antibody]
    best: tuple[int, Pay] | None = None
    for pay in legal_payments(state, seat, limit=PAYMENTS):
        returned = pay.returned
        # the rules' score of what is left, counted straight from the payment
        value = min(n - returned.count(c) for c, n in scoring) + reds - returned.count(antibody) - pay.eaten
        if best is None or value > best[0]:
            best = (value, pay)
    return best[1] if best else None


def balanced_bot(state: State, seat: int, rng: random.Random) -> Action:
    """balanced: grows its weakest colour, picks its scarcest colour, pays to keep its score."""
    colours, antibody = state.colours, state.setup.antibody
    bowl = dict(zip(colours, state.players[seat].bowl))
    scoring = [c for c in colours if c != antibody]
    if state.phase == "draw":
        return Draw(seat=seat)
    if state.phase == "choose":
        weakest = min(scoring, key=lambda c: (bowl[c], rng.random()))
        helps = sum(1 for c in state.drawn if c in (weakest, antibody))
        options = {a.colour for a in legal_actions(state, seat) if isinstance(a, Swap)}
        if helps == 0 and weakest in options:
            return Swap(seat=seat, colour=weakest)
        return Keep(seat=seat)
    if state.phase == "pick":
        # A picked colour becomes the infection, which nobody may pay with: protect the scarcest.
        held = [c for c in scoring if bowl[c] > 0] or [antibody]
        return Pick(seat=seat, colour=min(held, key=lambda c: (bowl[c], rng.random())))
    if state.phase == "pay":
        pay = _best_payment(state, seat, bowl)
        if pay is not None:
            return pay
    return random_bot(state, seat, rng)


def _after_pick(state: State, bowl: dict[str, int], colour: str) -> int:
    """The score kept after paying one level if `colour` were the infection: two candies of
    its most plentiful other colours returned, or one antibody eaten."""
    antibody = state.setup.antibody
    kept = []
    left = dict(bowl)
    taken = 0
    for c in sorted((c for c in bowl if c not in (colour, antibody)), key=lambda c: -bowl[c]):
        while left[c] and taken < 2:
            left[c] -= 1
            taken += 1
    if taken == 2:
        kept.append(_score(state, left))
    if bowl[antibody]:
        eaten = dict(bowl)
        eaten[antibody] -= 1
        kept.append(_score(state, eaten))
    return max(kept, default=-1)


def scorer_bot(state: State, seat: int, rng: random.Random) -> Action:
    """scorer: every choice for its own score: the draw or swap that scores most, the pick whose
    infection it pays off best, the payment that keeps most."""
    colours, antibody = state.colours, state.setup.antibody
    bowl = dict(zip(colours, state.players[seat].bowl))
    if state.phase == "draw":
        return Draw(seat=seat)
    if state.phase == "choose":
        kept = dict(bowl)
        for c in state.drawn:
            kept[c] += 1
        best: tuple[int, Action] = (_score(state, kept), Keep(seat=seat))
        for option in legal_actions(state, seat):
            if isinstance(option, Swap):
                swapped = dict(bowl)
                swapped[option.colour] += 1
                if _score(state, swapped) > best[0]:
                    best = (_score(state, swapped), option)
        return best[1]
    if state.phase == "pick":
        held = [c for c in colours if bowl[c] > 0]
        return Pick(seat=seat, colour=max(held, key=lambda c: (_after_pick(state, bowl, c), c != antibody, rng.random())))
    if state.phase == "pay":
        pay = _best_payment(state, seat, bowl)
        if pay is not None:
            return pay
    return random_bot(state, seat, rng)


def hoarder_bot(state: State, seat: int, rng: random.Random) -> Action:
    """hoarder: plays for the text's own end, an empty common bowl: keeps every draw and pays
    by eating antibodies first, else returning as few candies as it can (then as balanced)."""
    if state.phase == "choose":
        return Keep(seat=seat)
    if state.phase == "pay":
        colours = state.colours
        bowl = dict(zip(colours, state.players[seat].bowl))
        best: tuple[tuple[int, int], Pay] | None = None
        for pay in legal_payments(state, seat, limit=PAYMENTS):
            left = dict(bowl)
            for c in pay.returned:
                left[c] -= 1
            left[state.setup.antibody] -= pay.eaten
            rank = (-len(pay.returned), _score(state, left))
            if best is None or rank > best[0]:
                best = (rank, pay)
        if best is not None:
            return best[1]
    return balanced_bot(state, seat, rng)


BOTS = {"random": random_bot, "balanced": balanced_bot, "scorer": scorer_bot, "hoarder": hoarder_bot}
DEFAULT_BOTS = ("balanced", "balanced", "random", "random")


# -- one game, one row ------------------------------------------------------------------------------

ENDINGS = {"round-limit": "the round limit", "elimination": "fewer than two players left", "bowl": "the common bowl emptied", "cap": "the lab's safety cap"}


def _ending(state: State, capped: bool) -> str:
    if capped:
        return "cap"
    if "limit" in state.ended:
        return "round-limit"
    if "bowl" in state.ended:
        return "bowl"
    return "elimination"


def play_game(spec: Spec, seed: int, index: int) -> Row:
    """Game `index` of a run seeded `seed`, as one row of plain numbers."""
    setup = GAME.setup(spec)
    gs = game_seed(seed, index)
    cap = spec.option("cap", GAME.options["cap"])
    lowest = [setup.total_candies]

    def stop(state: State) -> bool:
        # Watches every state on the way: the emptiest the common bowl got at a round's start.
        if state.phase == "draw" and state.turn == state.active[0]:
            lowest[0] = min(lowest[0], sum(state.common))
        return setup.max_rounds is None and state.round > cap

    choose = seat_chooser([BOTS[b] for b in spec.bots], rng_for(gs, -1))
    state = play_lean(RULES, setup, gs, choose, check=checked(spec, index), stop=stop)
    capped = not state.over
    points = RULES.scores(state)
    table = RULES.standings(state)
    winners = [s for rank, s, _points in table if rank == 1]
    row: Row = {
        "game": index,
        "seed": gs,
        "rounds": min(state.round, cap) if capped else state.round,
        "ended": _ending(state, capped),
        "eliminated": sum(1 for p in state.players if p.out),
        "lowest_bowl": lowest[0],
        "top_score": table[0][2],
        "score_spread": max(points) - min(points),
        "winners": " ".join(str(s + 1) for s in winners),
    }
    row.update({f"score_{s + 1}": v for s, v in enumerate(points)})
    row.update({f"out_round_{s + 1}": p.out_round for s, p in enumerate(state.players)})
    return row



def summarise(spec: Spec, rows: Sequence[Row]) -> dict[str, Any]:
    """Outcome statistics: rounds, endings, eliminations, scores and wins by bot and by seat."""
    bots = spec.bots
    n = len(rows)
    wins = win_shares(bots, rows)
    setup = GAME.setup(spec)
    return {
        "game": "new-rule",
        "games": n,
        "bots": list(bots),
        "variant": spec.text,
        "max_rounds": setup.max_rounds,
        "safety_cap": spec.option("cap", GAME.options["cap"]) if setup.max_rounds is None else None,
        "rounds_played": distribution(Counter(r["rounds"] for r in rows)),
        "endings": {ENDINGS[k]: v for k, v in Counter(r["ended"] for r in rows).most_common()},
        "eliminations_per_game": distribution(Counter(r["eliminated"] for r in rows)),
        "lowest_common_bowl": summary([r["lowest_bowl"] for r in rows]),
        "winning_score": distribution(Counter(r["top_score"] for r in rows)),
        "score_spread": summary([r["score_spread"] for r in rows]),
        "win_share_per_seat_by_bot": wins["by_kind"],
        "win_share_by_seat": wins["by_seat"],
    }


def measures(spec: Spec, rows: Sequence[Row]) -> Measures:
    out: dict[str, Sequence[float | None]] = {
        "rounds played": [r["rounds"] for r in rows],
        "players eliminated": [r["eliminated"] for r in rows],
        "ends by elimination (share)": [float(r["ended"] == "elimination") for r in rows],
        "common bowl emptied (share)": [float(r["ended"] == "bowl") for r in rows],
        "lowest common bowl": [r["lowest_bowl"] for r in rows],
        "winning score": [r["top_score"] for r in rows],
    }
    # The score spread is left out: someone is out (scoring 0) by the end, so it is the
    # winning score again. The win shares of all kinds add up to one game, so the last kind's
    # is the others' mirror and is left out too.
    for kind in sorted(set(spec.bots))[:-1]:
        seats = [s for s, b in enumerate(spec.bots) if b == kind]
        out[f"win share per seat: {kind}"] = [sum(1 / len(winners_of(r)) for s in winners_of(r) if s in seats) / len(seats) for r in rows]
    return out


def findings(spec: Spec, rows: Sequence[Row]) -> list[Finding]:
    """What a designer must not miss in these games; each only when it holds."""
    found: list[Finding] = []
    n = len(rows)
    if not n:
        return found
    endings = Counter(r["ended"] for r in rows)
    setup = GAME.setup(spec)
    if setup.max_rounds is None:
        cap = spec.option("cap", GAME.options["cap"])
        if endings["bowl"] == 0:
            low = min(r["lowest_bowl"] for r in rows)
            found.append(
                Finding(
                    "bowl-never-empties",
                    _n(
                        "Played as written (no round limit), the common bowl never emptied in {n} game: payments refill it, and the emptiest it got at a round's start was {low} candies.",
                        "Played as written (no round limit), the common bowl never emptied in {n} games: payments refill it, and the emptiest it got at a round's start was {low} candies.",
                        n, low=low,
                    ),
                    {"games": n, "lowest_bowl": low},
                )
            )
        else:
            said = _("Played as written, the common bowl emptied in {share} of games.", share=share_text(endings["bowl"], n))
            found.append(Finding("bowl-empties", said, {"share": round(endings["bowl"] / n, 4)}))
        if endings["cap"]:
            found.append(
                Finding(
                    "safety-cap",
                    _(
                        "{share} of games were still going after {cap} rounds, when the lab stopped them: without a round limit the game need not end.",
                        share=share_text(endings["cap"], n), cap=cap,
                    ),
                    {"share": round(endings["cap"] / n, 4), "cap": cap},
                )
            )
    if endings["elimination"] > n / 2:
        found.append(
            Finding(
                "elimination",
                _("Most games end by elimination: {share} end when fewer than two players are still in.", share=share_text(endings["elimination"], n)),
                {"share": round(endings["elimination"] / n, 4)},
            )
        )
    if setup.max_rounds is not None and endings["round-limit"] > n / 2:
        found.append(
            Finding(
                "round-limit",
                _(
                    "Most games ({share}) end at the {limit}-round limit, the model's ending, not the text's.",
                    share=share_text(endings["round-limit"], n), limit=setup.max_rounds,
                ),
                {"share": round(endings["round-limit"] / n, 4)},
            )
        )
    # TRANSLATORS: what New Rule's bots score, as in "mean 3.2 points against 1.5".
    return found + table_findings(spec.bots, rows, "score_", _("points"))


def review(spec: Spec, rows: Sequence[Row], aimed: tuple[Spec, Sequence[Row]] | None = None) -> list[Finding]:
    """The text as written (`max_rounds=none`), in sentences with intervals: what wins, how a
    game ends, the winning score, seat order, and what no game reached. `aimed` is a table of
    bots that play for the text's end (hoarders) on the same seeds: whether no game empties the
    bowl is said of both tables."""
    n = len(rows)
    endings = Counter(r["ended"] for r in rows)
    zero = sum(1 for r in rows if r["top_score"] == 0)
    ends = dict(
        bowl=pct_interval(endings["bowl"], n), out=pct_interval(endings["elimination"], n), cap=pct_interval(endings["cap"], n),
        rounds=spec.option("cap", GAME.options["cap"]), limit=pct_interval(endings["round-limit"], n),
    )
    if endings["cap"] and endings["round-limit"]:
        text_end = _(
            "The text's own end, an empty common bowl, ends {bowl} of games; {out} end when fewer than two players are still in, and {cap} were still going at the lab's cap of {rounds} rounds, and {limit} stop at the model's round limit.",
            **ends,
        )
    elif endings["cap"]:
        text_end = _(
            "The text's own end, an empty common bowl, ends {bowl} of games; {out} end when fewer than two players are still in, and {cap} were still going at the lab's cap of {rounds} rounds.",
            **ends,
        )
    elif endings["round-limit"]:
        text_end = _(
            "The text's own end, an empty common bowl, ends {bowl} of games; {out} end when fewer than two players are still in, and {limit} stop at the model's round limit.",
            **ends,
        )
    else:
        text_end = _("The text's own end, an empty common bowl, ends {bowl} of games; {out} end when fewer than two players are still in.", **ends)
    out = [
        what_wins(spec.bots, rows),
        Finding("text-end", text_end, {k: round(v / n, 4) for k, v in endings.items()}),
        Finding(
            "winner-scores-0",
            _("The winner scores 0 in {share} of games: a bowl short of one colour scores nothing.", share=pct_interval(zero, n)),
            {"share": round(zero / n, 4)},
        ),
        seat_order(spec.bots, rows),
    ]
    # TRANSLATORS: the table of New Rule's default bots, as in "neither at the default table nor at a table of 4 hoarders".
    tables = [(_("the default table"), rows)]
    if aimed is not None:
        aimed_spec, aimed_rows = aimed
        # TRANSLATORS: a bot's name in the plural, as in "a table of 4 hoarders" (the name stays as it is).
        kinds = ", ".join(_("{bot}s", bot=k) for k in dict.fromkeys(aimed_spec.bots))
        # TRANSLATORS: a table of bots, said after "by" ("played for, by a table of 4 hoarders") and after "at" ("neither at the default table nor at a table of 4 hoarders"): the form those take (German: dative).
        who = _n("a table of {n} {bots}", "a table of {n} {bots}", len(aimed_spec.bots), bots=kinds)
        emptied = sum(1 for r in aimed_rows if r["ended"] == "bowl")
        out.append(
            Finding(
                "text-end-aimed",
                _(
                    "Played for, by {who}: the common bowl empties in {share} of games, and the emptiest it got at a round's start was {low} candies (the default table's: {default_low}).",
                    who=who, share=pct_interval(emptied, len(aimed_rows)), low=min(r["lowest_bowl"] for r in aimed_rows), default_low=min(r["lowest_bowl"] for r in rows),
                ),
                {"share": round(emptied / len(aimed_rows), 4), "lowest_bowl": min(r["lowest_bowl"] for r in aimed_rows), "bots": list(aimed_spec.bots)},
            )
        )
        tables.append((who, aimed_rows))
    if not any(r["ended"] == "bowl" for _name, table in tables for r in table):
        low = min(r["lowest_bowl"] for _name, table in tables for r in table)
        if aimed is not None:
            never = _(
                "No game emptied the common bowl, neither at {first} nor at {second}: payments refill it, and the emptiest it got at a round's start was {low} candies.",
                first=tables[0][0], second=tables[1][0], low=low,
            )
        else:
            never = _("No game emptied the common bowl: payments refill it, and the emptiest it got at a round's start was {low} candies.", low=low)
        out.append(Finding("never", never, {"lowest_bowl": low, "tables": [name for name, _rows in tables]}))
    return out


def figures(result: Any) -> list[Any]:
    """A run's charts: the win shares and the games' lengths."""
    s = result.summary
    figure, (left, right) = new_figure()
    win_share_bars(left, s)
    histogram(right, s["rounds_played"]["histogram"], _("rounds played"))
    right.set_title(_("Game length"))
    return [figure]


GAME = LabGame(
    slug="new-rule",
    bots=BOTS,
    default_bots=DEFAULT_BOTS,
    options={"checked": None, "cap": 200},
    play_game=play_game,
    summarise=summarise,
    measures=measures,
    findings=findings,
    review=review,
    as_written="max_rounds=none",
    # The default bots never aim for an empty bowl; hoarders do, so "no game empties it" rests on them too.
    aimed="bots=hoarder*4",
    note=say(
        "The model also ends a game after max_rounds rounds (a variant, 12 by default). "
        "The rules text's own ending, an empty common bowl, rarely happens: payments refill the bowl. "
        "Try max_rounds=none to play the text as written (the lab stops a game at cap=200 rounds and says how many it stopped), "
        "and bots=hoarder*4 for bots that play for that end (they keep every draw and return as few candies as they can)."
    ),
    # TRANSLATORS: an example in the empty variants box: "e.g. max_rounds=none cap=200" (the variants stay as they are).
    variant_example=say("e.g. {variants}", variants="max_rounds=none cap=200"),
    bot_words={
        "random": say("any legal move, uniformly (payments from a capped sample of the legal ones)."),
        "balanced": say("grows its weakest colour, picks its scarcest colour, pays to keep its score."),
        "scorer": say("every choice for its own score: the draw or swap that scores most, the pick whose infection it pays off best, the payment that keeps most."),
        "hoarder": say("plays for the text's own end, an empty common bowl: keeps every draw and pays by eating antibodies first, else returning as few candies as it can (then as balanced)."),
    },
    labels={
        "max_rounds": say("Max rounds"),
        "safety_cap": say("Safety cap"),
        "rounds_played": say("Rounds played"),
        "eliminations_per_game": say("Eliminations per game"),
        "lowest_common_bowl": say("Lowest common bowl"),
        # the endings (`ENDINGS`), as the summary names them
        "the round limit": say("the round limit"),
        "fewer than two players left": say("fewer than two players left"),
        "the common bowl emptied": say("the common bowl emptied"),
        "the lab's safety cap": say("the lab's safety cap"),
        # the measures a comparison sets side by side (`measures`)
        "rounds played": say("rounds played"),
        "players eliminated": say("players eliminated"),
        "ends by elimination (share)": say("ends by elimination (share)"),
        "common bowl emptied (share)": say("common bowl emptied (share)"),
        "lowest common bowl": say("lowest common bowl"),
        "winning score": say("winning score"),
        "win share per seat: {kind}": say("win share per seat: {kind}"),
    },
    figures=figures,
)
