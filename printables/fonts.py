"""One font family with wide Unicode coverage, registered once, plus an emoji fallback.

ReportLab's built-in fonts know only Latin-1, so every sheet uses DejaVu Sans (regular,
bold, oblique, bold-oblique as one family). DejaVu has no emoji: runs of characters it
lacks are set in Symbola when that font is installed. `markup` prepares user text for a
Paragraph; `draw_string` puts user text straight on a canvas. A character no font covers
prints as the font's empty box rather than raising.
"""

from __future__ import annotations

import functools
import importlib.util
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

__all__ = [
    "BODY",
    "BOLD",
    "BOLD_ITALIC",
    "FALLBACK",
    "FAMILY",
    "ITALIC",
    "FontSet",
    "draw_string",
    "fit",
    "markup",
    "register",
    "runs",
    "string_width",
]

#: The ReportLab names of the family and its four faces.
FAMILY = "DejaVuSans"
BODY = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
ITALIC = "DejaVuSans-Oblique"
BOLD_ITALIC = "DejaVuSans-BoldOblique"
#: The emoji and symbol fallback (monochrome); registered only when found.
FALLBACK = "Symbola"

FACE_FILES: dict[str, str] = {
    BODY: "DejaVuSans.ttf",
    BOLD: "DejaVuSans-Bold.ttf",
    ITALIC: "DejaVuSans-Oblique.ttf",
    BOLD_ITALIC: "DejaVuSans-BoldOblique.ttf",
}
SYSTEM_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
SYMBOLA_FILES: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"),
    Path("/usr/share/fonts/truetype/ancient-scripts/Symbola.ttf"),
    Path("/usr/share/fonts/truetype/symbola/Symbola.ttf"),
    Path("/usr/share/fonts/TTF/Symbola.ttf"),
)
# Marks that belong to the character before them (accents, joiners, variation selectors,
# skin tones): keep them in that character's run so a sequence is not split across fonts.
_ATTACHING = frozenset({"Mn", "Me", "Cf"})
_SKIN_TONES = range(0x1F3FB, 0x1F400)


@dataclass(frozen=True)
class FontSet:
    """What `register` found: the file of each DejaVu face and Symbola's file, if any."""

    faces: dict[str, Path]
    fallback: Path | None

    @property
    def has_fallback(self) -> bool:
        return self.fallback is not None


