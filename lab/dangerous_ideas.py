"""Dangerous Ideas' lab: what a seat may do, bots that tell a story, a game's numbers, and
what they show.

The rules check any action but cannot list them (a meme's text is free): the candidates here
are what the bots choose from, with free texts suggested ("<name>'s truth <n>", holders already
in the story and a small stock cast, `BOT_CAST`) and stones in typical sizes (one stone, all of
a node, all with matching Think, each meme's bonus, everything), not every subset.
`legal_actions` are those the rules accept.

A game's row holds its chapters, each seat's score and memes, and every meme action's pool
and result, so a run can tell the success rate at each pool size.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations_with_replacement, compress, starmap
from operator import itemgetter
from typing import Any

from i18n import Said, _, render
from rules import dangerous_ideas as di
from rules.core import Action, RuleError, rng_for
from rules.records import construct
from rules.text import say

from .core import Finding, LabGame, Measures, Row, Spec, checked, distribution, game_seed, play_lean, seat_chooser, summary
from .findings import by_kind, mean_by_kind, pct_interval, seat_order, share_text, table_findings, what_wins, win_shares
from .plots import PURPLE, new_figure, percent_axis, win_share_bars

__all__ = ["BOTS", "BOT_CAST", "DEFAULT_BOTS", "GAIN_CANDIDATES", "GAME", "candidate_actions", "candidate_groups", "legal_actions", "play_game", "spend_specs"]


# -- what a seat may do -------------------------------------------------------------------------

#: the characters the bots' memes are held by, besides those already in the story.
#: the stock cast bots' memes are held by, said in the page's language when a bot writes (a
#: table's text from then on, as a player's would be).
BOT_CAST: tuple[Said, ...] = (say("the Hero"), say("the Villain"), say("the Mentor"), say("the Trickster"), say("the Crowd"))
#: the node combinations offered for a Gain, at most.
GAIN_CANDIDATES = 40

#: a group of candidates: the kinds of action it may hold, and a function that builds them.
Group = tuple[tuple[str, ...], Callable[[], list[Action]]]
#: a spend as (from_node, from_think, memes): what `_spend_action` makes a Stake, Connect or
#: Defend of.
SpendSpec = tuple[int, int, tuple[di.Use, ...]]
#: a meme action as (Create or Spread, text, holder, target).
MemeSpec = tuple[type[di.Create] | type[di.Spread], str, str, di.Ref | None]

#: each node's index in a sheet's `nodes`, each branch's in its `branches`.
_NODE = {node: i for i, node in enumerate(di.NODES)}
_BRANCH = {branch: i for i, branch in enumerate(di.BRANCHES)}
#: the places one step from each place, with their index in BRANCHES (None: a node).
_NEIGHBOURS = {source: tuple((t, _BRANCH.get(t)) for t in di.PLACES if di.adjacent(source, t)) for source in di.PLACES}


def legal_actions(state: di.State, seat: int, limit: int = 200) -> list[Action]:
    """The candidates of `seat` now (`candidate_actions`) that the rules accept: what the bots
    may play, and what the dashboard's turn menu offers."""
    return [o for o in candidate_actions(state, seat, limit) if di.is_legal(state, o)]


def candidate_actions(state: di.State, seat: int, limit: int = 200) -> list[Action]:
    """The actions `legal_actions` offers, before each is checked (most pass)."""
    return list(dict.fromkeys(a for _, build in candidate_groups(state, seat, limit) for a in build()))


