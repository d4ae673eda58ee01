"""Type for every script: a font per script, chosen per run of characters, shaped and ordered.

Every sheet is set in DejaVu Sans (regular, bold, oblique, bold-oblique as one family), which
covers Latin, Greek and Cyrillic and the symbols the sheets draw. A run of characters it
should not or cannot set goes to the font made for that script:

| script | font | where it comes from |
| --- | --- | --- |
| Arabic, Hebrew, Devanagari | Noto Sans Arabic / Hebrew / Devanagari (regular, bold) | Debian `fonts-noto-core` |
| Chinese, Japanese, Korean | Noto Sans CJK SC / JP / KR (regular, bold) | Debian `fonts-noto-cjk` |
| emoji | Noto Emoji (monochrome outlines, current Unicode) | PyPI `manimgx-fonts` |
| other symbols | Symbola, then Noto Sans Symbols 2 | Debian `fonts-symbola`, `fonts-noto-core` |

Those fonts are *shaped*: uharfbuzz turns a run into positioned glyphs (Arabic joining,
Devanagari conjuncts and vowel signs, emoji sequences), and each shaped unit (an Arabic or
Hebrew word, a Devanagari, CJK or emoji cluster) becomes one glyph of the embedded subset,
built with fontTools, addressed by a private code point ("alias") whose ToUnicode entry is the
unit's text. Copying text out of the PDF therefore gives back what was typed, and a CJK font
(PostScript outlines, which ReportLab cannot embed) is converted glyph by glyph to TrueType.
Right-to-left text is ordered by the Unicode bidirectional algorithm (python-bidi) at the
moment a line is drawn: `draw_string` for canvas lines, `BidiParagraph` for paragraphs.

A character no installed font has is reported once (a `MissingGlyphWarning` naming it) and
printed as U+FFFD, a visible marker, never as a silent empty box.

`markup` prepares user text for a Paragraph; `draw_string` puts user text straight on a
canvas; `string_width` and `fit` measure it the same way. Nothing prints below `MIN_SIZE`.
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import io
import itertools
import logging
import unicodedata
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTEncoding, TTFont, TTFontFace
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

import i18n

__all__ = [
    "BODY",
    "BOLD",
    "BOLD_ITALIC",
    "FALLBACK",
    "FAMILY",
    "ITALIC",
    "MIN_SIZE",
    "MISSING",
    "BidiParagraph",
    "FontSet",
    "MissingGlyphWarning",
    "draw_string",
    "fit",
    "font_for",
    "markup",
    "name_list",
    "register",
    "runs",
    "string_width",
]

log = logging.getLogger(__name__)

#: The ReportLab names of the family and its four faces.
FAMILY = "DejaVuSans"
BODY = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
ITALIC = "DejaVuSans-Oblique"
BOLD_ITALIC = "DejaVuSans-BoldOblique"
#: The symbol fallback set as plain text (monochrome); registered only when found.
FALLBACK = "Symbola"
#: The smallest type anything prints in (issue 11: nothing under 7 pt).
MIN_SIZE = 7.0
#: What prints in place of a character no font has.
MISSING = "\ufffd"

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
NOTO = Path("/usr/share/fonts/truetype/noto")
NOTO_CJK = Path("/usr/share/fonts/opentype/noto")
# Marks that belong to the character before them (accents, joiners, variation selectors,
# skin tones, emoji tags): kept in that character's run so a sequence is not split.
_ATTACHING = frozenset({"Mn", "Me", "Mc", "Cf"})
_SKIN_TONES = range(0x1F3FB, 0x1F400)
_EMOJI_TAGS = range(0xE0020, 0xE0080)
# Private code points for shaped units; no font of the playbook covers them.
_ALIAS_FIRST = 0xF0000
_EPOCH = 0  # font header dates: fixed, so the same input gives the same PDF bytes


class MissingGlyphWarning(UserWarning):
    """A character no installed font can print; it prints as U+FFFD instead."""


# -- the fonts: files ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Source:
    """A font file, and the face inside it for a collection (.ttc)."""

    path: Path
    index: int = 0


@dataclass(frozen=True)
class Script:
    """A shaped family: its regular and bold files, and how its text splits into units.

    `words`: an Arabic or Hebrew word is shaped and embedded whole (its letters join, and it
    stays whole when a line is reordered); otherwise every cluster is a unit of its own, so
    lines can still break between Chinese characters."""

    name: str
    regular: tuple[Source, ...]  # the first file found is used
    bold: tuple[Source, ...] = ()
    words: bool = False


def _emoji_files() -> tuple[Source, ...]:
    """Noto Emoji (monochrome) from the manimgx-fonts package, found without importing it."""
    spec = importlib.util.find_spec("manimgx_fonts")
    if spec is None or spec.origin is None:
        return ()
    return (Source(Path(spec.origin).parent / "NotoEmoji[wght].ttf"),)


def _noto(stem: str) -> tuple[tuple[Source, ...], tuple[Source, ...]]:
    return (Source(NOTO / f"{stem}-Regular.ttf"),), (Source(NOTO / f"{stem}-Bold.ttf"),)


def _cjk(index: int) -> tuple[tuple[Source, ...], tuple[Source, ...]]:
    return (Source(NOTO_CJK / "NotoSansCJK-Regular.ttc", index),), (Source(NOTO_CJK / "NotoSansCJK-Bold.ttc", index),)


#: The shaped families by name. CJK faces in the collection: 0 JP, 1 KR, 2 SC.
SCRIPTS: dict[str, Script] = {
    "arabic": Script("arabic", *_noto("NotoSansArabic"), words=True),
    "hebrew": Script("hebrew", *_noto("NotoSansHebrew"), words=True),
    # A Devanagari word is shaped whole too: half forms and conjuncts span its clusters.
    "devanagari": Script("devanagari", *_noto("NotoSansDevanagari"), words=True),
    "cjk-sc": Script("cjk-sc", *_cjk(2)),
    "cjk-jp": Script("cjk-jp", *_cjk(0)),
    "cjk-kr": Script("cjk-kr", *_cjk(1)),
    "emoji": Script("emoji", _emoji_files()),
    "symbols": Script("symbols", (Source(NOTO / "NotoSansSymbols2-Regular.ttf"),)),
}
#: Families tried, in order, for a character neither its own script's font nor DejaVu has.
FALLBACK_ORDER = ("symbols", "emoji", "cjk-sc", "arabic", "hebrew", "devanagari")

_RANGES: tuple[tuple[int, int, str], ...] = (
    (0x0590, 0x05FF, "hebrew"),
    (0xFB1D, 0xFB4F, "hebrew"),
    (0x0600, 0x06FF, "arabic"),
    (0x0750, 0x077F, "arabic"),
    (0x0870, 0x08FF, "arabic"),
    (0xFB50, 0xFDFF, "arabic"),
    (0xFE70, 0xFEFF, "arabic"),
    (0x0900, 0x097F, "devanagari"),
    (0xA8E0, 0xA8FF, "devanagari"),
    (0x1CD0, 0x1CFF, "devanagari"),
    (0x1100, 0x11FF, "hangul"),
    (0x3130, 0x318F, "hangul"),
    (0xA960, 0xA97F, "hangul"),
    (0xAC00, 0xD7FF, "hangul"),
    (0x3040, 0x30FF, "kana"),
    (0x31F0, 0x31FF, "kana"),
    (0xFF66, 0xFF9F, "kana"),
    (0x2E80, 0x2FDF, "han"),
    (0x3000, 0x303F, "han"),
    (0x3100, 0x312F, "han"),
    (0x31A0, 0x31EF, "han"),
    (0x3200, 0x33FF, "han"),
    (0x3400, 0x4DBF, "han"),
    (0x4E00, 0x9FFF, "han"),
    (0xF900, 0xFAFF, "han"),
    (0xFE30, 0xFE4F, "han"),
    (0xFF00, 0xFF65, "han"),
    (0xFFA0, 0xFFEF, "han"),
    (0x20000, 0x3FFFF, "han"),
    (0x1F000, 0x1FAFF, "emoji"),
)


def _script(code: int) -> str | None:
    for low, high, name in _RANGES:
        if low <= code <= high:
            return name
    return None


def _cjk_family(text: str) -> str:
    """The CJK face for a text: Korean with any Hangul, Japanese with any kana, else Chinese."""
    kinds = {_script(ord(ch)) for ch in text}
    if "hangul" in kinds:
        return "cjk-kr"
    return "cjk-jp" if "kana" in kinds else "cjk-sc"


def _dejavu_dirs() -> list[Path]:
    """The system's DejaVu folder, then the copy matplotlib ships (found without importing it)."""
    dirs = [SYSTEM_DEJAVU]
    spec = importlib.util.find_spec("matplotlib")
    if spec is not None and spec.origin is not None:
        dirs.append(Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf")
    return dirs


# -- shaped faces: glyphs by alias, subsets built with fontTools ---------------------------------
_ALIAS: dict[tuple[str, str, bool], str] = {}  # (family, unit text, right-to-left) -> alias
_ALIAS_TEXT: dict[int, str] = {}  # alias code point -> the unit's text, for ToUnicode
_ALIAS_FAMILY: dict[int, str] = {}  # alias code point -> its family's name
_REPORTED: set[int] = set()  # code points already reported as missing


@functools.cache
def _open(source: Source):
    from fontTools.ttLib import TTCollection
    from fontTools.ttLib import TTFont as ToolsFont

    if source.path.suffix.lower() == ".ttc":
        return TTCollection(str(source.path), lazy=True).fonts[source.index]
    return ToolsFont(str(source.path), lazy=True)


class ShapedFace(TTFontFace):
    """A font face ReportLab draws only through aliases: each alias is one shaped unit,
    embedded as one glyph (a composite of the unit's glyphs at their shaped positions)."""

    def __init__(self, name: str, source: Source) -> None:
        import uharfbuzz

        pdfmetrics.TypeFace.__init__(self, None)
        font = _open(source)
        self.name = name.encode("ascii")
        self.subfontNameX = b""
        self.filename = f"{source.path}#{source.index}"
        self.source = source
        self._font = font
        self._cff = "CFF " in font
        self._order = font.getGlyphOrder()
        self.cmap = font.getBestCmap()
        self.upem = font["head"].unitsPerEm
        scale = 1000 / self.upem
        hhea, head, os2 = font["hhea"], font["head"], font["OS/2"]
        self.ascent = round(hhea.ascent * scale)
        self.descent = round(hhea.descent * scale)
        self.capHeight = round(getattr(os2, "sCapHeight", 0) * scale) or self.ascent
        self.bbox = [round(v * scale) for v in (head.xMin, head.yMin, head.xMax, head.yMax)]
        self.italicAngle = font["post"].italicAngle
        self.stemV = 50 + int((os2.usWeightClass / 65.0) ** 2)
        self.flags = ttfonts.FF_SYMBOLIC
        self.defaultWidth = round(font["hmtx"][".notdef"][0] * scale)
        self.charToGlyph: dict[int, int] = {}
        self.charWidths: dict[int, float] = {}
        self._layouts: dict[int, tuple[int, tuple[tuple[int, int, int], ...]]] = {}
        self._glyphs: dict[str, object] = {}
        blob = uharfbuzz.Blob.from_file_path(str(source.path))
        self._hb = uharfbuzz.Font(uharfbuzz.Face(blob, source.index))
        self._uharfbuzz = uharfbuzz

    def shape(self, text: str, rtl: bool) -> tuple[int, tuple[tuple[int, int, int], ...]]:
        """(advance, ((glyph id, x, y), ...)) of `text` in font units, in drawing order."""
        hb = self._uharfbuzz
        buf = hb.Buffer()
        buf.add_str(text)
        buf.guess_segment_properties()
        buf.direction = "rtl" if rtl else "ltr"
        hb.shape(self._hb, buf, {})
        x = 0
        parts = []
        for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
            parts.append((info.codepoint, x + pos.x_offset, pos.y_offset))
            x += pos.x_advance
        return x, tuple(parts)

    def add(self, code: int, text: str, rtl: bool) -> None:
        """Make alias `code` print the shaped `text`."""
        advance, parts = self.shape(text, rtl)
        self._layouts[code] = (advance, parts)
        self.charToGlyph[code] = parts[0][0] if parts else 0
        self.charWidths[code] = round(advance * 1000 / self.upem, 3)

    def _glyph(self, name: str) -> Any:
        """A source glyph as a TrueType glyph without hinting (CFF outlines converted)."""
        glyph = self._glyphs.get(name)
        if glyph is None:
            from fontTools.pens.cu2quPen import Cu2QuPen
            from fontTools.pens.ttGlyphPen import TTGlyphPen

            if self._cff:
                pen = TTGlyphPen(None)
                self._font.getGlyphSet()[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
                glyph = pen.glyph()
            else:
                glyph = copy.deepcopy(self._font["glyf"][name])
                glyph.removeHinting()
            self._glyphs[name] = glyph
        return glyph

    def makeSubset(self, subset: Sequence[int]) -> bytes:
        """A TrueType font whose code i draws the unit of alias subset[i]."""
        from fontTools.fontBuilder import FontBuilder
        from fontTools.pens.ttGlyphPen import TTGlyphPen
        from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

        glyphs: dict[str, object] = {}
        advances: dict[str, int] = {}
        hmtx = self._font["hmtx"]

        def include(name: str) -> None:
            if name in glyphs:
                return
            glyph = self._glyph(name)
            glyphs[name] = glyph
            advances[name] = hmtx[name][0]
            if glyph.isComposite():
                for part in glyph.components:
                    include(part.glyphName)

        include(".notdef")
        codes: dict[int, str] = {}
        for byte, code in enumerate(subset):
            if code == 32 and 32 in self.cmap:
                include(self.cmap[32])
                codes[byte] = self.cmap[32]
                continue
            layout = self._layouts.get(code)
            if layout is None:
                continue
            advance, parts = layout
            if len(parts) == 1 and parts[0][1:] == (0, 0):
                name = self._order[parts[0][0]]
                include(name)
            else:
                name = f"pb{code:X}"
                for gid, _, _ in parts:
                    include(self._order[gid])
                pen = TTGlyphPen(glyphs, handleOverflowingTransforms=False)
                for gid, x, y in parts:
                    pen.addComponent(self._order[gid], (1, 0, 0, 1, x, y))
                glyphs[name] = pen.glyph()
                advances[name] = advance
            codes[byte] = name
        order = [".notdef"] + [n for n in glyphs if n != ".notdef"]
        builder = FontBuilder(self.upem, isTTF=True)
        builder.setupGlyphOrder(order)
        builder.setupCharacterMap({})
        builder.setupGlyf(glyphs)
        glyf = builder.font["glyf"]
        builder.setupHorizontalMetrics({n: (int(advances[n]), getattr(glyf[n], "xMin", 0)) for n in order})
        builder.setupHorizontalHeader(ascent=self._font["hhea"].ascent, descent=self._font["hhea"].descent)
        builder.setupPost(keepGlyphNames=False)
        font = builder.font
        font["head"].created = font["head"].modified = _EPOCH
        table = CmapSubtable.newSubtable(6)
        table.platformID, table.platEncID, table.language = 1, 0, 0
        table.cmap = codes
        font["cmap"].tables = [table]
        out = io.BytesIO()
        font.save(out)
        return out.getvalue()


class ShapedFont(TTFont):
    """A ReportLab font over a `ShapedFace`: measured and subsetted like any TrueType font."""

    def __init__(self, name: str, face: ShapedFace) -> None:
        self.fontName = name
        self.face = face
        self.encoding = TTEncoding()
        self.state: WeakKeyDictionary[Any, Any] = WeakKeyDictionary()
        self._asciiReadable = 0
        self._shapable = False


@dataclass
class _Family:
    """A registered shaped family: its faces (bold may be the regular face) and what it covers."""

    script: Script
    regular: ShapedFace
    bold: ShapedFace

    @property
    def name(self) -> str:
        return self.regular.name.decode()


@functools.cache
def _family(name: str) -> _Family | None:
    """The shaped family `name`, registered with ReportLab on first use; None if not installed."""
    script = SCRIPTS[name]
    regular = next((s for s in script.regular if s.path.is_file()), None)
    if regular is None:
        return None
    bold_source = next((s for s in script.bold if s.path.is_file()), None)
    font_name = f"PB-{name}"
    faces = {font_name: ShapedFace(font_name, regular)}
    if bold_source is not None:
        faces[font_name + "-Bold"] = ShapedFace(font_name + "-Bold", bold_source)
    for key, face in faces.items():
        pdfmetrics.registerFont(ShapedFont(key, face))
    bold = font_name + "-Bold" if bold_source is not None else font_name
    pdfmetrics.registerFontFamily(font_name, normal=font_name, bold=bold, italic=font_name, boldItalic=bold)
    _install_to_unicode()
    return _Family(script, faces[font_name], faces[bold])


def _alias(family: _Family, text: str, rtl: bool) -> str:
    """The alias character that prints `text` shaped in `family` (each face shapes it)."""
    key = (family.name, text, rtl)
    alias = _ALIAS.get(key)
    if alias is None:
        code = _ALIAS_FIRST + len(_ALIAS_TEXT)
        for face in {id(f): f for f in (family.regular, family.bold)}.values():
            face.add(code, text, rtl)
        _ALIAS_TEXT[code] = text
        _ALIAS_FAMILY[code] = family.script.name
        alias = _ALIAS[key] = chr(code)
    return alias


def _is_alias(ch: str) -> bool:
    return ord(ch) in _ALIAS_TEXT


# -- ToUnicode: what copying text out of the PDF gives back --------------------------------------
def _utf16(text: str) -> str:
    return text.encode("utf-16-be").hex().upper()


def _to_unicode_cmap(fontname: str, subset: Sequence[int]) -> str:
    """The ToUnicode CMap of a 256-code subset: an alias maps to its unit's text (so a ligature
    or a whole Arabic word copies as its letters); a code beyond U+FFFF as a surrogate pair."""
    entries = [f"<{byte:02X}> <{_utf16(_ALIAS_TEXT.get(code) or chr(code))}>" for byte, code in enumerate(subset) if code]
    blocks = []
    for start in range(0, len(entries), 100):
        chunk = entries[start : start + 100]
        blocks.append(f"{len(chunk)} beginbfchar\n" + "\n".join(chunk) + "\nendbfchar")
    return "\n".join(
        [
            "/CIDInit /ProcSet findresource begin",
            "12 dict begin",
            "begincmap",
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
            f"/CMapName /{fontname} def",
            "/CMapType 2 def",
            "1 begincodespacerange",
            "<00> <FF>",
            "endcodespacerange",
            *blocks,
            "endcmap",
            "CMapName currentdict /defineresource pop",
            "end",
            "end",
        ]
    )


def _install_to_unicode() -> None:
    ttfonts.makeToUnicodeCMap = _to_unicode_cmap


# -- registering ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FontSet:
    """What `register` found: the file of each DejaVu face and Symbola's file, if any."""

    faces: dict[str, Path]
    fallback: Path | None

    @property
    def has_fallback(self) -> bool:
        return self.fallback is not None


@functools.cache
def register() -> FontSet:
    """Register DejaVu Sans as a ReportLab family (and Symbola when present), once per process.

    The script families register themselves when a character first needs them."""
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
        # Symbola has one face; map bold/italic to it so <b> around a symbol still resolves.
        pdfmetrics.registerFontFamily(FALLBACK, normal=FALLBACK, bold=FALLBACK, italic=FALLBACK, boldItalic=FALLBACK)
    _install_to_unicode()
    return FontSet(faces, fallback)


@functools.cache
def _glyphs(font_name: str) -> frozenset[int]:
    """Code points `font_name` has a glyph for (empty for non-TrueType fonts)."""
    face = getattr(pdfmetrics.getFont(font_name), "face", None)
    if isinstance(face, ShapedFace):
        return frozenset(face.cmap)
    return frozenset(getattr(face, "charToGlyph", {}))


@functools.cache
def _family_glyphs() -> frozenset[int]:
    """Code points all four DejaVu faces cover, so markup is safe under <b> and <i> too."""
    register()
    return frozenset.intersection(*(_glyphs(name) for name in FACE_FILES))


# -- runs: which font sets which characters -------------------------------------------------------
#: the bidi isolates (LRI, RLI, FSI, PDI), dropped from printed text.
_ISOLATES = frozenset("\u2066\u2067\u2068\u2069")


def _printable(text: str) -> str:
    """`text` without control characters: whitespace ones become spaces, the rest go; so do
    the isolates a message puts around a left-to-right name in a right-to-left sentence
    (`i18n.ISOLATE`): no font draws them, and the sheet lays out each line's runs itself."""
    out = []
    for ch in text:
        if ch in _ISOLATES:
            continue
        if unicodedata.category(ch) == "Cc":
            if ch in "\t\n\r\f\v":
                out.append(" ")
            continue
        out.append(ch)
    return "".join(out)


def _attaching(ch: str) -> bool:
    code = ord(ch)
    return unicodedata.category(ch) in _ATTACHING or code in _SKIN_TONES or code in _EMOJI_TAGS


def _neutral(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "PSN" and _script(ord(ch)) != "emoji"


def _covers(target: tuple[str, str], code: int) -> bool:
    kind, name = target
    if kind == "plain":
        return code in (_family_glyphs() if name == BODY else _glyphs(name))
    family = _family(name)
    # Joiners and variation selectors are the shaper's business, even where the cmap lacks them.
    return family is not None and (code in family.regular.cmap or code in (0x200C, 0x200D, 0xFE0E, 0xFE0F))


def _choose(code: int, base: str, text: str) -> tuple[str, str] | None:
    """The font for a character that starts a run: its script's font, DejaVu, the symbols."""
    script = _script(code)
    preferred = _cjk_family(text) if script in ("hangul", "kana", "han") else script
    if preferred is not None and _covers(("shaped", preferred), code):
        return ("shaped", preferred)
    if _covers(("plain", base), code):
        return ("plain", base)
    if register().has_fallback and _covers(("plain", FALLBACK), code):
        return ("plain", FALLBACK)
    for name in FALLBACK_ORDER:
        if _covers(("shaped", name), code):
            return ("shaped", name)
    return None


def _report_missing(ch: str) -> None:
    code = ord(ch)
    if code in _REPORTED:
        return
    _REPORTED.add(code)
    name = unicodedata.name(ch, "unnamed")
    message = f"no installed font has U+{code:04X} {name}; it prints as {MISSING} (U+FFFD)"
    log.warning(message)
    warnings.warn(message, MissingGlyphWarning, stacklevel=4)


@dataclass(frozen=True)
class Piece:
    """Characters one font draws at one bidi level: `text` is what ReportLab sets (aliases
    for a shaped family), `typed` the characters they stand for."""

    font: str
    text: str
    typed: str
    level: int
    shaped: bool = False


_RTL_CLASSES = frozenset({"R", "AL", "AN", "RLE", "RLO", "RLI"})
_FORMATS = frozenset({"BN", "RLE", "LRE", "RLO", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"})


def _needs_bidi(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in _RTL_CLASSES for ch in text)


def _proxy(ch: str) -> str:
    """A character with the bidi class of `ch` (an alias stands for its unit's first strong
    character); explicit formatting codes become neutral dots, so positions line up."""
    if _is_alias(ch):
        text = _ALIAS_TEXT[ord(ch)]
        return next((c for c in text if unicodedata.bidirectional(c) in ("L", "R", "AL")), text[:1] or "\u2022")
    return "\u2022" if unicodedata.bidirectional(ch) in _FORMATS else ch


def bidi_levels(text: str, base: int | None = None) -> list[int]:
    """The resolved embedding level of every character of `text` (Unicode bidi, rules P-I,
    python-bidi), with `base` the paragraph level (None: from its first strong character)."""
    proxy = "".join(_proxy(ch) for ch in text)
    if base is None and not any(unicodedata.bidirectional(ch) in _RTL_CLASSES for ch in proxy):
        return [0] * len(text)
    from bidi import algorithm as uba

    storage = uba.get_empty_storage()
    level = uba.get_base_level(proxy) if base is None else base
    storage["base_level"] = level
    storage["base_dir"] = ("L", "R")[level]
    uba.get_embedding_levels(proxy, storage)
    uba.explicit_embed_and_overrides(storage)
    uba.resolve_weak_types(storage)
    uba.resolve_neutral_types(storage, False)
    uba.resolve_implicit_levels(storage, False)
    levels = [ch["level"] for ch in storage["chars"]]
    # L1: white space at the end of the line takes the paragraph level.
    end = len(proxy)
    while end and unicodedata.bidirectional(proxy[end - 1]) in ("WS", "B", "S"):
        end -= 1
        levels[end] = level
    return levels


def base_level(text: str) -> int:
    """0 for a left-to-right text, 1 when its first strong character is right-to-left."""
    for ch in text:
        kind = unicodedata.bidirectional(_proxy(ch))
        if kind == "L":
            return 0
        if kind in ("R", "AL"):
            return 1
    return 0


#: Paired punctuation drawn mirrored inside a right-to-left run (Unicode bidi rule L4): an
#: opening bracket that reads first, from the right, must face the text it opens.
_MIRRORED = dict(zip("()[]{}<>«»‹›", ")(][}{><»«›‹", strict=True))


def mirrored(ch: str, level: int) -> str:
    """`ch` as drawn at bidi `level`: its mirror image at an odd (right-to-left) level."""
    return _MIRRORED.get(ch, ch) if level % 2 else ch


def visual_order(levels: Sequence[int]) -> list[int]:
    """Indices in the order they are seen (rule L2): from the highest level down to the lowest
    odd one, every run at that level or higher is reversed."""
    order = list(range(len(levels)))
    odd = [lv for lv in levels if lv % 2]
    if not odd:
        return order
    for level in range(max(levels), min(odd) - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return order


def _line_rtl() -> bool:
    """Whether a line drawn now is laid out right to left: the sheet's language is."""
    return i18n.direction() == "rtl"


@functools.lru_cache(maxsize=8192)
def _pieces(text: str, base: str, rtl: bool = False) -> tuple[Piece, ...]:
    """`text` cut into pieces of one font and one bidi level, in typed (logical) order; `rtl`
    lays a line out right to left (a right-to-left language's sheet)."""
    register()
    chars = list(_printable(text))
    targets: list[tuple[str, str]] = []
    plain = ("plain", base)
    for i, ch in enumerate(chars):
        code = ord(ch)
        prev = targets[-1] if targets else None
        if prev is not None and (_attaching(ch) or _neutral(ch)) and _covers(prev, code):
            targets.append(prev)
            continue
        if ch == " ":
            targets.append(plain)
            continue
        target = _choose(code, base, text)
        if target is None:
            _report_missing(ch)
            chars[i] = MISSING
            target = plain
        targets.append(target)
    typed = "".join(chars)
    # Lines are laid out left to right (a right-to-left name reads the same), except on a
    # right-to-left language's sheet, where the line's own direction is right to left.
    levels = bidi_levels(typed, 1 if rtl else 0) if _needs_bidi(typed) else [0] * len(chars)
    pieces: list[Piece] = []
    start = 0
    for i in range(1, len(chars) + 1):
        if i < len(chars) and targets[i] == targets[start] and levels[i] == levels[start] and " " not in (chars[i], chars[start]):
            continue
        kind, name = targets[start]
        run = typed[start:i]
        if kind == "plain":
            pieces.append(Piece(name, run, run, levels[start]))
        else:
            pieces.append(_shaped_piece(name, run, levels[start], base))
        start = i
    return tuple(pieces)


def _bold(font: str) -> bool:
    return font in (BOLD, BOLD_ITALIC)


def _shaped_piece(name: str, run: str, level: int, base: str) -> Piece:
    """A run of a shaped family as aliases: one per word (Arabic, Hebrew) or per cluster."""
    family = _family(name)
    assert family is not None
    rtl = bool(level % 2)
    if family.script.words:
        units = [run]
    else:
        units = _clusters(family.regular, run)
    aliases = "".join(_alias(family, unit, rtl) for unit in units)
    face = family.bold if _bold(base) else family.regular
    return Piece(face.name.decode(), aliases, run, level, shaped=True)


def _clusters(face: ShapedFace, text: str) -> list[str]:
    """`text` cut where the shaper starts a new cluster (grapheme clusters at least)."""
    hb = face._uharfbuzz
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    buf.direction = "ltr"
    buf.cluster_level = hb.BufferClusterLevel.MONOTONE_GRAPHEMES
    hb.shape(face._hb, buf, {})
    starts = sorted({info.cluster for info in buf.glyph_infos} | {0})
    # A cluster index counts UTF-8 bytes or code points depending on how the text went in;
    # add_str takes a str, so these are code point offsets.
    bounds = [s for s in starts if 0 <= s < len(text)] + [len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds) if a < b]


def runs(text: str, font: str | None = None) -> list[tuple[str, str]]:
    """`text` as (font name, string) pairs in typed order: `font` (default: the family) where it
    has the glyphs, the script's font elsewhere; a shaped family's string is its aliases."""
    return [(p.font, p.text) for p in _pieces(str(text), font or BODY)]


def font_for(text: str, font: str | None = None) -> list[tuple[str, str]]:
    """(font name, typed characters) for each piece of `text`: which font prints what."""
    return [(p.font, p.typed) for p in _pieces(str(text), font or BODY)]


#: LEFT-TO-RIGHT MARK: invisible, a strong left-to-right character for the bidi algorithm.
LRM = "\u200e"


def name_list(names: Sequence[str], sep: str = ", ", last: str | None = None) -> str:
    """`names` joined by `sep` (and `last` before the final one, e.g. " and "), for a line set
    left to right: each name keeps its place in the list, shaped in its own direction.

    Two right-to-left names with only a comma between them would be one right-to-left run
    for the bidi algorithm, printed in reverse order ("B ,A"); an invisible left-to-right mark
    after a right-to-left name's separator keeps the separator, and the list, left to right."""
    items = [str(n) for n in names]
    out = []
    for i, name in enumerate(items):
        if i:
            joint = last if last is not None and i == len(items) - 1 else sep
            out.append(joint + (LRM if _needs_bidi(items[i - 1]) else ""))
        out.append(name)
    return "".join(out)


def markup(text: object) -> str:
    """Paragraph markup that prints `text` exactly as typed: escaped, every script in its font.

    Shaped scripts appear as their aliases, which only a `BidiParagraph` sets in their font
    (regular or bold after the text around them): use it for every paragraph of user text."""
    parts = []
    for piece in _pieces(str(text), BODY):
        if piece.font == BODY or piece.shaped:
            parts.append(escape(piece.text))
        else:
            parts.append(f'<font name="{piece.font}">{escape(piece.text)}</font>')
    return "".join(parts)


# -- measuring and drawing lines -------------------------------------------------------------------
def string_width(text: str, font: str = BODY, size: float = 10) -> float:
    """The width of `text` as `draw_string` would set it."""
    return sum(pdfmetrics.stringWidth(p.text, p.font, size) for p in _pieces(_unhyphenated(text), font, _line_rtl()))


def _visual(pieces: Sequence[Piece]) -> list[tuple[str, str]]:
    """(font, string) runs in the order they are drawn, left to right."""
    atoms = [(p.font, ch, p.level) for p in pieces for ch in p.text]
    if not any(level for _, _, level in atoms):
        return [(p.font, p.text) for p in pieces]
    order = visual_order([level for _, _, level in atoms])
    out: list[tuple[str, str]] = []
    for index in order:
        font, ch, level = atoms[index]
        ch = mirrored(ch, level)
        if out and out[-1][0] == font:
            out[-1] = (font, out[-1][1] + ch)
        else:
            out.append((font, ch))
    return out


def _unhyphenated(text: object) -> str:
    """`text` less its soft hyphens: a line drawn whole never breaks, so they would only show."""
    return str(text).replace("\u00ad", "")


def draw_string(
    canvas: Canvas,
    x: float,
    y: float,
    text: str,
    font: str = BODY,
    size: float = 10,
    align: str = "left",
) -> float:
    """Draw user `text` at (x, y), every script in its font and right-to-left runs in their
    order; return its width. `align` is "left", "centre" or "right" and says where x sits
    on the string. Type never prints below `MIN_SIZE`."""
    size = max(size, MIN_SIZE)
    pieces = _visual(_pieces(_unhyphenated(text), font, _line_rtl()))
    width = sum(pdfmetrics.stringWidth(run, name, size) for name, run in pieces)
    if align == "centre":
        x -= width / 2
    elif align == "right":
        x -= width
    elif align != "left":
        raise ValueError(f"align must be 'left', 'centre' or 'right', not {align!r}")
    # One text object for all runs keeps the line whole for copy-paste and text search.
    text_object = canvas.beginText(x, y)
    for name, run in pieces:
        text_object.setFont(name, size)
        text_object.textOut(run)
    canvas.drawText(text_object)
    return width


def _shorter(text: str) -> str:
    """`text` less its last character and whatever attaches to it (a mark, a joiner)."""
    cut = text[:-1]
    while cut and (_attaching(cut[-1]) or cut[-1] == "\u200d"):
        cut = cut[:-1]
    return cut


def fit(text: str, font: str, size: float, max_width: float, min_size: float = MIN_SIZE) -> tuple[str, float]:
    """(text, size) that fits `max_width`: the size shrinks down to `min_size` (never below
    `MIN_SIZE`), then the text is cut short with an ellipsis."""
    min_size = max(min_size, MIN_SIZE)
    size = max(size, min_size)
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
        cut = _shorter(cut)
    return (cut.rstrip() + "…" if cut else ""), smaller


# -- paragraphs: right-to-left runs ordered line by line -------------------------------------------
class BidiParagraph(Paragraph):
    """A Paragraph for user text: aliases from `markup` are set in their script's face (bold
    where the text around them is bold), and lines are put in visual order when drawn (Unicode
    bidi, rule L2), so a right-to-left name or sentence reads right to left on every line."""

    #: the paragraph's runs of text, each with its font (ReportLab's ParaFrags).
    frags: list[Any]

    def _setup(self, text: str, style: Any, bulletText: Any, frags: Any, cleaner: Any) -> None:
        super()._setup(text, style, bulletText, frags, cleaner)
        if self.frags and all(hasattr(frag, "text") for frag in self.frags):
            self.frags = _script_frags(self.frags)
            # Nothing under 7 pt, whatever size a style or a <font size> asked for.
            self.frags = [f if getattr(f, "fontSize", MIN_SIZE) >= MIN_SIZE else f.clone(fontSize=MIN_SIZE) for f in self.frags]

    def drawPara(self, debug: int = 0) -> None:
        blpara = getattr(self, "blPara", None)
        if blpara is None or not _needs_bidi("".join(_proxy(ch) for ch in _para_text(blpara))):
            super().drawPara(debug)
            return
        level = base_level(_para_text(blpara))
        saved = blpara.lines
        blpara.lines = [_reorder_line(blpara.kind, line, level) for line in saved]
        try:
            super().drawPara(debug)
        finally:
            blpara.lines = saved


def _script_frags(frags: Sequence[Any]) -> list[Any]:
    """`frags` with every run of aliases split off into a frag of its family's face."""
    out: list[Any] = []
    for frag in frags:
        text = frag.text
        if hasattr(frag, "cbDefn") or not any(_is_alias(ch) for ch in text):
            out.append(frag)
            continue
        bold = _bold(frag.fontName)
        start = 0
        for i in range(1, len(text) + 1):
            here = _ALIAS_FAMILY.get(ord(text[start]))
            if i < len(text) and _ALIAS_FAMILY.get(ord(text[i])) == here:
                continue
            chunk = text[start:i]
            if here is None:
                out.append(frag.clone(text=chunk))
            else:
                family = _family(here)
                assert family is not None
                face = family.bold if bold else family.regular
                out.append(frag.clone(text=chunk, fontName=face.name.decode()))
            start = i
    return out


def _para_text(blpara: object) -> str:
    lines = getattr(blpara, "lines", ())
    if getattr(blpara, "kind", 0) == 0:
        return " ".join(" ".join(words) for _, words in lines)
    return "".join(getattr(frag, "text", "") for line in lines for frag in line.words)


def _reorder_line(kind: int, line: Any, level: int) -> Any:
    if kind == 0:
        extra, words = line
        text = " ".join(words)
        levels = bidi_levels(text, level)
        seen = "".join(mirrored(text[i], levels[i]) for i in visual_order(levels))
        return (extra, seen.split(" "))
    frags = list(line.words)
    atoms = [(index, ch) for index, frag in enumerate(frags) if hasattr(frag, "text") and not hasattr(frag, "cbDefn") for ch in frag.text]
    if not atoms:
        return line
    levels = bidi_levels("".join(ch for _, ch in atoms), level)
    if not any(levels):
        return line
    runs: list[tuple[int, list[str]]] = []
    for position in visual_order(levels):
        index, ch = atoms[position]
        ch = mirrored(ch, levels[position])
        if runs and runs[-1][0] == index:
            runs[-1][1].append(ch)
        else:
            runs.append((index, [ch]))
    rebuilt = [frags[index].clone(text="".join(chars)) for index, chars in runs]
    # Callbacks and images keep their place at the end of the line.
    rebuilt += [frag for frag in frags if hasattr(frag, "cbDefn") or not hasattr(frag, "text")]
    new = copy.copy(line)
    new.words = rebuilt
    return new


def _reset_for_tests() -> None:
    """Forget which characters were reported missing (a test may want to see the warning)."""
    _REPORTED.clear()

