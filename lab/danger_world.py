"""Danger World's lab: checks by the thousand, and encounters run by a scripted GM.

Two kinds of numbers. The check sweep plays checks through the rules for every pool size,
difficulty, number of penalty dice and re-rolls, the player locking as the coach advises
(the same bot as in encounters), and counts successes,
partial successes, failures and the botches the GM gets to spend; beside each rate stands the
exact chance of success from the rules' odds. An encounter is a game: a party of characters
takes turns at checks for a few rounds while the GM spends every botch by a script, and a
row records the danger taken, the damage track round by round and who was K.O.'d.

Player bots (`BOTS`) play one character's checks; the GM's script is the option `gm`.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from i18n import _, _n, listed, render
from rules.core import Action, RuleError, rng_for
from rules.danger_world import (
    BOXES,
    GM_OPTIONS,
    KO,
    RULES,
    SHEET_DICE,
    STAT_MAX,
    STATS,
    BeginCheck,
    ChooseSet,
    CreateCharacter,
    GmOption,
    Invocation,
    Lock,
    NewSession,
    Reroll,
    Setup,
    SpendBotches,
    State,
    best_locks,
    quick_sheet,
    set_heights,
    success_chance,
)
from rules.text import say

from .core import Finding, LabGame, Measures, Row, Spec, checked, game_seed, label_of, mean_interval, play_lean, run_games, summary, t_quantile
from .findings import fixed, pct_interval, share_text, signed
from .plots import BLUE, GREY, PURPLE, RED, new_figure, percent_axis

__all__ = ["BOTS", "DEFAULT_BOTS", "GAME", "GM_SCRIPTS", "check_sweep", "play_game"]

ASPECTS = ("Brave to a fault", "Knows the old roads", "Owes the wrong people")
#: the default sheet: Agility 4, Perception 3, and 9 more dice over the rest (16 in all).
SHEET = (4, 2, 2, 1, 3, 2, 1, 1)


# -- the coach's locks, cached on what matters ----------------------------------------------------


@lru_cache(maxsize=100_000)
def _locks(locked: tuple[int, ...], unlocked: tuple[int, ...], penalty: tuple[int, ...], difficulty: int, rerolls_left: int) -> tuple[int, ...]:
    """How many unlocked dice of each face 1-6 to lock, by the rules' `best_locks`; its best
    choice depends only on the faces (sorted here), so one answer serves every arrangement."""
    faces = locked + unlocked
    best, _ = best_locks(faces, range(len(locked)), penalty, difficulty, rerolls_left)[0]
    chosen = Counter(faces[i] for i in best if i >= len(locked))
    return tuple(chosen[h] for h in range(1, 7))


def coach_locks(faces: Sequence[int], locked: set[int] | frozenset[int], penalty: Sequence[int], difficulty: int, rerolls_left: int) -> list[int]:
    """The dice (indices) to lock now, as the coach advises."""
    held = tuple(sorted(faces[i] for i in locked))
    free = sorted(faces[i] for i in range(len(faces)) if i not in locked)
    counts = list(_locks(held, tuple(free), tuple(sorted(penalty)), difficulty, rerolls_left))
    new = []
    for i, f in enumerate(faces):
        if i not in locked and counts[f - 1]:
            counts[f - 1] -= 1
            new.append(i)
    return new


def _made(faces: Sequence[int], penalty: Sequence[int], difficulty: int) -> bool:
    return any(h >= difficulty for h in set_heights(faces, penalty))


# -- player bots ----------------------------------------------------------------------------------


def _best_stats(state: State, seat: int) -> tuple[str, str]:
    c = state.characters[seat]
    order = sorted(range(len(STATS)), key=lambda i: (-c.effective[i], i))
    return STATS[order[0]], STATS[order[1]]


#: the difficulty a bot assumes when none is given (the lab's encounters set their own).
DIFFICULTY = 4


def player_bot(name: str, difficulty: int = DIFFICULTY) -> Callable[[State, int, random.Random], Action]:
    """The player strategy `name` for checks against `difficulty`: it picks the character's two
    best stats, uses every bonus pool, and locks and re-rolls as the coach advises. A character
    with no sheet yet (a student absent from the start) takes a quick one; at the GM's seat (an
    absent GM) it spends the botches as the lab's default GM does (`gm_spend`)."""
    danger, invokes = STRATEGIES[name]

    def play_seat(state: State, seat: int, rng: random.Random) -> Action:
        if seat == state.gm_seat:
            return gm_spend(state, GM_DEFAULT)
        c = state.check
        if c is None:
            me = state.characters[seat]
            if not me.ready:
                # Its aspects in the page's language, as a player there would write them.
                sheet = quick_sheet(rng.randrange(1 << 30), state.setup.sheet_dice, render)
                return CreateCharacter(seat=seat, character=seat, stats=sheet.stats, aspects=tuple(render(a) for a in sheet.aspects))
            stats = _best_stats(state, seat)
            invocations: tuple[Invocation, ...] = ()
            if invokes and me.sp:
                dice = me.stat(stats[0]) + me.stat(stats[1]) - me.lost_dice + sum(b.dice for b in me.bonus)
                if success_chance(max(0, min(20, dice)), difficulty, min(6, me.penalty_dice), min(4, state.setup.rerolls)) < 0.5:
                    invocations = (Invocation(rng.randrange(len(me.aspects)), 1),)
            return BeginCheck(
                seat=seat,
                character=seat,
                stats=stats,
                difficulty=difficulty,
                invocations=invocations,
                bonus=tuple(range(len(me.bonus))),
                danger=me.zone if danger else 0,
            )
        left = state.setup.rerolls - c.rerolls
        heights = set_heights(c.faces, c.penalty_faces)
        if left and c.unlocked and not _made(c.faces, c.penalty_faces, c.difficulty):
            new = coach_locks(c.faces, c.locked, c.penalty_faces, c.difficulty, left)
            if new and len(new) < len(c.unlocked):
                return Lock(seat=seat, dice=tuple(new))
            if not new:
                return Reroll(seat=seat)
        return ChooseSet(seat=seat, height=max(heights) if heights else None)

    play_seat.__doc__ = DOCS[name]
    return play_seat


