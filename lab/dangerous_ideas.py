"""Dangerous Ideas' lab: bots that tell a story, a game's numbers, and what they show.

A game's row holds its chapters, each seat's score and memes, and every meme action's pool
and result, so a run can tell the success rate at each pool size.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from fractions import Fraction
from typing import Any

from rules.core import Action, RuleError, rng_for
from rules.dangerous_ideas import (
    _BRANCH_INDEX,
    _FACES,
    ACTIONS_PER_TURN,
    BOT_CAST,
    COILED,
    GAIN_CANDIDATES,
    GAIN_STONES,
    LEAF,
    RULES,
    TURN_STONES,
    Conclude,
    Connect,
    Create,
    Defend,
    EndTurn,
    Gain,
    Move,
    Pass,
    Place,
    PlotUnfinished,
    SpendSeed,
    Spread,
    Stake,
    State,
    Step,
    Title,
    TurnStones,
    Write,
    _fresh_text,
    _known_holders,
    _legal,
    _made,
    _meme_specs,
    _move_steps,
    _pass_of,
    _place_specs,
    SpendSpec,
    _Spend,
    _conclude_specs,
    _spend_action,
    _spend_specs,
    _targets_by_holder,
    _write_of,
    candidate_groups,
    hub_of,
    meme_key,
    scores,
    seed_advice,
    sheet_score,
    wins,
)

from .core import Finding, LabGame, Row, Spec, checked, distribution, game_seed, play_lean, seat_chooser, summary
from .findings import by_kind, mean_by_kind, pct_interval, seat_order, share_text, table_findings, what_wins, win_shares
from .plots import PURPLE, new_figure, percent_axis, win_share_bars

__all__ = ["BOTS", "DEFAULT_BOTS", "GAME", "play_game"]


#: whether this Python's `Random` draws a number below n as `_shuffle` does.
_PLAIN_SHUFFLE = getattr(random.Random, "_randbelow", None) is getattr(random.Random, "_randbelow_with_getrandbits", object())


def _shuffle(items: list[Any], rng: random.Random) -> None:
    """`rng.shuffle(items)`, drawing the very same numbers (CPython's `Random.shuffle` and
    `_randbelow_with_getrandbits` written out: a game shuffles some 1,700 numbers)."""
    if type(rng) is not random.Random or not _PLAIN_SHUFFLE:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i, k in _shuffle_steps(len(items)):
        j = getrandbits(k)
        while j > i:  # a number below i + 1, drawn with as many bits as i + 1 has
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


@lru_cache(maxsize=None)
def _shuffle_steps(n: int) -> tuple[tuple[int, int], ...]:
    """(i, bits of i + 1) for i from n - 1 down to 1: `_shuffle`'s steps for n items, counted
    once (a game shuffles lists of a few dozen lengths)."""
    return tuple((i, (i + 1).bit_length()) for i in reversed(range(1, n)))


#: the random bot's limit on the candidates of a group (`candidate_groups`).
_LIMIT = 120

#: the kinds of action whose every candidate `candidate_groups` offers the seat the game waits
#: on is legal by construction (the bots are asked for no other seat): the first one shuffled is
#: taken unchecked. Not these: Write (one leaf, one coiled), PlotUnfinished (the starter's, once
#: a chapter), Create and Spread (not the one that just failed).
_LEGAL_KINDS = frozenset(cls.kind for cls in (Place, Title, TurnStones, Gain, Move, EndTurn, Pass, SpendSeed, Conclude))


def random_bot(state: State, seat: int, rng: random.Random) -> Action:
    """random: any legal action, a kind of action first at random, then one of that kind."""
    phase = state.phase
    if (phase == "respond" or phase == "stake") and state.attempt is not None and type(seat) is int and 0 <= seat < len(state.sheets):
        return _random_spend_or_pass(state, seat, rng)
    groups = candidate_groups(state, seat, limit=_LIMIT)
    built: dict[int, list[Action]] = {}
    # Kinds in random order, each kind's candidates in random order, checked one at a time
    # (but `_LEGAL_KINDS`): the first kind with a legal action is uniform over the kinds that
    # have one, and so is the action within it, as if every candidate had been built and
    # checked first. (A list of one is shuffled without drawing: it is left as it is.)
    kinds = list(_sorted_kinds(tuple(map(itemgetter(0), groups))))
    if len(kinds) > 1:
        _shuffle(kinds, rng)
    for kind, g in kinds:
        names = groups[g][0]
        if g not in built:
            built[g] = _lazy_group(state, seat, names) or (None, groups[g][1]())  # distinct candidates (tested): nothing to drop
        make, candidates = built[g]
        if len(names) == 1:
            options = list(candidates)
        elif make is None:
            options = [o for o in candidates if o.kind == kind]
        else:
            options = [c for c in candidates if c[0].kind == kind]
        if len(options) > 1:
            _shuffle(options, rng)
        sure = kind in _LEGAL_KINDS
        for option in options:
            action = option if make is None else make(option)
            if sure or _legal(state, action):
                return action
    raise RuleError("bot", f"seat {seat} has no legal action in phase {state.phase}")


@lru_cache(maxsize=256)
def _sorted_kinds(names: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, int], ...]:
    """(kind, group) for the kinds each group may hold, sorted: the same few groups each turn."""
    return tuple(sorted((kind, g) for g, kinds in enumerate(names) for kind in kinds))


def _random_spend_or_pass(state: State, seat: int, rng: random.Random) -> Action:
    """`random_bot` in phases 1 and 2 (half a game's moves): the same kinds in the same order
    as `candidate_groups` gives them, sorted and shuffled alike, without building the groups.
    A kind's spends are legal by construction (`_spend_specs`): the first one shuffled is
    the one taken, and only it is made; so is a pass."""
    a = state.attempt
    assert a is not None
    # The kinds in the order of their sorted names (connect, defend, pass, stake).
    order: list[type[Action]]
    if seat == a.actor:
        order = [Pass, Stake]
    elif state.phase == "respond":
        side = a.sides[seat]
        order = [Defend, Pass] if side == "defend" else [Connect, Pass] if side == "connect" else [Connect, Defend, Pass]
    else:
        order = [Pass]
    if len(order) > 1:
        _shuffle(order, rng)
    for cls in order:
        if cls is Pass:
            return _pass_of(seat)  # legal for the seat the game waits on (`_LEGAL_KINDS`)
        specs = list(_spend_specs(state, seat, cls))  # type: ignore[arg-type]
        if specs:
            if len(specs) > 1:
                _shuffle(specs, rng)
            return _spend_action(cls, seat, *specs[0])  # type: ignore[arg-type]
    raise RuleError("bot", f"seat {seat} has no legal action in phase {state.phase}")


def _lazy_group(state: State, seat: int, names: tuple[str, ...]) -> tuple[Callable[[Any], Action], Sequence[Any]] | None:
    """For the groups of many candidates (placements, Moves, Creates and Spreads, Writes, the
    Concludes of a success): what each candidate is made of, in the group's order (the limits
    `candidate_groups` gives them), and how to make it, so that only the candidates tried are
    built (shuffling draws the same for a list of the same length)."""
    if names == (Place.kind,):
        return (lambda place: Place(seat=seat, place=place)), _place_specs(state, seat, state.setup.start_stones, True, _LIMIT)
    if names == (Gain.kind,):
        return (lambda place: Gain(seat=seat, place=place)), _place_specs(state, seat, GAIN_STONES, False, GAIN_CANDIDATES)
    if names == (TurnStones.kind,):
        return (lambda place: TurnStones(seat=seat, place=place)), _place_specs(state, seat, TURN_STONES, False, _LIMIT)
    if names == (Move.kind,):
        return (lambda step: Move(seat=seat, steps=(Step(*step),))), _move_steps(state, seat)
    if names == (Create.kind, Spread.kind):
        return (lambda spec: spec[0](seat=seat, text=spec[1], holder=spec[2], target=spec[3])), _meme_specs(state, seat, _LIMIT)
    sheet = state.sheets[seat]
    if names == (Write.kind,):
        return (lambda branch: _write_of(sheet, seat, branch)), sheet.empty()
    if names == (Conclude.kind,) and state.attempt is not None and state.attempt.success:
        return (lambda spec: Conclude(seat=seat, branch=spec[0], from_hub=spec[1])), _conclude_specs(sheet)
    return None


#: the last sheets the leaders were counted for, their scores and their leaders: between two
#: spends the table passes round and round on the same sheets, and a spend changes one sheet.
_leaders_seen: tuple[tuple[Any, ...], tuple[int, ...], frozenset[int]] = ((), (), frozenset())


def _leaders(state: State) -> frozenset[int]:
    global _leaders_seen
    sheets, points, leaders = _leaders_seen
    now = state.sheets
    if sheets is not now:
        if len(sheets) == len(now):
            # A score reads the memes alone: a sheet whose branches are the same record (a
            # spend from nodes, stones gained on nodes) keeps its score.
            points = tuple(p if old.branches is new.branches else sheet_score(new) for old, new, p in zip(sheets, now, points))
        else:
            points = scores(state)
        top = max(points)
        leaders = frozenset(s for s in range(len(now)) if points[s] == top)
        _leaders_seen = (now, points, leaders)
    return leaders


@dataclass(frozen=True)
class _Unsure:
    """A choice of the sensible bot's that the rules check (the random bot plays when they
    refuse it): one of the rare setup moves, not worth proving legal."""

    action: Action


def sensible_bot(state: State, seat: int, rng: random.Random) -> Action:
    """sensible: plays for unique memes: stakes Create, creates often, defends against the leader, connects cheaply."""
    choice = _sensible(state, seat, rng)
    if type(choice) is _Unsure:
        if _legal(state, choice.action):
            return choice.action
    elif choice is not None:
        return choice
    return random_bot(state, seat, rng)


def _sensible(state: State, seat: int, rng: random.Random) -> Action | _Unsure | None:
    """The sensible bot's choice for `seat`, a seat the game waits on (bots are asked for no
    other): legal by construction (the fixed moves of phases the seat is asked in, spends from
    `_spend_specs`, a Create the rules accepted) unless `_Unsure`; None: no choice."""
    phase = state.phase
    sheet = state.sheets[seat]
    a = state.attempt
    if phase in ("stake", "respond") and a is not None:  # most of the asks: phases 1 and 2
        if seat == a.actor:
            if a.pool < 7:
                return _sized(Stake, seat, _spend_specs(state, seat, Stake), biggest=True) or _pass_of(seat)
            return _pass_of(seat)
        if phase == "stake" or a.sides[seat]:
            return _pass_of(seat)
        threatened = a.target is not None and a.target.seat == seat
        leaders = _leaders(state)
        actor_leads = a.actor in leaders
        if threatened or (actor_leads and seat not in leaders) or (actor_leads and sheet.node("defend") > 2):
            if a.pool > 0:
                defend = _sized(Defend, seat, _spend_specs(state, seat, Defend), biggest=True)
                if defend is not None:
                    return defend
        elif not actor_leads:
            cheap = [c for c in _spend_specs(state, seat, Connect) if c[0] == 0 and c[1] == 0 and all(u.stones == 0 for u in c[2])]
            connect = _sized(Connect, seat, cheap, biggest=False)
            if connect is not None:
                return connect
        return _pass_of(seat)
    if phase == "place":
        n = state.setup.start_stones
        create, think = (n * 3) // 7, (n * 2) // 7
        rest = n - create - think
        place = ("create",) * create + ("think",) * think + ("defend",) * (rest - rest // 2) + ("connect",) * (rest // 2)
        return _Unsure(Place(seat=seat, place=place))
    if phase == "setting":
        written = {state.setup.branch_type(b) for b, _ in sheet.memes()}
        want = LEAF if LEAF not in written else COILED
        branch = next(b for b in sheet.empty() if state.setup.branch_type(b) == want)
        return _Unsure(Write(seat=seat, branch=branch, text=f"{sheet.name}'s belief {sheet.filled + 1}", holder=rng.choice(BOT_CAST)))
    if phase == "title":
        return _Unsure(Title(seat=seat, title=f"In which chapter {state.chapter + 1} happens"))
    if phase == "turn-start":
        return _made(TurnStones, seat=seat, place=("create", "think"))
    if phase == "turn":
        if seat == state.starter and not state.plot_declared:
            return _made(PlotUnfinished, seat=seat)
        if state.actions_taken >= ACTIONS_PER_TURN:
            return _made(EndTurn, seat=seat)
        coiled_bonus = sum(
            1
            for kind, m in zip(state.setup.layout, sheet.branches)  # each branch's type and meme
            if m is not None and kind == COILED and m.bonus and m.id not in state.bonus_taken and not any(mid == m.id for mid, _ in state.involved)
        )
        create = sheet.node("create")
        potential = create + min(sheet.node("think"), create) + coiled_bonus
        if sheet.empty() and potential >= 6:
            leaders = _leaders(state) - {seat}
            holders = _known_holders(state)
            _shuffle(holders, rng)
            text = _fresh_text(state, seat)
            targets = _targets_by_holder(state, seat)
            for holder in holders:
                for target in targets.get(meme_key(holder), ()):
                    if target.seat in leaders:
                        option = Create(seat=seat, text=text, holder=holder, target=target)
                        if _legal(state, option):
                            return option
            for holder in holders:
                option = Create(seat=seat, text=text, holder=holder)
                if _legal(state, option):
                    return option
        return _made(Gain, seat=seat, place=("create", "create", "think"))
    if phase == "reroll" and a is not None:
        winning = wins(a.pool, a.total)
        if seat == a.actor and not winning:
            die, chance_, _ = seed_advice(a.pool, (a.dice[0], a.dice[1]), sheet.seeds)
            if die is not None and chance_ >= _ONE_SIXTH:
                return _made(SpendSeed, seat=seat, die=die)
        if seat != a.actor and winning and a.sides[seat] == "defend":
            spoil = [(sum(1 for v in _FACES if wins(a.pool, a.total - a.dice[d] + v)), d) for d in (0, 1)]
            kept, die = min(spoil)
            if kept <= 3:
                return _made(SpendSeed, seat=seat, die=die)
        return _pass_of(seat)
    if phase == "outcome" and a is not None:
        if not a.success:
            return _made(Conclude, seat=seat)
        branch = max(sheet.empty(), key=lambda b: (sheet.node(hub_of(b)) > 0, -_BRANCH_INDEX[b]))
        return Conclude(seat=seat, branch=branch, from_hub=min(1, sheet.node(hub_of(branch))))
    return None


_ONE_SIXTH = Fraction(1, 6)


def _spend_size(spec: SpendSpec) -> int:
    from_node, from_think, memes = spec
    return from_node + from_think + (sum(u.bonus + u.stones for u in memes) if memes else 0)


def _sized(cls: type[_Spend], seat: int, specs: Sequence[SpendSpec], biggest: bool) -> _Spend | None:
    """The biggest (or smallest) spend, the first of its size on a tie, made as `cls` (legal by
    construction: `_spend_specs`)."""
    if not specs:
        return None
    spec = max(specs, key=_spend_size) if biggest else min(specs, key=_spend_size)
    return _spend_action(cls, seat, *spec)


BOTS: dict[str, Callable[[State, int, random.Random], Action]] = {"random": random_bot, "sensible": sensible_bot}
DEFAULT_BOTS = ("sensible", "sensible", "random", "random")




# -- one game, one row ------------------------------------------------------------------------------


def play_game(spec: Spec, seed: int, index: int) -> Row:
    """Game `index` of a run seeded `seed`, as one row of plain numbers (pools and results of
    every meme action as lists)."""
    setup = GAME.setup(spec)
    gs = game_seed(seed, index)
    choose = seat_chooser([BOTS[b] for b in spec.bots], rng_for(gs, -1))
    state = play_lean(RULES, setup, gs, choose, check=checked(spec, index))
    points = [sheet_score(sheet) for sheet in state.sheets]
    table = RULES.standings(state)
    row: Row = {
        "game": index,
        "seed": gs,
        "chapters": state.chapter + 1,
        "ended": "full sheet" if "filled all" in state.ended else "last chapter",
        "meme_actions": len(state.outcomes),
        "successes": sum(1 for o in state.outcomes if o.success),
        "replacement_attempts": sum(1 for o in state.outcomes if o.target is not None),
        "replacements": sum(1 for o in state.outcomes if o.target is not None and o.success),
        "top_score": table[0][2],
        "score_spread": max(points) - min(points),
        "winners": " ".join(str(s + 1) for rank, s, _ in table if rank == 1),
        "pools": [o.pool for o in state.outcomes],
        "succeeded": [int(o.success) for o in state.outcomes],
    }
    row.update({f"score_{s + 1}": v for s, v in enumerate(points)})
    row.update({f"memes_{s + 1}": sheet.filled for s, sheet in enumerate(state.sheets)})
    return row



def success_by_pool(rows: Sequence[Row]) -> dict[str, dict[str, Any]]:
    """Meme actions at each pool size: how many, and the share that succeeded."""
    tried: Counter[int] = Counter()
    made: Counter[int] = Counter()
    for row in rows:
        for pool, ok in zip(row["pools"], row["succeeded"]):
            tried[pool] += 1
            made[pool] += ok
    return {str(p): {"actions": tried[p], "success_rate": round(made[p] / tried[p], 4)} for p in sorted(tried)}


def summarise(spec: Spec, rows: Sequence[Row]) -> dict[str, Any]:
    """Outcome statistics: chapters, endings, memes, pools and their success, scores and wins."""
    bots = spec.bots
    n = len(rows)
    wins = win_shares(bots, rows)
    memes = Counter(row[f"memes_{seat + 1}"] for row in rows for seat in range(len(bots)))
    attempts = sum(r["meme_actions"] for r in rows)
    pools = [p for r in rows for p in r["pools"]]
    return {
        "game": "dangerous-ideas",
        "games": n,
        "bots": list(bots),
        "variant": spec.text,
        "chapters": GAME.setup(spec).chapter_count,
        "chapters_played": distribution(Counter(r["chapters"] for r in rows)),
        "endings": dict(Counter(r["ended"] for r in rows).most_common()),
        "winning_score": distribution(Counter(r["top_score"] for r in rows)),
        "score_spread": summary([r["score_spread"] for r in rows]),
        "memes_per_sheet": distribution(memes),
        "meme_actions": {
            "per_game": round(attempts / n, 3) if n else None,
            "success_rate": round(sum(r["successes"] for r in rows) / attempts, 4) if attempts else None,
            "mean_pool": round(sum(pools) / len(pools), 3) if pools else None,
            "replacement_attempts": sum(r["replacement_attempts"] for r in rows),
            "replacements": sum(r["replacements"] for r in rows),
        },
        "pool_sizes": distribution(Counter(pools)),
        "success_rate_by_pool": success_by_pool(rows),
        "mean_score_per_seat_by_bot": mean_by_kind(bots, rows, "score_"),
        "win_share_per_seat_by_bot": wins["by_kind"],
        "win_share_by_seat": wins["by_seat"],
    }


def measures(spec: Spec, rows: Sequence[Row]) -> dict[str, list[float]]:
    seats = len(spec.bots)
    out: dict[str, list[float]] = {
        "meme actions per game": [r["meme_actions"] for r in rows],
        "meme actions that succeed (share)": [r["successes"] / r["meme_actions"] if r["meme_actions"] else None for r in rows],
        "mean pool": [sum(r["pools"]) / len(r["pools"]) if r["pools"] else None for r in rows],
        "memes per player": [sum(r[f"memes_{s + 1}"] for s in range(seats)) / seats for r in rows],
        "winning score": [r["top_score"] for r in rows],
        "score spread": [r["score_spread"] for r in rows],
        "ends on a full sheet (share)": [float(r["ended"] == "full sheet") for r in rows],
    }
    # The bots give every meme a fresh text, so a seat scores 4 points a meme: with one kind
    # at the table its mean score is 4 x the memes per player above, counted once.
    return out | (by_kind(spec.bots, rows, "score_", "mean score") if len(set(spec.bots)) > 1 else {})


def findings(spec: Spec, rows: Sequence[Row]) -> list[Finding]:
    """What a designer must not miss in these stories; each only when it holds."""
    found: list[Finding] = []
    n = len(rows)
    if not n:
        return found
    attempts = sum(r["meme_actions"] for r in rows)
    made = sum(r["successes"] for r in rows)
    if attempts and made / attempts < 0.35:
        found.append(Finding("memes-fail", f"Most meme actions fail: {share_text(made, attempts)} succeed.", {"success_rate": round(made / attempts, 4)}))
    full = sum(1 for r in rows if r["ended"] == "full sheet")
    if full > n / 2:
        found.append(Finding("full-sheets", f"Most stories end early, on a full sheet: {share_text(full, n)} of games.", {"share": round(full / n, 4)}))
    return found + table_findings(spec.bots, rows, "score_", "points")


def review(spec: Spec, rows: Sequence[Row]) -> list[Finding]:
    """The text as written, in sentences with intervals: what wins, how stories end, meme
    actions, seat order, and what no game reached."""
    n = len(rows)
    last = sum(1 for r in rows if r["ended"] == "last chapter")
    attempts = sum(r["meme_actions"] for r in rows)
    made = sum(r["successes"] for r in rows)
    most = max(r[f"memes_{s + 1}"] for r in rows for s in range(len(spec.bots)))
    out = [
        what_wins(spec.bots, rows),
        Finding(
            "text-end",
            f"The text's own end, the last chapter, ends {pct_interval(last, n)} of stories"
            + ("; the rest end when a sheet's 12 branches are full." if last < n else "; none ends on a full sheet."),
            {"share": round(last / n, 4)},
        ),
        Finding("memes", f"Meme actions succeed {pct_interval(made, attempts)} of the time.", {"success_rate": round(made / attempts, 4) if attempts else None}),
        seat_order(spec.bots, rows),
    ]
    if most < 12:
        out.append(Finding("never", f"No sheet ever filled more than {most} of its 12 branches in {n:,} stories.", {"most_memes": most}))
    return out


def figures(result: Any) -> list[Any]:
    """A run's charts: the win shares and the meme actions' success by pool size."""
    s = result.summary
    figure, (left, right) = new_figure()
    win_share_bars(left, s)
    by_pool = s["success_rate_by_pool"]
    right.bar([int(p) for p in by_pool], [v["success_rate"] for v in by_pool.values()], color=PURPLE)
    right.set_title("Meme actions: success by pool size")
    right.set_xlabel("pool")
    percent_axis(right)
    return [figure]


GAME = LabGame(
    slug="dangerous-ideas",
    bots=BOTS,
    default_bots=DEFAULT_BOTS,
    options={"checked": None},
    play_game=play_game,
    summarise=summarise,
    measures=measures,
    findings=findings,
    review=review,
    note="The story runs for the default number of chapters (2 × players for 3-4 players, else 1 ×).",
    variant_example="e.g. seeds=2",
    figures=figures,
)
