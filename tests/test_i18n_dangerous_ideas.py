"""Dangerous Ideas in the reader's language, headless: the rules keep each refusal, log line and
story line as a message (its English as before, a rule's id unchanged) and a page says it in its
own language. In the pseudo-language every text its pages (the facilitator's, a seat's, the
board's), drawings and rules show is a catalog message (a bracketed ⟦…⟧), from the new-game form
through the starting stones, the setting round, a chapter's title, a turn's actions, the three
phases of a meme action, its outcome and the end; in Dutch a log line, a story line, a refusal
and a page read from the catalog. The shared frame around the game (header, log panel, status
line, standings table) is other modules' and is checked by their tests.
"""

from __future__ import annotations

from collections.abc import Iterator

import ipywidgets as widgets
import pytest

import i18n
from drawing.dangerous_ideas import scene, story, story_card
from playbook.store import Store
from rules import Game, RuleError
from rules.danger_world import quick_sheet
from rules.dangerous_ideas import (
    BRANCHES,
    RULES,
    Conclude,
    Connect,
    Create,
    Defend,
    EndTurn,
    Pass,
    Place,
    Rerolled,
    Roll,
    Setup,
    SpendSeed,
    Title,
    TurnStones,
    Write,
    hub_of,
    transcript,
)
from tests.support.headless import links, one, seat_query, walk
from tests.support.pseudo import escaped, html_texts, shown_parts
from widgets.dangerous_ideas import DangerousIdeasDashboard
from widgets.dangerous_ideas_moves import default_stake, why_not

NAMES = ("Ana", "Bo", "Cy")
STORY = "Goldilocks and the Three Bears"
MEMES = ("Bears befriend girls", "Porridge heals", "Wolves lie", "Woods want wires", "Humans rule forests", "Beds beckon", "Bears like honey")
HOLDERS = ("Goldilocks", "Mama Bear", "Papa Bear", "Baby Bear")
TITLE = "In Which Goldilocks Wanders Into The Woods"
NARRATION = "She walks on."
#: what a reader meets that no catalog says: players' names and everything they typed (memes,
#: holders, titles, narration), the story's name (the designers' example) and the game's name.
NOT_MESSAGES = (*NAMES, *MEMES, *HOLDERS, TITLE, NARRATION, STORY, "Dangerous Ideas")
#: a sheet's drawing wraps a meme over lines: each word may stand alone.
NOT_MESSAGES += tuple(word for text in MEMES for word in text.split())
#: the parts of a Dangerous Ideas page this game draws (its frame is the shared table page's).
OWN_PARTS = (
    "pb-chapter",
    "pb-actor",
    "pb-controls",
    "pb-controls-body",
    "pb-attempt",
    "pb-pool",
    "pb-odds",
    "pb-dice",
    "pb-outcome",
    "pb-sheets",
    "pb-own-sheet",
    "pb-characters",
    "pb-story",
    "pb-board-trees",
    "pb-narration",
    "pb-round",
    "pb-turn",
    "pb-log",  # the shared panel, holding this game's log lines
)
#: the new-game form's own fields.
FORM = ("pb-players", "pb-story-name", "pb-seeds", "pb-chapters", "pb-start-stones", "pb-layout", "pb-table-dice", "pb-name-0")


def read(root: widgets.Widget) -> Iterator[str]:
    """`widget_texts`, with an HTML widget's text (its nodes and readable attributes) read as one
    text: a message that bolds a name or a number ("<b>Ana</b> tries to create …") is one
    message over several nodes, and a word outside every message still stands out."""
    for widget in walk(root):
        yield from (value for trait in ("description", "tooltip", "placeholder") if isinstance(value := getattr(widget, trait, None), str))
        yield from getattr(widget, "_options_labels", None) or ()
        if isinstance(widget, widgets.HTML):
            yield "".join(html_texts(widget.value))
        elif isinstance(widget, widgets.Label):
            yield widget.value


def untranslated(*roots: widgets.Widget) -> list[str]:
    return [text for root in roots for text in escaped(read(root), names=NOT_MESSAGES)]


