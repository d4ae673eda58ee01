"""Danger World drawn: the dice (kind told by shape as well as colour), the damage track and a
character's sheet, a check's outcome and the roll history; and its board by phase: sheets being
made, the check being rolled, the roll and its outcome, the party's fate; the chart of each
character's danger level, check by check.

Danger World is cooperative and hides nothing: the board draws `view_for(state, None)`. The
game ends only when every character is dead, so its results name no winner: the party fell.
"""

from __future__ import annotations

import base64
import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from rules.core import plural
from rules.danger_world import GM_OPTION_TEXT, MENTAL, ODDS_LIMITS, PHYSICAL, STAT_MAX, STATS, TRACK, CharacterView, CheckResult, State, View, set_use, success_chance, view_for

from .board import Fact, GameScenes, Scene
from .chart import chart_svg
from .common import card, chip, esc, name
from .common import percent as common_percent
from .odds import OddsForm, OddsInput, report_card

__all__ = [
    "DIE_KIND_TEXT",
    "DIE_LOOK",
    "OUTCOME_LOOK",
    "SCENES",
    "chart",
    "check_title",
    "dice_css",
    "die_span",
    "die_text",
    "history_card",
    "history_rows",
    "moment",
    "odds_grid",
    "outcome_cards",
    "outcome_words",
    "party_board",
    "percent",
    "result_dice",
    "scene",
    "sheet_html",
    "spent_text",
    "track_html",
]

#: Die looks: pip colour, face colour, border colour (danger dice are red-bordered, penalty grey).
DIE_LOOK: dict[str, tuple[str, str, str]] = {
    "pool": ("#111827", "#ffffff", "#1f2937"),
    "danger": ("#b71c1c", "#ffffff", "#d32f2f"),
    "penalty": ("#374151", "#cfd3da", "#6b7280"),
}


#: Pip centres per face on a 60 x 60 die.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((30, 30),),
    2: ((16, 16), (44, 44)),
    3: ((16, 16), (30, 30), (44, 44)),
    4: ((16, 16), (44, 16), (16, 44), (44, 44)),
    5: ((16, 16), (44, 16), (30, 30), (16, 44), (44, 44)),
    6: ((16, 14), (44, 14), (16, 30), (44, 30), (16, 46), (44, 46)),
}


#: An outcome's words and tone (a `pb-tone-` class of dashboard.css: its colour in each theme).
OUTCOME_LOOK: dict[str, tuple[str, str]] = {
    "benefit": ("Success with a benefit", "good"),
    "success": ("Success", "good"),
    "partial": ("Partial success", "warn"),
    "failure": ("Failure", "bad"),
    "aid": ("Aid", "info"),
}


def percent(chance: Fraction | float) -> str:
    """'63.2%': a check's odds to a tenth of a percent, never a possible outcome as 0% or 100%."""
    return common_percent(chance, decimals=1)


# -- dice faces --------------------------------------------------------------------------------------


#: What tells a die's kind without its colour: pool dice plain, danger dice a double border
#: and square pips, penalty dice a dashed border (grey face); said in words in every label.
DIE_KIND_TEXT = {"pool": "pool die", "danger": "danger die (double border)", "penalty": "penalty die (dashed border)"}


def _die_svg(face: int, kind: str) -> str:
    pip, face_colour, border = DIE_LOOK[kind]
    if kind == "danger":
        dots = "".join(f'<rect x="{x - 5.5}" y="{y - 5.5}" width="11" height="11" rx="1.5" fill="{pip}"/>' for x, y in PIPS[face])
    else:
        dots = "".join(f'<circle cx="{x}" cy="{y}" r="6" fill="{pip}"/>' for x, y in PIPS[face])
    dash = ' stroke-dasharray="6 4"' if kind == "penalty" else ""
    inner = (
        f'<rect x="8" y="8" width="44" height="44" rx="6" fill="none" stroke="{border}" stroke-width="1.5"/>' if kind == "danger" else ""
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 60">'
        f'<rect x="2.5" y="2.5" width="55" height="55" rx="10" fill="{face_colour}" stroke="{border}" stroke-width="5"{dash}/>'
        f"{inner}{dots}</svg>"
    )


