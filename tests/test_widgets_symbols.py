"""Nothing told by colour alone: candy symbols, dice readable in shape and words, text contrast (WCAG AA)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from drawing import danger_world as dw
from drawing import dangerous_ideas as di
from drawing import leerdam as ld
from drawing.common import contrast_ratio, relative_luminance
from drawing.new_rule import CHIP_COLOURS, OTHER_COLOUR, candy_chip, candy_chips, candy_label
from rules.new_rule import COLOURS, SYMBOLS, symbol
from widgets.styles import sheet_text

ROOT = Path(__file__).resolve().parent.parent
#: where chips are drawn: the pages, and the drawing they show.
SCREEN_SOURCES = (ROOT / "widgets", ROOT / "drawing")
AA = 4.5
HEX = r"#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}"


# -- contrast_ratio ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fg, bg, ratio",
    [("#000", "#fff", 21.0), ("#ffffff", "#ffffff", 1.0), ("#777777", "#ffffff", 4.48), ("#1f5fbf", "#fff", 6.09)],
)
def test_contrast_ratio_follows_wcag(fg, bg, ratio):
    assert contrast_ratio(fg, bg) == pytest.approx(ratio, abs=0.01)
    assert contrast_ratio(bg, fg) == pytest.approx(ratio, abs=0.01)  # order does not matter


def test_contrast_ratio_refuses_what_is_not_a_hex_colour():
    assert relative_luminance("#FFF") == pytest.approx(1.0)
    for bad in ("red", "#12", "#gggggg", ""):
        with pytest.raises(ValueError):
            contrast_ratio(bad, "#fff")


# -- every chip and gauge colour pair -------------------------------------------------------------


def chip_pairs_in_source() -> list[tuple[str, str, str]]:
    """(where, text colour, background) for every chip with literal colours in widgets/ and drawing/: a
    `chip(...)` call (its text colour given, or chip's default #111), a chip background chosen
    the line before (`background = "#..." if ... else "#..."`), an inline `pb-chip` style."""
    found = []
    for path in sorted(p for folder in SCREEN_SOURCES for p in folder.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.parent.name}/{path.name}:{number}"
            pair = re.search(rf'chip\(.*["\']({HEX})["\'],\s*["\']({HEX})["\']\)', line)
            if pair:
                found.append((where, pair.group(2), pair.group(1)))
            elif line.startswith("def chip("):
                defaults = re.findall(HEX, line)  # background, then text colour
                found.append((where, defaults[1], defaults[0]))
            elif "chip(" in line or re.match(r"\s*background = ", line):
                found += [(where, "#111", bg) for bg in re.findall(HEX, line)]
            for m in re.finditer(rf'class="pb-chip"[^>]*?background:\s*({HEX})(?:;\s*color:\s*({HEX}))?', line):
                found.append((where, m.group(2) or "#1c1f26", m.group(1)))
    return found


def test_every_literal_chip_colour_pair_passes_aa():
    pairs = chip_pairs_in_source()
    assert len(pairs) >= 12  # the scan finds the chips (Danger World badges, Leerdam, Dangerous Ideas)
    for where, fg, bg in pairs:
        assert contrast_ratio(fg, bg) >= AA, (where, fg, bg, round(contrast_ratio(fg, bg), 2))


def test_candy_chips_and_gauge_segments_pass_aa():
    pairs = {**{f"candy {k}": v for k, v in CHIP_COLOURS.items()}, "candy other": OTHER_COLOUR}
    pairs |= {f"dyke {k}": v for k, v in ld.DYKE_COLOURS.items()}
    pairs["dyke above the condition"] = ("#e4e7ee", "#59606e")
    for name, (bg, fg) in pairs.items():
        assert contrast_ratio(fg, bg) >= AA, (name, fg, bg, round(contrast_ratio(fg, bg), 2))
    gauge = ld.dyke_gauge(4)
    for bg, fg in re.findall(rf"background:({HEX});color:({HEX})", gauge):
        assert contrast_ratio(fg, bg) >= AA, (bg, fg)


def test_dice_pips_stand_out_from_their_faces():
    """Non-text contrast (WCAG 1.4.11): 3:1 for the pips on every kind of die."""
    for kind, (pip, face, _) in dw.DIE_LOOK.items():
        assert contrast_ratio(pip, face) >= 3, kind
    assert contrast_ratio("#fff", di.REROLL_BADGE) >= AA


# -- New Rule: a symbol and the name beside every colour ---------------------------------------------


def test_every_candy_colour_has_its_own_symbol_and_its_name():
    colours = (*COLOURS, "purple", "pink", "teal", "silver")
    symbols = [symbol(colours, c) for c in colours]
    assert len(set(symbols)) == len(colours)
    for colour, mark in zip(colours, symbols):
        label = candy_label(colours, colour, 3)
        assert label == f"{mark} {colour} 3"
    assert set(SYMBOLS) >= set(CHIP_COLOURS)


def test_candy_chips_say_the_colour_in_title_and_aria_label():
    html = candy_chips(COLOURS, (2, 0, 1, 0, 0, 4))
    chips = re.findall(r"<span [^>]*>[^<]*</span>", html)
    assert len(chips) == len(COLOURS)
    for colour, chip_html in zip(COLOURS, chips):
        assert f'aria-label="{colour} candy, ' in chip_html and f'title="{colour} candy, ' in chip_html
        assert SYMBOLS[colour] in chip_html and f"{colour} " in chip_html
    bowl = candy_chips(COLOURS, candies=("red", "red", "blue"), counted=False)
    assert 'aria-label="red candy"' in bowl and 'aria-label="blue candy"' in bowl and "yellow" not in bowl
    # a colour name someone typed is escaped everywhere it goes
    odd = candy_chip(("red", 'x"<b>'), 'x"<b>', 1)
    assert "<b>" not in odd and "&lt;b&gt;" in odd and 'aria-label="x&quot;&lt;b&gt; candy, 1"' in odd


# -- dice: pips, the kind by shape, the meaning in words -------------------------------------------------


def test_danger_world_dice_differ_in_shape_not_only_colour():
    pool, danger, penalty = (dw._die_svg(4, kind) for kind in ("pool", "danger", "penalty"))
    assert pool.count("<circle") == 4 and "stroke-dasharray" not in pool
    assert danger.count("<circle") == 0 and danger.count("<rect") == 1 + 1 + 4  # double border, square pips
    assert "stroke-dasharray" in penalty and penalty.count("<circle") == 4
    assert len({pool, danger, penalty}) == 3


def test_danger_world_die_spans_say_what_they_are():
    span = dw.die_span(1, "danger", ["dw-in-set"])
    assert 'aria-label="danger die (double border) showing 1: a botch, in the set"' in span
    assert 'title="danger die (double border) showing 1: a botch, in the set"' in span
    assert 'aria-label="penalty die (dashed border) showing 3"' in dw.die_span(3, "penalty")
    assert "outline: 3px dashed" in sheet_text("danger-world.css").split(".dw-die.dw-in-set")[1].split("}")[0]


def test_danger_world_css_holds_the_dice_faces_as_drawn() -> None:
    """The faces' pictures are drawn in Python (`dice_css`) and kept at the end of the page's
    sheet: after a change to a die's look, its output goes there again."""
    assert sheet_text("danger-world.css").endswith("\n" + dw.dice_css() + "\n"), (
        "paste the output of `python -c 'from drawing.danger_world import dice_css; print(dice_css())'` at the end of danger-world.css"
    )


def test_danger_world_track_shows_its_numbers_as_text():
    from rules.danger_world import TRACK

    class Character:
        damage = tuple(min(2, boxes) if i == 0 else 0 for i, (_, boxes) in enumerate(TRACK))
        zone = 1
        dead = False

    html = dw.track_html(Character())
    first_label, first_boxes = TRACK[0]
    assert f"<b>{min(2, first_boxes)}/{first_boxes}</b>" in html
    assert "hits land here" in html and f"▸ {first_label}" in html
    assert html.count("hits land here") == 1


def test_dangerous_ideas_dice_have_pips_and_words_and_a_reroll_is_said():
    plain = ET.fromstring(di.die_svg(5))
    assert plain.get("aria-label") == "die showing 5"
    assert len([e for e in plain.iter() if e.tag.endswith("circle")]) == 5
    rerolled = di.die_svg(2, mark=True)
    assert "re-rolled" in ET.fromstring(rerolled).get("aria-label") and "↻" in rerolled and "stroke-dasharray" in rerolled
    both = di.dice_html((2, 6), (4, 6))
    assert "2 (re-rolled) + 6" in both and both.count("re-rolled with a red seed") == 2  # title and aria-label
