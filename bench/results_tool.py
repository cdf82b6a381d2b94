#!/usr/bin/env python3
"""Keeps the committed benchmark results current from later runs (Python's standard library only).

A sweep file (results/quick.json, results/quick_h200.json) is one run of fastscan_bench, some of whose
families were run again after a kernel changed; a re-run file (results/rerun_below_cub_*.json) holds
three runs of the rows behind CUB. Each later run replaces whole rows, every contender of a row from the
same run, and the file's context says which rows came from which run and why.

    # rows of a later run (every contender of each row) replace the sweep's
    python3 bench/results_tool.py merge results/quick.json run.json --filter '^sort' --why 'what changed (commit)'
    # three re-runs of rows behind CUB replace the same rows' earlier re-runs
    python3 bench/results_tool.py reruns results/rerun_below_cub_h100.json r1.json r2.json r3.json \\
        --filter '^sort_by_key/' --why 'what changed (commit)'
    # matrix rows from 2^20 behind CUB or thrust::cuda::par, with their re-runs in RESULTS.md's table form
    python3 bench/results_tool.py behind results/quick.json --reruns results/rerun_below_cub_h100.json
    # RESULTS.md's re-run table: those rows and every other row the re-run file holds
    python3 bench/results_tool.py behind results/quick_h200.json --reruns results/rerun_below_cub_h200.json --every-rerun
    # the same rows as a --benchmark_filter for fastscan_bench (every contender of each), to re-run them
    python3 bench/results_tool.py behind results/quick.json --regex
    # RESULTS.md's rows: GB/s [x CUB / x memcpy] of each contender
    python3 bench/results_tool.py table results/quick.json --filter '^sort' --contenders cub,thrust_par,matrix

Names are algorithm/type/contender/n/... (fastscan_bench); a filter is matched against the whole name.
"""
import argparse
import collections
import json
import re
import sys


def read(path):
    """The file's data and how it is written (indent, trailing newline), so that a rewrite changes rows only."""
    with open(path) as f:
        text = f.read()
    second = text.split("\n", 2)[1] if "\n" in text else ""
    indent = len(second) - len(second.lstrip(" ")) or 2
    return json.loads(text), indent, text.endswith("\n")


def write(path, data, indent, newline):
    with open(path, "w") as f:
        f.write(json.dumps(data, indent=indent) + ("\n" if newline else ""))


def parts(name):
    p = name.split("/")
    return p[0], p[1], p[2], int(p[3])


def run_date(path):
    return read(path)[0]["context"]["date"]


def merge(args):
    sweep, indent, newline = read(args.sweep)
    run = {b["name"]: b for b in read(args.run)[0]["benchmarks"] if re.search(args.filter, b["name"])}
    if not run:
        sys.exit(f"no row of {args.run} matches {args.filter!r}")
    replaced = set()
    for i, b in enumerate(sweep["benchmarks"]):
        if b["name"] in run:
            sweep["benchmarks"][i] = run[b["name"]]
            replaced.add(b["name"])
    added = [b for name, b in run.items() if name not in replaced]
    sweep["benchmarks"].extend(added)
    left = [b["name"] for b in sweep["benchmarks"] if re.search(args.filter, b["name"]) and b["name"] not in run]
    sweep["context"].setdefault("rows_from_a_later_run", []).append(
        {"date": run_date(args.run), "filter": args.filter, "why": args.why})
    write(args.sweep, sweep, indent, newline)
    print(f"{len(replaced)} rows replaced, {len(added)} added")
    if left:
        print(f"warning: {len(left)} rows match the filter but not in the run, kept from the earlier one:", *left[:5], sep="\n  ")


def reruns(args):
    data, indent, newline = read(args.reruns)
    kept = [b for b in data["benchmarks"] if not re.search(args.filter, b["name"])]
    new = []
    for index, path in enumerate(args.runs, start=1):
        for b in read(path)[0]["benchmarks"]:
            if re.search(args.filter, b["name"]):
                new.append(dict(b, rerun_index=index))
    if not new:
        sys.exit(f"no row of the runs matches {args.filter!r}")
    data["benchmarks"] = kept + new
    data["context"].setdefault("rows_rerun_later", []).append(
        {"date": run_date(args.runs[0]), "filter": args.filter, "why": args.why})
    write(args.reruns, data, indent, newline)
    print(f"{len(new)} rows from these runs, {len(kept)} kept")


