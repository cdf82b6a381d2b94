#!/usr/bin/env bash
# compute-sanitizer over a representative subset: every policy, sizes up to 2^20 (racecheck, synccheck:
# 2^18), which is hundreds of tiles for the single-pass look-back.
# Usage: test/sanitize.sh BUILD_DIR LOG_DIR
set -u
build=${1:-build/release}; logs=${2:-.}
status=0
mkdir -p "$logs"
run() {  # tool, log name, program, filter
  local tool=$1 name=$2 program=$3 filter=$4
  if compute-sanitizer --tool "$tool" --error-exitcode 3 "$build/test/$program" --gtest_filter="$filter" \
      > "$logs/$name.log" 2>&1; then
    echo "$name: clean ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/$name.log" | tail -1))"
  else
    echo "$name: FAILED"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Invalid|Race|hazard|FAILED" "$logs/$name.log" | head -5
    status=1
  fi
}
export FASTSCAN_TEST_MAX_N=1048576
for a in matrix blelloch hillis_steele; do
  run memcheck "memcheck_$a" "scan_${a}_test" '*ExclusiveScanInit*:*Int8*:*Int64*:*Affine3d*:*Mixed*:*TransformInclusiveScanInit*' &
done
run memcheck memcheck_interface scan_interface_test '*' &
wait
run memcheck memcheck_single_pass single_pass_test '*LookBack*:*Failed*:*Graph*:*Tags*' &
run memcheck memcheck_staged_tiles single_pass_test '*staged_tiles_test*' &
run memcheck memcheck_deterministic deterministic_test '*IntegerResultsExact*' &
wait
for a in matrix matrix_deterministic blelloch hillis_steele; do
  run memcheck "memcheck_by_key_$a" "scan_by_key_${a}_test" '*EveryLayout*:*NonCommutative*:*InPlace*' &
done
wait
# The deterministic drivers with every type (their recursion over tile totals); the trees' deterministic
# and multi-pass policies are in deterministic_test's run above.
run memcheck memcheck_matrix_deterministic scan_matrix_deterministic_test '*ExclusiveScanInit*:*Int64*:*Affine3d*:*Mixed*' &
wait
# Large elements (dynamic shared memory, block storage in global memory), narrow and vector types.
run memcheck memcheck_compat_large compat_large_types_test '*' &
run memcheck memcheck_compat_types compat_types_test '*NarrowTypes*:*SixteenByte*' &
wait
export FASTSCAN_TEST_MAX_N=262144
run racecheck racecheck_compat_large compat_large_types_test '*/matrix.*' &
for a in matrix blelloch hillis_steele; do
  run racecheck "racecheck_$a" "scan_${a}_test" '*ExclusiveScanInit*:*Int8*:*Affine3d*' &
done
run racecheck racecheck_interface scan_interface_test '*InPlace*:*Discard*' &
run racecheck racecheck_single_pass single_pass_test '*LookBack*' &
run racecheck racecheck_staged_tiles single_pass_test '*staged_tiles_test*' &
wait
run synccheck synccheck_single_pass single_pass_test '*LookBack*' &
run synccheck synccheck_staged_tiles single_pass_test '*staged_tiles_test*' &
run synccheck synccheck_by_key_matrix scan_by_key_matrix_test '*ExclusiveWithInitEveryLayout*' &
wait
for a in matrix matrix_deterministic blelloch hillis_steele; do
  run racecheck "racecheck_by_key_$a" "scan_by_key_${a}_test" '*ExclusiveWithInitEveryLayout*:*BackwardNonCommutative*' &
done
wait
# The deterministic single pass (tile and group statuses) and the scan by key's key chunks of every width.
run memcheck memcheck_deterministic_single_pass deterministic_test '*EqualsTheHostFormula*:*SameBitsOnEvery*' &
run racecheck racecheck_deterministic_single_pass deterministic_test '*EqualsTheHostFormula*' &
run synccheck synccheck_deterministic_single_pass deterministic_test '*EqualsTheHostFormula*' &
run memcheck memcheck_by_key_widths scan_by_key_widths_test '*' &
wait
# The pipelined single pass (bulk copies into a ring of stages, mbarriers, warp roles), its size rule
# lowered by the test to small calls, grids of at most three blocks going round their rings.
export FASTSCAN_TEST_MAX_N=400000
run memcheck memcheck_pipelined single_pass_test '*PipelinedSinglePassLowered*' &
run racecheck racecheck_pipelined single_pass_test '*PipelinedSinglePassLowered*AtMost3Blocks' &
run synccheck synccheck_pipelined single_pass_test '*PipelinedSinglePassLowered*' &
wait
# Its compaction (the reduce warps leave each item's flag in the stage for the scan warps).
run memcheck memcheck_pipelined_select select_test 'pipelined_select.*' &
run racecheck racecheck_pipelined_select select_test 'pipelined_select.*' &
run synccheck synccheck_pipelined_select select_test 'pipelined_select.*' &
wait
export FASTSCAN_TEST_MAX_N=1048576
# Stream compaction (the select kernel): every policy family and operation, sizes up to the cap.
run memcheck memcheck_select select_test '*CopyIfKeeps*:*PartitionCopy*:*PartitionInPlace*:*Unique*:*EveryElementWidth*' &
run racecheck racecheck_select select_test '*/matrix.*Unique*:*/blelloch.*PartitionCopy*:*/hillis_steele.*RemoveInPlace*' &
run synccheck synccheck_select select_test '*/matrix.*PartitionInPlace*:*/blelloch.*EveryElementWidth*' &
wait
# Radix sort (histogram, digit starts, onesweep passes, gather): every family, keys and pairs, portions.
export FASTSCAN_TEST_MAX_N=262144
run memcheck memcheck_sort sort_test '*SortsKeys*:*SortsPairs*:*Portions*:*SixtyFour*:*FewDistinct*' &
run memcheck memcheck_sort_types sort_types_test '*/matrix.*' &
run racecheck racecheck_sort sort_test '*/matrix.*SortsPairs*:*/blelloch.*Portions*:*/hillis_steele.*SortsKeys*:*/matrix.*FewDistinct*' &
run synccheck synccheck_sort sort_test '*/matrix.*SortsPairs*:*/blelloch.*SortsKeys*:*/matrix.*FewDistinct*' &
wait
# reduce_by_key and unique_by_key (the one-pass reduce_by_key kernel, its runs compacted in shared memory).
run memcheck memcheck_by_key_reduction by_key_reduction_test '*ReduceByKey*:*UniqueByKey*' &
run racecheck racecheck_by_key_reduction by_key_reduction_test '*/matrix.*ReduceByKeyMatchesPar*:*/matrix.*OfEveryChunkWidth*:*/blelloch.*ReduceByKeyOperators*' &
run synccheck synccheck_by_key_reduction by_key_reduction_test '*/matrix.*ReduceByKeyMatchesPar*:*/matrix.*OfEveryChunkWidth*:*/hillis_steele.*ReduceByKeyOperators*' &
wait
# The runs went to the background, so judge them by their logs.
for log in "$logs"/memcheck_*.log "$logs"/racecheck_*.log "$logs"/synccheck_*.log; do
  grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" "$log" && grep -q "PASSED" "$log" || status=1
done
exit $status
