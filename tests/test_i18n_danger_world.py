"""Danger World in the reader's language, headless: in the pseudo-language every text its own
pages, drawings and rules put on a seat, the GM's page and the board is a catalog message (a
bracketed ⟦…⟧), through sheet making, a check, its botches and the end of the game; in Dutch a
log line, a refusal and a page read from the catalog. The shared frame around the game (header
title, log panel, status line, debrief) is other modules' and is checked by their tests.
"""

from __future__ import annotations

from collections.abc import Iterator

import ipywidgets as widgets
import pytest

import i18n
from drawing.danger_world import history_card, party_board, scene, story
from playbook.store import Store
from rules import Game
from rules.danger_world import (
    RULES,
    ApplyHit,
    CreateCharacter,
    Lock,
    Setup,
    view_for,
)
from tests.support.headless import click, links, one, visible, walk
from tests.support.pseudo import escaped, html_texts, shown_parts, widget_texts
from widgets.danger_world import DangerWorldDashboard

NAMES = ("Wren", "Bo", "Juno")
GM = "Morgan"
GM_SEAT = len(NAMES)
STATS = (4, 1, 2, 1, 3, 2, 1, 2)
ASPECTS = ("Cat burglar", "Owes the guild", "Never leaves a friend")
#: what a reader meets that no catalog says: players' names and typed aspects, the game's
#: name, the ready-made characters' given names (their labels and aspects are messages).
NOT_MESSAGES = (*NAMES, GM, *ASPECTS, "Danger World", "Wren", "Brick", "Sage", "Vesper")
#: the parts of a Danger World page this game draws (its frame is the shared table page's).
OWN_PARTS = (
    "pb-party",
    "pb-sp-pool",
    "pb-quick-all",
    "pb-check-builder",
    "pb-tray",
    "pb-odds",
    "pb-coach",
    "pb-outcome",
    "pb-botches",
    "pb-history",
    "pb-round",
    "pb-turn",
)


def read(root: widgets.Widget) -> Iterator[str]:
    """`widget_texts`, with an HTML widget's text nodes read as one text: a message that bolds a
    number ("Pool: <b>7</b> dice") is one message over several nodes."""
    yield from widget_texts(root)
    for widget in walk(root):
        if isinstance(widget, widgets.HTML):
            yield "".join(html_texts(widget.value))


def untranslated(*roots: widgets.Widget) -> list[str]:
    found: list[str] = []
    for root in roots:
        texts = [text for text in read(root) if text.count("⟦") == text.count("⟧")]
        found += escaped(texts, names=NOT_MESSAGES)
    return found


def own_parts(dash: DangerWorldDashboard) -> list[widgets.Widget]:
    """The game's own widgets on a page, as it shows them now (hidden branches left out)."""
    return shown_parts(dash, lambda classes: any(css in classes for css in OWN_PARTS) or any(css.startswith(("pb-builder-", "pb-sheet-", "pb-track-", "pb-gm")) for css in classes))


def log_lines(dash: DangerWorldDashboard) -> list[str]:
    assert dash.game is not None
    return [i18n.render(line) for line in view_for(dash.game.state, dash.seat).log]


def board_texts(state: object) -> list[str]:
    """What the board draws of the game: the scene's heading, centre, facts and story."""
    drawn = scene(state)  # type: ignore[arg-type]
    texts = [drawn.heading, *html_texts(drawn.centre)]
    texts += [text for fact in drawn.facts for text in (fact.label, fact.value)]
    texts += list(drawn.story) + ([drawn.winner] if drawn.winner else [])
    return texts


def new_table(store: Store, seed: int) -> DangerWorldDashboard:
    host = DangerWorldDashboard(store, query="")
    # The setup form's own fields, before the table starts.
    fields = ("pb-gm-name", "pb-players", "pb-story-points", "pb-pool-start", "pb-rerolls", "pb-sheet-dice", "pb-danger-resets")
    if i18n.current() == i18n.PSEUDO:
        assert untranslated(*(one(host, css) for css in fields)) == []
    one(host, "pb-gm-name").value = GM
    one(host, "pb-players").value = len(NAMES)
    for i, name in enumerate(NAMES):
        one(host, f"pb-name-{i}").value = name
    one(host, "pb-pool-start").value = 3
    one(host, "pb-seed").value = seed
    one(host, "pb-start").click()
    assert host.game is not None, host.status.message
    return host


def seat_page(store: Store, host: DangerWorldDashboard, seat: int) -> DangerWorldDashboard:
    dash = DangerWorldDashboard(store, query=str(links(host)["seats"][seat]["url"]))
    assert dash.seat == seat, dash.status.message
    return dash