def candidate_groups(state: di.State, seat: int, limit: int = 200) -> list[Group]:
    """`candidate_actions` in groups, each built only when called: (the kinds of action it
    may hold, a function that builds its candidates, each once). A bot that wants one legal
    action of a chosen kind builds one group and checks a few of its candidates, not every action."""
    if state.phase == "over" or not 0 <= seat < len(state.sheets):  # `state.over`, `state.n`
        return []
    phase = state.phase
    sheet = state.sheets[seat]

    def now(*actions: Action) -> list[Action]:
        return list(actions)

    if phase == "place":
        if sheet.placed:
            return []
        return [((di.Place.kind,), lambda: _placements(state, seat, di.Place, state.setup.start_stones, True, limit))]
    if phase == "setting" and seat == state.turn:
        return [((di.Write.kind,), lambda: [_write_of(sheet, seat, b) for b in sheet.empty()])]
    if phase == "title" and seat == state.starter:
        return [((di.Title.kind,), lambda: now(di.Title(seat=seat, title=_chapter_title(state.chapter + 1))))]
    if phase == "turn-start" and seat == state.turn:
        return [((di.TurnStones.kind,), lambda: _placements(state, seat, di.TurnStones, di.TURN_STONES, False, limit))]
    if phase == "turn" and seat == state.turn:
        groups: list[Group] = [((di.EndTurn.kind,), lambda: now(_made(di.EndTurn, seat=seat))), ((di.PlotUnfinished.kind,), lambda: now(_made(di.PlotUnfinished, seat=seat)))]
        if state.actions_taken < di.ACTIONS_PER_TURN:
            groups += [
                ((di.Gain.kind,), lambda: _placements(state, seat, di.Gain, di.GAIN_STONES, False, GAIN_CANDIDATES)),
                ((di.Move.kind,), lambda: list(_move_options(state, seat))),
                ((di.Create.kind, di.Spread.kind), lambda: _meme_options(state, seat, limit)),
            ]
        return groups
    if phase in ("stake", "respond") and state.attempt is not None:
        a = state.attempt
        groups = []
        if seat == a.actor:
            groups.append(((di.Stake.kind,), lambda: _spend_options(state, seat, di.Stake)))
        elif phase == "respond":
            if a.sides[seat] != "defend":
                groups.append(((di.Connect.kind,), lambda: _spend_options(state, seat, di.Connect)))
            if a.sides[seat] != "connect":
                groups.append(((di.Defend.kind,), lambda: _spend_options(state, seat, di.Defend)))
        return groups + [((di.Pass.kind,), lambda: now(_pass_of(seat)))]
    if phase == "reroll":
        return [((di.Pass.kind, di.SpendSeed.kind), lambda: now(_pass_of(seat), _made(di.SpendSeed, seat=seat, die=0), _made(di.SpendSeed, seat=seat, die=1)))]
    if phase == "outcome" and state.attempt is not None and seat == state.attempt.actor:
        if not state.attempt.success:
            return [((di.Conclude.kind,), lambda: now(_made(di.Conclude, seat=seat)))]
        return [((di.Conclude.kind,), lambda: [di.Conclude(seat=seat, branch=b, from_hub=k) for b, k in _conclude_specs(sheet)])]
    return []


def _placements(state: di.State, seat: int, cls: type[di.Place | di.TurnStones | di.Gain], count: int, nodes_only: bool, limit: int) -> list[Action]:
    return [cls(seat=seat, place=p) for p in _place_specs(state, seat, count, nodes_only, limit)]


def _place_specs(state: di.State, seat: int, count: int, nodes_only: bool, limit: int) -> tuple[tuple[str, ...], ...]:
    """The places of each placement `_placements` offers, in its order: a bot that wants one
    makes only that one."""
    filled = () if nodes_only else tuple(compress(di.BRANCHES, state.sheets[seat].branches))
    return _placing(count, filled, limit)


@lru_cache(maxsize=1024)
def _placing(count: int, filled: tuple[str, ...], limit: int) -> tuple[tuple[str, ...], ...]:
    # Built once for each set of filled branches, whoever places: a random bot asks every turn.
    out: list[tuple[str, ...]] = []
    for combo in combinations_with_replacement(di.NODES, count):
        out.append(combo)
        if len(out) >= limit:
            break
    for branch in filled:
        out.append((branch,) * count)
        if count > 1:
            out.append((branch,) + ("think",) * (count - 1))
    return tuple(out)


def _write_of(sheet: di.Sheet, seat: int, branch: str) -> di.Write:
    """The setting round's Write on `branch` that `candidate_groups` offers (a bot that wants
    one makes only those it tries)."""
    done = sheet.filled
    return di.Write(seat=seat, branch=branch, text=_belief(sheet.name, done + 1), holder=render(BOT_CAST[(seat + done) % len(BOT_CAST)]))


def _move_options(state: di.State, seat: int) -> list[di.Move]:
    return [di.Move(seat=seat, steps=(di.Step(source, target, k),)) for source, target, k in _move_steps(state, seat)]


