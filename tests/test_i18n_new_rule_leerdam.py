"""New Rule's and Leerdam's rules in the reader's language: every log line and refusal is a
message of the catalog (none escapes the pseudo-language), a line and a refusal read in Dutch,
the board's log follows the page's language, and English stays as it was."""

from __future__ import annotations

import re
from collections.abc import Iterator

import ipywidgets as widgets
import pytest

import i18n
import lab
from drawing import leerdam as ld_drawing
from drawing import new_rule as nr_drawing
from drawing.board import log_html, scene_html
from lab.core import play_out
from playbook.classes import step_of
from playbook.store import Store
from rules import leerdam as ld
from rules import new_rule as nr
from rules.core import Game, RuleError, leaders_said, name_problem, rng_for, winners_said
from rules.games import card
from tests.support.headless import click, find, links, one, seat_query, start_table
from tests.support.leerdam_page import cell
from tests.support.played import NAMES, played
from tests.support.pseudo import escaped, html_texts
from widgets.leerdam import LeerdamDashboard
from widgets.new_rule import NewRuleDashboard


def refused(state: object, action: object, check) -> RuleError:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as caught:
        check(state, action)
    return caught.value


@pytest.mark.parametrize(("slug", "players", "variants"), [("new-rule", 4, {}), ("leerdam", 5, {}), ("leerdam", 5, {"anonymous": True})])
def test_every_log_line_of_a_whole_game_is_a_message(pseudo: None, slug: str, players: int, variants: dict) -> None:
    game = played(slug, players, **variants)
    lines = [i18n.render(e.text) for e in game.state.log]
    assert len(lines) > 20
    assert escaped(lines, names=NAMES) == []
    assert all(isinstance(e.text, i18n.Said) for e in game.state.log)


def test_a_new_rule_line_and_refusal_read_in_dutch(dutch: None) -> None:
    state = nr.initial(nr.Setup(names=("Ana", "Bo", "Cy")))
    hands = tuple(("red",) * 2 + ("blue",) * 4 + ("green",) * 4 for _ in range(3))
    state = nr.play(state, nr.Deal(hands=hands))
    state = nr.play(nr.play(state, nr.Draw(seat=0)), nr.Drawn(seat=0, candies=("blue", "yellow")))
    state = nr.play(state, nr.Keep(seat=0))
    lines = [i18n.render(e.text) for e in state.log if e.visible(None)]
    assert "Ana houdt de trekking." in lines
    assert [str(e.text) for e in state.log if e.visible(None)][-1] == "Ana keeps the draw."  # English as before
    assert i18n.render(next(e.text for e in state.log if e.visible_to == frozenset({0}) and "drew" in str(e.text))) == "Ana trok 1 blauw, 1 geel."
    error = refused(state, nr.Pick(seat=0, colour="red"), nr.check)
    assert error.rule == "turn order"
    assert error.message == "it is not time to pick an infection (now: draw)"
    assert i18n.render(error.said) == "het is nu niet de tijd om een besmetting te kiezen (nu: draw)"
    error = refused(state, nr.Draw(seat=0), nr.check)
    assert (error.message, i18n.render(error.said)) == ("it is Bo's turn to draw, not Ana's", "Bo is aan de beurt om te trekken, niet Ana")


