"""`python -m benchmarks` (`make bench`): bot games per second, click-to-update times and
page start-up times, each beside a baseline measured in the same run.

    python -m benchmarks                          # everything
    python -m benchmarks --only simulation        # or odds, clicks, startup
    python -m benchmarks --runs 7 --json          # machine-readable
    python -m benchmarks --target notebooks/leerdam.ipynb .playbook-leerdam
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from benchmarks.clicks import format_clicks, run_clicks
from benchmarks.odds import format_odds, run_odds
from benchmarks.print_pack import format_print_pack, run_print_pack
from benchmarks.simulation import format_simulations, run_simulations
from benchmarks.startup import TARGETS, Target, format_table, run_benchmark


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 0 unless a page failed to load or answer."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="page views per target (default 5)")
    parser.add_argument(
        "--target",
        nargs=2,
        action="append",
        metavar=("NOTEBOOK", "SELECTOR"),
        help="time this notebook until SELECTOR is usable, instead of the built-in list "
        "(repeatable)",
    )
    parser.add_argument(
        "--pool-size",
        type=int,
        default=0,
        help="pre-heated kernels per notebook (default 0: a kernel starts with each page)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--only", choices=["startup", "simulation", "odds", "clicks", "print"], help="run one part only")
    args = parser.parse_args(argv)
    report: dict[str, object] = {}
    if args.only in (None, "simulation"):
        rows = run_simulations()
        report["simulation"] = rows
        if not args.json:
            print("Bot games per second (best of 3), and per run of a fixed baseline in the same process")
            print(format_simulations(rows))
            print()
    if args.only in (None, "odds"):
        odds = run_odds()
        report["odds"] = odds
        if not args.json:
            print("Danger World exact odds: pools up to 12 dice, 3 penalty dice, 2 re-rolls")
            print(format_odds(odds))
            print()
    if args.only in (None, "clicks"):
        clicks = run_clicks()
        report["clicks"] = clicks
        if not args.json:
            print("Click-to-update in Chromium (medians; bare button clicked in the same run)")
            print(format_clicks(clicks))
            print()
    if args.only in (None, "print"):
        printed = run_print_pack()
        report["print"] = printed
        if not args.json:
            print("Print pack: every game for 10 players with names in every script, beside one game in the same run")
            print(format_print_pack(printed))
            print()
    if args.only in ("simulation", "odds", "clicks", "print"):
        if args.json:
            print(json.dumps(report, indent=2))
        return 0
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    targets = (
        [Target(Path(nb).stem, Path(nb), selector) for nb, selector in args.target]
        if args.target
        else TARGETS
    )
    pause = 6.0 if args.pool_size > 0 else 0.5
    if not args.json:
        print(f"Page start-up, {args.runs} runs each, alternating (Chromium, Voila, playbook template)")
    results = run_benchmark(
        targets, runs=args.runs, pool_size=args.pool_size, pause=pause, log=not args.json
    )
    if args.json:
        base = results[0]
        report["startup"] = {"runs": args.runs, "pool_size": args.pool_size, "results": [r.as_dict(base) for r in results]}
        print(json.dumps(report, indent=2))
    else:
        print()
        print(format_table(results))
        print("\nvisible: control shown and clickable; usable: one click answered by the kernel;"
              " times from navigation start, medians.")
    return 1 if any(r.error for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
