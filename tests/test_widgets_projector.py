"""Dangerous Ideas' sheet trees on a projector: big labels, memes written out in full, never cut."""

from __future__ import annotations

import dataclasses
import itertools
import re
import xml.etree.ElementTree as ET

import pytest

from drawing.dangerous_ideas import LABEL_W, MEME_FONT, MIN_FONT, SHEET_CARD_MIN, SHEET_W, sheet_svg, text_width, wrap
from rules import new_game
from rules.dangerous_ideas import BRANCHES, Meme, Setup, State
from widgets.dangerous_ideas import DangerousIdeasDashboard
from widgets.styles import sheet_text

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ("Ana & <i>Co</i>", "בועז 🐻", "李小龙")
#: one meme per branch: long ones, markup, emoji, right-to-left and CJK script, one unbroken word.
TEXTS = (
    "Bears are friends, not food, and they deserve our respect",
    "Porridge is healthy",
    "<b>Honey</b> & jam for everyone who asks nicely",
    "🐻🍯 honey for all 🐝🐝🐝",
    "الغابة ملك للجميع وليست للبشر وحدهم",
    "熊は友達です。森はみんなのものです。",
    "Antidisestablishmentarianismforever",
    "Everything has its place in the great order of the woods",
    "שלום לכל הדובים ביער הגדול",
    "Punctual exercise matters",
    "The woods need telegraph wires and a post office too",
    "Humans will own the forest",
)
HOLDERS = ("Goldilocks the Brave and Curious", "Mama Bear", "<Papa> & Co", "小熊")


def full_state() -> State:
    """Three sheets; the first with every branch filled, long memes included."""
    state = new_game("dangerous-ideas", Setup(names=NAMES), 1).state
    branches = tuple(
        Meme(id=i + 1, text=TEXTS[i], holder=HOLDERS[i % len(HOLDERS)], stones=i % 4, bonus=i % 3) for i in range(len(BRANCHES))
    )
    sheet = dataclasses.replace(state.sheets[0], branches=branches, nodes=(3, 1, 2, 0, 1))
    return dataclasses.replace(state, sheets=(sheet, *state.sheets[1:]))


def parsed(state: State, seat: int = 0) -> ET.Element:
    return ET.fromstring(sheet_svg(state, seat))


def label_lines(group: ET.Element, size: int) -> list[str]:
    return [t.text or "" for t in group.iter(f"{SVG}text") if float(t.get("font-size", 0)) == size and t.get("font-weight") == "600"]


def test_the_tree_scales_to_its_card_and_every_label_is_at_least_14_units():
    root = parsed(full_state())
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    assert width == SHEET_W and root.get("width") == "100%"
    # A card is at least SHEET_W wide plus its padding where the page has room, so a user unit
    # is at least a CSS pixel there; on a phone it shrinks to the phone instead.
    assert SHEET_CARD_MIN >= SHEET_W + 2 * 8 + 2 * 1 + 2 * 2
    texts = list(root.iter(f"{SVG}text"))
    assert len(texts) > 12 * 3
    sizes = [float(t.get("font-size")) for t in texts]
    assert min(sizes) >= MIN_FONT == 14
    for t in texts:
        assert 0 < float(t.get("y")) <= height, t.text


def test_every_meme_is_written_out_in_full_over_several_lines_and_never_cut():
    state = full_state()
    root = parsed(state)
    svg_text = sheet_svg(state, 0)
    assert "…" not in svg_text and "..." not in svg_text
    groups = {g.get("data-branch"): g for g in root.iter(f"{SVG}g") if g.get("data-branch")}
    assert set(groups) == set(BRANCHES)
    for branch, meme in state.sheets[0].memes():
        group = groups[branch]
        lines = label_lines(group, MEME_FONT)
        # every character of the meme is drawn, in order (a too-long word is split, not cut)
        assert "".join(lines).replace(" ", "") == meme.text.replace(" ", ""), branch
        for line in lines:
            assert text_width(line, MEME_FONT) <= LABEL_W, line
        if text_width(meme.text, MEME_FONT) > LABEL_W:
            assert len(lines) >= 2, branch
        # hovering (or a screen reader) gets the whole meme and its holder
        title = group.find(f"{SVG}title").text
        assert meme.text in title and meme.holder in title
        holder = [t.text for t in group.iter(f"{SVG}text") if t.get("font-style") == "italic"]
        assert " ".join(holder).replace(" ", "") == meme.holder.replace(" ", "")
    longest = max(len(label_lines(g, MEME_FONT)) for g in groups.values())
    assert longest >= 3


def test_labels_on_one_side_never_overlap():
    root = parsed(full_state())
    spans: dict[str, list[tuple[float, float]]] = {"end": [], "start": []}
    for g in root.iter(f"{SVG}g"):
        if not g.get("data-branch"):
            continue
        texts = [t for t in g.iter(f"{SVG}text") if t.get("text-anchor") in spans]
        ys = [float(t.get("y")) for t in texts]
        sizes = [float(t.get("font-size")) for t in texts]
        spans[texts[0].get("text-anchor")].append((ys[0] - sizes[0], ys[-1]))
    for side, blocks in spans.items():
        assert len(blocks) == 6, side
        blocks.sort()
        for (_, bottom), (top, _) in itertools.pairwise(blocks):
            assert top >= bottom, (side, blocks)


def test_names_and_memes_are_escaped_and_the_markup_stays_well_formed():
    state = full_state()
    svg_text = sheet_svg(state, 0)
    assert "<b>Honey" not in svg_text and "&lt;b&gt;Honey&lt;/b&gt; &amp; jam" in svg_text
    assert "&lt;Papa&gt; &amp; Co" in svg_text
    root = ET.fromstring(svg_text)  # well-formed XML despite the names
    assert root.get("aria-label") == "Ana & <i>Co</i>'s sheet"
    drawn = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for text in ("الغابة", "熊は友達です", "🐻🍯", "שלום"):
        assert text in drawn


@pytest.mark.parametrize(
    "text, width, lines",
    [
        ("Bears are friends, not food", 80, ["Bears are", "friends, not", "food"]),
        ("short", 200, ["short"]),
        ("", 100, []),
    ],
)
def test_wrap_keeps_every_word(text, width, lines):
    got = wrap(text, width, 12)
    assert " ".join(got) == " ".join(text.split())
    assert all(text_width(line, 12) <= width for line in got)
    assert got == lines or (text and len(got) == len(lines))


def test_a_long_word_is_split_not_cut():
    got = wrap("Supercalifragilisticexpialidocious", 60, 15)
    assert len(got) >= 3 and "".join(got) == "Supercalifragilisticexpialidocious"
    assert all(text_width(line, 15) <= 60 for line in got)


def test_the_dashboard_sheet_cards_hold_the_tree_at_full_size(tmp_path):
    from playbook.store import Store

    dash = DangerousIdeasDashboard(Store(tmp_path / "t.sqlite3"))
    dash.start(new_game("dangerous-ideas", Setup(names=NAMES), 1), {})
    assert len(dash.sheet_html) == 3
    for html in dash.sheet_html:
        assert re.fullmatch(rf"min\(100% - \d+px, {SHEET_CARD_MIN}px\)", html.layout.min_width)
        assert html.layout.flex == f"1 1 {SHEET_CARD_MIN}px"
        # the name is shown as typed, wrapped rather than cut
        assert "di-sheet-head" in html.value
    assert "Ana &amp; &lt;i&gt;Co&lt;/i&gt;" in dash.sheet_html[0].value
    assert "text-overflow: ellipsis" not in sheet_text("dangerous-ideas.css").split(".di-sheet-head")[1].split("}")[0]