def die_text(face: int, kind: str = "pool", in_set: bool = False, locked: bool = False) -> str:
    """A die in words: 'danger die (double border) showing 1: a botch, in the set'."""
    notes = [note for note, on in (("a botch", face == 1), ("in the set", in_set), ("locked for good", locked)) if on]
    return f"{DIE_KIND_TEXT[kind]} showing {face}" + (f": {', '.join(notes)}" if notes else "")


def dice_css() -> str:
    """Every die face of every kind as a CSS background (an SVG data URI): a page draws a die by its classes."""
    rules = []
    for kind in DIE_LOOK:
        for face in PIPS:
            data = base64.b64encode(_die_svg(face, kind).encode("ascii")).decode("ascii")
            rules.append(f'.playbook-danger-world .dw-{kind}.dw-face-{face} {{ background-image: url("data:image/svg+xml;base64,{data}"); }}')
    return "\n".join(rules)


def die_span(face: int, kind: str = "pool", extra: Sequence[str] = (), small: bool = True) -> str:
    """A die face as a read-only HTML span (history, finished checks): pips, kind by shape, and
    what it is in words on hover and for screen readers."""
    classes = ["dw-die", f"dw-{kind}", f"dw-face-{face}", *extra] + (["dw-small"] if small else [])
    if face == 1:
        classes.append("dw-botch")
    said = esc(die_text(face, kind, "dw-in-set" in extra, "dw-locked" in extra))
    return f'<span class="{" ".join(classes)}" role="img" aria-label="{said}" title="{said}" data-face="{face}"></span>'


def result_dice(result: CheckResult, small: bool = True) -> str:
    """A finished check's dice: normal, danger (red), penalty (grey); the set's dice ringed green."""
    used: tuple[int, ...] = ()
    if result.height is not None:
        found = set_use(result.faces, result.normal, result.penalty_faces, result.height)
        used = found.dice if found else ()
    parts = [
        die_span(face, "danger" if k >= result.normal else "pool", ["dw-in-set"] if k in used else [], small)
        for k, face in enumerate(result.faces)
    ]
    if result.penalty_faces:
        parts.append('<span class="pb-muted" style="margin:0 4px">penalty</span>')
        parts.extend(die_span(face, "penalty", small=small) for face in result.penalty_faces)
    return "".join(parts)


# -- sheets and tracks -------------------------------------------------------------------------------


def track_html(ch: CharacterView) -> str:
    """The damage track: a section per zone (Bashed, Stunned, Injured, K.O.'d, Dead), boxes
    filled left to right; the character's current zone is outlined (full hits land there)."""
    sections = []
    for index, ((label, boxes), filled) in enumerate(zip(TRACK, ch.damage)):
        zone = index + 1
        current = zone == ch.zone and not ch.dead  # outlined: a full hit lands here
        cells = "".join(f'<span class="dw-box{" dw-filled" if b < filled else ""}"></span>' for b in range(boxes))
        sections.append(
            f'<div class="dw-section{" dw-current" if current else ""}" data-section="{esc(label)}" data-filled="{filled}">'
            f'<div class="dw-section-label">{"▸ " if current else ""}{esc(label)}</div><div>{cells}</div>'
            f'<div class="dw-zone">zone {zone} · <b>{filled}/{boxes}</b>{" · hits land here" if current else ""}</div></div>'
        )
    summary = ", ".join(f"{label} {filled} of {boxes}" for (label, boxes), filled in zip(TRACK, ch.damage))
    return (
        f'<div class="dw-track" role="img" aria-label="damage track: {esc(summary)}" '
        f'data-track="{",".join(str(n) for n in ch.damage)}">{"".join(sections)}</div>'
    )


def _stat_cell(name: str, value: int, sheet: int) -> str:
    dots = "●" * value + "○" * (STAT_MAX - value)
    if value < sheet:
        return (
            f'<td>{esc(name.title())}</td><td class="dw-lowered" title="lowered by an injury until a long rest">'
            f'{value} <s>{sheet}</s></td><td class="dw-dots">{dots}</td>'
        )
    return f"<td>{esc(name.title())}</td><td><b>{value}</b></td><td class=\"dw-dots\">{dots}</td>"


