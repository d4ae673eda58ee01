"""What the tool notebooks show beyond what nbval runs (../conftest.py checks their live outputs)."""

from __future__ import annotations

import json
import re

from playbook.serve import NOTEBOOKS_DIR
from rules import CARDS, GAMES


def test_the_index_lists_the_four_games_each_linking_its_playbook() -> None:
    """The front page's cards are drawn by the server in the page's language (playbook.prose),
    after the cells that name them: every game's, then the tools'."""
    from playbook.prose import cards_html

    cells = json.loads((NOTEBOOKS_DIR / "index.ipynb").read_text(encoding="utf-8"))["cells"]
    named = [c["metadata"].get("playbook_cards") for c in cells if c["cell_type"] == "markdown" and c["metadata"].get("playbook_cards")]
    assert named == ["games", "tools"]
    text = cards_html("games", "en")
    cards = re.findall(r'<a class="pb-index-card[^"]*" href="([^"]+)".*?</a>', text, flags=re.S)
    for slug, notebook in ((c.slug, c.notebook) for c in CARDS):
        assert notebook in cards, f"the index has no card for {slug}"
        (card,) = re.findall(rf'<a class="pb-index-card[^"]*" href="{re.escape(notebook)}".*?</a>', text, flags=re.S)
        assert GAMES[slug].title in card, (slug, card[:200])
        assert (NOTEBOOKS_DIR / notebook).is_file()
