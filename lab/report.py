"""A run's or a comparison's games as CSV text: one row per game (lists as space-separated values)."""

from __future__ import annotations

import csv
import io
from typing import Any

from i18n import header_cell

from . import GAMES
from .core import label_of

__all__ = ["csv_text", "game_rows"]


def game_rows(result: Any) -> list[dict[str, Any]]:
    """The rows of a `Run`, or of both setups of a `Comparison` (column `setup`: A or B)."""
    if hasattr(result, "rows"):
        return list(result.rows)
    return [{"setup": name, **row} for name, run in (("A", result.a), ("B", result.b)) for row in run.rows]


def csv_text(result: Any, lang: str | None = None) -> str:
    """CSV with a header of every column any row has; None is blank. Its header cells follow
    every CSV's convention (`i18n.header_cell`): the ids in English, else the numbers' words
    in `lang` (the current language) with the id in parentheses; the cells are plain values."""
    rows = game_rows(result)
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    game = result.game if hasattr(result, "rows") else result.a.game
    own = GAMES[game].labels
    # A key without words of its own (a game's raw measure) keeps its id alone.
    header = {key: header_cell(key, None if label_of(key, own, readable=False) == key else label_of(key, own), lang) for key in columns}
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow({k: ("" if v is None else " ".join(map(str, v)) if isinstance(v, list) else v) for k, v in row.items()})
    return out.getvalue()