def sheet_html(ch: CharacterView, index: int) -> str:
    """A character's sheet (everything but the track) as HTML; user text is escaped."""
    badges = ""
    if ch.dead:
        badges += chip("✝ Dead", "#111", "#fff")
    elif ch.knocked_out:
        badges += chip("K.O.'d until the encounter ends", "#8a4b00", "#fff")
    if not ch.ready:
        return (
            f'<div class="dw-sheet" data-character="{index}" data-ready="0"><h3>{esc(ch.name)}</h3>{badges}'
            '<div class="pb-muted">No sheet yet: press Quick character, start from a ready-made one, or fill in the stats and aspects below.</div></div>'
        )
    rows = []
    for pair in zip(PHYSICAL, MENTAL):
        cells = "".join(_stat_cell(s, ch.stats[STATS.index(s)], ch.sheet[STATS.index(s)]) for s in pair)
        rows.append(f"<tr>{cells}</tr>")
    aspects = "".join(f"<li>{esc(a)}</li>" for a in ch.aspects)
    effects = []
    if ch.penalty_dice:
        effects.append(f"Bashed: +{plural(ch.penalty_dice, 'penalty die', 'penalty dice')} on every check")
    if ch.lost_dice:
        effects.append(f"Stunned: -{plural(ch.lost_dice, 'pool die', 'pool dice')} on every check")
    if ch.challenge:
        effects.append(f"The GM's challenge: +{plural(ch.challenge, 'penalty die', 'penalty dice')} on the next check")
    lowered = [s.title() for s, v, w in zip(STATS, ch.stats, ch.sheet) if v < w]
    if lowered:
        effects.append("Injured: " + ", ".join(lowered) + " lowered until a long rest")
    pools = "".join(chip(f"{p.dice} bonus {'die' if p.dice == 1 else 'dice'} · {p.source}", "#e3f2e6") for p in ch.bonus)
    body = (
        f"<div>{badges}{chip(f'SP {ch.sp}', '#e3ecfa')}"
        f"{chip(f'Danger {ch.danger} · zone {ch.zone}', '#fde2e2' if ch.zone > 1 else '#f3f4f6')}"
        f'<span class="pb-muted">up to {plural(ch.zone, "danger die", "danger dice")} a check</span></div>'
        f'<table class="dw-stats">{"".join(rows)}</table>'
        f'<div><b>Aspects</b><ol style="margin:2px 0 4px;padding-left:1.6em">{aspects}</ol></div>'
        + (f"<div><b>Bonus pools</b> {pools}</div>" if pools else "")
        + (f'<div class="pb-tone-warn">{esc("; ".join(effects))}</div>' if effects else "")
    )
    dead = " dw-dead" if ch.dead else ""
    return f'<div class="dw-sheet{dead}" data-character="{index}" data-ready="1"><h3>{esc(ch.name)}</h3>{body}</div>'


# -- a check: its title, its outcome, the GM's spending ----------------------------------------------


def check_title(number: int, actor: int, stats: Sequence[str], difficulty: int, aid: int | None, names: Sequence[str]) -> str:
    """'Check 3: Ana aids Bo · Agility + Cool · difficulty 4'."""
    who = f"{names[actor]} aids {names[aid]}" if aid is not None else names[actor]
    return f"Check {number}: {who} · {' + '.join(s.title() for s in stats)} · difficulty {difficulty}"


def outcome_words(result: CheckResult) -> str:
    """A check's outcome in a few words, with the bonus dice it won."""
    if result.outcome == "benefit":
        return f"success + {plural(result.bonus_won, 'bonus die', 'bonus dice')}"
    if result.outcome == "partial":
        return f"partial, {plural(result.bonus_won, 'bonus die', 'bonus dice')}"
    if result.outcome == "aid":
        return f"aid, {plural(result.bonus_won, 'bonus die', 'bonus dice')}"
    return result.outcome


