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
