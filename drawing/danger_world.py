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

from i18n import Said, _, _n, current, number, render, say
from rules.danger_world import (
    GM_OPTION_SAID,
    MENTAL,
    ODDS_LIMITS,
    PHYSICAL,
    SECTION_NAMES,
    STAT_MAX,
    STAT_NAMES,
    STATS,
    TRACK,
    CharacterView,
    CheckResult,
    State,
    View,
    set_use,
    success_chance,
    view_for,
)

from .board import Fact, GameScenes, Scene
from .chart import chart_svg
from .common import card, chip, esc, name
from .common import percent as common_percent
from .odds import OddsForm, OddsInput, chance_percent, report_card

__all__ = [
    "DIE_LOOK",
    "HISTORY_LABELS",
    "SCENES",
    "chart",
    "check_title",
    "dice_css",
    "die_kind_text",
    "die_span",
    "die_text",
    "history_card",
    "history_rows",
    "moment",
    "odds_grid",
    "outcome_cards",
    "outcome_look",
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


#: An outcome's tone (a `pb-tone-` class of dashboard.css: its colour in each theme).
OUTCOME_TONE: dict[str, str] = {"benefit": "good", "success": "good", "partial": "warn", "failure": "bad", "aid": "info"}


def outcome_look(outcome: str) -> tuple[str, str]:
    """An outcome's words (in the page's language) and tone."""
    words = {
        "benefit": _("Success with a benefit"),
        "success": _("Success"),
        "partial": _("Partial success"),
        "failure": _("Failure"),
        # TRANSLATORS: the outcome of a check made to help another character.
        "aid": _("Aid"),
    }
    return words[outcome], OUTCOME_TONE[outcome]


def stat_name(stat: str) -> str:
    """A stat as the page names it ("Agility")."""
    return render(STAT_NAMES[stat])


def stat_short(stat: str) -> str:
    """A stat in three letters or so, as the roll history's narrow column shows it."""
    # TRANSLATORS: the eight stats, shortened for a narrow column of the roll history.
    short = {"agility": _("Agi"), "endurance": _("End"), "speed": _("Spe"), "strength": _("Str"), "perception": _("Per"), "reasoning": _("Rea"), "charisma": _("Cha"), "cool": _("Coo")}
    return short[stat]


def stats_text(stats: Sequence[str]) -> str:
    """Two stats of a check: "Agility + Cool"."""
    return " + ".join(stat_name(s) for s in stats)


def percent(chance: Fraction | float) -> str:
    """'63.2%': a check's odds to a tenth of a percent, never a possible outcome as 0% or 100%."""
    return common_percent(chance, decimals=1)


# -- dice faces --------------------------------------------------------------------------------------


#: What tells a die's kind without its colour: pool dice plain, danger dice a double border
#: and square pips, penalty dice a dashed border (grey face); said in words in every label.
def die_kind_text(kind: str) -> str:
    return {"pool": _("pool die"), "danger": _("danger die (double border)"), "penalty": _("penalty die (dashed border)")}[kind]


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
    notes = [note for note, on in ((_("a botch"), face == 1), (_("in the set"), in_set), (_("locked for good"), locked)) if on]
    shown = _("{kind} showing {face}", kind=die_kind_text(kind), face=face)
    return _("{die}: {notes}", die=shown, notes=", ".join(notes)) if notes else shown


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
        # TRANSLATORS: a label before the penalty dice of a check.
        parts.append('<span class="pb-muted" style="margin:0 4px">' + esc(_("penalty")) + '</span>')
        parts.extend(die_span(face, "penalty", small=small) for face in result.penalty_faces)
    return "".join(parts)


# -- sheets and tracks -------------------------------------------------------------------------------


def track_html(ch: CharacterView) -> str:
    """The damage track: a section per zone (Bashed, Stunned, Injured, K.O.'d, Dead), boxes
    filled left to right; the character's current zone is outlined (full hits land there)."""
    sections = []
    for index, ((section, boxes), filled) in enumerate(zip(TRACK, ch.damage)):
        zone = index + 1
        label = render(SECTION_NAMES[index])
        where = _("zone {zone}", zone=zone)
        lands = " · " + _("hits land here") if current_zone(ch, zone) else ""
        current = zone == ch.zone and not ch.dead  # outlined: a full hit lands here
        cells = "".join(f'<span class="dw-box{" dw-filled" if b < filled else ""}"></span>' for b in range(boxes))
        sections.append(
            f'<div class="dw-section{" dw-current" if current else ""}" data-section="{esc(section)}" data-filled="{filled}">'
            f'<div class="dw-section-label">{"▸ " if current else ""}{esc(label)}</div><div>{cells}</div>'
            f'<div class="dw-zone">{esc(where)} · <b>{filled}/{boxes}</b>{esc(lands)}</div></div>'
        )
    summary = ", ".join(
        _("{section} {filled} of {boxes}", section=render(SECTION_NAMES[i]), filled=filled, boxes=boxes) for i, ((_section, boxes), filled) in enumerate(zip(TRACK, ch.damage))
    )
    return (
        '<div class="dw-track" role="img" aria-label="' + esc(_("damage track: {summary}", summary=summary)) + '" '
        f'data-track="{",".join(str(n) for n in ch.damage)}">{"".join(sections)}</div>'
    )


def current_zone(ch: CharacterView, zone: int) -> bool:
    """The zone a full hit on `ch` lands in (outlined on the track)."""
    return zone == ch.zone and not ch.dead


def _stat_cell(name: str, value: int, sheet: int) -> str:
    dots = "●" * value + "○" * (STAT_MAX - value)
    if value < sheet:
        return (
            f'<td>{esc(stat_name(name))}</td><td class="dw-lowered" title="' + esc(_("lowered by an injury until a long rest")) + '">'
            f'{value} <s>{sheet}</s></td><td class="dw-dots">{dots}</td>'
        )
    return f"<td>{esc(stat_name(name))}</td><td><b>{value}</b></td><td class=\"dw-dots\">{dots}</td>"


def sheet_html(ch: CharacterView, index: int) -> str:
    """A character's sheet (everything but the track) as HTML; user text is escaped."""
    badges = ""
    if ch.dead:
        badges += chip("✝ " + _("Dead"), "#111", "#fff")
    elif ch.knocked_out:
        badges += chip(_("K.O.'d until the encounter ends"), "#8a4b00", "#fff")
    if not ch.ready:
        empty = _("No sheet yet: press Quick character, start from a ready-made one, or fill in the stats and aspects below.")
        return (
            f'<div class="dw-sheet" data-character="{index}" data-ready="0"><h3>{esc(ch.name)}</h3>{badges}'
            f'<div class="pb-muted">{esc(empty)}</div></div>'
        )
    rows = []
    for pair in zip(PHYSICAL, MENTAL):
        cells = "".join(_stat_cell(s, ch.stats[STATS.index(s)], ch.sheet[STATS.index(s)]) for s in pair)
        rows.append(f"<tr>{cells}</tr>")
    aspects = "".join(f"<li>{esc(a)}</li>" for a in ch.aspects)
    effects = []
    if ch.penalty_dice:
        effects.append(_n("Bashed: +{n} penalty die on every check", "Bashed: +{n} penalty dice on every check", ch.penalty_dice))
    if ch.lost_dice:
        effects.append(_n("Stunned: -{n} pool die on every check", "Stunned: -{n} pool dice on every check", ch.lost_dice))
    if ch.challenge:
        effects.append(_n("The GM's challenge: +{n} penalty die on the next check", "The GM's challenge: +{n} penalty dice on the next check", ch.challenge))
    lowered = [stat_name(s) for s, v, w in zip(STATS, ch.stats, ch.sheet) if v < w]
    if lowered:
        effects.append(_("Injured: {stats} lowered until a long rest", stats=", ".join(lowered)))
    pools = "".join(chip(_n("{n} bonus die · {source}", "{n} bonus dice · {source}", p.dice, source=render(p.source)), "#e3f2e6") for p in ch.bonus)
    # TRANSLATORS: SP = story points, on a character sheet.
    sp = _("SP {sp}", sp=ch.sp)
    danger = _("Danger {danger} · zone {zone}", danger=ch.danger, zone=ch.zone)
    body = (
        f"<div>{badges}{chip(sp, '#e3ecfa')}"
        f"{chip(danger, '#fde2e2' if ch.zone > 1 else '#f3f4f6')}"
        '<span class="pb-muted">' + esc(_n("up to {n} danger die a check", "up to {n} danger dice a check", ch.zone)) + '</span></div>'
        f'<table class="dw-stats">{"".join(rows)}</table>'
        '<div><b>' + esc(_("Aspects")) + f'</b><ol style="margin:2px 0 4px;padding-left:1.6em">{aspects}</ol></div>'
        + ("<div><b>" + esc(_('Bonus pools')) + f"</b> {pools}</div>" if pools else "")
        + (f'<div class="pb-tone-warn">{esc("; ".join(effects))}</div>' if effects else "")
    )
    dead = " dw-dead" if ch.dead else ""
    return f'<div class="dw-sheet{dead}" data-character="{index}" data-ready="1"><h3>{esc(ch.name)}</h3>{body}</div>'


# -- a check: its title, its outcome, the GM's spending ----------------------------------------------


def check_title(number: int, actor: int, stats: Sequence[str], difficulty: int, aid: int | None, names: Sequence[str]) -> str:
    """'Check 3: Ana aids Bo · Agility + Cool · difficulty 4'."""
    if aid is not None:
        return _("Check {number}: {name} aids {aided} · {stats} · difficulty {difficulty}", number=number, name=names[actor], aided=names[aid], stats=stats_text(stats), difficulty=difficulty)
    return _("Check {number}: {name} · {stats} · difficulty {difficulty}", number=number, name=names[actor], stats=stats_text(stats), difficulty=difficulty)


def outcome_words(result: CheckResult) -> str:
    """A check's outcome in a few words, with the bonus dice it won."""
    if result.outcome == "benefit":
        return _n("success + {n} bonus die", "success + {n} bonus dice", result.bonus_won)
    if result.outcome == "partial":
        return _n("partial, {n} bonus die", "partial, {n} bonus dice", result.bonus_won)
    if result.outcome == "aid":
        return _n("aid, {n} bonus die", "aid, {n} bonus dice", result.bonus_won)
    return _("success") if result.outcome == "success" else _("failure")


def outcome_cards(view: View) -> tuple[str, str]:
    """The outcome of the check being rolled or of the last one, and its botches: two cards."""
    names = [ch.name for ch in view.characters]
    c = view.check
    if c is not None and c.stage == "lock":
        sets = ", ".join(_("{height} ({danger} danger)", height=s.height, danger=s.danger) if s.danger else str(s.height) for s in view.sets)
        rolling = _("Rolling: sets on the table now: {sets}.", sets=sets) if sets else _("Rolling: no set on the table yet.")
        rule = _("A set of {difficulty} or more succeeds; a higher one brings bonus dice, a lower one a partial success.", difficulty=c.difficulty)
        outcome = card(_("Outcome"), f'<div class="dw-mid" data-outcome="">{esc(rolling)}</div><div class="pb-muted">{esc(rule)}</div>')
        botches = card(
            _("Botches"),
            f'<div class="dw-mid" data-botches="{view.botches}">' + esc(_("{count} showing now", count=view.botches)) + '</div>'
            '<div class="pb-muted">' + esc(_("Every die showing 1 after the last re-roll (pool, danger and penalty) is a botch for the GM.")) + '</div>',
        )
        return outcome, botches
    result = c.result if c is not None and c.result is not None else (view.results[-1] if view.results else None)
    if result is None:
        return card(_("Outcome"), '<span class="pb-muted">' + esc(_("No check has been made yet.")) + '</span>'), ""
    words, tone = outcome_look(result.outcome)
    who = names[result.actor]
    if result.height is None:
        line = _("No set against difficulty {difficulty}.", difficulty=result.difficulty)
    else:
        line = _("A set of {height} against difficulty {difficulty}.", height=result.height, difficulty=result.difficulty)
    gains = []
    if result.outcome == "benefit":
        gains.append(_n("{name} gains {n} bonus die (a benefit).", "{name} gains {n} bonus dice (a benefit).", result.bonus_won, name=who))
    elif result.outcome == "partial":
        gains.append(_n("{name} gains {n} bonus die from the partial success.", "{name} gains {n} bonus dice from the partial success.", result.bonus_won, name=who))
    elif result.outcome == "aid" and result.aid is not None:
        gains.append(_n("{name} gains {n} bonus die.", "{name} gains {n} bonus dice.", result.bonus_won, name=names[result.aid]) if result.bonus_won else _("The aid gives nothing."))
    if result.danger_raised:
        gains.append(_("The set used danger dice: {name}'s danger +{danger}.", name=who, danger=result.danger_raised))
    outcome = card(
        _("Outcome of check {number}", number=result.number),
        f'<div class="dw-big pb-tone-{tone}" data-outcome="{result.outcome}">{esc(words)}</div>'
        f"<div>{esc(line)}</div>" + "".join(f"<div>{esc(g)}</div>" for g in gains),
    )
    spent = spent_text(result, names)
    pending = c is not None and c.stage == "gm"
    gm = f"<b>{esc(render(view.gm))}</b>"
    botches = card(
        _("Botches"),
        f'<div class="dw-big pb-tone-{"bad" if result.botches else "good"}" data-botches="{result.botches}">{result.botches}</div>'
        # The GM's name is escaped above and carries markup: the message is not escaped again.
        + ("<div>" + _('{gm} spends them now (GM panel below).', gm=gm) + "</div>" if pending else "")
        + ("<div>" + esc(_('Spent: {options}', options=spent)) + "</div>" if spent else ""),
    )
    return outcome, botches


def spent_text(result: CheckResult, names: Sequence[str]) -> str:
    """What the GM spent a check's botches on, and on whom."""
    parts = []
    for option in result.spent:
        target = result.actor if option.character is None else option.character
        option_text = render(GM_OPTION_SAID[option.option])
        if option.note:
            parts.append(_("{option} on {name} ({note})", option=option_text, name=names[target], note=option.note))
        else:
            parts.append(_("{option} on {name}", option=option_text, name=names[target]))
    return "; ".join(parts)


# -- the record --------------------------------------------------------------------------------------


#: The roll history CSV's columns in words (`i18n.header_cell`: beside each id in a language
#: other than English). "outcome" holds an id (success, benefit, partial, failure, aid).
HISTORY_LABELS: Mapping[str, Said] = {
    "check": say("Check"),
    "who": say("Character"),
    # TRANSLATORS: a column of the roll history CSV: the character a check aided.
    "aids": say("Aids"),
    "stats": say("Stats"),
    "difficulty": say("Difficulty"),
    "dice": say("Dice"),
    "danger_dice": say("Danger dice"),
    "penalty_dice": say("Penalty dice"),
    "rerolls": say("Re-rolls"),
    # TRANSLATORS: a column of the roll history CSV: the height of the set a check made.
    "set": say("Set"),
    "outcome": say("Outcome"),
    "bonus_dice": say("Bonus dice"),
    # TRANSLATORS: a column of the roll history CSV: how much a check raised the danger.
    "danger_raised": say("Danger raised"),
    "botches": say("Botches"),
    # TRANSLATORS: a column of the roll history CSV: what the GM spent the botches on.
    "gm_spent": say("GM spent"),
}


def history_rows(view: View) -> list[dict[str, object]]:
    """Every finished check as a row of plain values (the roll history's CSV), its words in the
    current language; the outcome an id."""
    names = [c.name for c in view.characters]
    rows = []
    for r in view.results:
        rows.append(
            {
                "check": r.number,
                "who": names[r.actor],
                "aids": names[r.aid] if r.aid is not None else None,
                "stats": " + ".join(stat_name(s) for s in r.stats),
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
        return card(_("Roll history"), '<span class="pb-muted">' + esc(_("No check finished yet.")) + '</span>')
    # TRANSLATORS: the roll history's column heads; "Diff." is the difficulty, kept short.
    heads = ("#", _("Who"), _("Stats"), _("Diff."), _("Dice"), _("Set"), _("Outcome"), _("Botches"))
    head = "".join(f"<th>{esc(h)}</th>" for h in heads)
    body = []
    for r in reversed(view.results):
        aids = _("aids {name}", name=names[r.aid]) if r.aid is not None else ""
        who = esc(names[r.actor]) + (f" <span class='pb-muted'>{esc(aids)}</span>" if aids else "")
        words, tone = outcome_look(r.outcome)
        bonus = f" +{r.bonus_won}" if r.bonus_won else ""
        spent = spent_text(r, names)
        botches = f"{r.botches}" + (f"<div class='pb-muted'>{esc(spent)}</div>" if spent else "")
        cells = (
            str(r.number),
            who,
            esc(" + ".join(stat_short(s) for s in r.stats)),
            str(r.difficulty),
            result_dice(r) + ("<div class='pb-muted'>" + esc(_n('{n} re-roll', '{n} re-rolls', r.rerolls)) + "</div>" if r.rerolls else ""),
            str(r.height) if r.height is not None else "—",
            f'<b class="pb-tone-{tone}">{esc(words)}{bonus}</b>',
            botches,
        )
        tds = "".join(f'<td class="dw-dice-cell">{c}</td>' if n == 4 else f"<td>{c}</td>" for n, c in enumerate(cells))
        body.append(f'<tr data-check="{r.number}">{tds}</tr>')
    return card(_("Roll history (newest first)"), f'<table class="pb-table dw-history"><tr>{head}</tr>{"".join(body)}</table>')


# -- the GM's odds table, and the party on the board ------------------------------------------------

#: the GM's odds table: pools of 2-12 dice against difficulties 2-6 (as the printed GM screen).
GRID_DICE = tuple(range(2, 13))
GRID_DIFFICULTIES = tuple(range(2, 7))


def odds_grid(rerolls: int) -> str:
    """The GM screen's odds table (below), in the page's language."""
    return _odds_grid(rerolls, current())


@functools.cache
def _odds_grid(rerolls: int, lang: str) -> str:
    """The GM screen's odds table as HTML: the exact chance of success (best play, no penalty
    dice) for each pool and difficulty with the table's `rerolls`. Cached: the same for every table."""
    head = "".join(f"<th>{d}</th>" for d in GRID_DIFFICULTIES)
    rows = "".join(
        f"<tr><th>{n}</th>" + "".join(f'<td data-dice="{n}" data-difficulty="{d}">{percent(success_chance(n, d, 0, rerolls))}</td>' for d in GRID_DIFFICULTIES) + "</tr>"
        for n in GRID_DICE
    )
    best = _n(
        "Best play with {n} re-roll, no penalty dice; each penalty die takes roughly one die off the pool.",
        "Best play with {n} re-rolls, no penalty dice; each penalty die takes roughly one die off the pool.",
        rerolls,
    )
    return card(
        _("Odds of success (the GM screen)"),
        f'<table class="dw-odds-grid" data-rerolls="{rerolls}"><tr><th></th><th colspan="{len(GRID_DIFFICULTIES)}">' + esc(_("difficulty")) + '</th></tr>'
        '<tr><th>' + esc(_("dice")) + f'</th>{head}</tr>{rows}</table>'
        f'<div class="pb-muted">{esc(best)}</div>',
    )


def party_board(view: View) -> str:
    """Every character's condition for the projector: danger and zone, the damage track, SP."""
    cells = []
    for i, ch in enumerate(view.characters):
        state = _("dead") if ch.dead else _("K.O.'d") if ch.knocked_out else _("no sheet yet") if not ch.ready else _("zone {zone}", zone=ch.zone)
        line = _("danger {danger} · {state} · SP {sp}", danger=ch.danger, state=state, sp=ch.sp)
        cells.append(
            f'<div class="dw-board-character pb-card" data-character="{i}"><div class="dw-board-name">{esc(ch.name)}</div>'
            f'<div class="dw-board-state">{esc(line)}</div>{track_html(ch)}</div>'
        )
    return f'<div class="dw-board-party">{"".join(cells)}</div>'


# -- the board by phase ------------------------------------------------------------------------------


def outcome_headline(outcome: str) -> str:
    """An outcome as the board's headline says it."""
    words = {"benefit": _("Success, with a benefit"), "success": _("Success"), "partial": _("A partial success"), "failure": _("Failure"), "aid": _("Aid given")}
    return words.get(outcome, outcome)


def _danger_track(view: View) -> str:
    """Each character's danger level and zone: the track the table watches rise."""
    def level(c: CharacterView) -> str:
        text = _("danger {danger} · zone {zone}", danger=c.danger, zone=c.zone)
        # TRANSLATORS: K.O. = knocked out, on the board's danger track.
        text += " · " + _("K.O.") if c.knocked_out else ""
        text += " · " + _("dead") if c.dead else ""
        return esc(text)

    cells = "".join(
        f'<span class="pb-chip" style="color:#14171f;background:{"#fdecea" if c.zone >= 3 else "#fff3e0" if c.zone == 2 else "#eceef3"}">'
        f"{name(c.name)}: {level(c)}</span>"
        for c in view.characters
    )
    return '<div class="pb-label">' + esc(_("The danger track")) + f'</div><div class="pb-danger-track">{cells}</div>'


def _names(view: View) -> list[str]:
    return [c.name for c in view.characters]


def scene(state: State, final: State | None = None) -> Scene:
    view = view_for(state, None)
    names = _names(view)
    most = max((c.danger for c in view.characters), default=0)
    facts_common = (Fact(_("Checks made"), str(len(view.results))), Fact(_("Highest danger"), str(most), "pb-danger-level"), Fact(_("Story-point pool"), str(view.pool)))
    heading = _("Session {session} · encounter {encounter}", session=view.session, encounter=view.encounter)
    if view.phase == "over":
        return _results(state, view)
    ready = sum(1 for c in view.characters if c.ready)
    if ready < len(view.characters) and view.check is None and not view.results:
        # Sheets still being made before the first check; once checks are made the board shows
        # them (a player on a phone may make a sheet later, while the others play).
        still = ", ".join(c.name for c in view.characters if not c.ready)
        centre = (
            '<div class="pb-label">' + esc(_("The characters are being made")) + '</div>'
            '<div class="pb-huge">' + esc(_n("{ready} of {n} sheet ready", "{ready} of {n} sheets ready", len(names), ready=ready)) + '</div>'
            '<div class="pb-line">' + esc(_("Still to finish: {names}", names=still)) + '</div>'
        )
        sheets = Fact(_("Sheets ready"), _("{ready} of {total}", ready=ready, total=len(names)), "pb-sheets-ready")
        return Scene("waiting", heading, centre, (sheets, *facts_common[1:]), view.log)
    check = view.check
    if check is not None and check.result is None:
        stats = " + ".join(check.stats)
        if check.aid is not None:
            against = _("{stats} (aiding {name}) against difficulty {difficulty}", stats=stats, name=names[check.aid], difficulty=check.difficulty)
        else:
            against = _("{stats} against difficulty {difficulty}", stats=stats, difficulty=check.difficulty)
        dice = "".join(die_span(f, "danger" if k >= check.normal else "pool", ["dw-locked"] if k in check.locked else [], small=False) for k, f in enumerate(check.faces))
        dice += "".join(die_span(f, "penalty", small=False) for f in check.penalty_faces)
        rolled = (
            '<div class="pb-label">' + esc(_("The dice")) + f'</div><div>{dice}</div>'
            if check.faces
            else '<div class="pb-line">' + esc(_("The dice are about to be rolled.")) + '</div>'
        )
        centre = (
            '<div class="pb-label">' + esc(_("The check being rolled")) + f'</div><div class="pb-huge pb-check-actor">{esc(names[check.actor])}</div>'
            f'<div class="pb-line">{esc(against)}</div>{rolled}' + _danger_track(view)
        )
        facts = (
            Fact(_("Difficulty"), str(check.difficulty), "pb-difficulty-big"),
            Fact(_("Pool"), _("{count} dice", count=check.pool)),
            Fact(_("Re-rolls left"), str(view.rerolls_left)),
            facts_common[1],
        )
        return Scene("decision", _("{heading} · check {number}", heading=heading, number=check.number), centre, facts, view.log)
    # The check just read (its botches may still wait for the GM), else the last one finished.
    waiting = check is not None and check.result is not None
    last_result = check.result if waiting and check is not None else (view.results[-1] if view.results else None)
    if last_result is not None:
        last: CheckResult = last_result
        height = _("a set of {height}", height=last.height) if last.height else _("no set")
        line = [height, _n("{n} botch", "{n} botches", last.botches)]
        if last.danger_raised:
            line.append(_("danger +{danger}", danger=last.danger_raised))
        if waiting and last.botches:
            line.append(_("{gm} spends them now", gm=view.gm))
        title = _("Check {number}: {name}, {stats} against {difficulty}", number=last.number, name=names[last.actor], stats=" + ".join(last.stats), difficulty=last.difficulty)
        centre = (
            f'<div class="pb-label">{esc(title)}</div>'
            f'<div class="pb-huge pb-check-outcome">{esc(outcome_headline(last.outcome))}</div>'
            f'<div class="pb-line">{esc(" · ".join(line))}'
            + f'</div><div style="zoom:1.6">{result_dice(last, small=True)}</div>'
            + _danger_track(view)
        )
        facts = (Fact(_("Set"), str(last.height or 0), "pb-set-height"), Fact(_("Difficulty"), str(last.difficulty)), Fact(_("Botches"), str(last.botches)), facts_common[1])
        return Scene("reveal", _("{heading} · check {number}", heading=heading, number=last.number), centre, facts, view.log)
    centre = (
        '<div class="pb-huge">' + esc(_("Ready")) + '</div><div class="pb-line">' + esc(_("The GM sets the scene; any character may make the first check.")) + '</div>'
        + _danger_track(view)
    )
    return Scene("decision", heading, centre, facts_common, view.log)


def _results(state: State, view: View) -> Scene:
    rows = "".join(
        f"<tr><td>{esc(c.name)}</td><td>" + esc(_('dead') if c.dead else _('alive')) + "</td><td>" + esc(_('danger {danger}', danger=c.danger)) + "</td></tr>" for c in view.characters
    )
    centre = f'<table class="pb-standings-big pb-results-standings">{rows}</table>'
    facts = (Fact(_("Checks made"), str(len(view.results))),)
    return Scene("results", _("the end"), centre, facts, view.log, _("Nobody: the party fell"), tuple(story(state)))


def story(state: State) -> list[str]:
    view = view_for(state, None)
    results = view.results
    won = sum(1 for r in results if r.outcome in ("benefit", "success"))
    partial = sum(1 for r in results if r.outcome == "partial")
    names = _names(view)
    hardest = max(results, key=lambda r: r.difficulty, default=None)
    checks = _n("{n} check", "{n} checks", len(results))
    party = ", ".join(_("{name} (dead)", name=c.name) if c.dead else c.name for c in view.characters)
    return [
        _n(
            "{checks} in {n} session: {won} succeeded, {partial} partly, {other} failed or aided.",
            "{checks} in {n} sessions: {won} succeeded, {partial} partly, {other} failed or aided.",
            view.session,
            checks=checks,
            won=won,
            partial=partial,
            other=len(results) - won - partial,
        ),
        _("The hardest check: difficulty {difficulty}, by {name}.", difficulty=hardest.difficulty, name=names[hardest.actor]) if hardest else _("No check was made."),
        _("Botches rolled: {botches}; danger raised by sets: {danger}.", botches=sum(r.botches for r in results), danger=sum(r.danger_raised for r in results)),
        _("The party: {party}.", party=party),
        _("The game ended: every character is dead.") if view.over else _("The game goes on."),
    ]


def moment(before: State, state: State) -> tuple[str, int] | None:
    if len(state.results) > len(before.results):
        r = state.results[-1]
        return _("Check {number}: {name}", number=r.number, name=state.characters[r.actor].name), len(state.results)
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
    # TRANSLATORS: "C3" is check 3 on the chart's axis: keep it short.
    ticks = [_("C{number}", number=len(s.results)) for s in points]
    return chart_svg(_("Danger level after each check"), ticks, lines=series, x_name=_("Check"))


SCENES = GameScenes("danger-world", scene, moment, round_of, chart, say("Check"))


# -- exact odds, as the balance lab asks for them ---------------------------------------------------
#: Pools above this many dice take seconds to work out the first time: the lab asks no more.
ODDS_MOST_DICE = 12


def odds_html(report: Mapping[str, Any]) -> str:
    """A check's exact chance (`rules.danger_world.odds_report`), and by re-rolls."""
    what = _(
        "of a set of height {difficulty} or more from {dice} dice, {penalty} penalty dice and {rerolls} re-rolls",
        difficulty=report["difficulty"], dice=report["dice"], penalty=report["penalty"], rerolls=report["rerolls"],
    )  # fmt: skip
    rows = [(number(int(r)), chance_percent(v["chance"]), v["exact"]) for r, v in report["by_rerolls"].items()]
    chance = {"probability": report["chance"], "fraction": report["exact"]}
    # The rules' report (JSON for `playbook odds`) states its assumptions in English; the page says them in its language.
    assumes = _("Assumes a set of height >= difficulty; every pool die a normal die; penalty dice rolled once; locks and re-rolls played optimally.")
    return report_card(_("Danger World check"), chance, what, (_("Re-rolls"), _("Chance"), _("Exact")), rows, assumes)


ODDS = OddsForm(
    say("A check: a pool of d6, a difficulty, penalty dice, re-rolls"),
    (
        OddsInput("dice", say("Pool dice"), 6, ODDS_LIMITS["dice"][0], min(ODDS_LIMITS["dice"][1], ODDS_MOST_DICE), say("dice in the pool")),
        OddsInput("difficulty", say("Difficulty"), 3, *ODDS_LIMITS["difficulty"], say("the set height needed")),
        OddsInput("penalty", say("Penalty dice"), 0, *ODDS_LIMITS["penalty"], say("penalty dice rolled with the pool")),
        OddsInput("rerolls", say("Re-rolls"), 2, *ODDS_LIMITS["rerolls"], say("lock-and-re-roll rounds")),
    ),
    odds_html,
    note=say("Up to {n} pool dice here; a big first query takes a few seconds.", n=ODDS_MOST_DICE),
)