def outcome_cards(view: View) -> tuple[str, str]:
    """The outcome of the check being rolled or of the last one, and its botches: two cards."""
    names = [ch.name for ch in view.characters]
    c = view.check
    if c is not None and c.stage == "lock":
        sets = ", ".join(f"{s.height}" + (f" ({s.danger} danger)" if s.danger else "") for s in view.sets)
        outcome = card(
            "Outcome",
            f'<div class="dw-mid" data-outcome="">Rolling: {esc("sets on the table now: " + sets if sets else "no set on the table yet")}.</div>'
            f'<div class="pb-muted">A set of {c.difficulty} or more succeeds; a higher one brings bonus dice, a lower one a partial success.</div>',
        )
        botches = card(
            "Botches",
            f'<div class="dw-mid" data-botches="{view.botches}">{view.botches} showing now</div>'
            '<div class="pb-muted">Every die showing 1 after the last re-roll (pool, danger and penalty) is a botch for the GM.</div>',
        )
        return outcome, botches
    result = c.result if c is not None and c.result is not None else (view.results[-1] if view.results else None)
    if result is None:
        return card("Outcome", '<span class="pb-muted">No check has been made yet.</span>'), ""
    words, tone = OUTCOME_LOOK[result.outcome]
    who = names[result.actor]
    if result.height is None:
        line = f"No set against difficulty {result.difficulty}."
    else:
        line = f"A set of {result.height} against difficulty {result.difficulty}."
    gains = []
    if result.outcome == "benefit":
        gains.append(f"{who} gains {plural(result.bonus_won, 'bonus die', 'bonus dice')} (a benefit).")
    elif result.outcome == "partial":
        gains.append(f"{who} gains {plural(result.bonus_won, 'bonus die', 'bonus dice')} from the partial success.")
    elif result.outcome == "aid" and result.aid is not None:
        gains.append(f"{names[result.aid]} gains {plural(result.bonus_won, 'bonus die', 'bonus dice')}." if result.bonus_won else "The aid gives nothing.")
    if result.danger_raised:
        gains.append(f"The set used danger dice: {who}'s danger +{result.danger_raised}.")
    outcome = card(
        f"Outcome of check {result.number}",
        f'<div class="dw-big pb-tone-{tone}" data-outcome="{result.outcome}">{esc(words)}</div>'
        f"<div>{esc(line)}</div>" + "".join(f"<div>{esc(g)}</div>" for g in gains),
    )
    spent = spent_text(result, names)
    pending = c is not None and c.stage == "gm"
    botches = card(
        "Botches",
        f'<div class="dw-big pb-tone-{"bad" if result.botches else "good"}" data-botches="{result.botches}">{result.botches}</div>'
        + (f"<div><b>{esc(view.gm)}</b> spends them now (GM panel below).</div>" if pending else "")
        + (f"<div>Spent: {esc(spent)}</div>" if spent else ""),
    )
    return outcome, botches


def spent_text(result: CheckResult, names: Sequence[str]) -> str:
    """What the GM spent a check's botches on, and on whom."""
    parts = []
    for option in result.spent:
        target = result.actor if option.character is None else option.character
        note = f" ({option.note})" if option.note else ""
        parts.append(f"{GM_OPTION_TEXT[option.option]} on {names[target]}{note}")
    return "; ".join(parts)


# -- the record --------------------------------------------------------------------------------------


def history_rows(view: View) -> list[dict[str, object]]:
    """Every finished check as a row of plain values (the roll history's CSV)."""
    names = [c.name for c in view.characters]
    rows = []
    for r in view.results:
        rows.append(
            {
                "check": r.number,
                "who": names[r.actor],
                "aids": names[r.aid] if r.aid is not None else None,
                "stats": " + ".join(s.title() for s in r.stats),
                "difficulty": r.difficulty,
                "dice": " ".join(str(f) for f in r.faces[: r.normal]),
                "danger_dice": " ".join(str(f) for f in r.faces[r.normal :]),
                "penalty_dice": " ".join(str(f) for f in r.penalty_faces),
                "rerolls": r.rerolls,
                "set": r.height,
                "outcome": r.outcome,
                "bonus_dice": r.bonus_won,
                "danger_raised": r.danger_raised,
                "botches": r.botches,
                "gm_spent": spent_text(r, names),
            }
        )
    return rows


