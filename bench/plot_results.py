#!/usr/bin/env python3
"""Charts and claim checks from fastscan_bench's JSON output (--benchmark_out=FILE --benchmark_out_format=json).

    python3 -m pip install matplotlib
    python3 bench/plot_results.py full_scans.json full_by_key.json [--out bench/results]

Draws the matrix-scan paper's figures from our numbers: runtime relative to matrix against n for
forward and backward scans (Figs. 6, 7), the matrix ablations (Fig. 8), segmented best/worst case
against the tree (Figs. 9, 10), effective bandwidth per contender against memcpy (Fig. 11), radix sort
on the matrix and tree scans against CUB (Fig. 12, the paper's section 5.3), and prints the paper's
claims next to what we measured.
"""
import argparse
import collections
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(paths):
    """(algorithm, type, contender, n) -> {'time_us', 'gbps'}"""
    runs = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for b in data["benchmarks"]:
            if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
                continue
            parts = b["run_name"].split("/")
            algorithm, type_, contender, n = parts[0], parts[1], parts[2], int(parts[3])
            # The median iteration (fastscan_bench's counters); the mean where a file predates them.
            time_us = b.get("median_us", b["real_time"] * {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[b["time_unit"]])
            gbps = b.get("median_GBps", b.get("bytes_per_second", 0) / 1e9)
            runs[(algorithm, type_, contender, n)] = {"time_us": time_us, "gbps": gbps}
    return runs


def series(runs, algorithm, type_, contender):
    points = sorted((n, v) for (a, t, c, n), v in runs.items() if (a, t, c) == (algorithm, type_, contender))
    return [n for n, _ in points], [v for _, v in points]


def relative_plot(runs, path, title, curves, baseline):
    """curves: [(label, algorithm, contender)], each divided by baseline (algorithm, contender) time."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    base_n, base_v = series(runs, baseline[0], "float", baseline[1])
    base = dict(zip(base_n, (v["time_us"] for v in base_v)))
    for label, algorithm, contender in curves:
        ns, vs = series(runs, algorithm, "float", contender)
        xs = [n for n in ns if n in base]
        ys = [v["time_us"] / base[n] for n, v in zip(ns, vs) if n in base]
        if xs:
            ax.plot(xs, ys, marker=".", linewidth=1, label=label)
    ax.set_xscale("log", base=2)
    ax.axhline(1.0, color="gray", linewidth=0.5)
    ax.set_xlabel("n (elements)")
    ax.set_ylabel("runtime relative to " + baseline[2])
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def bandwidth_bars(ax, runs, groups, contenders, n):
    """Grouped bars of effective bandwidth at n: groups [(label, algorithm, type)], one bar per contender."""
    width = 0.8 / len(contenders)
    for i, c in enumerate(contenders):
        values = [runs.get((a, t, c, n), {"gbps": 0})["gbps"] for _, a, t in groups]
        ax.bar([j + i * width for j in range(len(groups))], values, width, label=c)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(groups))], [label for label, _, _ in groups], fontsize=8)
    ax.set_ylabel("effective bandwidth (GB/s)")
    ax.legend(fontsize=8)


def ratio_stats(runs, algorithm, contender, baseline_algorithm, baseline_contender, min_n):
    """max and median over n >= min_n of time(contender) / time(baseline)."""
    ratios = []
    for (a, t, c, n), v in runs.items():
        if (a, t, c) == (algorithm, "float", contender) and n >= min_n:
            base = runs.get((baseline_algorithm, "float", baseline_contender, n))
            if base:
                ratios.append(v["time_us"] / base["time_us"])
    if not ratios:
        return None
    ratios.sort()
    return max(ratios), ratios[len(ratios) // 2], min(ratios)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("json", nargs="+")
    parser.add_argument("--out", default="bench/results")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    runs = load(args.json)

    tree = ("tree (blelloch)", "blelloch")
    relative_plot(runs, f"{args.out}/fig6_forward.png", "Forward exclusive scan, float (paper Fig. 6)",
                  [("tree (blelloch)", "exclusive", "blelloch"), ("CUB", "exclusive", "cub"),
                   ("memcpy", "exclusive", "memcpy"), ("matrix deterministic", "exclusive", "matrix_deterministic")],
                  ("exclusive", "matrix", "matrix"))
    relative_plot(runs, f"{args.out}/fig7_backward.png", "Backward exclusive scan, float (paper Fig. 7)",
                  [("tree (blelloch)", "exclusive_backward", "blelloch"), ("CUB", "exclusive_backward", "cub"),
                   ("memcpy", "exclusive_backward", "memcpy"),
                   ("matrix deterministic", "exclusive_backward", "matrix_deterministic")],
                  ("exclusive_backward", "matrix", "matrix"))
    relative_plot(runs, f"{args.out}/fig8_ablations.png", "Matrix-scan ablations, float (paper Fig. 8)",
                  [("no padding", "ablation_exclusive", "matrix_no_padding"),
                   ("seq. column", "ablation_exclusive", "matrix_seq_column"),
                   ("sRp", "ablation_exclusive", "matrix_srp")],
                  ("ablation_exclusive", "matrix_multi_pass", "matrix (reduce-then-scan)"))
    for direction, fig in (("", 9), ("backward_", 10)):
        relative_plot(runs, f"{args.out}/fig{fig}_segmented_{direction or 'forward_'}".rstrip("_") + ".png",
                      f"Segmented {'backward' if direction else 'forward'} scan, float (paper Fig. {fig})",
                      [("matrix-worst", f"incl_by_key_{direction}worst", "matrix"),
                       ("tree-best", f"incl_by_key_{direction}best", "blelloch"),
                       ("tree-worst", f"incl_by_key_{direction}worst", "blelloch"),
                       ("CUB-best", f"incl_by_key_{direction}best", "cub")],
                      (f"incl_by_key_{direction}best", "matrix", "matrix-best"))

    # Fig. 11: effective bandwidth at n = 2^20 per algorithm and contender.
    n = 1 << 20
    algorithms = [("F", "exclusive"), ("B", "exclusive_backward"), ("F seg b", "incl_by_key_best"),
                  ("F seg w", "incl_by_key_worst"), ("B seg b", "incl_by_key_backward_best"),
                  ("B seg w", "incl_by_key_backward_worst")]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    bandwidth_bars(ax, runs, [(label, a, "float") for label, a in algorithms],
                   ["memcpy", "cub", "matrix", "matrix_deterministic", "blelloch"], n)
    ax.set_title("Effective bandwidth at n = 2^20, float (paper Fig. 11)")
    fig.tight_layout()
    fig.savefig(f"{args.out}/fig11_bandwidth.png", dpi=110)
    plt.close(fig)

    # Fig. 12 (the paper's section 5.3): radix sort built on each scan, against CUB, at the largest n
    # measured; left, effective bandwidth per sort; right, tree-scan time relative to matrix-scan time.
    sorts = [("uint32", "sort", "uint32"), ("float", "sort", "float"), ("uint64", "sort", "uint64"),
             ("uint32 few16", "sort_few16", "uint32"), ("pairs", "sort_by_key", "uint32"),
             ("pairs few16", "sort_by_key_few16", "uint32")]
    sort_ns = sorted({n for (a, t, c, n) in runs if a.startswith("sort")})
    if sort_ns:
        n = sort_ns[-1]
        fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.5))
        bandwidth_bars(left, runs, sorts, ["cub", "thrust_par", "matrix", "blelloch", "hillis_steele"], n)
        left.set_title(f"Radix sort, n = 2^{n.bit_length() - 1}")
        for label, a, t in sorts:
            xs, ys = [], []
            for m in sort_ns:
                tree, matrix = runs.get((a, t, "blelloch", m)), runs.get((a, t, "matrix", m))
                if tree and matrix:
                    xs.append(m)
                    ys.append(tree["time_us"] / matrix["time_us"])
            if xs:
                right.plot(xs, ys, marker=".", linewidth=1, label=label)
        right.set_xscale("log", base=2)
        right.axhline(1.0, color="gray", linewidth=0.5)
        right.set_xlabel("n (keys)")
        right.set_ylabel("sort time, tree scan / matrix scan")
        right.set_title("Tree (Blelloch) against matrix scan inside the sort (paper 5.3)")
        right.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(f"{args.out}/fig12_radix_sort.png", dpi=110)
        plt.close(fig)

    # Claims, n >= 2^20 ("above 1M" in the paper).
    big = 1 << 20
    print("| claim (paper) | measured: max / median / min over n >= 2^20 |")
    print("|---|---|")
    checks = [
        ("tree/matrix forward time (matrix up to 52% faster)", "exclusive", "blelloch", "exclusive", "matrix"),
        ("tree/matrix backward time (up to 59% faster)", "exclusive_backward", "blelloch", "exclusive_backward", "matrix"),
        ("no padding/matrix time (up to 2.6x slower)", "ablation_exclusive", "matrix_no_padding", "ablation_exclusive", "matrix_multi_pass"),
        ("sRp/matrix time (up to 24% slower)", "ablation_exclusive", "matrix_srp", "ablation_exclusive", "matrix_multi_pass"),
        ("seq. column/matrix time (up to 4.5% slower)", "ablation_exclusive", "matrix_seq_column", "ablation_exclusive", "matrix_multi_pass"),
        ("segmented fwd: tree-best/matrix-worst (4.35x)", "incl_by_key_best", "blelloch", "incl_by_key_worst", "matrix"),
        ("segmented fwd: tree-best/matrix-best (5.84x)", "incl_by_key_best", "blelloch", "incl_by_key_best", "matrix"),
        ("segmented bwd: tree-best/matrix-worst (7.85x)", "incl_by_key_backward_best", "blelloch", "incl_by_key_backward_worst", "matrix"),
        ("segmented bwd: tree-best/matrix-best (10.32x)", "incl_by_key_backward_best", "blelloch", "incl_by_key_backward_best", "matrix"),
        ("segmented fwd: matrix-worst/matrix-best (best up to 27% faster)", "incl_by_key_worst", "matrix", "incl_by_key_best", "matrix"),
        ("matrix/CUB forward time", "exclusive", "matrix", "exclusive", "cub"),
        ("matrix/CUB segmented best time", "incl_by_key_best", "matrix", "incl_by_key_best", "cub"),
        ("matrix_deterministic/matrix forward time", "exclusive", "matrix_deterministic", "exclusive", "matrix"),
    ]
    for label, a, c, ba, bc in checks:
        stats = ratio_stats(runs, a, c, ba, bc, big)
        print(f"| {label} | " + ("no data" if stats is None else " / ".join(f"{x:.2f}" for x in stats)) + " |")
    # Radix sort (paper 5.3: with the matrix scan 9.5-17.7% faster than with the tree scan).
    tree_ratios = sorted(runs[(a, t, "blelloch", m)]["time_us"] / runs[(a, t, "matrix", m)]["time_us"]
                         for (a, t, c, m) in runs if a.startswith("sort") and c == "matrix" and m >= big
                         and (a, t, "blelloch", m) in runs)
    if tree_ratios:
        print("| radix sort: tree-scan/matrix-scan time (matrix 9.5-17.7% faster) | "
              + " / ".join(f"{x:.2f}" for x in (tree_ratios[-1], tree_ratios[len(tree_ratios) // 2], tree_ratios[0])) + " |")


if __name__ == "__main__":
    main()
