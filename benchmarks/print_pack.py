"""The print shop's figures: the full pack (all four games for 10 players, New Rule as two
tables, A4) beside one game's materials (New Rule for 5) timed in the same run, and the PDF's
size, with names in every script the fonts cover. Nothing here asserts a speed.
"""

from __future__ import annotations

import time

__all__ = ["NAMES", "format_print_pack", "run_print_pack"]

#: Ten players, one name per script the print shop sets (and markup that must print as typed).
NAMES = ("Zoë Ångström", "李明", "さくら", "김민준", "محمد علي", "דוד כהן", "प्रिया शर्मा", "🦠 Bo 🧸", "<b>Jo</b> &amp;", "Ивана")


def _best(call, runs: int) -> tuple[float, bytes]:  # noqa: ANN001
    best, data = float("inf"), b""
    for _ in range(runs):
        start = time.perf_counter()
        data = call()
        best = min(best, time.perf_counter() - start)
    return best, data


def run_print_pack(runs: int = 3) -> dict[str, object]:
    """Time the pack (best of `runs`, after a first cold build) and one game's materials."""
    from printables import common, new_rule, pack

    start = time.perf_counter()
    pack.build_pdf(len(NAMES), NAMES, page="a4")
    cold = time.perf_counter() - start
    pack_s, pdf = _best(lambda: pack.build_pdf(len(NAMES), NAMES, page="a4"), runs)
    one_s, one = _best(lambda: new_rule.build_pdf(NAMES[:5], page="a4"), runs)
    parts, _ = pack.plan(len(NAMES), NAMES)
    return {
        "players": len(NAMES),
        "parts": [p.heading for p in parts],
        "pages": common.page_count(pdf),
        "pack_cold_s": round(cold, 3),
        "pack_s": round(pack_s, 3),
        "pack_mb": round(len(pdf) / 1e6, 3),
        "one_game_s": round(one_s, 3),
        "one_game_pages": common.page_count(one),
        "pack_in_one_games": round(pack_s / one_s, 2),
    }


def format_print_pack(rows: dict[str, object]) -> str:
    return "\n".join(
        [
            f"full pack, {rows['players']} players, A4   {rows['pack_s']:>7} s  {rows['pack_mb']} MB  {rows['pages']} pages  (cold, fonts loading: {rows['pack_cold_s']} s)",
            f"one game (New Rule, 5)        {rows['one_game_s']:>7} s  {rows['one_game_pages']} pages",
            f"pack / one game               {rows['pack_in_one_games']:>7}",
            "parts: " + "; ".join(rows["parts"]),  # type: ignore[arg-type]
        ]
    )


if __name__ == "__main__":
    print(format_print_pack(run_print_pack()))