def history_card(view: View) -> str:
    """Every finished check, newest first: who, the stats, the dice, the set, the outcome, the botches."""
    names = [c.name for c in view.characters]
    if not view.results:
        return card("Roll history", '<span class="pb-muted">No check finished yet.</span>')
    head = "".join(f"<th>{h}</th>" for h in ("#", "Who", "Stats", "Diff.", "Dice", "Set", "Outcome", "Botches"))
    body = []
    for r in reversed(view.results):
        who = esc(names[r.actor]) + (f" <span class='pb-muted'>aids {esc(names[r.aid])}</span>" if r.aid is not None else "")
        words, tone = OUTCOME_LOOK[r.outcome]
        bonus = f" +{r.bonus_won}" if r.bonus_won else ""
        spent = spent_text(r, names)
        botches = f"{r.botches}" + (f"<div class='pb-muted'>{esc(spent)}</div>" if spent else "")
        cells = (
            str(r.number),
            who,
            esc(" + ".join(s.title()[:3] for s in r.stats)),
            str(r.difficulty),
            result_dice(r) + (f"<div class='pb-muted'>{plural(r.rerolls, 're-roll')}</div>" if r.rerolls else ""),
            str(r.height) if r.height is not None else "—",
            f'<b class="pb-tone-{tone}">{esc(words)}{bonus}</b>',
            botches,
        )
        tds = "".join(f'<td class="dw-dice-cell">{c}</td>' if n == 4 else f"<td>{c}</td>" for n, c in enumerate(cells))
        body.append(f'<tr data-check="{r.number}">{tds}</tr>')
    return card("Roll history (newest first)", f'<table class="pb-table dw-history"><tr>{head}</tr>{"".join(body)}</table>')


# -- the GM's odds table, and the party on the board ------------------------------------------------

#: the GM's odds table: pools of 2-12 dice against difficulties 2-6 (as the printed GM screen).
GRID_DICE = tuple(range(2, 13))
GRID_DIFFICULTIES = tuple(range(2, 7))


@functools.cache
def odds_grid(rerolls: int) -> str:
    """The GM screen's odds table as HTML: the exact chance of success (best play, no penalty
    dice) for each pool and difficulty with the table's `rerolls`. Cached: the same for every table."""
    head = "".join(f"<th>{d}</th>" for d in GRID_DIFFICULTIES)
    rows = "".join(
        f"<tr><th>{n}</th>" + "".join(f'<td data-dice="{n}" data-difficulty="{d}">{percent(success_chance(n, d, 0, rerolls))}</td>' for d in GRID_DIFFICULTIES) + "</tr>"
        for n in GRID_DICE
    )
    return card(
        "Odds of success (the GM screen)",
        f'<table class="dw-odds-grid" data-rerolls="{rerolls}"><tr><th></th><th colspan="{len(GRID_DIFFICULTIES)}">difficulty</th></tr>'
        f'<tr><th>dice</th>{head}</tr>{rows}</table>'
        f'<div class="pb-muted">Best play with {plural(rerolls, "re-roll")}, no penalty dice; each penalty die takes roughly one die off the pool.</div>',
    )


def party_board(view: View) -> str:
    """Every character's condition for the projector: danger and zone, the damage track, SP."""
    cells = []
    for i, ch in enumerate(view.characters):
        state = "dead" if ch.dead else "K.O.'d" if ch.knocked_out else "no sheet yet" if not ch.ready else f"zone {ch.zone}"
        cells.append(
            f'<div class="dw-board-character pb-card" data-character="{i}"><div class="dw-board-name">{esc(ch.name)}</div>'
            f'<div class="dw-board-state">danger {ch.danger} · {esc(state)} · SP {ch.sp}</div>{track_html(ch)}</div>'
        )
    return f'<div class="dw-board-party">{"".join(cells)}</div>'


# -- the board by phase ------------------------------------------------------------------------------


OUTCOME_WORDS = {"benefit": "Success, with a benefit", "success": "Success", "partial": "A partial success", "failure": "Failure", "aid": "Aid given"}


