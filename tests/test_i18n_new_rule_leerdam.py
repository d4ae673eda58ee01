"""New Rule's and Leerdam's rules in the reader's language: every log line and refusal is a
message of the catalog (none escapes the pseudo-language), a line and a refusal read in Dutch,
the board's log follows the page's language, and English stays as it was."""

from __future__ import annotations

import pytest

import i18n
import lab
from drawing import leerdam as ld_drawing
from drawing import new_rule as nr_drawing
from drawing.board import log_html, scene_html
from lab.core import play_out
from rules import leerdam as ld
from rules import new_rule as nr
from rules.core import Game, RuleError, rng_for, winners_said
from tests.support.played import NAMES, played
from tests.support.pseudo import escaped, html_texts


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