def test_a_leerdam_year_reads_in_dutch_on_the_board(dutch: None) -> None:
    state = ld.initial(ld.Setup(names=("Ana", "Bo", "Cy", "Di", "Eva")))
    state = ld.play(state, ld.SetMisfortune(losses=(0, 2, 0, 0, 0)))
    state = ld.play(state, ld.Contribute(seat=0, units=3))
    public = [i18n.render(e.text) for e in state.log if e.visible(None)]
    assert public[0] == "Jaar 1 begint. De dijk staat op 3."
    assert "De begeleider bepaalt de tegenslag van dit jaar. Tegenslag treft Bo (-2)." in public
    assert public[-1] == "Ana heeft een geheime toezegging gedaan."
    own = [i18n.render(e.text) for e in state.log if e.visible_to == frozenset({0})]
    assert own == ["Je zegde 3 eenheden toe aan de dijk."]
    board = html_texts(log_html(tuple(e.text for e in state.log if e.visible(None))))
    assert "Ana heeft een geheime toezegging gedaan." in board and not any("pledge" in t for t in board)
    error = refused(state, ld.Contribute(seat=0, units=1), ld.check)
    assert (error.rule, i18n.render(error.said)) == ("one pledge", "Ana heeft al toegezegd")
    assert error.message == "Ana has already pledged"
    with pytest.raises(RuleError) as caught:
        ld.Setup(names=("Ana", "Bo", "Cy", "Di", "Eva"), capacity=0)
    assert (caught.value.rule, i18n.render(caught.value.said)) == ("setup", "de capaciteit moet 1-20 eenheden zijn")


def test_winners_and_leaders_are_said_with_the_languages_list(dutch: None) -> None:
    names = ("Ana", "Bo", "Cy")
    assert i18n.render(winners_said(names, [0, 2])) == "Ana en Cy delen de overwinning"
    assert str(winners_said(names, [0, 2])) == "Ana and Cy share the win"
    assert i18n.render(winners_said(names, [0, 1, 2], i18n.say("households"))) == "alle 3 huishoudens eindigen gelijk"
    assert str(winners_said(names, [1])) == "Bo wins"


@pytest.mark.parametrize("variants", [{}, {"anonymous": True}])
def test_leerdams_board_escapes_no_text_in_any_phase(pseudo: None, variants: dict) -> None:
    """Every state of a whole village drawn as the board (pledges, reveal, flood, results): no
    English outside the pseudo-language's brackets but the households' names."""
    names = ("Ana", "Bo", "Cy", "Di", "Eva")
    setup = ld.Setup(names=names, **variants)
    game = play_out(Game(ld.RULES, setup, 3, keep=None), [lab.BOTS["leerdam"]["fair"]] * 5, rng_for(3, -1))
    # A list's "and" is the language's list pattern (Babel's locale data, English for the
    # pseudo-language), not a message of the catalog.
    names += (" and ",)
    phases = set()
    for state in game.states:
        scene = ld_drawing.scene(state, game.state)
        phases.add(scene.phase)
        page = scene_html(scene, "", "")
        # One text: the board wraps numbers and names in their own elements (direction
        # isolation), so a message's brackets span several text nodes.
        assert escaped(["".join(html_texts(page))], names=names) == [], scene.heading
    assert phases == {"decision", "reveal", "results"}


def test_leerdams_board_reads_in_dutch(dutch: None) -> None:
    game = played("leerdam", 5)
    page = scene_html(ld_drawing.scene(game.state), "", "")
    words = " ".join(html_texts(page))
    assert "De winnaar" in words and "Het verhaal van het spel" in words and "Dijk aan het einde" in words
    assert "The winner" not in words and "Wealth" not in words


def test_new_rules_board_escapes_no_text_in_any_phase(pseudo: None) -> None:
    """Every state of a whole New Rule game drawn as the board (draw, picks, the infection,
    results): no English outside the brackets but the players' names."""
    names = ("Ana", "Bo", "Cy", "Di")
    bots = [lab.BOTS["new-rule"][b] for b in lab.DEFAULT_BOTS["new-rule"]]
    game = play_out(Game(nr.RULES, nr.Setup(names=names), 3, keep=None), (bots * 4)[:4], rng_for(3, -1))
    phases = set()
    for state in game.states:
        scene = nr_drawing.scene(state)
        phases.add(scene.phase)
        assert escaped(["".join(html_texts(scene_html(scene, "", "")))], names=(*names, " and ")) == [], scene.heading
    assert phases == {"decision", "reveal", "results"}


