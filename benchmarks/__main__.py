"""`python -m benchmarks` (`make bench`): every benchmark, one table, each figure beside a
baseline measured in the same run (machines differ, ratios travel).

    python -m benchmarks                              # everything; the table on stdout
    python -m benchmarks --markdown docs/benchmarks.md   # and the table, machine and date there
    python -m benchmarks --only simulation odds       # some parts (startup, clicks, simulation,
                                                      # odds, print-pack, classroom, arrival,
                                                      # join-storm, join-storm-server,
                                                      # join-storm-flood, servers, phone)
    python -m benchmarks --quick                      # a smoke run: tiny workloads, no browser
    python -m benchmarks --json

Parts: page start-up in Chromium against a bare one-button Voila notebook, with and without
pre-heated kernels (`benchmarks.startup`); each game's main click against the bare button's
(`benchmarks.clicks`); exact odds, cold and warm, and against icepool (`benchmarks.odds`);
bot games per second on one core and on all (`benchmarks.simulation`); the full print pack
(`benchmarks.print_pack`), the classroom table (`benchmarks.classroom`), a class arriving at
once and a class's join storm, in Chromium and with phones that draw nothing for the server's
part (`benchmarks.arrival`, `benchmarks.light_phone`), and two servers on one
PostgreSQL behind nginx (`benchmarks.servers`) when those modules are there; and a phone's own
part of a seat and of the join page at 1x, 4x and 10x CPU slowdown beside the bare page, with
Lighthouse's mobile scores (`benchmarks.phone`).
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import importlib.util
import json
import os
import platform
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

PARTS = ("startup", "clicks", "simulation", "odds", "print-pack", "classroom", "arrival", "join-storm", "join-storm-server", "join-storm-flood", "servers", "phone")
#: the line below which docs/benchmarks.md keeps hand-written notes from run to run.
NOTES = "<!-- notes: kept by make bench -->"


@dataclass
class Row:
    """One figure of the table: its value, the baseline it is set against, and the ratio."""

    part: str
    figure: str
    value: str
    baseline: str
    ratio: str


def _f(value: Any, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        value = f"{value:.4g}"
    return f"{value}{unit}"


def _ratio(value: float | None, base: float | None, suffix: str = "x") -> str:
    if not value or not base:
        return "-"
    return f"{value / base:.3g}{suffix}"


def simulation_rows(report: list[dict[str, Any]], base_ms: float) -> list[Row]:
    rows = []
    base_rate = 1000 / base_ms
    for r in report:
        rows.append(Row("bot games", f"{r['workload']}, 1 core", _f(r["one_core_per_second"], " games/CPU-s"), _f(round(base_rate, 2), " baseline/CPU-s"), _f(r["one_core_per_baseline_run"], " per baseline")))
        rows.append(Row("bot games", f"{r['workload']}, {r['cores']} cores (pool included)", _f(r["all_cores_per_second"], " games/CPU-s"), _f(r["one_core_per_second"], " on 1 core"), _f(r["all_vs_one"], "x")))
        if "wall_speed_up" in r:
            rows.append(Row("bot games", f"{r['workload']}, {r['cores']} cores, wall speed-up (load-dependent)", _f(r["wall_speed_up"], "x"), "1 core's wall", "-"))
    return rows


def odds_rows(report: dict[str, Any]) -> list[Row]:
    base = report["baseline_run_ms"]
    d, i, ice = report["danger_world"], report["dangerous_ideas"], report["icepool"]
    b = _f(base, " ms baseline")
    return [
        Row("exact odds", f"danger-world slowest cold {tuple(d['slowest_cold_query'])}", _f(d["slowest_cold_ms"], " ms"), b, _ratio(d["slowest_cold_ms"], base, " baselines")),
        Row("exact odds", f"danger-world slowest warm ({d['queries_warm']} queries)", _f(d["slowest_warm_ms"], " ms"), b, _ratio(d["slowest_warm_ms"], base, " baselines")),
        Row("exact odds", f"dangerous-ideas slowest cold {tuple(i['slowest_cold_query'])}", _f(i["slowest_cold_ms"], " ms"), b, _ratio(i["slowest_cold_ms"], base, " baselines")),
        Row("exact odds", f"dangerous-ideas slowest warm ({i['queries']} queries)", _f(i["slowest_warm_ms"], " ms"), b, _ratio(i["slowest_warm_ms"], base, " baselines")),
        Row("exact odds", "coach, 12 dice", _f(report["coach_12_dice_ms"], " ms"), b, _ratio(report["coach_12_dice_ms"], base, " baselines")),
        Row("vs icepool", f"danger-world, {ice['danger_world_checks']} checks, no re-rolls (same numbers)", _f(ice["danger_world_rules_cold_ms"], " ms"), _f(ice["danger_world_icepool_ms"], " ms icepool"), _ratio(ice["danger_world_rules_cold_ms"], ice["danger_world_icepool_ms"])),
        Row("vs icepool", "dangerous-ideas, pools 0-20, no seeds (same numbers)", _f(ice["dangerous_ideas_rules_cold_ms"], " ms"), _f(ice["dangerous_ideas_icepool_ms"], " ms icepool"), _ratio(ice["dangerous_ideas_rules_cold_ms"], ice["dangerous_ideas_icepool_ms"])),
    ]


def click_rows(report: dict[str, Any]) -> list[Row]:
    if "skipped" in report:
        return [Row("clicks", "skipped", report["skipped"], "-", "-")]
    base = report["bare button click"]["median_ms"]
    return [Row("clicks", name, _f(r["median_ms"], " ms"), _f(base, " ms bare"), _f(r["vs_bare"], "x")) for name, r in report.items() if name != "bare button click"]


def startup_rows(results: Sequence[Any], pool_size: int) -> list[Row]:
    kernels = f"{pool_size} pre-heated kernels" if pool_size else "a kernel per page"
    base = results[0]
    rows = []
    for r in results[1:]:
        if not r.runs:
            rows.append(Row("page start-up", f"{r.target} ({kernels})", r.skipped or r.error or "-", "-", "-"))
            continue
        rows.append(Row("page start-up", f"{r.target}, usable ({kernels})", _f(r.median_usable_ms, " ms"), _f(base.median_usable_ms, " ms bare"), _ratio(r.median_usable_ms, base.median_usable_ms)))
    if base.skipped or base.error:
        rows.append(Row("page start-up", f"bare button ({kernels})", base.skipped or base.error, "-", "-"))
    return rows


def slot_rows(part: str, module_name: str, run_name: str, format_name: str, quick: bool, rows_name: str = "rows") -> tuple[list[Row], Any, str]:
    """A part another module provides (`run_*()` and `format_*()`), when it is there."""
    if importlib.util.find_spec(module_name) is None:
        return [Row(part, "not measured", f"{module_name} is not in this tree yet", "-", "-")], None, ""
    module = importlib.import_module(module_name)
    try:
        report = getattr(module, run_name)(quick=quick) if quick else getattr(module, run_name)()
    except TypeError:
        report = getattr(module, run_name)()
    text = getattr(module, format_name)(report)
    rows = []
    items = getattr(module, rows_name)(report) if hasattr(module, rows_name) else report if isinstance(report, list) else [report]
    for item in items:
        if isinstance(item, dict) and {"figure", "value"} <= set(item):
            rows.append(Row(part, str(item["figure"]), _f(item["value"]), _f(item.get("baseline")), _f(item.get("ratio"))))
    return rows, report, text


def format_table(rows: Sequence[Row]) -> str:
    widths = [max(len(getattr(r, k)) for r in [Row("part", "figure", "value", "baseline", "ratio"), *rows]) for k in ("part", "figure", "value", "baseline", "ratio")]
    head = Row("part", "figure", "value", "baseline", "ratio")
    lines = []
    for i, r in enumerate([head, *rows]):
        cells = [getattr(r, k) for k in ("part", "figure", "value", "baseline", "ratio")]
        lines.append("  ".join(c.ljust(w) if j < 2 else c.rjust(w) for j, (c, w) in enumerate(zip(cells, widths))))
        if i == 0:
            lines.append("-" * len(lines[0]))
    return "\n".join(lines)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    from lab.core import default_workers

    return f"{cpu}, {default_workers()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def markdown(rows: Sequence[Row], extra: Sequence[str], when: str) -> str:
    lines = [
        "# Benchmarks",
        "",
        "`make bench` (`python -m benchmarks`) measures every figure beside a baseline timed in the same run, so",
        "the ratios compare across machines; the times themselves are this machine's. Bot games, exact odds and",
        "icepool are CPU time (a shared machine's load does not change them); page start-up, clicks and the",
        "classroom are wall time, as a user waits for them. Nothing in the test suite asserts a speed.",
        "",
        f"- machine: {machine()}",
        f"- date: {when}",
        "",
        "| part | figure | value | baseline | ratio |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines += [f"| {r.part} | {r.figure} | {r.value} | {r.baseline} | {r.ratio} |" for r in rows]
    for block in extra:
        lines += ["", "```", block, "```"]
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=PARTS, help="run these parts only")
    parser.add_argument("--runs", type=int, default=5, help="page views per start-up target (default 5)")
    parser.add_argument("--pool-size", type=int, default=2, help="pre-heated kernels for the second start-up pass (default 2; 0 skips it)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: tiny workloads and no browser")
    parser.add_argument("--markdown", metavar="FILE.md", help="also write the table, the machine and the date there")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = parser.parse_args(argv)
    parts = set(args.only or PARTS)
    if args.quick:
        # The parts that start Voila and Chromium have tests of their own (test_browser_arrival,
        # test_browser_classes, test_browser_class, test_proxy): the smoke run is the CPU parts.
        parts -= {"startup", "clicks", "classroom", "arrival", "join-storm", "join-storm-server", "join-storm-flood", "servers", "phone"}
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    rows: list[Row] = []
    report: dict[str, Any] = {}
    extra: list[str] = []
    failed = False
    log = sys.stderr if not args.json else open(os.devnull, "w")  # noqa: SIM115 - kept for the whole run
    if "simulation" in parts:
        from benchmarks.simulation import baseline_ms, run_simulations

        print("bot games...", file=log, flush=True)
        report["simulation"] = run_simulations(quick=args.quick)
        rows += simulation_rows(report["simulation"], baseline_ms())
    if "odds" in parts:
        from benchmarks.odds import run_odds

        print("exact odds...", file=log, flush=True)
        report["odds"] = run_odds(quick=args.quick)
        rows += odds_rows(report["odds"])
    if "clicks" in parts:
        from benchmarks.clicks import run_clicks

        print("clicks in Chromium...", file=log, flush=True)
        report["clicks"] = run_clicks()
        rows += click_rows(report["clicks"])
    if "startup" in parts:
        from benchmarks.startup import TARGETS, run_benchmark

        for pool_size in sorted({0, args.pool_size}):
            print(f"page start-up, {pool_size} pre-heated kernels...", file=log, flush=True)
            results = run_benchmark(TARGETS, runs=args.runs, pool_size=pool_size, pause=6.0 if pool_size else 0.5, log=not args.json)
            report[f"startup_pool_{pool_size}"] = [r.as_dict(results[0]) for r in results]
            rows += startup_rows(results, pool_size)
            failed = failed or any(r.error for r in results)
    slots = (
        ("print-pack", "benchmarks.print_pack", "run_print_pack", "format_print_pack", "rows"),
        ("classroom", "benchmarks.classroom", "run_classroom", "format_classroom", "rows"),
        ("arrival", "benchmarks.arrival", "run_arrival", "format_arrival", "rows"),
        ("join-storm", "benchmarks.arrival", "run_join_storm", "format_join_storm", "storm_rows"),
        ("join-storm-server", "benchmarks.arrival", "run_light_storm", "format_light_storm", "light_storm_rows"),
        ("join-storm-flood", "benchmarks.flood", "run_flooded_storm", "format_flooded_storm", "rows"),
        ("servers", "benchmarks.servers", "run_servers", "format_servers", "rows"),
        ("phone", "benchmarks.phone", "run_phone", "format_phone", "phone_rows"),
    )
    for part, module, run_name, format_name, rows_name in slots:
        if part in parts:
            print(f"{part}...", file=log, flush=True)
            part_rows, part_report, text = slot_rows(part, module, run_name, format_name, args.quick, rows_name)
            rows += part_rows
            report[part] = part_report
            if text:
                extra.append(text)
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    if args.json:
        print(json.dumps({"machine": machine(), "date": when, "rows": [asdict(r) for r in rows], "report": report}, indent=2, default=str))
    else:
        print(format_table(rows))
        for block in extra:
            print()
            print(block)
    if args.markdown:
        path = Path(args.markdown)
        # Notes written by hand below the marker survive a new run.
        kept = path.read_text(encoding="utf-8").partition(NOTES)[2] if path.is_file() else ""
        path.write_text(markdown(rows, extra, when) + (f"\n{NOTES}{kept}" if kept else ""), encoding="utf-8")
        print(f"wrote {args.markdown}", file=log)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
