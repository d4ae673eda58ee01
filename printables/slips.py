"""Seat slips for the games played on devices of their own (New Rule, Leerdam, Dangerous Ideas): one slip per seat
with that seat's own link as a QR code, or blank slips with a name line and a box for a QR
code or a join code written in by hand. Cut along the crop marks and hand each player theirs.

`seat_links` reads the JSON `playbook table new ... --json` prints:
``{"board": URL, "facilitator": URL, "seats": [{"seat": 0, "name": "Ana", "url": URL}, ...]}``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.graphics import renderPDF
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from i18n import _

from . import common, fonts

__all__ = ["SLIP_GRID", "seat_links", "seat_slips"]

SLIP_GRID = (2, 4)  # columns, rows
PAD = 3 * mm
TITLE = 7  # points
NAME = 13
TEXT = 7.5
QR_MAX = 32 * mm
URL_SIZE = 7


def seat_links(data: bytes | str | Mapping[str, object]) -> list[tuple[str, str]]:
    """(seat name, URL) per seat, in seat order, from a table's links JSON; ValueError if it
    is not that JSON."""
    try:
        doc: Any = json.loads(data) if isinstance(data, (bytes, str)) else data
        seats = doc["seats"]
        rows = sorted(((int(s["seat"]), str(s.get("name") or ""), str(s["url"])) for s in seats), key=lambda r: r[0])
    except (ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"not a table's links JSON (seats with seat, name and url): {exc}") from None
    if not rows:
        raise ValueError("the links JSON lists no seats")
    return [(name or f"Seat {seat + 1}", url) for seat, name, url in rows]


def _qr(canvas: Canvas, url: str, x: float, y: float, size: float) -> None:
    widget = QrCodeWidget(url)
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    drawing.add(widget)
    renderPDF.draw(drawing, canvas, x, y)


def _url_lines(url: str, width: float, lines: int) -> list[str]:
    """`url` cut into at most `lines` lines that fit `width` at URL_SIZE (the last may end in …)."""
    out: list[str] = []
    rest = url
    while rest and len(out) < lines:
        cut = len(rest)
        while cut > 1 and fonts.string_width(rest[:cut], fonts.BODY, URL_SIZE) > width:
            cut -= 1
        out.append(rest[:cut])
        rest = rest[cut:]
    if rest and out:
        out[-1], _size = fonts.fit(out[-1] + rest, fonts.BODY, URL_SIZE, width)
    return out


def _lines(text: str, width: float, most: int = 2) -> list[str]:
    """`text` in at most `most` lines, a word at a time, the English as it always broke:
    each line as full as `width` allows at TEXT size (the last takes the rest, fitted later)."""
    words = text.split()
    out: list[str] = []
    while words and len(out) < most - 1:
        line = words.pop(0)
        while words and fonts.string_width(f"{line} {words[0]}", fonts.BODY, TEXT) <= width:
            line += " " + words.pop(0)
        out.append(line)
    if words:
        out.append(" ".join(words))
    return out


def _draw(canvas: Canvas, game: str, seat: int, name: str, url: str, width: float, height: float) -> None:
    left, right, top = PAD, width - PAD, height - PAD
    canvas.setFillColor(common.MUTED)
    # TRANSLATORS: the title of a seat slip, in capitals, as "LEERDAM · YOUR SEAT".
    fonts.draw_string(canvas, left, top - TITLE, _("{game} · YOUR SEAT", game=game.upper()), fonts.BOLD, TITLE)
    fonts.draw_string(canvas, right, top - TITLE, _("seat {n}", n=seat + 1), fonts.BOLD, TITLE, align="right")
    size = min(QR_MAX, height - 2 * PAD - TITLE - 4 * mm)
    qr_x, qr_y = left, PAD
    text_x = qr_x + size + 3 * mm
    name_y = top - TITLE - 4 * mm - NAME * 0.8
    canvas.setFillColor(common.INK)
    if name:
        text, fitted = fonts.fit(name, fonts.BOLD, NAME, right - text_x)
        fonts.draw_string(canvas, text_x, name_y, text, fonts.BOLD, fitted)
    else:
        used = fonts.draw_string(canvas, text_x, name_y, _("Name"), fonts.BODY, TEXT)
        canvas.setStrokeColor(common.GRID)
        canvas.setLineWidth(0.5)
        canvas.line(text_x + used + 1.5 * mm, name_y - 1, right, name_y - 1)
    if url:
        _qr(canvas, url, qr_x, qr_y, size)
        hint = _lines(_("Scan to open your seat on your own phone. Keep it to yourself."), right - text_x, 3)
        # Five lines in all: a hint that needs a third line leaves the link two.
        lines = _url_lines(url, right - text_x, 5 - len(hint))
    else:
        canvas.saveState()
        canvas.setStrokeColor(common.INK)
        canvas.setLineWidth(0.8)
        canvas.setDash(3, 2)
        canvas.rect(qr_x, qr_y, size, size, stroke=1, fill=0)
        canvas.restoreState()
        canvas.setFillColor(common.MUTED)
        # TRANSLATORS: two short lines inside the empty box on a blank seat slip.
        for i, word in enumerate((_("QR code"), _("or join code"))):
            fonts.draw_string(canvas, qr_x + size / 2, qr_y + size / 2 + 2 - i * 9, word, fonts.BODY, TEXT, align="centre")
        hint = _lines(_("Stick on the seat's QR code, or write its join code here."), right - text_x, 3)
        lines = []
    canvas.setFillColor(common.INK)
    y = name_y - 5 * mm
    for line in hint:
        text, fitted = fonts.fit(line, fonts.BODY, TEXT, right - text_x)
        fonts.draw_string(canvas, text_x, y, text, fonts.BODY, fitted)
        y -= TEXT * 1.3
    canvas.setFillColor(common.MUTED)
    for line in lines:
        fonts.draw_string(canvas, text_x, y, line, fonts.BODY, URL_SIZE)
        y -= URL_SIZE * 1.25
    if not url:
        used = fonts.draw_string(canvas, text_x, PAD + 2, _("Join code"), fonts.BODY, TEXT)
        canvas.setStrokeColor(common.GRID)
        canvas.line(text_x + used + 1.5 * mm, PAD + 1, right, PAD + 1)


def seat_slips(
    seats: Sequence[tuple[str, str]] | None,
    *,
    game_title: str,
    players: int = 0,
    page: str = "a4",
) -> list[Flowable]:
    """Slips with crop marks, one per seat: (seat name, URL of that seat's link) each with its
    QR code; or, with `seats` None, `players` blank slips (a name line, a box for a QR code or
    a join code). `page` is accepted for symmetry with the games' stories (the frame decides).

    No seats at all is refused (ValueError): slips for nobody would be an empty file."""
    common.page_size(page)
    rows: list[tuple[str, str]] = list(seats) if seats is not None else [("", "")] * players
    if not rows:
        raise ValueError("no seats to print slips for")
    columns, lines = SLIP_GRID
    story: list[Flowable] = [common.Section(game_title, _("Seat slips"))]
    story += common.slip_pages(
        len(rows),
        lambda canvas, i, w, h: _draw(canvas, game_title, i, rows[i][0], rows[i][1], w, h),
        columns=columns,
        rows=lines,
    )
    return story
