"""Dangerous Ideas' sheet trees as rendered by Chromium: label sizes in CSS px, nothing cut or overflowing."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from lab.dangerous_ideas import legal_actions
from playbook.serve import NOTEBOOKS_DIR
from playbook.store import Store
from rules import new_game
from rules.dangerous_ideas import Place, Setup, Write
from tests.support.browser import LOAD_TIMEOUT_MS, VoilaFactory, open_dashboard
from tests.support.tables import stored

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

ROOT = ".playbook-dangerous-ideas"
NAMES = ("Ana & <i>Co</i>", "Bo", "Cy 🐻", "דנה", "李")
TEXTS = (
    "Bears are friends, not food, and they deserve our respect",
    "Porridge is healthy",
    "Everything has its place in the great order of the woods",
    "熊は友達です。森はみんなのものです。",
    "الغابة ملك للجميع",
)

MEASURE = """() => {
  const cells = document.querySelector('#rendered_cells');  // Voila's page scrolls here, not the window
  const out = {scroll: Math.max(document.documentElement.scrollWidth, window.innerWidth + cells.scrollWidth - cells.clientWidth), sheets: []};
  for (const svg of document.querySelectorAll('.pb-sheet svg')) {
    const box = svg.getBoundingClientRect();
    const card = svg.closest('.pb-sheet').getBoundingClientRect();
    const parent = svg.closest('.pb-sheets').getBoundingClientRect();
    const sizes = [];
    let outside = 0;
    for (const t of svg.querySelectorAll('text')) {
      sizes.push(parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
      const r = t.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1) outside++;
    }
    out.sheets.push({min: Math.min(...sizes), outside, right: card.right, parentRight: parent.right,
                     text: [...svg.querySelectorAll('text')].map(t => t.textContent).join(' ')});
  }
  return out;
}"""


def stored_table(store: Store) -> str:
    """A table after the setting round: two memes on each of five sheets, long ones among them;
    its facilitator's link (the page that shows every sheet as drawn)."""
    game = new_game("dangerous-ideas", Setup(names=NAMES), 3)
    for seat in range(len(NAMES)):
        game.apply(Place(seat=seat, place=("think",) * 3 + ("create",) * 2 + ("connect", "defend")))
    i = 0
    while game.state.phase == "setting":
        seat = game.state.waiting_for()[0]
        branch = next(a.branch for a in legal_actions(game.state, seat) if isinstance(a, Write))
        game.apply(Write(seat=seat, branch=branch, text=f"{TEXTS[i % len(TEXTS)]} {i}", holder="Goldilocks the Brave"))
        i += 1
    _, links = stored(store, game)
    return links["facilitator"]


@pytest.mark.parametrize("width, height, least", [(1920, 1080, 14.0), (1366, 768, 14.0), (390, 844, 0.0)])
def test_sheet_labels_are_big_on_a_projector_and_fit_a_phone(
    voila: VoilaFactory, chromium: Browser, width: int, height: int, least: float
) -> None:
    server = voila(NOTEBOOKS_DIR / "dangerous_ideas.ipynb")
    facilitator = stored_table(Store(server.db_path))
    context = chromium.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    try:
        page = context.new_page()
        open_dashboard(page, server.url + facilitator, f"{ROOT} .pb-sheet svg")
        page.wait_for_function("() => document.querySelectorAll('.pb-sheet svg').length === 5")
        found = page.evaluate(MEASURE)
    finally:
        context.close()
    assert found["scroll"] <= width, "the page is wider than the screen"
    assert len(found["sheets"]) == 5
    for sheet in found["sheets"]:
        assert sheet["min"] >= least, (width, sheet["min"])
        assert sheet["outside"] == 0, "a label pokes out of its drawing"
        assert sheet["right"] <= sheet["parentRight"] + 0.5, "a sheet card overflows its row"
        assert "…" not in sheet["text"]
    drawn = " ".join(s["text"] for s in found["sheets"])
    assert "deserveourrespect" in drawn.replace(" ", "")
