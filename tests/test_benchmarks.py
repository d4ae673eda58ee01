"""A smoke run of the benchmark runner: every part, with tiny workloads.

No speed is asserted: only that each part runs and lands in the one table (and its markdown).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.__main__ import main

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]  # its browser parts start Voila and Chromium


def test_the_benchmark_runner_makes_one_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "benchmarks.md"
    assert main(["--quick", "--markdown", str(out)]) == 0
    table = capsys.readouterr().out
    for figure in ("leerdam, 10 households, 1 core", "danger-world slowest cold", "vs icepool", "print-pack", "classroom"):
        assert figure in table
    text = out.read_text()
    assert "| part | figure | value | baseline | ratio |" in text and "- machine:" in text and "- date:" in text