def own_parts(dash: DangerousIdeasDashboard) -> list[widgets.Widget]:
    """The game's own widgets on a page, as it shows them now (hidden branches left out)."""
    return shown_parts(dash, lambda classes: any(css in classes for css in OWN_PARTS))


def board_texts(state: object) -> list[str]:
    """What the board draws of the game: the scene's heading, centre, facts and story."""
    drawn = scene(state)  # type: ignore[arg-type]
    texts = [drawn.heading, "".join(html_texts(drawn.centre))]
    texts += [text for fact in drawn.facts for text in (fact.label, fact.value)]
    texts += list(drawn.story) + ([drawn.winner] if drawn.winner else [])
    return texts


class Table:
    """The facilitator's page (it plays every seat, hot seat), Ana's phone and the board."""

    def __init__(self, store: Store) -> None:
        self.host = DangerousIdeasDashboard(store, query="")
        if i18n.current() == i18n.PSEUDO:
            assert untranslated(*(one(self.host, css) for css in FORM)) == []
        one(self.host, "pb-players").value = len(NAMES)
        for i, name in enumerate(NAMES):
            one(self.host, f"pb-name-{i}").value = name
        one(self.host, "pb-story-name").value = STORY
        one(self.host, "pb-chapters").value = 1
        one(self.host, "pb-table-dice").value = True  # the dice are entered: a known roll
        one(self.host, "pb-seed").value = 11
        one(self.host, "pb-start").click()
        assert self.host.game is not None, self.host.status.message
        self.ana = DangerousIdeasDashboard(store, query=seat_query(self.host, 0))
        self.board = DangerousIdeasDashboard(store, query=str(links(self.host)["board"]))
        assert (self.ana.role, self.board.role) == ("seat", "board")

    @property
    def state(self):  # type: ignore[no-untyped-def]
        assert self.host.game is not None
        return self.host.game.state

    def act(self, action: object) -> None:
        """One move, narrated, from the facilitator's page; every page then sees it."""
        self.host.narration.value = NARRATION if hasattr(action, "narration") else ""
        assert self.host.act_told(action), self.host.status.message  # type: ignore[arg-type]
        self.ana.refresh()
        self.board.refresh()

    def untranslated(self) -> list[str]:
        """Every page's own parts, and the board's scene, in the pseudo-language."""
        found = untranslated(*own_parts(self.host), *own_parts(self.ana), *own_parts(self.board))
        return found + escaped(board_texts(self.state), names=NOT_MESSAGES)


def test_refusals_are_messages_with_their_english_and_rule_unchanged() -> None:
    game = Game(RULES, Setup(names=NAMES), seed=1)
    stones = game.setup.start_stones
    wrong_count = refusal(game, Place(seat=0, place=("think",)))
    not_a_node = refusal(game, Place(seat=0, place=("probe-1",) * stones))
    too_early = refusal(game, Write(seat=0, branch="probe-1", text="Porridge is healthy", holder="Mama Bear"))
    assert wrong_count.rule == "placement" and str(wrong_count.said) == wrong_count.message == f"place exactly {stones} stones, not 1"
    assert not_a_node.message == "these stones go on the five nodes, not on 'probe-1'"
    assert too_early.rule == "phase" and too_early.message == "writing a setting-round meme is not possible now (players are placing their starting stones)"
    # In the pseudo-language every refusal is a message, the fragments inside it too.
    i18n.use(i18n.PSEUDO)
    said = [i18n.render(r.said) for r in (wrong_count, not_a_node, too_early)]
    assert all(text.startswith("⟦") for text in said) and escaped(said, names=("'probe-1'",)) == []
    # The page's own check of a move says the same reason in the page's language.
    assert why_not(game.state, Place(seat=0, place=("think",))) == said[0]


def refusal(game: Game, action: object) -> RuleError:  # type: ignore[type-arg]
    with pytest.raises(RuleError) as refused:
        game.apply(action)  # type: ignore[arg-type]
    return refused.value