#: name -> (rolls every danger die its zone allows, invokes an aspect when the odds are poor).
STRATEGIES: dict[str, tuple[bool, bool]] = {"bold": (True, False), "careful": (False, False), "invoker": (False, True)}
DOCS = {
    "bold": "bold: rolls every danger die its zone allows, invokes no aspect.",
    "careful": "careful: rolls no danger dice, invokes no aspect.",
    "invoker": "invoker: rolls no danger dice; spends a story point on an aspect when its odds are below even.",
}
BOTS: dict[str, Callable[[State, int, random.Random], Action]] = {name: player_bot(name) for name in STRATEGIES}
DEFAULT_BOTS = ("bold", "careful", "invoker")


# -- the GM's scripts -----------------------------------------------------------------------------


def _gm_hits(botches: int) -> list[str]:
    """hits: the biggest hit the botches buy (overload 6, full 4, reduced 2), the rest on danger."""
    bought = []
    for option in ("overload", "full", "reduced"):
        while botches >= GM_OPTIONS[option]:
            bought.append(option)
            botches -= GM_OPTIONS[option]
    return bought + ["danger"] * botches


def _gm_danger(botches: int) -> list[str]:
    """danger: every botch raises the actor's danger by 1."""
    return ["danger"] * botches


def _gm_mercy(botches: int) -> list[str]:
    """mercy: lets every botch go."""
    return []


def _gm_focus(botches: int) -> list[str]:
    """focus: the hits script's purchases, every hit on the most damaged character still
    standing (the harshest GM the lab has: it plays for a K.O.)."""
    return _gm_hits(botches)


GM_SCRIPTS: dict[str, Callable[[int], list[str]]] = {"hits": _gm_hits, "danger": _gm_danger, "mercy": _gm_mercy, "focus": _gm_focus}
#: the script the lab's encounters and a bot in the GM's seat play.
GM_DEFAULT = "hits"


def gm_spend(state: State, script: str) -> SpendBotches:
    """The GM's spend of the check's botches by `script` (hits on the actor, or with "focus"
    on the most damaged character standing; danger always on the actor)."""
    c = state.check
    assert c is not None
    target = _focus(state, c.actor) if script == "focus" else c.actor
    bought = GM_SCRIPTS[script](c.botches)
    return SpendBotches(seat=state.gm_seat, options=tuple(GmOption(o, c.actor if o == "danger" else target) for o in bought if o == "danger" or not state.characters[target].dead))