def _move_steps(state: di.State, seat: int) -> list[tuple[str, str, int]]:
    """(source, target, stones) of each one-step Move `_move_options` offers, in its order:
    a bot that wants one legal Move builds only those it tries."""
    sheet = state.sheets[seat]
    branches = sheet.branches
    steps = []
    # The stones on each place in PLACES order (`stones_at` for all at once).
    stones = sheet.nodes + tuple(m.stones if m else 0 for m in branches)
    for source, have in zip(di.PLACES, stones):
        if not have:
            continue
        sizes = (1,) if have == 1 else sorted({1, have})
        for target, branch in _NEIGHBOURS[source]:
            if branch is not None and branches[branch] is None:
                continue  # stones go to a filled branch only
            for k in sizes:
                steps.append((source, target, k))
    return steps


def _meme_options(state: di.State, seat: int, limit: int) -> list[Action]:
    return [cls(seat=seat, text=text, holder=holder, target=target) for cls, text, holder, target in _meme_specs(state, seat, limit)]


def _meme_specs(state: di.State, seat: int, limit: int) -> list[MemeSpec]:
    """(Create or Spread, text, holder, target) of each meme action `_meme_options` offers, in
    its order: a bot that wants one legal meme action builds only those it tries."""
    sheet = state.sheets[seat]
    if not sheet.empty():
        return []
    holders = _known_holders(state)
    specs: list[MemeSpec] = []
    text = _fresh_text(state, seat)
    targets = _targets_by_holder(state, seat)
    keyed = [(holder, di.meme_key(holder)) for holder in holders]
    for holder, key in keyed:
        specs.append((di.Create, text, holder, None))
        specs += [(di.Create, text, holder, t) for t in targets.get(key, ())]
    texts: dict[str, str] = {}
    held = set()
    for _branch, meme in sheet.memes():
        texts.setdefault(meme.key, meme.text)
        held.add((meme.key, meme.holder_key))
    for key, mtext in texts.items():
        for holder, hkey in keyed:
            if (key, hkey) in held:
                continue
            specs.append((di.Spread, mtext, holder, None))
            specs += [(di.Spread, mtext, holder, t) for t in targets.get(hkey, ())]
    return specs[:limit]


def _known_holders(state: di.State) -> list[str]:
    """The holders in the story, each once, then the first of `BOT_CAST`."""
    seen: dict[str, str] = {}
    # Each text once in order of appearance (the same few texts hold most memes): the first
    # text of each key is the one kept.
    for holder in dict.fromkeys([meme.holder for sheet in state.sheets for meme in sheet.branches if meme is not None]):
        seen.setdefault(di.meme_key(holder), holder)
    for cast in BOT_CAST[:3]:
        holder = render(cast)
        seen.setdefault(di.meme_key(holder), holder)
    return list(seen.values())


def _fresh_text(state: di.State, seat: int) -> str:
    """'<name>'s truth <n>', a text not yet on the seat's sheet."""
    keys = state.sheets[seat].keys()
    k = state.next_id
    while di.meme_key(_truth(state.names[seat], k)) in keys:
        k += 1
    return _truth(state.names[seat], k)


# A bot writes as a player would, in the page's language; its numbers are names of its memes
# and titles (str: no digit grouping), so English reads as it always did.
def _truth(name: str, k: int) -> str:
    return _("{name}'s truth {k}", name=name, k=str(k))


def _belief(name: str, k: int) -> str:
    return _("{name}'s belief {k}", name=name, k=str(k))


def _chapter_title(chapter: int) -> str:
    # TRANSLATORS: a chapter title a bot gives the story, after the text's own "In which ..." titles.
    return _("In which chapter {k} happens", k=str(chapter))


def _targets_by_holder(state: di.State, seat: int) -> dict[str, list[di.Ref]]:
    """Every meme of the other players that `seat` may still target, by its holder's key (in
    seat and branch order)."""
    out: dict[str, list[di.Ref]] = {}
    targeted = state.targeted
    for other, sheet in enumerate(state.sheets):
        if other == seat:
            continue
        for branch, meme in compress(zip(di.BRANCHES, sheet.branches), sheet.branches):  # the filled ones
            assert meme is not None
            if (seat, meme.id) not in targeted:
                out.setdefault(meme.holder_key, []).append(_ref(other, branch))
    return out


