# The .nsm front end: golden files, documentation examples, models, command
# line, unit tests of sema and units, and the fuzz regression replay.

# Golden tests: one ctest test per expectation file, kind chosen by extension
# (see tests/golden.py, which also knows .eq and .eqmd).
file(GLOB_RECURSE NSM_GOLDEN_FILES CONFIGURE_DEPENDS
  ${NSM_SOURCE_DIR}/tests/golden/*.ast ${NSM_SOURCE_DIR}/tests/golden/*.err
  ${NSM_SOURCE_DIR}/tests/golden/*.tokens ${NSM_SOURCE_DIR}/tests/golden/*.eq
  ${NSM_SOURCE_DIR}/tests/golden/*.eqmd)
foreach(expect ${NSM_GOLDEN_FILES})
  file(RELATIVE_PATH rel ${NSM_SOURCE_DIR} ${expect})
  string(REGEX REPLACE "^tests/" "" name ${rel})
  add_test(NAME ${name}
    COMMAND ${NSM_PYTHON} tests/golden.py --nsmc $<TARGET_FILE:nsmc> ${rel}
    WORKING_DIRECTORY ${NSM_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS "golden;frontend")
endforeach()

# Every example in the language reference.
add_test(NAME frontend/doc_examples
  COMMAND ${NSM_PYTHON} tests/doc_examples.py $<TARGET_FILE:nsmc> docs/language.md
  WORKING_DIRECTORY ${NSM_SOURCE_DIR})
set_tests_properties(frontend/doc_examples PROPERTIES LABELS frontend)

# The model shown in the README.
add_test(NAME frontend/readme_example
  COMMAND ${NSM_PYTHON} tests/doc_examples.py $<TARGET_FILE:nsmc> README.md
  WORKING_DIRECTORY ${NSM_SOURCE_DIR})
set_tests_properties(frontend/readme_example PROPERTIES LABELS frontend)

# Every shipped model is valid.
file(GLOB NSM_MODELS CONFIGURE_DEPENDS ${NSM_SOURCE_DIR}/models/*.nsm)
foreach(model ${NSM_MODELS})
  get_filename_component(stem ${model} NAME_WE)
  add_test(NAME frontend/check_model/${stem} COMMAND nsmc --check ${model})
  set_tests_properties(frontend/check_model/${stem} PROPERTIES LABELS frontend)
endforeach()

add_test(NAME frontend/command_line
  COMMAND sh ${NSM_SOURCE_DIR}/tests/cli_test.sh $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR})
set_tests_properties(frontend/command_line PROPERTIES LABELS frontend)

add_executable(frontend_test ${NSM_SOURCE_DIR}/tests/frontend_test.c)
target_link_libraries(frontend_test PRIVATE nsmcore)
add_test(NAME frontend/model_and_units COMMAND frontend_test)
set_tests_properties(frontend/model_and_units PROPERTIES LABELS frontend)

# Fuzz regressions and seeds, replayed without libFuzzer.
add_executable(fuzz_replay ${NSM_SOURCE_DIR}/tests/fuzz/fuzz_frontend.c
                           ${NSM_SOURCE_DIR}/tests/fuzz/replay.c)
target_link_libraries(fuzz_replay PRIVATE nsmcore)
file(GLOB NSM_FUZZ_INPUTS CONFIGURE_DEPENDS ${NSM_SOURCE_DIR}/tests/fuzz/regressions/*
                                            ${NSM_SOURCE_DIR}/tests/fuzz/corpus/*)
add_test(NAME frontend/fuzz_regressions COMMAND fuzz_replay ${NSM_FUZZ_INPUTS})
set_tests_properties(frontend/fuzz_regressions PROPERTIES LABELS frontend)

# libFuzzer harness: cmake -DNSM_FUZZ=ON -DCMAKE_C_COMPILER=clang (docs/fuzzing.md).
if(NSM_FUZZ)
  add_executable(fuzz_frontend ${NSM_SOURCE_DIR}/tests/fuzz/fuzz_frontend.c)
  target_link_libraries(fuzz_frontend PRIVATE nsmcore)
  target_compile_options(fuzz_frontend PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_options(fuzz_frontend PRIVATE -fsanitize=fuzzer,address,undefined)
endif()

# More gaps than a 32-bit word holds: a mode is a set of any size, so the
# model is generated like any other, without a warning.
add_test(NAME frontend/gaps33
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/unit/gaps33.nsm -o ${CMAKE_CURRENT_BINARY_DIR}/gaps33.c)
set_tests_properties(frontend/gaps33 PROPERTIES LABELS frontend
  FAIL_REGULAR_EXPRESSION "warning|error")
