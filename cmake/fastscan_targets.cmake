# One helper per kind of target: tests, benchmarks and examples are declared the same way everywhere.

# fastscan_tests: every program the tests run or compile (test programs, examples), so that the test
# workflow builds them without the benchmarks.
if(NOT TARGET fastscan_tests)
  add_custom_target(fastscan_tests)
endif()

# Warnings for fastscan's own programs (never leaked to consumers of the library). No other flag: the
# tests, examples and benchmarks build as a Thrust user's code builds (no --expt-relaxed-constexpr, no
# --extended-lambda).
function(fastscan_configure_program target)
  target_link_libraries(${target} PRIVATE fastscan::fastscan)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
endfunction()

# nvcc's own warnings (front end, cicc, ptxas) as errors in the programs built against the toolkit's CCCL:
# a warning fastscan's headers raise would appear in every user's build. The host compiler's warnings stay
# warnings (they differ between compiler versions).
function(fastscan_nvcc_warnings_as_errors target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--Werror=all-warnings>)
endfunction()

# fastscan_add_test(NAME source...): a GoogleTest program whose tests ctest discovers at test time.
function(fastscan_add_test name)
  find_package(GTest REQUIRED)
  include(GoogleTest)
  add_executable(${name} ${ARGN})
  fastscan_configure_program(${name})
  fastscan_nvcc_warnings_as_errors(${name})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/test ${PROJECT_BINARY_DIR}/test/generated)
  target_link_libraries(${name} PRIVATE GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${name} NO_PRETTY_TYPES DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 900)
  add_dependencies(fastscan_tests ${name})
endfunction()

# fastscan_add_benchmark(NAME source...): a Google Benchmark program.
function(fastscan_add_benchmark name)
  find_package(benchmark REQUIRED)
  add_executable(${name} ${ARGN})
  fastscan_configure_program(${name})
  fastscan_nvcc_warnings_as_errors(${name})
  target_link_libraries(${name} PRIVATE benchmark::benchmark)
endfunction()

# fastscan_add_example(NAME source...): a program that checks its own results, run as a test when
# tests are built (exit code 77: skipped, no usable GPU).
function(fastscan_add_example name)
  add_executable(${name} ${ARGN})
  fastscan_configure_program(${name})
  fastscan_nvcc_warnings_as_errors(${name})
  if(FASTSCAN_BUILD_TESTS)
    add_test(NAME example.${name} COMMAND ${name})
    set_tests_properties(example.${name} PROPERTIES SKIP_RETURN_CODE 77 LABELS example TIMEOUT 120)
    add_dependencies(fastscan_tests ${name})
  endif()
endfunction()
