# Builds test/consumer as a user would, one way per call, with no flag beyond the language standard and
# the GPU architecture, then runs it (exit 77, no usable GPU: built, not run): plain nvcc builds the whole
# drop-in program, find_package and add_subdirectory its first call only (the packaging's check).
#   cmake -DMODE=<plain_nvcc|find_package|add_subdirectory> -DSTANDARD=<17|20> -DSOURCE_DIR=<fastscan>
#         -DBUILD_DIR=<fastscan's configured build> -DWORK_DIR=<scratch> -DCUDA_COMPILER=<nvcc>
#         -DARCHITECTURES=<CMAKE_CUDA_ARCHITECTURES, comma-separated> -DGENERATOR=<generator>
#         -P check_consumer.cmake
cmake_minimum_required(VERSION 3.25)
string(REPLACE "," ";" ARCHITECTURES "${ARCHITECTURES}")

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${output}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
set(app ${SOURCE_DIR}/test/consumer/app.cu)

if(MODE STREQUAL "plain_nvcc")
  # The first architecture of the list, as nvcc spells it (90, 90-real, 90-virtual, native, all...).
  list(GET ARCHITECTURES 0 first)
  string(REGEX REPLACE "-(real|virtual)$" "" first "${first}")
  if(first MATCHES "^[0-9]+[af]?$")
    set(arch_flag -arch=sm_${first})
  else()
    set(arch_flag -arch=${first})
  endif()
  set(program ${WORK_DIR}/consumer)
  run_step("nvcc -std=c++${STANDARD} ${arch_flag} -I include"
           ${CUDA_COMPILER} -std=c++${STANDARD} ${arch_flag} -I ${SOURCE_DIR}/include ${app} -o ${program})
else()
  set(options -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}
              "-DCMAKE_CUDA_ARCHITECTURES=${ARCHITECTURES}" -DCMAKE_CUDA_STANDARD=${STANDARD}
              -DFASTSCAN_CONSUME=${MODE})
  if(MODE STREQUAL "find_package")
    run_step("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
    list(APPEND options -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
  elseif(MODE STREQUAL "add_subdirectory")
    list(APPEND options -DFASTSCAN_SOURCE_DIR=${SOURCE_DIR})
  else()
    message(FATAL_ERROR "unknown MODE '${MODE}'")
  endif()
  run_step("configuring the consumer (${MODE})" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/test/consumer -B ${WORK_DIR}/build ${options})
  run_step("building the consumer (${MODE})" ${CMAKE_COMMAND} --build ${WORK_DIR}/build)
  set(program ${WORK_DIR}/build/consumer)
endif()

execute_process(COMMAND ${program} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(status EQUAL 77)
  message(STATUS "consumer (${MODE}, C++${STANDARD}) built; ${output}")
elseif(NOT status EQUAL 0)
  message(FATAL_ERROR "consumer (${MODE}, C++${STANDARD}) built but failed (${status}):\n${output}")
else()
  message(STATUS "consumer (${MODE}, C++${STANDARD}): ${output}")
endif()