def _focus(state: State, actor: int) -> int:
    """The character a focused GM hits: the most damaged one not yet down (the actor on a tie)."""
    standing = [i for i, c in enumerate(state.characters) if not (c.dead or c.knocked_out)] or [actor]
    return max(standing, key=lambda i: (sum(state.characters[i].damage), i == actor, -i))


# -- one encounter, one row -----------------------------------------------------------------------


def play_game(spec: Spec, seed: int, index: int) -> Row:
    """Encounter `index` of a run seeded `seed`: `rounds` rounds in which every character able
    to act makes one check, the GM spending every botch by its script."""
    options = {**GAME.options, **dict(spec.options)}
    if options["gm"] not in GM_SCRIPTS:
        raise RuleError("variant", say("gm is one of {scripts}, not {given}", scripts=", ".join(GM_SCRIPTS), given=repr(options["gm"])))
    sheet = tuple(options["sheet"])
    rounds = options["rounds"]
    setup = GAME.setup(spec)
    gs = game_seed(seed, index)
    rng = rng_for(gs, -1)
    bots = [player_bot(b, options["difficulty"]) for b in spec.bots]
    party = len(spec.bots)
    damage: list[int] = []
    turn = [0]

    def choose(state: State) -> Action | None:
        if state.phase == "gm":
            return gm_spend(state, options["gm"])
        if state.phase == "lock":
            assert state.check is not None
            return bots[state.check.actor](state, state.check.actor, rng)
        for i, c in enumerate(state.characters):
            if not c.ready:
                return CreateCharacter(seat=i, character=i, stats=sheet, aspects=ASPECTS)
        while turn[0] < rounds * party:
            actor = turn[0] % party
            if actor == 0 and len(damage) < turn[0] // party:
                damage.append(sum(sum(c.damage) for c in state.characters))
            turn[0] += 1
            c = state.characters[actor]
            if not (c.dead or c.knocked_out):
                return bots[actor](state, actor, rng)
        return None

    state = play_lean(RULES, setup, gs, choose, check=checked(spec, index))
    while len(damage) < rounds:
        damage.append(sum(sum(c.damage) for c in state.characters))
    results = state.results
    outcomes = Counter(r.outcome for r in results)
    gm_danger = sum(1 for r in results for o in r.spent if o.option == "danger")
    row: Row = {
        "game": index,
        "seed": gs,
        "checks": len(results),
        "successes": outcomes["success"] + outcomes["benefit"],
        "partials": outcomes["partial"],
        "failures": outcomes["failure"],
        "botches": sum(r.botches for r in results),
        "gm_spent": sum(GM_OPTIONS[o.option] for r in results for o in r.spent),
        "hits": sum(1 for r in results for o in r.spent if o.option in ("reduced", "full", "overload")),
        "danger_taken": sum(r.danger_raised for r in results) + gm_danger,
        "top_zone": max(c.zone for c in state.characters),
        "boxes_filled": sum(sum(c.damage) for c in state.characters),
        "worst_boxes": max(sum(c.damage) for c in state.characters),
        "knocked_out": sum(1 for c in state.characters if c.knocked_out or c.damage[3]),
        "dead": sum(1 for c in state.characters if c.dead),
        "damage_by_round": damage,
    }
    return row


# -- the check sweep ------------------------------------------------------------------------------

#: pool sizes of the sweep: two stats give at least 2 dice (1 die takes a Stunned box, and
#: makes no set at any difficulty); above 8, story points on an aspect add the rest.
SWEEP_DICE = range(2, 13)
SWEEP_DIFFICULTY = range(2, 7)
SWEEP_PENALTY = range(4)
#: the sweep's tester invokes up to 4 story points a check; a session gives back this many.
SWEEP_SP = 20


def _cells(rerolls: int) -> list[tuple[int, int, int, int]]:
    return [(d, h, p, r) for r in range(rerolls + 1) for p in SWEEP_PENALTY for h in SWEEP_DIFFICULTY for d in SWEEP_DICE]


def _sweep_sheet(dice: int) -> tuple[int, ...]:
    """A 16-die sheet whose first two stats (Agility, Endurance) hold min(dice, 8) dice."""
    first = min(dice, 2 * STAT_MAX)
    a = min(STAT_MAX, first - 1)
    rest = [1] * (len(STATS) - 2)
    spare = SHEET_DICE - first - len(rest)
    for i in range(len(rest)):
        add = min(STAT_MAX - 1, spare)
        rest[i] += add
        spare -= add
    return (a, first - a, *rest)


