"""The board by phase in Chromium, at 1920x1080 and 1366x768: each game's board in each phase
read from the back of a room (key numbers 48 px or more, labels 28 px or more, chart labels 18 px
or more, nothing cut off), the results naming the winner, and the debrief of a finished Leerdam
and New Rule table stepped through every moment against the stored history.

One board page per game follows its table live through the phases to the end (the test moves
the table through the store, as other pages would), then steps through its debrief.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from drawing.timeline import Timeline, scenes_for
from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Play, Store
from rules import new_game
from rules.core import AnyGame
from rules.games import card
from tests.support.browser import LOAD_TIMEOUT_MS, VoilaFactory, open_dashboard, settled
from tests.support.phases import PHASES
from tests.support.tables import stored

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

PROJECTOR, LAPTOP = (1920, 1080), (1366, 768)

MEASURE = """(root) => {
  const cells = document.querySelector('#rendered_cells') || document.documentElement;
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const board = document.querySelector(root + ' .pb-board-scene');
  const size = (el) => parseFloat(getComputedStyle(el).fontSize);
  const out = {scroll: Math.max(document.documentElement.scrollWidth, window.innerWidth + cells.scrollWidth - cells.clientWidth),
               keys: [], small: [], chart: [], cut: [], keyBottom: 0, phase: board.querySelector('[data-phase]').dataset.phase};
  for (const el of board.querySelectorAll('.pb-key, .pb-huge, .pb-winner')) {
    if (!shown(el)) continue;
    out.keys.push(size(el));
    const r = el.getBoundingClientRect();
    if (r.right > window.innerWidth + 1 || el.scrollWidth > el.clientWidth + 1) out.cut.push(el.textContent.slice(0, 40));
  }
  for (const el of board.querySelectorAll('.pb-fact')) out.keyBottom = Math.max(out.keyBottom, el.getBoundingClientRect().bottom);
  const first = board.querySelector('.pb-huge, .pb-winner');
  if (first) out.keyBottom = Math.max(out.keyBottom, first.getBoundingClientRect().bottom);
  const walker = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || !shown(el) || el.closest('svg')) continue;
    if (size(el) < 28) out.small.push([el.tagName, el.className, walker.currentNode.textContent.slice(0, 30), size(el)]);
  }
  for (const t of board.querySelectorAll('.pb-chart svg text')) out.chart.push(size(t) * t.getScreenCTM().a);
  const qr = document.querySelector(root + ' .pb-join-code svg');
  out.qr = qr ? qr.getBoundingClientRect().width : 0;
  return out;
}"""


def shots() -> Path:
    folder = Path(os.environ.get("PLAYBOOK_BOARD_SHOTS", "/tmp/playbook-board-shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def page_at(chromium: Browser, size: tuple[int, int]) -> Page:
    context = chromium.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context.new_page()


def check_sizes(page: Page, root: str, where: str) -> dict[str, Any]:
    """Measure the board at both sizes; the sizes hold at 1920x1080, nothing is cut at either."""
    found: dict[str, Any] = {}
    for size in (PROJECTOR, LAPTOP):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        settled(page, size[0])
        figures = page.evaluate(MEASURE, root)
        assert figures["scroll"] <= size[0], f"{where} at {size}: the page is wider than the screen"
        assert figures["cut"] == [], f"{where} at {size}: cut off: {figures['cut']}"
        assert figures["keyBottom"] <= size[1], f"{where} at {size}: the key numbers end {figures['keyBottom']} px down"
        if size == PROJECTOR:
            assert figures["keys"] and min(figures["keys"]) >= 48, f"{where}: key numbers {figures['keys']}"
            assert figures["small"] == [], f"{where}: labels under 28 px: {figures['small'][:5]}"
            assert not figures["chart"] or min(figures["chart"]) >= 18, f"{where}: chart labels {min(figures['chart'])}"
        page.screenshot(path=str(shots() / f"{where}-{size[0]}.png"))
        found[f"{size[0]}"] = figures
    page.set_viewport_size({"width": PROJECTOR[0], "height": PROJECTOR[1]})
    return found


def actions_between(start: AnyGame, end: AnyGame) -> list[Any]:
    """The moves (not the rolls: the store's game rolls them from the same seed) from one to the other."""
    return [a for a in end.actions[len(start.actions) :] if not a.chance]


@pytest.mark.parametrize("slug", ["leerdam", "new-rule", "danger-world", "dangerous-ideas"])
def test_each_games_board_reads_from_the_back_in_every_phase(voila: VoilaFactory, chromium: Browser, slug: str) -> None:
    server = voila(NOTEBOOKS_DIR / card(slug).notebook)
    store = Store(server.db_path)
    root = f".playbook-{slug}.playbook-board"
    games = {phase: make() for phase, make in PHASES[slug].items()}
    live = ("waiting", "decision", "reveal")
    first = games.get("waiting") or new_game(slug, games["decision"].setup, games["decision"].seed)
    hidden = slug in ("leerdam", "new-rule")
    if card(slug).devices:  # a board of its own, by its key
        table_id, links = stored(store, first)
        url = server.url + links["board"]
    else:
        table_id = store.create(first, "open table", {})
        url = f"{server.url}?table={table_id}&board=1"
    board = page_at(chromium, PROJECTOR)
    try:
        open_dashboard(board, url, f"{root} .pb-board-scene [data-phase]")
        now = first
        for phase in live:
            target = games.get(phase, first)  # a hidden game waits for players at its start
            for action in actions_between(now, target):
                table = store.load(table_id)
                store.submit(table_id, Play(action), table.version)
            now = target
            # The page's kernel follows the table once the notebook's later cells have run (Danger
            # World's odds take a while on a busy machine).
            expect(board.locator(f"{root} .pb-board-scene [data-phase='{phase}']")).to_be_visible(timeout=LOAD_TIMEOUT_MS * 2)
            figures = check_sizes(board, root, f"{slug}-{phase}")
            if phase == "waiting" and hidden:
                assert figures["1920"]["qr"] >= 300, "the join code is large while players come"

        # The end, on the same board: the winner named, no join code, the debrief below.
        finished = games["results"]
        for action in actions_between(now, finished):
            store.submit(table_id, Play(action), store.version(table_id))
        expect(board.locator(f"{root} .pb-board-scene .pb-results-winner")).to_be_visible(timeout=LOAD_TIMEOUT_MS * 2)
        figures = check_sizes(board, root, f"{slug}-results")
        assert figures["1920"]["qr"] == 0, "no join code once the game is over"
        scene = scenes_for(slug).scene(finished.state)
        expect(board.locator(f"{root} .pb-board-scene .pb-results-winner")).to_have_text(scene.winner)
        names = finished.setup.names
        for rank, seat, _ in finished.rules.standings(finished.state):
            if rank == 1 and slug != "danger-world":
                assert names[seat] in scene.winner
        expect(board.locator(f"{root} .pb-replay")).to_be_visible()
        if slug in ("leerdam", "new-rule"):
            step_through_the_debrief(board, root, store, table_id, slug)
    finally:
        board.context.close()


def step_through_the_debrief(page: Page, root: str, store: Store, table_id: str, slug: str) -> None:
    """Every moment, from the first to the last, against the state the stored history gives."""
    from rules.core import action_from_json

    table = store.load(table_id)
    rules = table.game.rules
    history = [row for row in store.history(table_id) if row["undone"] is None]
    timeline = Timeline.of(table.game)
    scenes = scenes_for(slug)
    step = page.locator(f"{root} .pb-replay-step [data-step]")
    expect(step).to_have_attribute("data-step", str(len(timeline.moments) - 1))  # it opens on the end
    page.locator(f"{root} .pb-replay-round select").select_option(label="the start")
    expect(step).to_have_attribute("data-step", "0")
    for k, moment in enumerate(timeline.moments):
        if k:
            page.locator(f"{root} .pb-replay-next button, {root} button.pb-replay-next").first.click()
        expect(step).to_have_attribute("data-step", str(k))
        state = rules.initial(table.game.setup)
        for row in history[: moment.index]:
            state = rules.play(state, action_from_json(rules.actions, row["action"]))
        scene = scenes.scene(state)
        drawn = page.locator(f"{root} .pb-replay-scene")
        expect(drawn.locator(".pb-scene-title")).to_contain_text(scene.heading)
        expect(drawn.locator("[data-phase]").first).to_have_attribute("data-phase", scene.phase)
        expect(drawn.locator(".pb-fact .pb-key")).to_have_text([f.value for f in scene.facts])
        if k == 3:
            page.screenshot(path=str(shots() / f"{slug}-debrief-step.png"), full_page=False)
    expect(page.locator(f"{root} button.pb-replay-next")).to_be_disabled()
    expect(page.locator(f"{root} .pb-replay-secrets")).to_have_text("")  # nobody chose to show them