@lru_cache(maxsize=1024)
def _ref(seat: int, branch: str) -> di.Ref:
    """`Ref(seat, branch)`, made once (a bot looking for targets names every other meme)."""
    return di.Ref(seat, branch)


def _spend_options(state: di.State, seat: int, cls: type[di.Spend]) -> list[Action]:
    return [_spend_action(cls, seat, *spec) for spec in spend_specs(state, seat, cls)]


def spend_specs(state: di.State, seat: int, cls: type[di.Spend]) -> tuple[SpendSpec, ...]:
    """What each spend `candidate_groups` offers is made of, in its order, without the actions:
    a bot that wants one builds only that one. In the phase and role `cls` is played in (the
    actor stakes; another player connects or defends in phase 2 unless on the other side),
    each is legal by construction: the stones are there, Think gives no more than the node,
    and each meme may be involved, once per turn, its bonus not yet taken."""
    a = state.attempt
    if a is None:
        return ()
    role = cls.role
    sheet = state.sheets[seat]
    node = di.role_node(a, role)
    room = a.node_spent[seat] - a.think_spent[seat]
    elsewhere = {mid for mid, number in state.involved if number != a.number} if state.involved else ()
    bonus_taken = state.bonus_taken
    usable = []
    for branch, meme in di.involvable(state, seat, role):
        if meme.id not in elsewhere:
            usable.append((branch, 1 if meme.bonus > 0 and meme.id not in bonus_taken else 0, meme.stones))
    return _spends(sheet.nodes[_NODE[node]], sheet.nodes[_NODE["think"]], room, tuple(usable))


@lru_cache(maxsize=4096)
def _spends(n: int, t: int, room: int, usable: tuple[tuple[str, int, int], ...]) -> tuple[SpendSpec, ...]:
    """Spends in typical sizes from `n` stones on the role's node, `t` on Think (`room` more
    from Think than from the node so far) and (branch, bonus, stones) of the memes that may
    be involved, each once. Built once for each, whoever spends: phase 2 asks every player
    again after every spend."""

    def think_for(from_node: int) -> int:
        return max(0, min(t, room + from_node))

    # Each spend as (from_node, from_think, ((branch, bonus, stones), ...)) first: plain tuples
    # are quicker to tell apart than `Use` records, which are made once each at the end.
    uses: list[tuple[str, int, int]] = []
    for branch, bonus, stones in usable:
        if bonus:
            uses.append((branch, 1, 0))
        if stones:
            uses.append((branch, bonus, stones))
    specs: list[tuple[int, int, tuple[tuple[str, int, int], ...]]] = []
    if n:
        for k in sorted({1, n}):
            specs.append((k, 0, ()))
            if think_for(k):
                specs.append((k, think_for(k), ()))
    elif think_for(0):
        specs.append((0, think_for(0), ()))
    for use in uses:
        specs.append((0, 0, (use,)))
    # The biggest use of each meme is all it gives: its bonus and its stones (the branches of
    # `usable` are distinct).
    best = [use for use in usable if use[1] or use[2]]
    bonuses = tuple((branch, 1, 0) for branch, bonus, _ in best if bonus)
    if len(bonuses) > 1:
        specs.append((0, 0, bonuses))
    if n or best:
        specs.append((n, think_for(n), tuple(best)))
    return tuple((from_node, from_think, tuple(starmap(_use, memes))) for from_node, from_think, memes in dict.fromkeys(specs))


@lru_cache(maxsize=1024)
def _use(branch: str, bonus: int, stones: int) -> di.Use:
    """`Use(branch, bonus, stones)` without `__init__`, made once (a value: the spends of every
    sheet share the few there are)."""
    return construct(di.Use, {"branch": branch, "bonus": bonus, "stones": stones})


def _spend_action(cls: type[di.Spend], seat: int, from_node: int, from_think: int, memes: tuple[di.Use, ...]) -> di.Spend:
    """`cls(seat=seat, from_node=..., from_think=..., memes=...)` without `__init__` (a bot
    game builds some 100 new spends)."""
    return construct(cls, {"seat": seat, "narration": "", "from_node": from_node, "from_think": from_think, "memes": memes})