@pytest.mark.usefixtures("pseudo")
def test_every_dangerous_ideas_text_is_a_message_through_a_whole_game(store: Store) -> None:
    table = Table(store)
    host = table.host
    # The starting stones: each page's placer, the board counting sheets.
    assert table.state.phase == "place" and table.untranslated() == []
    one(host, "pb-place-think").value = 9  # too many: the placer says so
    assert "⟦" in one(host, "pb-place-left").value and table.untranslated() == []
    for seat in range(len(NAMES)):
        table.act(Place(seat=seat, place=("think",) * 3 + ("create",) * 2 + ("connect", "defend")))
    # The setting round: two memes a seat, each narrated.
    assert table.state.phase == "setting" and table.untranslated() == []
    for k in range(2 * len(NAMES)):
        seat = table.state.turn
        table.act(Write(seat=seat, branch=_setting_branch(table.state, seat), text=MEMES[k], holder=HOLDERS[k % 2]))
    # The chapter's title, then a turn: its stones, and each action's controls opened in turn.
    assert table.state.phase == "title" and table.untranslated() == []
    table.act(Title(seat=table.state.starter, title=TITLE))
    actor = table.state.turn
    assert table.state.phase == "turn-start" and table.untranslated() == []
    table.act(TurnStones(seat=actor, place=("create", "create")))
    for mode in ("gain", "move", "create", "spread"):
        one(host, f"pb-{mode}").click()
        assert table.untranslated() == [], mode
    one(host, "pb-meme-text").value = "Wolves lie"  # a Spread of a meme not on the sheet: refused, in words
    one(host, "pb-meme-holder").value = "Papa Bear"
    assert "⟦" in one(host, "pb-meme-why").value and table.untranslated() == []
    # A Create, staked (phase 1), connected and defended (phase 2), rolled, re-rolled with seeds.
    table.act(Create(seat=actor, text=MEMES[-1], holder="Baby Bear"))
    assert table.state.phase == "stake" and table.untranslated() == []
    stake = default_stake(table.state, actor)
    assert stake is not None
    table.act(stake)
    table.act(Pass(seat=actor))
    assert table.state.phase == "respond" and table.untranslated() == []
    helper, hinderer = [s for s in table.state.order_from(actor) if s != actor]
    for side in ("connect", "defend"):
        one(host, f"pb-responder-{helper}").click()
        one(host, f"pb-{side}").click()
        assert table.untranslated() == [], side
    table.act(Connect(seat=helper, from_node=1))
    table.act(Defend(seat=hinderer, from_node=1))
    while table.state.phase == "respond":
        table.act(Pass(seat=table.state.waiting_for()[0]))
    # Table dice: the actor enters the roll, a seed re-rolls a die and its face is entered too.
    assert table.state.phase == "roll" and table.untranslated() == []
    table.act(Roll(dice=(1, 2)))
    assert table.state.phase == "reroll" and table.untranslated() == []
    table.act(SpendSeed(seat=table.state.waiting_for()[0], die=0))
    assert table.state.phase == "rerolling" and table.untranslated() == []
    table.act(Rerolled(die=0, value=1))
    while table.state.phase == "reroll":
        table.act(Pass(seat=table.state.waiting_for()[0]))
    # The outcome: the actor writes the new meme on an empty branch; the connector gains.
    attempt = table.state.attempt
    assert table.state.phase == "outcome" and attempt is not None and attempt.success
    assert table.untranslated() == []
    sheet = table.state.sheets[actor]
    offered = [b for _label, b in one(host, "pb-conclude-branch").options]
    branch = max(offered, key=lambda b: sheet.node(hub_of(b)))  # stones may move onto it from its hub
    table.act(Conclude(seat=actor, branch=branch, from_hub=min(1, sheet.node(hub_of(branch)))))
    assert table.state.phase == "turn" and table.untranslated() == []
    # Every turn of the one chapter ends: the story ends, the results.
    table.act(EndTurn(seat=actor))
    while not table.state.over:
        seat = table.state.turn
        if table.state.phase == "turn-start":
            table.act(TurnStones(seat=seat, place=("think", "think")))
        else:
            table.act(EndTurn(seat=seat))
    assert table.untranslated() == []
    # Every log line, story line and passage of the transcript is a message.
    state = table.state
    lines = [i18n.render(e.text) for e in state.log]
    assert len(lines) > 20 and escaped(lines, names=NOT_MESSAGES) == []
    passages = transcript(state, i18n.render)
    assert escaped([p.heading for p in passages] + [line for p in passages for line in p.lines], names=NOT_MESSAGES) == []
    assert escaped(story(state), names=NOT_MESSAGES) == []
    assert escaped(html_texts(story_card(state)), names=NOT_MESSAGES) == []


