"""The print shop's figures: the full pack (all four games for 10 players, New Rule as two
tables, A4) beside one game's materials (New Rule for 5) timed in the same run, and the PDF's
size, with names in every script the fonts cover. Times are CPU time (the load of a shared
machine does not change them). Nothing here asserts a speed.
"""

from __future__ import annotations

import time

__all__ = ["NAMES", "format_print_pack", "run_print_pack"]

#: Ten players, one name per script the print shop sets (and markup that must print as typed).
NAMES = ("Zoë Ångström", "李明", "さくら", "김민준", "محمد علي", "דוד כהן", "प्रिया शर्मा", "🦠 Bo 🧸", "<b>Jo</b> &amp;", "Ивана")


def _best(call, runs: int) -> tuple[float, bytes]:
    best, data = float("inf"), b""
    for _ in range(runs):
        start = time.process_time()
        data = call()
        best = min(best, time.process_time() - start)
    return best, data


def run_print_pack(runs: int = 3, quick: bool = False) -> list[dict[str, object]]:
    """Time the pack (best of `runs`, after a first cold build) beside one game's materials;
    the figures as rows of the benchmark table (figure, value, baseline, ratio)."""
    from printables import common, document, pack

    runs = 1 if quick else runs
    start = time.process_time()
    pack.build_pdf(len(NAMES), NAMES, page="a4")
    cold = time.process_time() - start
    pack_s, pdf = _best(lambda: pack.build_pdf(len(NAMES), NAMES, page="a4"), runs)
    one_s, one = _best(lambda: document.pdf("new-rule", NAMES[:5], page="a4"), runs)
    parts, _ = pack.plan(len(NAMES), NAMES)
    pages, one_pages = common.page_count(pdf), common.page_count(one)
    return [
        {
            "figure": f"full pack, {len(NAMES)} players in every script, A4 ({pages} pages)",
            "value": f"{pack_s:.3f} s",
            "baseline": f"{one_s:.3f} s one game ({one_pages} pages)",
            "ratio": f"{pack_s / one_s:.2f}x",
            "pack_s": round(pack_s, 3),
            "pack_cold_s": round(cold, 3),
            "parts": [p.heading for p in parts],
        },
        {"figure": "full pack, PDF size", "value": f"{len(pdf) / 1e6:.2f} MB", "baseline": f"{len(one) / 1e6:.2f} MB one game", "ratio": f"{len(pdf) / len(one):.2f}x", "pack_mb": round(len(pdf) / 1e6, 3)},
        {"figure": "full pack, first build (fonts loading)", "value": f"{cold:.3f} s", "baseline": f"{pack_s:.3f} s warm", "ratio": f"{cold / pack_s:.2f}x"},
    ]


def format_print_pack(rows: list[dict[str, object]]) -> str:
    return "print pack parts: " + "; ".join(rows[0]["parts"])


if __name__ == "__main__":
    for row in run_print_pack():
        print(row["figure"], row["value"], row["baseline"], row["ratio"])