def _sweep_cell(spec: Spec, seed: int, index: int) -> Row:
    """`trials` checks of sweep cell `index`, played by the rules (a lone tester making check
    after check, locking as the coach advises; the GM lets every botch go), seeded from
    (seed, cell) like a game."""
    options = {**GAME.options, **dict(spec.options)}
    rerolls_allowed = GAME.setup(spec).rerolls
    dice, difficulty, penalty, rerolls = _cells(rerolls_allowed)[index]
    trials = options["sweep_trials"]
    setup = Setup(names=("Tester",), story_points=SWEEP_SP, rerolls=rerolls)
    invoke = (Invocation(0, dice - 2 * STAT_MAX),) if dice > 2 * STAT_MAX else ()
    begin = BeginCheck(seat=0, character=0, stats=STATS[:2], difficulty=difficulty, invocations=invoke, complications=penalty)
    tester = player_bot("careful", difficulty)
    rng = rng_for(game_seed(seed, index), -2)

    def choose(state: State) -> Action | None:
        if state.phase == "gm":
            return SpendBotches()
        if state.check is not None:
            return tester(state, 0, rng)
        if not state.characters[0].ready:
            return CreateCharacter(seat=0, character=0, stats=_sweep_sheet(dice), aspects=ASPECTS)
        if len(state.results) >= trials:
            return None
        if invoke and state.characters[0].sp < invoke[0].sp:
            return NewSession()  # story points back for the next invocation
        return begin

    state = play_lean(RULES, setup, game_seed(seed, index), choose, check=checked(spec, index))
    results = state.results
    made = sum(1 for r in results if r.outcome in ("success", "benefit"))
    partial = sum(1 for r in results if r.outcome == "partial")
    botches = [r.botches for r in results]
    exact = success_chance(dice, difficulty, penalty, rerolls)
    return {
        "dice": dice,
        "difficulty": difficulty,
        "penalty": penalty,
        "rerolls": rerolls,
        "checks": trials,
        "success": round(made / trials, 4),
        "exact_success": round(float(exact), 4),
        "partial": round(partial / trials, 4),
        "failure": round((trials - made - partial) / trials, 4),
        "botches_per_check": round(sum(botches) / trials, 4),
        "gm_reduced_hit": round(sum(1 for b in botches if 2 <= b < 4) / trials, 4),
        "gm_full_hit": round(sum(1 for b in botches if b >= 4) / trials, 4),
    }


#: sweeps already rolled, by (re-rolls, trials, seed): the sweep depends on nothing else, so a
#: second run with other bots or another GM script (a comparison, a dashboard) reuses it.
_SWEEPS: dict[tuple[int, int, int], list[Row]] = {}


def check_sweep(spec: Spec, games: int, seed: int, *, workers: int | None = None, scheduler: str | None = None) -> dict[str, Any]:
    """The sweep's rows (one per pool size, difficulty, penalty dice and re-rolls)."""
    rerolls = GAME.setup(spec).rerolls
    key = (rerolls, spec.option("sweep_trials", GAME.options["sweep_trials"]), seed)
    if key not in _SWEEPS:
        plain = Spec(spec.game, spec.bots, (("sweep_trials", key[1]),) + tuple((k, v) for k, v in spec.options if k == "rerolls"))
        _SWEEPS[key] = run_games(_sweep_cell, plain, len(_cells(rerolls)), seed, workers=workers, scheduler=scheduler)
    return {"check_sweep": [dict(row) for row in _SWEEPS[key]]}


def summarise(spec: Spec, rows: Sequence[Row]) -> dict[str, Any]:
    options = {**GAME.options, **dict(spec.options)}
    n = len(rows)
    checks = sum(r["checks"] for r in rows)
    rounds = options["rounds"]
    return {
        "game": "danger-world",
        "games": n,
        "bots": list(spec.bots),
        "variant": spec.text,
        "gm": options["gm"],
        "difficulty": options["difficulty"],
        "rounds": rounds,
        "checks_per_encounter": summary([r["checks"] for r in rows]),
        "outcomes": {k: round(sum(r[k] for r in rows) / checks, 4) if checks else None for k in ("successes", "partials", "failures")},
        "botches_per_check": round(sum(r["botches"] for r in rows) / checks, 4) if checks else None,
        "gm_spent_per_encounter": summary([r["gm_spent"] for r in rows]),
        "hits_per_encounter": summary([r["hits"] for r in rows]),
        "danger_taken": summary([r["danger_taken"] for r in rows]),
        "top_zone": {str(k): v for k, v in sorted(Counter(r["top_zone"] for r in rows).items())},
        "damage_boxes_by_round": [round(sum(r["damage_by_round"][i] for r in rows) / n, 3) for i in range(rounds)] if n else [],
        "share_with_a_ko": round(sum(1 for r in rows if r["knocked_out"]) / n, 4) if n else None,
        "characters_ko_per_encounter": summary([r["knocked_out"] for r in rows]),
        "share_with_a_death": round(sum(1 for r in rows if r["dead"]) / n, 4) if n else None,
    }