def _conclude_specs(sheet: di.Sheet) -> list[tuple[str, int]]:
    """(branch, from_hub) of each Conclude of a success `candidate_groups` offers, in its order:
    a bot that wants one makes only that one."""
    return [(b, k) for b in sheet.empty() for k in sorted({0, sheet.node(di.hub_of(b))})]


def _pass_of(seat: int) -> di.Pass:
    """`Pass(seat=seat)`, made once for each seat: a bot game passes some 300 times."""
    return _passes(seat) if type(seat) is int else di.Pass(seat=seat)


@lru_cache(maxsize=64)
def _passes(seat: int) -> di.Pass:
    return di.Pass(seat=seat)


@lru_cache(maxsize=1024, typed=True)
def _made(cls: type[Action], **fields: Any) -> Action:
    """`cls(**fields)`, made once for each: the moves that bots make again and again with the
    same fields (end the turn, re-roll die 1; actions are values)."""
    return cls(**fields)


# -- the bots -------------------------------------------------------------------------------------


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


@cache
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
_LEGAL_KINDS = frozenset(cls.kind for cls in (di.Place, di.Title, di.TurnStones, di.Gain, di.Move, di.EndTurn, di.Pass, di.SpendSeed, di.Conclude))


def random_bot(state: di.State, seat: int, rng: random.Random) -> Action:
    """random: any legal action, a kind of action first at random, then one of that kind."""
    phase = state.phase
    if (phase == "respond" or phase == "stake") and state.attempt is not None and type(seat) is int and 0 <= seat < len(state.sheets):
        return _random_spend_or_pass(state, seat, rng)
    groups = candidate_groups(state, seat, limit=_LIMIT)
    built: dict[int, tuple[Callable[[Any], Action] | None, Sequence[Any]]] = {}
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
            action: Action = option if make is None else make(option)
            if sure or di.is_legal(state, action):
                return action
    raise RuleError("bot", say("seat {seat} has no legal action in phase {phase}", seat=str(seat), phase=state.phase))


@lru_cache(maxsize=256)
def _sorted_kinds(names: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, int], ...]:
    """(kind, group) for the kinds each group may hold, sorted: the same few groups each turn."""
    return tuple(sorted((kind, g) for g, kinds in enumerate(names) for kind in kinds))


def _random_spend_or_pass(state: di.State, seat: int, rng: random.Random) -> Action:
    """`random_bot` in phases 1 and 2 (half a game's moves): the same kinds in the same order
    as `candidate_groups` gives them, sorted and shuffled alike, without building the groups.
    A kind's spends are legal by construction (`spend_specs`): the first one shuffled is
    the one taken, and only it is made; so is a pass."""
    a = state.attempt
    assert a is not None
    # The kinds in the order of their sorted names (connect, defend, pass, stake).
    order: list[type[Action]]
    if seat == a.actor:
        order = [di.Pass, di.Stake]
    elif state.phase == "respond":
        side = a.sides[seat]
        order = [di.Defend, di.Pass] if side == "defend" else [di.Connect, di.Pass] if side == "connect" else [di.Connect, di.Defend, di.Pass]
    else:
        order = [di.Pass]
    if len(order) > 1:
        _shuffle(order, rng)
    for cls in order:
        if cls is di.Pass:
            return _pass_of(seat)  # legal for the seat the game waits on (`_LEGAL_KINDS`)
        specs = list(spend_specs(state, seat, cls))  # type: ignore[arg-type]  # a Spend kind: Pass returned above
        if specs:
            if len(specs) > 1:
                _shuffle(specs, rng)
            return _spend_action(cls, seat, *specs[0])  # type: ignore[arg-type]  # a Spend kind, as above
    raise RuleError("bot", say("seat {seat} has no legal action in phase {phase}", seat=str(seat), phase=state.phase))


