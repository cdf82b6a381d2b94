#!/usr/bin/env bash
# On a machine with a GPU, in one command: build with every core, run the tests, optionally the
# sanitizers and the benchmark, logs under $OUT (or ./gpu_logs). Usage:
#   bench/run_on_gpu.sh [tests] [sanitize] [bench[=FILTER]] [sweep] [ncu]
# `sweep`: the whole quick sweep (sweep.json), then three runs of its matrix rows from 2^20 behind CUB or
# thrust::cuda::par (rerun1-3.json), ready for bench/results_tool.py merge and reruns. TARGETS (e.g.
# fastscan_bench) builds only those.
set -uo pipefail
out=${OUT:-gpu_logs}; mkdir -p "$out"
jobs=$(nproc)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$out/gpu.txt"
cmake --preset release > "$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
cmake --build --preset release -j"$jobs" ${TARGETS:+--target $TARGETS} > "$out/build.log" 2>&1 || { grep -E "error" "$out/build.log" | head -40; exit 1; }
echo "build ok"
status=0
for step in "$@"; do
  case $step in
    tests)
      ctest --preset release -j4 --output-on-failure > "$out/ctest.log" 2>&1 || status=1
      grep -E "tests passed|FAILED|Failed|\*\*\*" "$out/ctest.log" | tail -25 ;;
    sanitize)
      test/sanitize.sh build/release "$out/sanitize" > "$out/sanitize.txt" 2>&1 || status=1
      cat "$out/sanitize.txt"; tar czf "$out/sanitize_logs.tgz" -C "$out" sanitize && rm -rf "$out/sanitize" ;;
    bench*)
      filter=${step#bench}; filter=${filter#=}
      build/release/bench/fastscan_bench ${filter:+--benchmark_filter="$filter"} --benchmark_out="$out/bench.json" \
        --benchmark_out_format=json > "$out/bench.log" 2>&1 || status=1
      sed -n '/^Effective bandwidth/,$p' "$out/bench.log" > "$out/bench_table.txt"
      cut -c1-200 "$out/bench_table.txt" ;;
    sweep)
      bench=build/release/bench/fastscan_bench
      $bench --benchmark_out="$out/sweep.json" --benchmark_out_format=json > "$out/sweep.log" 2>&1 || status=1
      sed -n '/^Effective bandwidth/,$p' "$out/sweep.log" > "$out/sweep_table.txt"
      behind=$(python3 bench/results_tool.py behind "$out/sweep.json" --regex)
      echo "rows behind: ${behind:-none}"
      if [ -n "$behind" ]; then
        for run in 1 2 3; do
          $bench --benchmark_filter="$behind" --benchmark_out="$out/rerun$run.json" --benchmark_out_format=json \
            > "$out/rerun$run.log" 2>&1 || status=1
        done
      fi
      # The logs in one archive beside the results: fewer files to copy off the machine.
      (cd "$out" && tar czf sweep_logs.tgz --remove-files ./*.log gpu.txt 2>/dev/null) ;;
    ncu)
      # One kernel each of CUB and matrix at 2^28 int32 and double: DRAM throughput, occupancy, stalls.
      for who in cub matrix; do
        for type in int32 double; do
          ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
            --section WarpStateStats -k regex:'single_pass|DeviceScanKernel' --launch-skip 5 --launch-count 1 \
            build/release/bench/fastscan_bench --benchmark_filter="^exclusive/$type/$who/268435456" \
            > "$out/ncu_${who}_$type.txt" 2>&1 || true
          echo "== $who $type"
          grep -E "DRAM Throughput|^ +Duration|Achieved Occupancy|Registers Per|Theoretical Occupancy|Stall|Warp Cycles Per Issued" \
            "$out/ncu_${who}_$type.txt" | head -14
        done
      done ;;
  esac
done
exit $status