def measures(spec: Spec, rows: Sequence[Row]) -> Measures:
    return {
        "checks per encounter": [r["checks"] for r in rows],
        "successes per check": [r["successes"] / r["checks"] if r["checks"] else None for r in rows],
        "partials per check": [r["partials"] / r["checks"] if r["checks"] else None for r in rows],
        # No GM spend nor hits: a script that spends every botch spends the botches again, and
        # each hit is a damage box below.
        "botches per check": [r["botches"] / r["checks"] if r["checks"] else None for r in rows],
        "danger taken": [r["danger_taken"] for r in rows],
        "damage boxes filled": [r["boxes_filled"] for r in rows],
        "a character K.O.'d (share)": [float(r["knocked_out"] > 0) for r in rows],
        "a character dead (share)": [float(r["dead"] > 0) for r in rows],
    }


def findings(spec: Spec, rows: Sequence[Row]) -> list[Finding]:
    """What a designer must not miss in these encounters; each only when it holds."""
    found: list[Finding] = []
    n = len(rows)
    if not n:
        return found
    ko = sum(1 for r in rows if r["knocked_out"])
    if ko >= n / 4:
        found.append(Finding("knock-outs", _("A character is K.O.'d in {share} of encounters.", share=share_text(ko, n)), {"share": round(ko / n, 4)}))
    dead = sum(1 for r in rows if r["dead"])
    if dead:
        found.append(Finding("deaths", _("A character dies in {share} of encounters.", share=share_text(dead, n)), {"share": round(dead / n, 4)}))
    checks = sum(r["checks"] for r in rows)
    partial = sum(r["partials"] for r in rows)
    if checks and partial / checks >= 0.25:
        found.append(Finding("partials", _("Partial successes are common: {share} of checks.", share=share_text(partial, checks)), {"share": round(partial / checks, 4)}))
    zone = sum(1 for r in rows if r["top_zone"] >= 2)
    if zone > n / 2:
        said = _("Danger climbs: a character reaches zone 2 or beyond in {share} of encounters.", share=share_text(zone, n))
        found.append(Finding("danger-climbs", said, {"share": round(zone / n, 4)}))
    return found


#: boxes a character fills before its K.O.'d box (Bashed, Stunned and Injured).
KO_AFTER = sum(BOXES[:KO])