def _setting_branch(state, seat: int) -> str:  # type: ignore[no-untyped-def]
    """An empty branch the seat may write its next setting-round meme on."""
    return next(b for b in BRANCHES if not why_not(state, Write(seat=seat, branch=b, text="x", holder="y")))


def test_a_log_line_a_story_line_a_refusal_and_a_page_read_in_dutch(store: Store, dutch: None) -> None:
    game = Game(RULES, Setup(names=NAMES), seed=1)
    too_early = refusal(game, Write(seat=0, branch="probe-1", text="Porridge is healthy", holder="Mama Bear"))
    assert i18n.render(too_early.said) == "een meme voor de openingsronde schrijven kan nu niet (spelers leggen hun startstenen)"
    assert why_not(game.state, Place(seat=1, place=("think",))).startswith("leg precies ")
    # A log line keeps its English (the record) and reads in Dutch on a Dutch page.
    game.apply(Place(seat=0, place=("think",) * 3 + ("create",) * 2 + ("connect", "defend")))
    placed = game.state.log[-1].text
    assert str(placed) == "Ana places the starting stones: 3 on Think, 2 on Create, 1 on Connect, 1 on Defend."
    assert i18n.render(placed) == "Ana legt de startstenen: 3 op Denken, 2 op Scheppen, 1 op Verbinden, 1 op Verdedigen."
    # A story line: the setting round's meme, written on an empty branch in the players' words.
    for seat in (1, 2):
        game.apply(Place(seat=seat, place=("think",) * 7))
    game.apply(Write(seat=0, branch=_setting_branch(game.state, 0), text="Bears are friends", holder="Goldilocks"))
    line = game.state.story[-1].text
    assert str(line).startswith("Ana writes 'Bears are friends - Goldilocks' on a ")
    assert i18n.render(line).startswith("Ana schrijft 'Bears are friends - Goldilocks' op een ")
    # A page: the facilitator's reads Dutch where it read English.
    table = Table(store)
    assert one(table.host, "pb-place-confirm").description == "Leg deze stenen"
    assert "Voorbereiding: startstenen" in one(table.host, "pb-round").value
    assert "nog 7 van 7 te leggen" in one(table.host, "pb-place-left").value


def test_english_pages_read_as_before(store: Store) -> None:
    table = Table(store)
    assert one(table.host, "pb-place-confirm").description == "Place these stones"
    assert "Setup: starting stones" in one(table.host, "pb-round").value
    assert "Waiting for Ana, Bo and Cy to place starting stones." in one(table.host, "pb-turn").value
    assert "7 of 7 still to place" in one(table.host, "pb-place-left").value
    assert [str(e.text) for e in table.state.log] == ["Dangerous Ideas for Ana, Bo and Cy: 1 chapter.", "Everyone places 7 stones on the five nodes of their sheet."]


def test_the_quick_characters_aspects_are_offered_in_the_pages_language(dutch: None) -> None:
    english = quick_sheet(5)
    dutch_sheet = quick_sheet(5, said=i18n.render)
    assert dutch_sheet.stats == english.stats and len(dutch_sheet.aspects) == 3
    assert dutch_sheet.aspects != english.aspects  # said in Dutch; the lab keeps the English