def test_a_leerdam_seats_year_and_dyke_cards_read_in_dutch(dutch: None) -> None:
    state = ld.initial(ld.Setup(names=("Ana", "Bo", "Cy", "Di", "Eva")))
    view = ld.view_for(state, 0)
    year = " ".join(html_texts(ld_drawing.year_card(view, state.setup)))
    dyke = " ".join(html_texts(ld_drawing.dyke_card(view)))
    assert "Tegenslag: de begeleider bepaalt hem" in year and "Eindworp na elk jaar vanaf jaar 8" in year
    assert "Staat van de dijk 3 van 6" in dyke and "Kans op overstroming:" in dyke and "1 OP per 17 Rijkdom" in dyke
    assert "Misfortune" not in year and "Wealth" not in dyke


# -- the pages: facilitator, seat and board, headless through whole games ------------------------------

#: what a reader meets that no catalog says: the players' names, the bots' names, the games'
#: titles and the language menu's own names for its languages.
PAGE_NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Leerdam", "New Rule", *(f"🤖 {bot}" for slug in ("new-rule", "leerdam") for bot in lab.BOTS[slug]), *i18n.LANGUAGES.values())
#: a page's links and addresses are not words: a join link's query reads as letters.
ADDRESS = re.compile(r"https?://\S+")
#: a chart's drawn text: its legend shortens a long label ("the whole villag…", its bracket
#: cut off); the chart's title (aria-label) and its numbers' table say every label in full.
CHART_TEXT = re.compile(r"<text\b[^>]*>.*?</text>", re.S)


def shown(root: widgets.Widget) -> Iterator[widgets.Widget]:
    """The widgets a page shows now: a hidden branch (display none) is left out."""
    if getattr(root, "layout", None) is not None and root.layout.display == "none":
        return
    yield root
    for child in getattr(root, "children", ()):
        if isinstance(child, widgets.Widget):
            yield from shown(child)


def page_texts(root: widgets.Widget) -> list[str]:
    """Every text a page shows: a control's description, tooltip, placeholder and options, a
    label; an HTML widget (and a description written in HTML) as one text over its nodes, so a
    message that bolds a number ("Pledged: <b>3</b>") stays one message."""
    texts = []
    for widget in shown(root):
        for trait in ("tooltip", "placeholder"):
            value = getattr(widget, trait, None)
            if isinstance(value, str) and value:
                texts.append(value)
        description = getattr(widget, "description", None)
        if isinstance(description, str) and description:
            texts.append("".join(html_texts(description)) if getattr(widget, "description_allow_html", False) else description)
        texts += [label for label in getattr(widget, "_options_labels", ()) if label]
        texts += [tip for tip in (getattr(widget, "tooltips", None) or ()) if tip]
        if isinstance(widget, widgets.HTML):
            texts.append("".join(html_texts(CHART_TEXT.sub(" ", widget.value))))
        elif isinstance(widget, widgets.Label):
            texts.append(widget.value)
    return [ADDRESS.sub(" ", text) for text in texts]


def untranslated(*pages: widgets.Widget) -> list[str]:
    return [text for page in pages for text in escaped(page_texts(page), names=PAGE_NAMES)]