def review(spec: Spec, rows: Sequence[Row]) -> list[Finding]:
    """The text as written, in sentences with intervals: how checks go, what the GM's botches
    do to the party, and what no encounter reached. Danger World has no winner and no end of
    its own: an encounter here is `rounds` rounds of checks."""
    options = {**GAME.options, **dict(spec.options)}
    n = len(rows)
    checks = sum(r["checks"] for r in rows)
    made = sum(r["successes"] for r in rows)
    partial = sum(r["partials"] for r in rows)
    ko = sum(1 for r in rows if r["knocked_out"])
    dead = sum(1 for r in rows if r["dead"])
    boxes, low, high, _p = mean_interval([r["boxes_filled"] for r in rows])
    top = max(r["top_zone"] for r in rows)
    worst, worst_low, worst_high, _p = mean_interval([r.get("worst_boxes", 0) for r in rows])
    out = [
        Finding(
            "checks",
            _(
                "Checks against difficulty {difficulty}: {made} succeed and {partial} are partial successes.",
                difficulty=options["difficulty"], made=pct_interval(made, checks), partial=pct_interval(partial, checks),
            ),
            {"success": round(made / checks, 4) if checks else None, "partial": round(partial / checks, 4) if checks else None},
        ),
        Finding(
            "text-end",
            _(
                "The text sets no end to an encounter; in {rounds} rounds against the GM's '{script}' script a character is K.O.'d in {ko} of encounters and dies in {dead}; the party fills {boxes} damage boxes (95% interval {low} to {high}), the worst-hit character {worst} ({worst_low} to {worst_high}) of the {before} before a K.O.",
                rounds=options["rounds"], script=str(options["gm"]), ko=pct_interval(ko, n), dead=pct_interval(dead, n), boxes=fixed(boxes), low=fixed(low),
                high=fixed(high), worst=fixed(worst), worst_low=fixed(worst_low), worst_high=fixed(worst_high), before=KO_AFTER,
            ),
            {"ko": round(ko / n, 4), "dead": round(dead / n, 4), "boxes": round(boxes, 3)},
        ),
        Finding("seat-order", _("Seat order: the characters do not compete, so the lab finds no winner and no seat advantage to report."), {}),
    ]
    bits = ([_("no character was K.O.'d")] if not ko else []) + ([_("no character died")] if not dead else [])
    if top < 5:
        bits.append(_("no character got past danger zone {zone}", zone=top))
    if bits:
        said = _n("In {n} encounter of {rounds} rounds, {what}.", "In {n} encounters of {rounds} rounds, {what}.", n, rounds=options["rounds"], what=listed(bits))
        out.append(Finding("never", said, {"encounters": n, "top_zone": top}))
    return out


def _sweep_error(cell: Row) -> tuple[float, float]:
    """A cell's rolled success rate minus the exact chance, and that difference's standard
    error (floored at a quarter count, so that a cell whose exact chance is 0 can still pass a
    success or two that the rounding of a tiny chance hides)."""
    p, n = cell["exact_success"], cell["checks"]
    return cell["success"] - p, math.sqrt(max(p * (1 - p), 0.25 / n) / n)


def sweep_findings(cells: Sequence[Row]) -> list[Finding]:
    """The sweep against the exact odds, at 5% family-wise: no cell strays beyond Bonferroni's
    bound for this many cells (2.5%), and the cells together are not off one way (a pooled z
    test, 2.5%), which catches an error of 0.05 in every cell at a handful of checks a cell."""
    if not cells:
        return []
    errors = [_sweep_error(c) for c in cells]
    bound = t_quantile(10**9, 1 - 0.025 / len(cells))
    off = [c for c, (e, se) in zip(cells, errors) if abs(e) > bound * se]
    pooled = sum(e * c["checks"] for c, (e, _se) in zip(cells, errors)) / math.sqrt(sum((se * c["checks"]) ** 2 for c, (_e, se) in zip(cells, errors)))
    worst = max(zip(cells, errors), key=lambda ce: abs(ce[1][0]) / ce[1][1])[0]
    numbers = {"cells": len(cells), "pooled_z": round(pooled, 2), "bound_z": round(bound, 2), "worst": {k: worst[k] for k in ("dice", "difficulty", "penalty", "rerolls", "success", "exact_success")}}
    if off or abs(pooled) > t_quantile(10**9, 0.975):
        if off:
            said = _(
                "Rolled checks disagree with the exact odds: {off} of {cells} cells stray beyond {bound} standard errors. The coach or the rules are wrong.",
                off=len(off), cells=len(cells), bound=fixed(bound),
            )
        else:
            said = _("Rolled checks disagree with the exact odds: the cells lean one way together (pooled z {z}). The coach or the rules are wrong.", z=signed(pooled))
        return [Finding("sweep-disagrees", said, {**numbers, "off": len(off)})]
    return [
        Finding(
            "sweep-agrees",
            _(
                "Checks played by the rules match the exact odds in all {cells} cells of the sweep (pool, difficulty, penalty dice, re-rolls): no cell beyond {bound} standard errors, pooled z {z}.",
                cells=len(cells), bound=fixed(bound), z=signed(pooled),
            ),
            numbers,
        )
    ]


def extras(spec: Spec, games: int, seed: int, *, workers: int | None = None, scheduler: str | None = None) -> dict[str, Any]:
    sweep = check_sweep(spec, games, seed, workers=workers, scheduler=scheduler) if spec.option("sweep_trials", GAME.options["sweep_trials"]) else {"check_sweep": []}
    sweep["sweep_findings"] = [f.as_dict() for f in sweep_findings(sweep["check_sweep"])]
    return sweep


