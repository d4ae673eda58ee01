"""A run's or a comparison's games as CSV text: one row per game (lists as space-separated values)."""

from __future__ import annotations

import csv
import io
from typing import Any

__all__ = ["csv_text", "game_rows"]


def game_rows(result: Any) -> list[dict[str, Any]]:
    """The rows of a `Run`, or of both setups of a `Comparison` (column `setup`: A or B)."""
    if hasattr(result, "rows"):
        return list(result.rows)
    return [{"setup": name, **row} for name, run in (("A", result.a), ("B", result.b)) for row in run.rows]


def csv_text(result: Any) -> str:
    """CSV with a header of every column any row has; None is blank."""
    rows = game_rows(result)
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if v is None else " ".join(map(str, v)) if isinstance(v, list) else v) for k, v in row.items()})
    return out.getvalue()