def _lazy_group(state: di.State, seat: int, names: tuple[str, ...]) -> tuple[Callable[[Any], Action], Sequence[Any]] | None:
    """For the groups of many candidates (placements, Moves, Creates and Spreads, Writes, the
    Concludes of a success): what each candidate is made of, in the group's order (the limits
    `candidate_groups` gives them), and how to make it, so that only the candidates tried are
    built (shuffling draws the same for a list of the same length)."""
    if names == (di.Place.kind,):
        return (lambda place: di.Place(seat=seat, place=place)), _place_specs(state, seat, state.setup.start_stones, True, _LIMIT)
    if names == (di.Gain.kind,):
        return (lambda place: di.Gain(seat=seat, place=place)), _place_specs(state, seat, di.GAIN_STONES, False, GAIN_CANDIDATES)
    if names == (di.TurnStones.kind,):
        return (lambda place: di.TurnStones(seat=seat, place=place)), _place_specs(state, seat, di.TURN_STONES, False, _LIMIT)
    if names == (di.Move.kind,):
        return (lambda step: di.Move(seat=seat, steps=(di.Step(*step),))), _move_steps(state, seat)
    if names == (di.Create.kind, di.Spread.kind):
        return (lambda spec: spec[0](seat=seat, text=spec[1], holder=spec[2], target=spec[3])), _meme_specs(state, seat, _LIMIT)
    sheet = state.sheets[seat]
    if names == (di.Write.kind,):
        return (lambda branch: _write_of(sheet, seat, branch)), sheet.empty()
    if names == (di.Conclude.kind,) and state.attempt is not None and state.attempt.success:
        return (lambda spec: di.Conclude(seat=seat, branch=spec[0], from_hub=spec[1])), _conclude_specs(sheet)
    return None


#: the last sheets the leaders were counted for, their scores and their leaders: between two
#: spends the table passes round and round on the same sheets, and a spend changes one sheet.
_leaders_seen: tuple[tuple[Any, ...], tuple[int, ...], frozenset[int]] = ((), (), frozenset())


def _leaders(state: di.State) -> frozenset[int]:
    global _leaders_seen
    sheets, points, leaders = _leaders_seen
    now = state.sheets
    if sheets is not now:
        if len(sheets) == len(now):
            # A score reads the memes alone: a sheet whose branches are the same record (a
            # spend from nodes, stones gained on nodes) keeps its score.
            points = tuple(p if old.branches is new.branches else di.sheet_score(new) for old, new, p in zip(sheets, now, points))
        else:
            points = di.scores(state)
        top = max(points)
        leaders = frozenset(s for s in range(len(now)) if points[s] == top)
        _leaders_seen = (now, points, leaders)
    return leaders


@dataclass(frozen=True)
class _Unsure:
    """A choice of the sensible bot's that the rules check (the random bot plays when they
    refuse it): one of the rare setup moves, not worth proving legal."""

    action: Action


def sensible_bot(state: di.State, seat: int, rng: random.Random) -> Action:
    """sensible: plays for unique memes: stakes Create, creates often, defends against the leader, connects cheaply."""
    choice = _sensible(state, seat, rng)
    if isinstance(choice, _Unsure):
        if di.is_legal(state, choice.action):
            return choice.action
    elif choice is not None:
        return choice
    return random_bot(state, seat, rng)