def figures(result: Any) -> list[Any]:
    """A run's charts: the party's damage round by round, the checks' outcomes, and the check
    sweep's chances by pool."""
    s = result.summary
    figure, (left, right) = new_figure()
    rounds = s["damage_boxes_by_round"]
    left.plot(range(1, len(rounds) + 1), rounds, marker="o", color=RED)
    left.set_title(_("Damage boxes filled over the encounter (party total)"))
    left.set_xlabel(_("after round"))
    left.xaxis.get_major_locator().set_params(integer=True)
    outcomes = s["outcomes"]
    right.bar([render(label_of(k, GAME.labels, readable=False)) for k in outcomes], [v or 0 for v in outcomes.values()], color=[BLUE, PURPLE, GREY])
    right.set_title(_("Checks in the encounters"))
    percent_axis(right)
    charts = [figure]
    sweep = result.extras.get("check_sweep", [])
    if sweep:
        extra, axes = new_figure(10, 3.6, 2)
        rerolls = max(c["rerolls"] for c in sweep)
        titles = (
            _n("Success by pool ({n} re-roll, no penalty dice)", "Success by pool ({n} re-rolls, no penalty dice)", rerolls),
            _n("Partial success by pool ({n} re-roll, no penalty dice)", "Partial success by pool ({n} re-rolls, no penalty dice)", rerolls),
        )
        for axis, key, title in ((axes[0], "success", titles[0]), (axes[1], "partial", titles[1])):
            for difficulty in sorted({c["difficulty"] for c in sweep}):
                cells = [c for c in sweep if c["difficulty"] == difficulty and c["penalty"] == 0 and c["rerolls"] == rerolls]
                axis.plot([c["dice"] for c in cells], [c[key] for c in cells], marker=".", label=_("difficulty {difficulty}", difficulty=difficulty))
            axis.set_title(title)
            axis.set_xlabel(_("pool dice"))
            percent_axis(axis)
        axes[0].legend(fontsize=7)
        charts.append(extra)
    return charts


GAME = LabGame(
    slug="danger-world",
    bots=BOTS,
    default_bots=DEFAULT_BOTS,
    options={"checked": None, "gm": GM_DEFAULT, "difficulty": 4, "rounds": 5, "sheet": SHEET, "sweep_trials": 100},
    play_game=play_game,
    summarise=summarise,
    measures=measures,
    findings=findings,
    extras=extras,
    review=review,
    # the harshest GM the lab has: what no encounter reaches against it, none reaches
    as_written="gm=focus",
    note=say(
        "An encounter: every character makes a check each round (rounds=5) against difficulty=4 while the GM spends every botch by a script "
        "(gm=hits, focus, danger or mercy). The check sweep plays checks through the rules for every pool size, difficulty, penalty and re-roll count."
    ),
    variant_example=say("e.g. {variants}", variants="rerolls=1 gm=danger difficulty=5"),
    bot_words={
        "bold": say("rolls every danger die its zone allows, invokes no aspect."),
        "careful": say("rolls no danger dice, invokes no aspect."),
        "invoker": say("rolls no danger dice; spends a story point on an aspect when its odds are below even."),
    },
    labels={
        "gm": say("GM"),
        "difficulty": say("Difficulty"),
        "rounds": say("Rounds"),
        "checks_per_encounter": say("Checks per encounter"),
        "outcomes": say("Outcomes"),
        "successes": say("successes"),
        "partials": say("partials"),
        "failures": say("failures"),
        "botches_per_check": say("Botches per check"),
        "gm_spent_per_encounter": say("GM spent per encounter"),
        "hits_per_encounter": say("Hits per encounter"),
        "danger_taken": say("Danger taken"),
        "top_zone": say("Top zone"),
        "share_with_a_ko": say("Share with a K.O."),
        "characters_ko_per_encounter": say("Characters K.O. per encounter"),
        "share_with_a_death": say("Share with a death"),
        # the measures a comparison sets side by side (`measures`)
        "checks per encounter": say("checks per encounter"),
        "successes per check": say("successes per check"),
        "partials per check": say("partials per check"),
        "botches per check": say("botches per check"),
        "danger taken": say("danger taken"),
        "damage boxes filled": say("damage boxes filled"),
        "a character K.O.'d (share)": say("a character K.O.'d (share)"),
        "a character dead (share)": say("a character dead (share)"),
    },
    figures=figures,
)
