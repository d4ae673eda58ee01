"""Reading a printable back: each page's text, and every piece of text a PDF draws, with its size
and where it sits.

`pages_text(pdf)` is the text as pypdf extracts it, a string a page.

`text_runs(pdf)` follows each page's content stream (and the forms it shows) through the
graphics state (q, Q, cm) and the text state (BT, Tf, Tm, Td, TD, T*, TL, Ts, Tj, TJ, ', "):
each run of text comes back with its page, font, size as printed (the Tf size scaled by the
text and current matrices), its start and end points, and the byte codes drawn, so a test can
check type sizes, the printable area and .notdef glyphs (code 0 of a ReportLab subset).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import pypdf
from pypdf.generic import ContentStream

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF row-vector convention)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (x * a + y * c + e, x * b + y * d + f)


@dataclass(frozen=True)
class Run:
    page: int
    font: str
    size: float  # as printed, in points
    start: tuple[float, float]
    end: tuple[float, float]
    codes: bytes


def _widths(font: object) -> tuple[int, list[float], float]:
    first = int(font.get("/FirstChar", 0))
    widths = [float(w) for w in font.get("/Widths", [])]
    missing = float(font.get("/FontDescriptor", {}).get("/MissingWidth", 500)) if "/FontDescriptor" in font else 500.0
    return first, widths, missing


def _walk(reader: pypdf.PdfReader, content: object, resources: object, ctm: Matrix, page: int, out: list[Run]) -> None:
    fonts = resources.get("/Font", {}) if resources is not None else {}
    xobjects = resources.get("/XObject", {}) if resources is not None else {}
    stack: list[Matrix] = []
    tm = lm = IDENTITY
    leading = rise = 0.0
    font_key, size = "", 0.0
    metrics: tuple[int, list[float], float] = (0, [], 500.0)

    def show(data: bytes) -> None:
        nonlocal tm
        first, widths, missing = metrics
        advance = sum((widths[c - first] if 0 <= c - first < len(widths) else missing) for c in data) * size / 1000
        full = _mul(tm, ctm)
        scale = math.sqrt(abs(full[0] * full[3] - full[1] * full[2]))
        start = _apply(full, 0, rise)
        end = _apply(full, advance, rise)
        out.append(Run(page, font_key, size * scale, start, end, data))
        tm = _mul((1, 0, 0, 1, advance, 0), tm)

    for operands, op in ContentStream(content, reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop() if stack else ctm
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"BT":
            tm = lm = IDENTITY
        elif op == b"Tf":
            font_key, size = str(operands[0]), float(operands[1])
            metrics = _widths(fonts[font_key].get_object()) if font_key in fonts else (0, [], 500.0)
        elif op == b"TL":
            leading = float(operands[0])
        elif op == b"Ts":
            rise = float(operands[0])
        elif op == b"Tm":
            tm = lm = tuple(float(v) for v in operands)
        elif op in (b"Td", b"TD"):
            if op == b"TD":
                leading = -float(operands[1])
            tm = lm = _mul((1, 0, 0, 1, float(operands[0]), float(operands[1])), lm)
        elif op in (b"T*", b"'", b'"'):
            tm = lm = _mul((1, 0, 0, 1, 0, -leading), lm)
            if op != b"T*":
                show(bytes(operands[-1].original_bytes if hasattr(operands[-1], "original_bytes") else operands[-1]))
        elif op == b"Tj":
            show(bytes(operands[0].original_bytes if hasattr(operands[0], "original_bytes") else operands[0]))
        elif op == b"TJ":
            for item in operands[0]:
                if isinstance(item, (int, float)) or hasattr(item, "as_numeric"):
                    tm = _mul((1, 0, 0, 1, -float(item) * size / 1000, 0), tm)
                else:
                    show(bytes(item.original_bytes if hasattr(item, "original_bytes") else item))
        elif op == b"Do":
            form = xobjects[str(operands[0])].get_object()
            if form.get("/Subtype") == "/Form":
                matrix = tuple(float(v) for v in form.get("/Matrix", IDENTITY))
                _walk(reader, form, form.get("/Resources", resources), _mul(matrix, ctm), page, out)


def text_runs(pdf: bytes) -> tuple[list[Run], list[tuple[float, float]]]:
    """Every text run of `pdf`, and each page's (width, height)."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    runs: list[Run] = []
    sizes = []
    for index, page in enumerate(reader.pages):
        sizes.append((float(page.mediabox.width), float(page.mediabox.height)))
        contents = page.get_contents()
        if contents is not None:
            _walk(reader, contents, page.get("/Resources"), IDENTITY, index, runs)
    return runs, sizes


def pages_text(pdf: bytes, first: int | None = None) -> list[str]:
    """Each page's (or the `first` pages') extracted text, whitespace runs collapsed to one space."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return [" ".join(page.extract_text().split()) for page in reader.pages[:first]]


@dataclass(frozen=True)
class Drawn:
    """A text object of a page (one string drawn on the canvas, or one line of a paragraph):
    its words, in no order (a right-to-left line is stored in visual order), and where it
    starts: its left end on the page, and its baseline."""

    words: frozenset[str]
    x: float
    y: float


def drawn_texts(pdf: bytes, page: int) -> list[Drawn]:
    """The text objects of page `page` (from 0) of `pdf`, in the order they are drawn."""
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    found: list[tuple[tuple[float, ...], list[str]]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        place = (*cm, *tm)
        if not found or found[-1][0] != place:
            found.append((place, []))
        found[-1][1].append(text)

    reader.pages[page].extract_text(visitor_text=visit)
    out = []
    for place, texts in found:
        words = frozenset(" ".join(texts).split())
        if words:
            x, y = _apply(tuple(place[:6]), place[10], place[11])  # the text matrix's origin, through the current matrix
            out.append(Drawn(words, x, y))
    return out