def test_new_rules_pages_escape_no_text_in_any_phase(pseudo: None, store: Store) -> None:
    """The facilitator's page, Ana's seat and the board through a whole game (the form, draws,
    swaps, picks, the payment, the end): every text is a message but names and addresses."""
    host = NewRuleDashboard(store)
    assert untranslated(host) == []  # the new-game form
    one(host, "pb-players").value = 3
    start_table(host, ("Ana", "Bo", "Cy"), {2: "balanced"}, 7, {"pb-max-rounds": "2"})
    seat = NewRuleDashboard(store, query=seat_query(host, 0))
    board = NewRuleDashboard(store, query=str(links(host)["board"]))
    phases = set()
    moves = 0
    while not host.game.state.over:
        state = host.game.state
        phases.add(state.phase)
        turn = next(s for s in state.waiting_for() if s != 2)
        if turn == 0:  # Ana plays on her own phone
            seat.refresh()
            assert untranslated(seat) == [], state.phase
            page = seat
        else:  # Bo on the facilitator's screen, behind its curtain
            one(host, f"pb-seat-{turn}").click()
            one(host, "pb-show-private").click()
            assert untranslated(host) == [], state.phase
            page = host
        if state.phase == "draw":
            click(one(page, "pb-draw"))
        elif state.phase == "choose":
            swaps = find(page, "pb-swap")
            click(swaps[-1] if swaps and moves % 2 else one(page, "pb-keep"))
        elif state.phase == "pick":
            click(find(page, "pb-pick")[0])
        else:
            click(one(page, "pb-pay-confirm"))
        if page is host:
            one(host, "pb-hide").click()
        moves += 1
        for each in (host, seat, board):
            each.refresh()
        assert untranslated(host, seat, board) == [], host.game.state.phase
    assert phases >= {"draw", "choose", "pick", "pay"}
    assert "⟦" in one(host, "pb-turn").value  # "Game over: ..." is said too


def test_leerdams_pages_escape_no_text_in_any_phase(pseudo: None, store: Store) -> None:
    """The facilitator's page, Ana's seat and the board of an anonymous village whose
    misfortune the facilitator sets by hand, through pledges, allocations, hiring, floods,
    the end and the debrief's choice: every text is a message but names and addresses."""
    host = LeerdamDashboard(store)
    one(host, "pb-players").value = 4  # a village smaller than the text's: the form warns
    assert "⟦" in one(host, "pb-setup-warning").value and untranslated(host) == []
    one(host, "pb-players").value = 5
    start_table(host, ("Ana", "Bo", "Cy", "Di", "Ed"), {2: "fair", 3: "altruist", 4: "free-rider"}, 11,
                {"pb-max-years": "2", "pb-end-check": 2, "pb-by-hand": True, "pb-anonymous": True})  # fmt: skip
    seat = LeerdamDashboard(store, query=seat_query(host, 0))
    board = LeerdamDashboard(store, query=str(links(host)["board"]))
    phases, offers = set(), 0
    while not host.game.state.over:
        host.refresh()
        phases.add(host.game.state.phase)
        assert untranslated(host, seat, board) == [], host.game.state.phase
        if host.game.state.phase == "misfortune":
            one(host, "pb-loss-1").value = 1
            click(one(host, "pb-misfortune-set"))
            phases.add(host.game.state.phase)
        # Ana on her phone: a pledge she cannot make is refused in the page's language.
        seat.refresh()
        one(seat, "pb-pledge").value = 99
        click(one(seat, "pb-pledge-confirm"))
        assert seat.status.kind == "refuse" and untranslated(seat) == []
        one(seat, "pb-pledge").value = 1
        click(one(seat, "pb-pledge-confirm"))
        host.refresh()
        one(host, "pb-seat-1").click()
        one(host, "pb-show-private").click()
        one(host, "pb-pledge").value = 2
        click(one(host, "pb-pledge-confirm"))
        one(host, "pb-hide").click()
        seat.refresh()
        board.refresh()
        phases.add(host.game.state.phase)
        assert untranslated(host, seat, board) == [], "the reveal"
        # Bo offers Ana work once he has Wealth; Ana's page shows the offer.
        one(host, "pb-seat-1").click()
        one(host, "pb-show-private").click()
        if find(host, "pb-offer-send"):
            one(host, "pb-offer-partner").value = 0
            click(one(host, "pb-offer-send"))
            seat.refresh()
            offers += 1
            assert find(seat, "pb-accept-1") and untranslated(seat) == []
        free = host.game.state.free_units(1)
        cell(host, 1, "subsistence").value = min(2, free)
        cell(host, 1, "profit").value = free + 1  # too many: the preview says so
        assert "⟦" in one(host, "pb-alloc-preview").value and untranslated(host) == []
        cell(host, 1, "profit").value = max(0, free - 2)
        click(one(host, "pb-alloc-confirm"))
        one(host, "pb-hide").click()
        seat.refresh()
        click(one(seat, "pb-alloc-preset-profit"))
        for each in (host, seat, board):
            each.refresh()
    assert phases >= {"misfortune", "contribute", "allocate"} and offers
    board.refresh()
    seat.refresh()
    # The end: the facilitator's debrief choice, both ways.
    assert untranslated(host, seat, board) == []
    click(one(host, "pb-show-pledges"))
    board.refresh()
    assert untranslated(host, board) == []