@pytest.mark.usefixtures("pseudo")
def test_every_danger_world_text_is_a_message_through_a_whole_game(store: Store) -> None:
    host = new_table(store, seed=5)
    wren, gm = seat_page(store, host, 0), seat_page(store, host, GM_SEAT)
    board = DangerWorldDashboard(store, query=str(links(host)["board"]))
    # Sheets being made: Wren's builder (its count and verdict as she fills it), the GM's party.
    builder = one(wren, "pb-builder-0")
    assert untranslated(*own_parts(wren), *own_parts(gm)) == []
    one(wren, "pb-stat-0-agility").value = 4  # too many dice: the verdict says why
    assert "⟦" in one(wren, "pb-sheet-verdict-0").value and untranslated(builder) == []
    assert untranslated(*(w for w in (board,) for w in own_parts(w))) == []
    assert escaped(board_texts(host.game.state), names=NOT_MESSAGES) == []
    for stat, value in zip(("agility", "endurance", "speed", "strength", "perception", "reasoning", "charisma", "cool"), STATS):
        one(wren, f"pb-stat-0-{stat}").value = value
    for k, aspect in enumerate(ASPECTS):
        one(wren, f"pb-aspect-0-{k}").value = aspect
    click(one(wren, "pb-sheet-confirm-0"))
    assert wren.status.kind == "ok"
    gm.refresh()
    # A check from Wren's phone, hard enough to fail with a botch (seed 5).
    one(wren, "pb-stat-a").value, one(wren, "pb-stat-b").value = "agility", "perception"
    one(wren, "pb-difficulty").value = 6
    click(one(wren, "pb-mod-plus"))
    click(one(wren, "pb-mod-plus"))  # a flagged difficulty: its warning is a message too
    assert untranslated(*own_parts(wren)) == []
    click(one(wren, "pb-roll"))
    assert wren.game is not None and wren.game.state.phase == "lock"
    assert visible(one(wren, "pb-lock")) and untranslated(*own_parts(wren)) == []
    # The rules' refusals this game's page shows itself (the GM's "cannot check now" note for
    # the characters without a sheet) are said in the page's language.
    gm.refresh()
    note = one(gm, "pb-check-builder")
    assert gm.game is not None and "⟦" in "".join(w.value for w in walk(note) if isinstance(w, widgets.HTML) and "Bo" in w.value)
    wren.select([0])
    click(one(wren, "pb-lock"))
    while wren.game.state.phase == "lock":
        click(one(wren, "pb-no-set"))
    gm.refresh()
    board.refresh()
    assert gm.game is not None and gm.game.state.phase == "gm"
    assert untranslated(*own_parts(gm), *own_parts(board)) == []
    assert escaped(board_texts(gm.game.state), names=NOT_MESSAGES) == []
    # The GM spends the botches: a basket, its preview, then the spending.
    click(one(gm, "pb-gm-option-danger"))
    assert "⟦" in one(gm, "pb-gm-basket").value and untranslated(*own_parts(gm)) == []
    click(one(gm, "pb-gm-spend"))
    assert gm.game.state.phase == "table"
    # Hits outside a check until Wren dies (the injury dice roll themselves): K.O.'d, injuries, death.
    while not gm.game.state.characters[0].dead:
        assert gm.act(ApplyHit(seat=GM_SEAT, character=0, hit="overload")), gm.status.message
    wren.refresh()
    board.refresh()
    assert untranslated(*own_parts(wren), *own_parts(gm), *own_parts(board)) == []
    assert escaped(board_texts(gm.game.state), names=NOT_MESSAGES) == []
    # Every log line the game wrote, and the record, are messages.
    assert escaped(log_lines(wren), names=NOT_MESSAGES) == []
    assert escaped(html_texts(history_card(view_for(gm.game.state, None))), names=NOT_MESSAGES) == []
    assert escaped(html_texts(party_board(view_for(gm.game.state, None))), names=NOT_MESSAGES) == []


def test_the_game_ends_in_messages_when_every_character_falls(pseudo: None) -> None:
    game = Game(RULES, Setup(names=("Ana",), gm=GM), seed=3)
    game.apply(CreateCharacter(seat=0, character=0, stats=STATS, aspects=ASPECTS))
    while not game.state.over:
        game.apply(ApplyHit(seat=None, character=0, hit="reduced"))
    lines = [i18n.render(e.text) for e in game.state.log]
    assert len(lines) > 5 and escaped(lines, names=("Ana", GM, *ASPECTS)) == []
    assert escaped(board_texts(game.state), names=("Ana", GM)) == []
    assert escaped(story(game.state), names=("Ana", GM)) == []


def test_a_log_line_a_refusal_and_a_page_read_in_dutch(store: Store, dutch: None) -> None:
    setup = Setup(names=("Ana", "Bo"), gm=GM)
    game = Game(RULES, setup, seed=1)
    game.apply(CreateCharacter(seat=0, character=0, stats=STATS, aspects=ASPECTS))
    # The log keeps the line in English (the record), and says it in Dutch on a Dutch page.
    said = game.state.log[-1].text
    assert str(said) == "Ana joins: Agility 4, Endurance 1, Speed 2, Strength 1, Perception 3, Reasoning 2, Charisma 1, Cool 2. Aspects: Cat burglar; Owes the guild; Never leaves a friend."
    assert i18n.render(said) == (
        "Ana doet mee: Behendigheid 4, Uithoudingsvermogen 1, Snelheid 2, Kracht 1, Waarneming 3, Verstand 2, Charisma 1, "
        "Koelbloedigheid 2. Aspecten: Cat burglar; Owes the guild; Never leaves a friend."
    )
    # A refusal: its rule id stays, its reason reads in Dutch.
    with pytest.raises(Exception) as refused:
        game.apply(Lock(seat=1, dice=(0,)))
    assert refused.value.rule == "turn order"  # type: ignore[attr-defined]
    assert i18n.render(refused.value.said) == "er zijn nu geen gegooide dobbelstenen om vast te zetten, opnieuw te gooien of te lezen"  # type: ignore[attr-defined]
    # A page: the facilitator's reads Dutch where it read English; the GM's phone too.
    host = new_table(store, seed=5)
    assert one(host, "pb-quick-all").description == "Snelle personages voor iedereen"
    assert "Wachten op bladen: Wren, Bo en Juno." in one(host, "pb-turn").value
    assert "Nog geen blad" in one(host, "pb-sheet-0").value
    gm = seat_page(store, host, GM_SEAT)
    assert one(gm, "pb-roll").description == "Gooien" and one(gm, "pb-short-rest").description == "Korte rust"
