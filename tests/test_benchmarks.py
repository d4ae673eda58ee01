"""A smoke run of the benchmark runner (`--quick`): its CPU parts with tiny workloads.

No speed is asserted: only that each part runs and lands in the one table (and its markdown).
The parts that start Voila and Chromium are left out of a quick run; the browser tests cover
what they measure. The runner runs in a process of its own, as `make bench` does.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.heavy, pytest.mark.timeout(300)]

REPO = Path(__file__).resolve().parent.parent


def test_the_benchmark_runner_makes_one_table(tmp_path: Path) -> None:
    out = tmp_path / "benchmarks.md"
    run = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--markdown", str(out)], cwd=REPO, capture_output=True, text=True, timeout=280)
    assert run.returncode == 0, run.stderr[-3000:]
    table = run.stdout
    for figure in ("leerdam, 10 households, 1 core", "danger-world slowest cold", "vs icepool", "print-pack"):
        assert figure in table
    text = out.read_text()
    assert "| part | figure | value | baseline | ratio |" in text and "- machine:" in text and "- date:" in text


def test_the_phone_rows_set_each_page_beside_the_bare_page_and_say_the_servers_part() -> None:
    from benchmarks.phone import phone_rows

    load = {"usable_s": 3.0, "usable_range_s": [2.9, 3.1], "written_s": 1.5, "requests": 42, "bytes": 450_000, "shift": 0.002, "nodes": 667}
    report = {"rates": [10], "loads": {"bare 10x first": {**load, "usable_s": 6.0, "requests": 92}, "leerdam seat 10x first": load}, "lighthouse": {}}
    (row,) = phone_rows(report)
    assert row["figure"] == "leerdam seat, 10x CPU, first visit, usable"
    assert row["value"].startswith("3.0 s (2.9-3.1), the page written by 1.5 s; 42 requests, 0.45 MB, CLS 0.002")
    assert row["ratio"] == "0.50x" and row["baseline"] == "bare 6.0 s, 92 requests"