def _sensible(state: di.State, seat: int, rng: random.Random) -> Action | _Unsure | None:
    """The sensible bot's choice for `seat`, a seat the game waits on (bots are asked for no
    other): legal by construction (the fixed moves of phases the seat is asked in, spends from
    `spend_specs`, a Create the rules accepted) unless `_Unsure`; None: no choice."""
    phase = state.phase
    sheet = state.sheets[seat]
    a = state.attempt
    if phase in ("stake", "respond") and a is not None:  # most of the asks: phases 1 and 2
        if seat == a.actor:
            if a.pool < 7:
                return _sized(di.Stake, seat, spend_specs(state, seat, di.Stake), biggest=True) or _pass_of(seat)
            return _pass_of(seat)
        if phase == "stake" or a.sides[seat]:
            return _pass_of(seat)
        threatened = a.target is not None and a.target.seat == seat
        leaders = _leaders(state)
        actor_leads = a.actor in leaders
        if threatened or (actor_leads and seat not in leaders) or (actor_leads and sheet.node("defend") > 2):
            if a.pool > 0:
                defend = _sized(di.Defend, seat, spend_specs(state, seat, di.Defend), biggest=True)
                if defend is not None:
                    return defend
        elif not actor_leads:
            cheap = [c for c in spend_specs(state, seat, di.Connect) if c[0] == 0 and c[1] == 0 and all(u.stones == 0 for u in c[2])]
            connect = _sized(di.Connect, seat, cheap, biggest=False)
            if connect is not None:
                return connect
        return _pass_of(seat)
    if phase == "place":
        n = state.setup.start_stones
        create, think = (n * 3) // 7, (n * 2) // 7
        rest = n - create - think
        place = ("create",) * create + ("think",) * think + ("defend",) * (rest - rest // 2) + ("connect",) * (rest // 2)
        return _Unsure(di.Place(seat=seat, place=place))
    if phase == "setting":
        written = {state.setup.branch_type(b) for b, _ in sheet.memes()}
        want = di.LEAF if di.LEAF not in written else di.COILED
        branch = next(b for b in sheet.empty() if state.setup.branch_type(b) == want)
        return _Unsure(di.Write(seat=seat, branch=branch, text=_belief(sheet.name, sheet.filled + 1), holder=render(rng.choice(BOT_CAST))))
    if phase == "title":
        return _Unsure(di.Title(seat=seat, title=_chapter_title(state.chapter + 1)))
    if phase == "turn-start":
        return _made(di.TurnStones, seat=seat, place=("create", "think"))
    if phase == "turn":
        if seat == state.starter and not state.plot_declared:
            return _made(di.PlotUnfinished, seat=seat)
        if state.actions_taken >= di.ACTIONS_PER_TURN:
            return _made(di.EndTurn, seat=seat)
        coiled_bonus = sum(
            1
            for kind, m in zip(state.setup.layout, sheet.branches)  # each branch's type and meme
            if m is not None and kind == di.COILED and m.bonus and m.id not in state.bonus_taken and not any(mid == m.id for mid, _ in state.involved)
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
                for target in targets.get(di.meme_key(holder), ()):
                    if target.seat in leaders:
                        option = di.Create(seat=seat, text=text, holder=holder, target=target)
                        if di.is_legal(state, option):
                            return option
            for holder in holders:
                option = di.Create(seat=seat, text=text, holder=holder)
                if di.is_legal(state, option):
                    return option
        return _made(di.Gain, seat=seat, place=("create", "create", "think"))
    if phase == "reroll" and a is not None:
        winning = di.wins(a.pool, a.total)
        if seat == a.actor and not winning:
            die, chance_, _ = di.seed_advice(a.pool, (a.dice[0], a.dice[1]), sheet.seeds)
            if die is not None and chance_ >= _ONE_SIXTH:
                return _made(di.SpendSeed, seat=seat, die=die)
        if seat != a.actor and winning and a.sides[seat] == "defend":
            spoil = [(sum(1 for v in _FACES if di.wins(a.pool, a.total - a.dice[d] + v)), d) for d in (0, 1)]
            kept, die = min(spoil)
            if kept <= 3:
                return _made(di.SpendSeed, seat=seat, die=die)
        return _pass_of(seat)
    if phase == "outcome" and a is not None:
        if not a.success:
            return _made(di.Conclude, seat=seat)
        branch = max(sheet.empty(), key=lambda b: (sheet.node(di.hub_of(b)) > 0, -_BRANCH[b]))
        return di.Conclude(seat=seat, branch=branch, from_hub=min(1, sheet.node(di.hub_of(branch))))
    return None


_ONE_SIXTH = Fraction(1, 6)
_FACES = range(1, 7)


def _spend_size(spec: SpendSpec) -> int:
    from_node, from_think, memes = spec
    return from_node + from_think + (sum(u.bonus + u.stones for u in memes) if memes else 0)


def _sized(cls: type[di.Spend], seat: int, specs: Sequence[SpendSpec], biggest: bool) -> di.Spend | None:
    """The biggest (or smallest) spend, the first of its size on a tie, made as `cls` (legal by
    construction: `spend_specs`)."""
    if not specs:
        return None
    spec = max(specs, key=_spend_size) if biggest else min(specs, key=_spend_size)
    return _spend_action(cls, seat, *spec)


BOTS: dict[str, Callable[[di.State, int, random.Random], Action]] = {"random": random_bot, "sensible": sensible_bot}
DEFAULT_BOTS = ("sensible", "sensible", "random", "random")


# -- one game, one row ------------------------------------------------------------------------------


def play_game(spec: Spec, seed: int, index: int) -> Row:
    """Game `index` of a run seeded `seed`, as one row of plain numbers (pools and results of
    every meme action as lists)."""
    setup = GAME.setup(spec)
    gs = game_seed(seed, index)
    choose = seat_chooser([BOTS[b] for b in spec.bots], rng_for(gs, -1))
    state = play_lean(di.RULES, setup, gs, choose, check=checked(spec, index))
    points = [di.sheet_score(sheet) for sheet in state.sheets]
    table = di.RULES.standings(state)
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


def measures(spec: Spec, rows: Sequence[Row]) -> Measures:
    seats = len(spec.bots)
    out: dict[str, Sequence[float | None]] = {
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
        found.append(Finding("memes-fail", _("Most meme actions fail: {share} succeed.", share=share_text(made, attempts)), {"success_rate": round(made / attempts, 4)}))
    full = sum(1 for r in rows if r["ended"] == "full sheet")
    if full > n / 2:
        found.append(Finding("full-sheets", _("Most stories end early, on a full sheet: {share} of games.", share=share_text(full, n)), {"share": round(full / n, 4)}))
    return found + table_findings(spec.bots, rows, "score_", _("points"))


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
            _("The text's own end, the last chapter, ends {share} of stories; the rest end when a sheet's 12 branches are full.", share=pct_interval(last, n))
            if last < n
            else _("The text's own end, the last chapter, ends {share} of stories; none ends on a full sheet.", share=pct_interval(last, n)),
            {"share": round(last / n, 4)},
        ),
        Finding(
            "memes",
            _("Meme actions succeed {share} of the time.", share=pct_interval(made, attempts)),
            {"success_rate": round(made / attempts, 4) if attempts else None},
        ),
        seat_order(spec.bots, rows),
    ]
    if most < 12:
        never = _("No sheet ever filled more than {most} of its 12 branches in {n} stories.", most=most, n=n)
        out.append(Finding("never", never, {"most_memes": most}))
    return out


def figures(result: Any) -> list[Any]:
    """A run's charts: the win shares and the meme actions' success by pool size."""
    s = result.summary
    figure, (left, right) = new_figure()
    win_share_bars(left, s)
    by_pool = s["success_rate_by_pool"]
    right.bar([int(p) for p in by_pool], [v["success_rate"] for v in by_pool.values()], color=PURPLE)
    right.set_title(_("Meme actions: success by pool size"))
    # TRANSLATORS: a chart's axis: how many dice a meme action rolls.
    right.set_xlabel(_("pool"))
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
    note=say("The story runs for the default number of chapters (2 × players for 3-4 players, else 1 ×)."),
    variant_example=say("e.g. {variants}", variants="seeds=2"),
    bot_words={
        "random": say("any legal action, a kind of action first at random, then one of that kind."),
        "sensible": say("plays for unique memes: stakes Create, creates often, defends against the leader, connects cheaply."),
    },
    labels={
        "chapters": say("Chapters"),
        "chapters_played": say("Chapters played"),
        "memes_per_sheet": say("Memes per sheet"),
        "meme_actions": say("Meme actions"),
        "per_game": say("Per game"),
        "success_rate": say("Success rate"),
        "mean_pool": say("Mean pool"),
        "replacement_attempts": say("Replacement attempts"),
        "replacements": say("Replacements"),
        "pool_sizes": say("Pool sizes"),
        "success_rate_by_pool": say("Success rate by pool"),
        "mean_score_per_seat_by_bot": say("Mean score per seat by bot"),
        # the endings, as the summary names them
        "last chapter": say("last chapter"),
        "full sheet": say("full sheet"),
        # the measures a comparison sets side by side (`measures`)
        "meme actions per game": say("meme actions per game"),
        "meme actions that succeed (share)": say("meme actions that succeed (share)"),
        "mean pool": say("mean pool"),
        "memes per player": say("memes per player"),
        "winning score": say("winning score"),
        "score spread": say("score spread"),
        "ends on a full sheet (share)": say("ends on a full sheet (share)"),
        "mean score: {kind}": say("mean score: {kind}"),
    },
    figures=figures,
)