def test_a_name_refusal_reads_in_dutch(dutch: None, store: Store) -> None:
    with pytest.raises(RuleError) as caught:
        nr.Setup(names=("Ana", "", "Cy"))
    assert (caught.value.rule, caught.value.message) == ("names", "every seat needs a name")
    assert i18n.render(caught.value.said) == "elke plaats heeft een naam nodig"
    assert i18n.render(name_problem("x" * 41, first=True)) == "De naam 'xxxxxxxxxxxxxxxxxxxx'... is langer dan 40 tekens"
    assert str(name_problem("x" * 41, first=True)) == "The name 'xxxxxxxxxxxxxxxxxxxx'... is longer than 40 characters"
    # A look-alike: its reason and its labels in Dutch, the names as typed.
    with pytest.raises(RuleError) as caught:
        ld.Setup(names=("Ana", "Bo", "Cy", "Di", "Аna"))  # a Cyrillic А
    said = i18n.render(caught.value.said)
    assert said.startswith("twee plaatsen hebben namen die er hetzelfde uitzien (“Ana” en “Аna”, de tweede is deels in een ander alfabet geschreven")
    # The page: the facilitator's form refuses two households of one name in Dutch.
    host = LeerdamDashboard(store)
    one(host, "pb-players").value = 5
    one(host, "pb-name-1").value = one(host, "pb-name-0").value
    click(one(host, "pb-start"))
    assert host.game is None and "twee plaatsen hebben dezelfde naam" in host.status.message


def test_the_card_words_read_in_dutch(dutch: None) -> None:
    words = card("leerdam").words
    assert (i18n.render(words.Table), i18n.render(words.players), i18n.render(words.points), i18n.render(words.you)) == ("Dorp", "huishoudens", "OP", "Jouw huishouden")
    assert (str(words.Table), str(words.players), str(words.you)) == ("Village", "households", "Your household")  # English as before
    assert i18n._("{table} {n}", table=i18n.render(words.Table), n=1) == "Dorp 1"
    state = ld.initial(ld.Setup(names=("Ana", "Bo", "Cy", "Di", "Eva")))
    assert i18n.render(step_of(state)) == "Jaar 1" and str(step_of(state)) == "Year 1"
    assert "huishoudens" in i18n.render(leaders_said(state.names, range(5), words.players))
    assert i18n.render(card("new-rule").length.units) == "rondes"


def test_the_turn_lines_and_panels_read_in_dutch(dutch: None, store: Store) -> None:
    host = LeerdamDashboard(store)
    one(host, "pb-players").value = 5
    start_table(host, ("Ana", "Bo", "Cy", "Di", "Ed"), {}, 11, {"pb-max-years": "3"})
    seat = LeerdamDashboard(store, query=seat_query(host, 0))
    assert "Jaar 1" in one(host, "pb-round").value
    assert "Geheime toezeggingen: wachten op" in one(seat, "pb-turn").value
    assert one(seat, "pb-pledge-confirm").description == "Geheim toezeggen"
    assert "Ana: jouw huishouden, alleen voor jouw ogen" in one(seat, "pb-household").value
    game = NewRuleDashboard(store)
    start_table(game, ("Ana", "Bo", "Cy"), {}, 7, {"pb-max-rounds": "2"})
    assert "Ronde 1 van 2" in one(game, "pb-round").value and "Ana: trek twee snoepjes." in one(game, "pb-turn").value