def _dejavu_dirs() -> list[Path]:
    """The system's DejaVu folder, then the copy matplotlib ships (found without importing it)."""
    dirs = [SYSTEM_DEJAVU]
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.origin is not None:
        dirs.append(Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf")
    return dirs


_WIDE_ENTRY = re.compile(r"^(<[0-9A-F]+> )<([0-9A-F]{5,6})>$", re.MULTILINE)


def _utf16_entry(match: re.Match[str]) -> str:
    code = chr(int(match.group(2), 16)).encode("utf-16-be").hex().upper()
    return f"{match.group(1)}<{code}>"


def _fix_to_unicode() -> None:
    """Make emoji copyable and searchable in the PDF.

    ReportLab writes a code point beyond U+FFFF into a font's ToUnicode map as 5-6 hex
    digits; the PDF format wants UTF-16 (a surrogate pair), so readers drop such glyphs
    from extracted text. Wrap its map maker to rewrite those entries, only while the
    installed ReportLab still has the fault.
    """
    original = ttfonts.makeToUnicodeCMap
    if getattr(original, "_playbook_fixed", False) or "<1F3B2>" not in original("probe", [0x1F3B2]):
        return

    def to_unicode_cmap(fontname: str, subset: Sequence[int]) -> str:
        return _WIDE_ENTRY.sub(_utf16_entry, original(fontname, subset))

    to_unicode_cmap._playbook_fixed = True  # type: ignore[attr-defined]
    ttfonts.makeToUnicodeCMap = to_unicode_cmap


@functools.cache
def register() -> FontSet:
    """Register DejaVu Sans as a ReportLab family (and Symbola when present), once per process."""
    faces: dict[str, Path] = {}
    for name, filename in FACE_FILES.items():
        found = next((d / filename for d in _dejavu_dirs() if (d / filename).is_file()), None)
        if found is None:
            raise FileNotFoundError(
                f"DejaVu Sans ({filename}) was not found in {', '.join(map(str, _dejavu_dirs()))}; "
                "install fonts-dejavu-core (or matplotlib, which ships a copy)"
            )
        pdfmetrics.registerFont(TTFont(name, str(found)))
        faces[name] = found
    pdfmetrics.registerFontFamily(FAMILY, normal=BODY, bold=BOLD, italic=ITALIC, boldItalic=BOLD_ITALIC)
    fallback = next((p for p in SYMBOLA_FILES if p.is_file()), None)
    if fallback is not None:
        pdfmetrics.registerFont(TTFont(FALLBACK, str(fallback)))
        # Symbola has one face; map bold/italic to it so <b> around an emoji still resolves.
        pdfmetrics.registerFontFamily(FALLBACK, normal=FALLBACK, bold=FALLBACK, italic=FALLBACK, boldItalic=FALLBACK)
        _fix_to_unicode()
    return FontSet(faces, fallback)


@functools.cache
def _glyphs(font_name: str) -> frozenset[int]:
    """Code points `font_name` has a glyph for (empty for non-TrueType fonts)."""
    face = getattr(pdfmetrics.getFont(font_name), "face", None)
    return frozenset(getattr(face, "charToGlyph", {}))


@functools.cache
def _family_glyphs() -> frozenset[int]:
    """Code points all four faces cover, so markup is safe under <b> and <i> too."""
    register()
    sets = [_glyphs(name) for name in FACE_FILES]
    return frozenset.intersection(*sets)


def _printable(text: str) -> str:
    """`text` without control characters: whitespace ones become spaces, the rest go."""
    out = []
    for ch in text:
        if unicodedata.category(ch) == "Cc":
            if ch in "\t\n\r\f\v":
                out.append(" ")
            continue
        out.append(ch)
    return "".join(out)


def runs(text: str, font: str | None = None) -> list[tuple[str, str]]:
    """Split `text` into (font name, run) pairs: `font` (default: the family) where it has
    the glyph, Symbola where only Symbola has it, `font` again where neither has it."""
    fonts = register()
    base = font or BODY
    base_glyphs = _family_glyphs() if font is None else _glyphs(base)
    fallback_glyphs = _glyphs(FALLBACK) if fonts.has_fallback else frozenset()
    result: list[tuple[str, str]] = []
    for ch in _printable(text):
        code = ord(ch)
        if result and (unicodedata.category(ch) in _ATTACHING or code in _SKIN_TONES):
            run_font = result[-1][0]
            covering = base_glyphs if run_font == base else fallback_glyphs
            if code in covering:
                result[-1] = (run_font, result[-1][1] + ch)
                continue
        if code in base_glyphs or code not in fallback_glyphs:
            chosen = base
        else:
            chosen = FALLBACK
        if result and result[-1][0] == chosen:
            result[-1] = (chosen, result[-1][1] + ch)
        else:
            result.append((chosen, ch))
    return result


def markup(text: object) -> str:
    """Paragraph markup that prints `text` exactly as typed: escaped, emoji set in Symbola."""
    parts = []
    for font, run in runs(str(text)):
        safe = escape(run)
        parts.append(safe if font != FALLBACK else f'<font name="{FALLBACK}">{safe}</font>')
    return "".join(parts)


def string_width(text: str, font: str = BODY, size: float = 10) -> float:
    """The width of `text` as `draw_string` would set it."""
    return sum(pdfmetrics.stringWidth(run, name, size) for name, run in runs(text, font))


def draw_string(
    canvas: Canvas,
    x: float,
    y: float,
    text: str,
    font: str = BODY,
    size: float = 10,
    align: str = "left",
) -> float:
    """Draw user `text` at (x, y) run by run with the emoji fallback; return its width.

    `align` is "left", "centre" or "right" and says where x sits on the string.
    """
    pieces: Sequence[tuple[str, str]] = runs(text, font)
    width = sum(pdfmetrics.stringWidth(run, name, size) for name, run in pieces)
    if align == "centre":
        x -= width / 2
    elif align == "right":
        x -= width
    elif align != "left":
        raise ValueError(f"align must be 'left', 'centre' or 'right', not {align!r}")
    # One text object for all runs keeps the line whole for copy-paste and text search.
    text = canvas.beginText(x, y)
    for name, run in pieces:
        text.setFont(name, size)
        text.textOut(run)
    canvas.drawText(text)
    return width


def fit(text: str, font: str, size: float, max_width: float, min_size: float = 5) -> tuple[str, float]:
    """(text, size) that fits `max_width`: the size shrinks down to `min_size`, then the
    text is cut short with an ellipsis."""
    if max_width <= 0:
        return "", size
    width = string_width(text, font, size)
    if width <= max_width:
        return text, size
    # 1% under the exact ratio: the proportional shrink can land a hair over `max_width`.
    smaller = max(min_size, size * max_width / width * 0.99)
    if string_width(text, font, smaller) <= max_width:
        return text, smaller
    cut = text
    while cut and string_width(cut + "…", font, smaller) > max_width:
        cut = cut[:-1]
    return (cut.rstrip() + "…" if cut else ""), smaller
