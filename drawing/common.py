"""The small HTML parts every game's drawing and every page share: escaping, chips, cards,
a chance in percent, the screen's colours and their contrast.

Pure strings from values: no widgets, no kernel. Every string that came from a user (names,
titles, colour names) goes through `esc` before it reaches HTML.

Right-to-left names sit among left-to-right words and numbers ("Misfortune strikes דנה (-2)"):
left alone, the browser's bidi algorithm carries the sign and brackets over to the name's side
and the room reads "(2-)". Text the board writes goes through `text` (each run of right-to-left
script isolated, each signed number a real minus sign in a left-to-right isolate); a name drawn
on its own through `name`, a number through `number`.
"""

from __future__ import annotations

import base64
import html
import re
import unicodedata
from fractions import Fraction

from i18n import _

__all__ = [
    "SERIES_COLOURS",
    "card",
    "chip",
    "contrast_ratio",
    "download_link",
    "esc",
    "name",
    "number",
    "percent",
    "relative_luminance",
    "text",
]

#: Ten series colours that colour-blind eyes tell apart: Okabe and Ito's (their yellow swapped for
#: Tol's wine, which shows as a line on white), then Tol's indigo and olive.
SERIES_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#882255", "#332288", "#999933")


def esc(value: object) -> str:
    """Text made safe for an HTML widget."""
    return html.escape(str(value), quote=True)


#: a number with its sign: "-2", "−2", "+3", "-1.5", "-20%" (not the dash of a range, "2-3").
SIGNED = re.compile(r"(?<![\w.)\]])[-\u2212+](\d+(?:[.,]\d+)*%?)")
#: bidi classes of right-to-left letters, and of what may sit inside a right-to-left name.
RTL, INSIDE = {"R", "AL"}, {"R", "AL", "NSM", "WS", "ON", "CS", "ES", "ET", "BN"}


def name(value: object) -> str:
    """A user-given name as HTML, isolated from its neighbours (`<bdi>`): a right-to-left name
    never takes the number or bracket beside it."""
    return f"<bdi>{esc(value)}</bdi>"


def number(value: object) -> str:
    """A number as HTML: a signed one with a real minus sign (U+2212), in a left-to-right
    isolate, so it reads "−2" beside any name; an unsigned one as it is."""
    said = str(value)
    if said[:1] not in ("-", "\u2212", "+") or SIGNED.fullmatch(said) is None:
        return esc(said)
    sign = "+" if said[0] == "+" else "\u2212"
    return f'<span class="pb-num" dir="ltr">{sign}{esc(said[1:])}</span>'


def _isolate_rtl(plain: str) -> str:
    """`plain` escaped, each run of right-to-left script (and the spaces and marks inside it,
    not the digits or brackets after it) in a `<bdi>`."""
    out, i, n = [], 0, len(plain)
    while i < n:
        if unicodedata.bidirectional(plain[i]) not in RTL:
            out.append(esc(plain[i]))
            i += 1
            continue
        end = j = i + 1
        # A comma and a space end the run: the next name of a list is isolated on its own
        # ("Ana, יעל, مريم and Zoë" kept in the list's order).
        while j < n and unicodedata.bidirectional(plain[j]) in INSIDE and plain[j : j + 2] != ", ":
            if unicodedata.bidirectional(plain[j]) in RTL | {"NSM"}:
                end = j + 1
            j += 1
        out.append(name(plain[i:end]))
        i = end
    return "".join(out)


def text(value: object) -> str:
    """Plain text (a log line, a label, a name among words) as HTML that reads right beside
    right-to-left names: escaped, right-to-left runs isolated, signed numbers as `number`."""
    plain, out, at = str(value), [], 0
    for found in SIGNED.finditer(plain):
        out.append(_isolate_rtl(plain[at : found.start()]) + number(found.group(0)))
        at = found.end()
    out.append(_isolate_rtl(plain[at:]))
    return "".join(out)


def chip(label: str, background: str = "#e0e3ea", foreground: str = "#111") -> str:
    """A rounded label; `label` is plain text (drawn by `text`), the colours are the caller's CSS values."""
    return f'<span class="pb-chip" style="background:{background};color:{foreground}">{text(label)}</span>'


def card(title: str, body: str, extra_class: str = "", attrs: str = "") -> str:
    """A boxed panel: `title` is plain text (drawn by `text`), `body` must already be safe HTML."""
    heading = f"<h3>{text(title)}</h3>" if title else ""
    return f'<div class="pb-card {extra_class}" {attrs}>{heading}{body}</div>'


def download_link(data: str | bytes, filename: str, label: str | None = None, mime: str = "application/json") -> str:
    """An `<a download>` holding `data` (text is saved as UTF-8) as a data URI: Voila serves no local files."""
    label = label or _("Download save file")
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