def _danger_track(view: View) -> str:
    """Each character's danger level and zone: the track the table watches rise."""
    cells = "".join(
        f'<span class="pb-chip" style="color:#14171f;background:{"#fdecea" if c.zone >= 3 else "#fff3e0" if c.zone == 2 else "#eceef3"}">'
        f"{name(c.name)}: danger {c.danger} · zone {c.zone}{' · K.O.' if c.knocked_out else ''}{' · dead' if c.dead else ''}</span>"
        for c in view.characters
    )
    return f'<div class="pb-label">The danger track</div><div class="pb-danger-track">{cells}</div>'


def _names(view: View) -> list[str]:
    return [c.name for c in view.characters]


def scene(state: State, final: State | None = None) -> Scene:
    view = view_for(state, None)
    names = _names(view)
    most = max((c.danger for c in view.characters), default=0)
    facts_common = (Fact("Checks made", str(len(view.results))), Fact("Highest danger", str(most), "pb-danger-level"), Fact("Story-point pool", str(view.pool)))
    heading = f"Session {view.session} · encounter {view.encounter}"
    if view.phase == "over":
        return _results(state, view)
    ready = sum(1 for c in view.characters if c.ready)
    if ready < len(view.characters) and view.check is None and not view.results:
        # Sheets still being made before the first check; once checks are made the board shows
        # them (a player on a phone may make a sheet later, while the others play).
        centre = (
            f'<div class="pb-label">The characters are being made</div><div class="pb-huge">{ready} of {len(names)} sheets ready</div>'
            f'<div class="pb-line">Still to finish: {esc(", ".join(c.name for c in view.characters if not c.ready))}</div>'
        )
        return Scene("waiting", heading, centre, (Fact("Sheets ready", f"{ready} of {len(names)}", "pb-sheets-ready"), *facts_common[1:]), view.log)
    check = view.check
    if check is not None and check.result is None:
        stats = " + ".join(check.stats)
        aid = f" (aiding {names[check.aid]})" if check.aid is not None else ""
        dice = "".join(die_span(f, "danger" if k >= check.normal else "pool", ["dw-locked"] if k in check.locked else [], small=False) for k, f in enumerate(check.faces))
        dice += "".join(die_span(f, "penalty", small=False) for f in check.penalty_faces)
        rolled = f'<div class="pb-label">The dice</div><div>{dice}</div>' if check.faces else '<div class="pb-line">The dice are about to be rolled.</div>'
        centre = (
            f'<div class="pb-label">The check being rolled</div><div class="pb-huge pb-check-actor">{esc(names[check.actor])}</div>'
            f'<div class="pb-line">{esc(stats)}{esc(aid)} against difficulty {check.difficulty}</div>{rolled}' + _danger_track(view)
        )
        facts = (Fact("Difficulty", str(check.difficulty), "pb-difficulty-big"), Fact("Pool", f"{check.pool} dice"), Fact("Re-rolls left", str(view.rerolls_left)), facts_common[1])
        return Scene("decision", f"{heading} · check {check.number}", centre, facts, view.log)
    # The check just read (its botches may still wait for the GM), else the last one finished.
    waiting = check is not None and check.result is not None
    last_result = check.result if waiting and check is not None else (view.results[-1] if view.results else None)
    if last_result is not None:
        last: CheckResult = last_result
        height = f"a set of {last.height}" if last.height else "no set"
        centre = (
            f'<div class="pb-label">Check {last.number}: {esc(names[last.actor])}, {esc(" + ".join(last.stats))} against {last.difficulty}</div>'
            f'<div class="pb-huge pb-check-outcome">{esc(OUTCOME_WORDS.get(last.outcome, last.outcome))}</div>'
            f'<div class="pb-line">{esc(height)} · {last.botches} botch{"es" if last.botches != 1 else ""}'
            + (f" · danger +{last.danger_raised}" if last.danger_raised else "")
            + (f" · {esc(view.gm)} spends them now" if waiting and last.botches else "")
            + f'</div><div style="zoom:1.6">{result_dice(last, small=True)}</div>'
            + _danger_track(view)
        )
        facts = (Fact("Set", str(last.height or 0), "pb-set-height"), Fact("Difficulty", str(last.difficulty)), Fact("Botches", str(last.botches)), facts_common[1])
        return Scene("reveal", f"{heading} · check {last.number}", centre, facts, view.log)
    centre = '<div class="pb-huge">Ready</div><div class="pb-line">The GM sets the scene; any character may make the first check.</div>' + _danger_track(view)
    return Scene("decision", heading, centre, facts_common, view.log)


