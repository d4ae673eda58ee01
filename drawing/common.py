"""The small HTML parts every game's drawing and every page share: escaping, chips, cards,
a chance in percent, the screen's colours and their contrast.

Pure strings from values: no widgets, no kernel. Every string that came from a user (names,
titles, colour names) goes through `esc` before it reaches HTML.
"""

from __future__ import annotations

import base64
import html
from fractions import Fraction

__all__ = [
    "SERIES_COLOURS",
    "card",
    "chip",
    "contrast_ratio",
    "download_link",
    "esc",
    "percent",
    "relative_luminance",
]

#: Ten series colours that colour-blind eyes tell apart: Okabe and Ito's (their yellow swapped for
#: Tol's wine, which shows as a line on white), then Tol's indigo and olive.
SERIES_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#882255", "#332288", "#999933")


def esc(value: object) -> str:
    """Text made safe for an HTML widget."""
    return html.escape(str(value), quote=True)


def chip(text: str, background: str = "#e0e3ea", foreground: str = "#111") -> str:
    """A rounded label; `text` is escaped, the colours are the caller's CSS values."""
    return f'<span class="pb-chip" style="background:{background};color:{foreground}">{esc(text)}</span>'


def card(title: str, body: str, extra_class: str = "", attrs: str = "") -> str:
    """A boxed panel: `title` is escaped, `body` must already be safe HTML."""
    heading = f"<h3>{esc(title)}</h3>" if title else ""
    return f'<div class="pb-card {extra_class}" {attrs}>{heading}{body}</div>'


def download_link(data: str | bytes, filename: str, label: str = "Download save file", mime: str = "application/json") -> str:
    """An `<a download>` holding `data` (text is saved as UTF-8) as a data URI: Voila serves no local files."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    charset = ";charset=utf-8" if isinstance(data, str) else ""
    encoded = base64.b64encode(raw).decode("ascii")
    return (
        f'<a class="pb-download-link" download="{esc(filename)}" '
        f'href="data:{esc(mime)}{charset};base64,{encoded}" '
        f'style="font-weight:600">⬇ {esc(label)}</a>'
    )


def percent(chance: Fraction | float, decimals: int = 0) -> str:
    """A chance as the room reads it: '42%' (or '63.2%' with `decimals=1`). A chance that is
    possible but not certain never reads as 0% or 100%: '<1%' and '>99%' at the ends."""
    value = float(chance) * 100
    least = 10.0**-decimals
    if 0 < value < least:
        return f"<{least:.{decimals}f}%"
    if 100 - least < value < 100:
        return f">{100 - least:.{decimals}f}%"
    return f"{value:.{decimals}f}%"


# -- colour contrast -----------------------------------------------------------------------------


def _channels(colour: str) -> tuple[float, float, float]:
    """'#rgb' or '#rrggbb' as three channels from 0 to 1."""
    text = colour.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    if len(text) != 6 or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise ValueError(f"not a #rgb or #rrggbb colour: {colour!r}")
    red, green, blue = (int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return red, green, blue


def relative_luminance(colour: str) -> float:
    """WCAG 2's relative luminance of an sRGB colour: 0 for black, 1 for white."""

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in _channels(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(fg: str, bg: str) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 (the same) to 21 (black on white).

    Text needs 4.5 on its background for level AA (3 for large or bold-large text).
    """
    lighter, darker = sorted((relative_luminance(fg), relative_luminance(bg)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)
