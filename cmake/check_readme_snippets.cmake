# Checks that every line of the README's C++ snippets (```cpp blocks) appears in one of the example
# programs under src/, which the build compiles and the tests run: the README shows only code that
# builds and works. Spaces are compared collapsed, and a snippet line may be part of a longer line.
# Usage: cmake -DREADME=README.md -DEXAMPLES=src -P cmake/check_readme_snippets.cmake

file(READ "${README}" readme)
file(GLOB example_files "${EXAMPLES}/*.cu" "${EXAMPLES}/*.cuh")
set(examples "")
foreach(path IN LISTS example_files)
  file(READ "${path}" text)
  string(APPEND examples "${text}\n")
endforeach()
string(REGEX REPLACE "[ \t]+" " " examples "${examples}")

# Semicolons would split CMake lists: stand them in before splitting into lines.
string(REPLACE ";" "<semicolon>" readme "${readme}")
string(REPLACE ";" "<semicolon>" examples "${examples}")
string(REPLACE "\n" ";" lines "${readme}")

set(in_snippet FALSE)
set(checked 0)
set(missing "")
foreach(line IN LISTS lines)
  if(line MATCHES "^```cpp")
    set(in_snippet TRUE)
  elseif(line MATCHES "^```")
    set(in_snippet FALSE)
  elseif(in_snippet)
    string(REGEX REPLACE "[ \t]+" " " normalized "${line}")
    string(STRIP "${normalized}" normalized)
    if(NOT normalized STREQUAL "")
      math(EXPR checked "${checked} + 1")
      string(FIND "${examples}" "${normalized}" found)
      if(found EQUAL -1)
        string(REPLACE "<semicolon>" ";" shown "${normalized}")
        string(APPEND missing "\n  ${shown}")
      endif()
    endif()
  endif()
endforeach()

if(checked EQUAL 0)
  message(FATAL_ERROR "no C++ snippets found in ${README}")
endif()
if(NOT missing STREQUAL "")
  message(FATAL_ERROR "README snippet lines not found in any example under ${EXAMPLES}:${missing}")
endif()
message(STATUS "${checked} README snippet lines found in the examples")