def _results(state: State, view: View) -> Scene:
    rows = "".join(f"<tr><td>{esc(c.name)}</td><td>{'dead' if c.dead else 'alive'}</td><td>danger {c.danger}</td></tr>" for c in view.characters)
    centre = f'<table class="pb-standings-big pb-results-standings">{rows}</table>'
    return Scene("results", "the end", centre, (Fact("Checks made", str(len(view.results))),), view.log, "Nobody: the party fell", tuple(story(state)))


def story(state: State) -> list[str]:
    view = view_for(state, None)
    results = view.results
    won = sum(1 for r in results if r.outcome in ("benefit", "success"))
    partial = sum(1 for r in results if r.outcome == "partial")
    names = _names(view)
    hardest = max(results, key=lambda r: r.difficulty, default=None)
    return [
        f"{plural(len(results), 'check')} in {plural(view.session, 'session')}: {won} succeeded, {partial} partly, {len(results) - won - partial} failed or aided.",
        f"The hardest check: difficulty {hardest.difficulty}, by {names[hardest.actor]}." if hardest else "No check was made.",
        f"Botches rolled: {sum(r.botches for r in results)}; danger raised by sets: {sum(r.danger_raised for r in results)}.",
        f"The party: {', '.join(c.name + (' (dead)' if c.dead else '') for c in view.characters)}.",
        "The game ended: every character is dead." if view.over else "The game goes on.",
    ]


def moment(before: State, state: State) -> tuple[str, int] | None:
    if len(state.results) > len(before.results):
        r = state.results[-1]
        return f"Check {r.number}: {state.characters[r.actor].name}", len(state.results)
    return None


def round_of(state: State) -> int:
    return len(state.results)


def chart(states: Sequence[Any], final: Any = None) -> str:
    """Each character's danger level after each check (the danger track over the game)."""
    points = [s for s in states if s.results]
    if not points:
        return ""
    names = [c.name for c in points[-1].characters]
    series = [(name, [view_for(s, None).characters[i].danger for s in points]) for i, name in enumerate(names)]
    return chart_svg("Danger level after each check", [f"C{len(s.results)}" for s in points], lines=series, x_name="Check")


SCENES = GameScenes("danger-world", scene, moment, round_of, chart, "Check")


# -- exact odds, as the balance lab asks for them ---------------------------------------------------
#: Pools above this many dice take seconds to work out the first time: the lab asks no more.
ODDS_MOST_DICE = 12


def odds_html(report: Mapping[str, Any]) -> str:
    """A check's exact chance (`rules.danger_world.odds_report`), and by re-rolls."""
    what = (
        f"of a set of height {report['difficulty']} or more from {report['dice']} dice, {report['penalty']} penalty dice "
        f"and {report['rerolls']} re-rolls"
    )
    rows = [(r, f"{float(v['chance']):.2%}", v["exact"]) for r, v in report["by_rerolls"].items()]
    chance = {"probability": report["chance"], "fraction": report["exact"]}
    return report_card("Danger World check", chance, what, ("Re-rolls", "Chance", "Exact"), rows, f"Assumes {report['assumes']}.")


ODDS = OddsForm(
    "A check: a pool of d6, a difficulty, penalty dice, re-rolls",
    (
        OddsInput("dice", "Pool dice", 6, ODDS_LIMITS["dice"][0], min(ODDS_LIMITS["dice"][1], ODDS_MOST_DICE), "dice in the pool"),
        OddsInput("difficulty", "Difficulty", 3, *ODDS_LIMITS["difficulty"], "the set height needed"),
        OddsInput("penalty", "Penalty dice", 0, *ODDS_LIMITS["penalty"], "penalty dice rolled with the pool"),
        OddsInput("rerolls", "Re-rolls", 2, *ODDS_LIMITS["rerolls"], "lock-and-re-roll rounds"),
    ),
    odds_html,
    note=f"Up to {ODDS_MOST_DICE} pool dice here; a big first query takes a few seconds.",
)
