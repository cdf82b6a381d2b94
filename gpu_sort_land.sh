set -o pipefail
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader | tee $OUT/gpu.txt
cmake --preset release > /tmp/cfg.log 2>&1 && cmake --build --preset release --target fastscan_bench sort_test -j16 > $OUT/build.log 2>&1; echo build $?
grep -E "error" $OUT/build.log | head
timeout 120 compute-sanitizer --tool memcheck build/release/test/sort_test --gtest_filter='*PassesWhoseKeysShareADigit*:*SortsPairsStablyAtEverySize*' > $OUT/memcheck.log 2>&1; echo memcheck $?; tail -3 $OUT/memcheck.log
build/release/bench/fastscan_bench --benchmark_filter='^sort' --benchmark_out=$OUT/bench.json --benchmark_out_format=json > $OUT/bench.log 2>&1; echo bench $?
sed -n '/^Effective bandwidth/,$p' $OUT/bench.log | cut -c1-150 > $OUT/bench_table.txt; head -5 $OUT/bench_table.txt
(cd build/release && timeout 100 ctest -j8 -I 464,477 > $OUT/ctest_rest.log 2>&1; grep -E "tests passed|Failed|\*\*\*" $OUT/ctest_rest.log | tail -5)