def rows_of(benchmarks, rerun_index=None):
    """(algorithm, type, n) -> {contender: median us} of one run."""
    rows = collections.defaultdict(dict)
    for b in benchmarks:
        if b.get("run_type") == "aggregate" or b.get("rerun_index") != rerun_index:
            continue
        algorithm, type_, contender, n = parts(b["name"])
        rows[(algorithm, type_, n)][contender] = b["median_us"]
    return rows


def exponent(n):
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)


def behind(args):
    sweep = rows_of(read(args.sweep)[0]["benchmarks"])
    runs = []
    if args.reruns:
        data = read(args.reruns)[0]["benchmarks"]
        runs = [rows_of(data, i) for i in (1, 2, 3)]
    rows = []
    for (algorithm, type_, n), row in sorted(sweep.items()):
        if n < args.min_n or "cub" not in row or "matrix" not in row:
            continue
        behind_cub = row["cub"] / row["matrix"] < 1.0
        behind_par = "thrust_par" in row and row["thrust_par"] / row["matrix"] < 1.0
        # a re-run row of the matrix policy (some re-runs timed other policies alone)
        rerun = any("matrix" in run.get((algorithm, type_, n), {}) for run in runs)
        if behind_cub or behind_par or (args.every_rerun and rerun):
            rows.append((algorithm, type_, n, row))
    if args.regex:
        # fastscan_bench's --benchmark_filter for every contender of those rows (nothing printed: none behind)
        if rows:
            print("^(" + "|".join(f"{re.escape(a)}/{re.escape(t)}/[^/]+/{n}" for a, t, n, _ in rows) + ")/")
        return
    for algorithm, type_, n, row in rows:
        cells = [f"{row['cub'] / row['matrix']:.2f}"]
        for run in runs:
            r = run.get((algorithm, type_, n), {})
            cells.append(f"{r['cub'] / r['matrix']:.2f}" if "cub" in r and "matrix" in r else "-")
        others = []
        for reference in ("cub_in_place", "cub_count_read", "thrust_par"):
            if reference in row:
                values = [run.get((algorithm, type_, n), {}) for run in runs]
                again = [f"{r[reference] / r['matrix']:.2f}" for r in values if reference in r and "matrix" in r]
                others.append(f"x {reference}: {row[reference] / row['matrix']:.2f}" + (" (sweep), " + " / ".join(again) if again else ""))
        print(f"| {algorithm} | {type_} | {exponent(n)} | " + " | ".join(cells) + " | " + "; ".join(others) + " |")


def table(args):
    gbps = collections.defaultdict(dict)  # (algorithm, type, n) -> {contender: median GB/s}
    for b in read(args.sweep)[0]["benchmarks"]:
        if b.get("run_type") != "aggregate" and re.search(args.filter, b["name"]):
            algorithm, type_, contender, n = parts(b["name"])
            gbps[(algorithm, type_, n)][contender] = b["median_GBps"]
    for (algorithm, type_, n), row in gbps.items():
        if "cub" not in row or "memcpy" not in row:
            continue
        cells = [f"{row[c]:.0f} [{row[c] / row['cub']:.2f}/{row[c] / row['memcpy']:.2f}]" if c in row else "-"
                 for c in args.contenders.split(",")]
        print(f"| {algorithm} | {type_} | {exponent(n)} | {row['memcpy']:.0f} | " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("merge", help="rows of a later run replace a sweep's")
    p.add_argument("sweep")
    p.add_argument("run")
    p.add_argument("--filter", required=True)
    p.add_argument("--why", required=True)
    p.set_defaults(func=merge)
    p = commands.add_parser("reruns", help="three re-runs replace a re-run file's rows")
    p.add_argument("reruns")
    p.add_argument("runs", nargs=3)
    p.add_argument("--filter", required=True)
    p.add_argument("--why", required=True)
    p.set_defaults(func=reruns)
    p = commands.add_parser("behind", help="matrix rows behind CUB or thrust::cuda::par")
    p.add_argument("sweep")
    p.add_argument("--reruns")
    p.add_argument("--min-n", type=int, default=1 << 20)
    p.add_argument("--regex", action="store_true", help="print a benchmark filter for those rows instead")
    p.add_argument("--every-rerun", action="store_true", help="also every other row the re-run file holds")
    p.set_defaults(func=behind)
    p = commands.add_parser("table", help="RESULTS.md's rows: GB/s [x CUB / x memcpy]")
    p.add_argument("sweep")
    p.add_argument("--filter", default="")
    p.add_argument("--contenders", default="cub,cub_count_read,thrust_par,matrix")
    p.set_defaults(func=table)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
