# The symbolic derivation: the paper's equations asserted symbolically, and
# properties (event-function derivatives against finite differences along the
# flow, w . a = 0 for closed impact gaps, the forcing generator) for every mode
# of hand-built models and of every shipped model.
#
# Run as a script (cmake -P), this file compiles MODEL with NSMC into OUT and
# fails when that writes more than MAX_BYTES (the C grows with the model's
# text; how long nsmc takes is measured in bench/scale_bench.py, not here).
if(CMAKE_SCRIPT_MODE_FILE)
  execute_process(COMMAND ${NSMC} ${MODEL} -o ${OUT} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nsmc failed on ${MODEL}")
  endif()
  file(SIZE ${OUT} size)
  if(size GREATER MAX_BYTES)
    message(FATAL_ERROR "${OUT}: ${size} bytes, more than ${MAX_BYTES}")
  endif()
  message(STATUS "${MODEL}: ${size} bytes")
  return()
endif()

add_executable(test_derive ${NSM_SOURCE_DIR}/tests/unit/test_derive.c)
target_link_libraries(test_derive PRIVATE nsmcore)
file(GLOB NSM_DERIVE_MODELS CONFIGURE_DEPENDS ${NSM_SOURCE_DIR}/models/*.nsm)
list(SORT NSM_DERIVE_MODELS)
add_test(NAME derive.unit COMMAND test_derive ${NSM_DERIVE_MODELS}
  ${NSM_SOURCE_DIR}/tests/unit/chain5.nsm ${NSM_SOURCE_DIR}/tests/unit/mixed_gaps.nsm)
set_tests_properties(derive.unit PROPERTIES LABELS "unit;derive")

# chain20 (20 masses, 19 impact gaps) must compile into a small file.
add_test(NAME derive.chain20_size
  COMMAND ${CMAKE_COMMAND} -DNSMC=$<TARGET_FILE:nsmc> -DMODEL=${NSM_SOURCE_DIR}/models/chain20.nsm
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/chain20_size.c -DMAX_BYTES=100000
          -P ${NSM_SOURCE_DIR}/tests/derive.cmake)
set_tests_properties(derive.chain20_size PROPERTIES LABELS derive TIMEOUT 10)

# A 2000-bead chain with 1999 gaps: its `for` loops stay loops in the C, so
# the file holds the tables of names (about 150 bytes a bead) and a constant
# amount of code; written out statement by statement it was about 2.5 MB.
add_test(NAME derive.chain2000_size
  COMMAND ${CMAKE_COMMAND} -DNSMC=$<TARGET_FILE:nsmc> -DMODEL=${NSM_SOURCE_DIR}/tests/unit/chain2000.nsm
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/chain2000_size.c -DMAX_BYTES=400000
          -P ${NSM_SOURCE_DIR}/tests/derive.cmake)
set_tests_properties(derive.chain2000_size PROPERTIES LABELS derive TIMEOUT 60)

# cradle6 (6 beads, 5 impact gaps: all 2^5 modes written out) stays small:
# the modes are corrections of the free mode, the 31 closed sets a few lines
# each, S^-1 bordered set by set (written as 32 complete mode functions with
# eliminated inverses it was 146 kB).
add_test(NAME derive.cradle6_size
  COMMAND ${CMAKE_COMMAND} -DNSMC=$<TARGET_FILE:nsmc> -DMODEL=${NSM_SOURCE_DIR}/models/cradle6.nsm
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/cradle6_size.c -DMAX_BYTES=50000
          -P ${NSM_SOURCE_DIR}/tests/derive.cmake)
set_tests_properties(derive.cradle6_size PROPERTIES LABELS derive TIMEOUT 10)

# A nonlinear model's generated Taylor coefficients (nl_series), curved gap
# (nl_gap) and state-dependent forces (nl_force) against references computed
# independently in the test: Cauchy integrals of the same expressions in
# complex arithmetic, a closed form, finite differences.
add_custom_command(
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/nl_series_model.c
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/unit/nl_series.nsm -o ${CMAKE_CURRENT_BINARY_DIR}/nl_series_model.c
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/unit/nl_series.nsm
  COMMENT "nsmc: tests/unit/nl_series.nsm"
  VERBATIM)
add_executable(test_nl_series ${NSM_SOURCE_DIR}/tests/unit/test_nl_series.c
  ${CMAKE_CURRENT_BINARY_DIR}/nl_series_model.c)
target_compile_definitions(test_nl_series PRIVATE NSM_NO_MAIN)
target_include_directories(test_nl_series PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_nl_series PRIVATE m)
add_test(NAME derive.nl_series COMMAND test_nl_series)
set_tests_properties(derive.nl_series PROPERTIES LABELS "unit;derive" TIMEOUT 20)

# Time switches affine in t (tests/switches/affine_test.py): which switch
# functions nsmc marks as a + b t, and that each marked model's runs by
# exact, rk4 and adaptive are the same bytes without the mark.
set(NSM_AFFINE_CFLAGS "-O2")
if(NSM_SANITIZE)
  set(NSM_AFFINE_CFLAGS "-O1 -fsanitize=address,undefined -fno-sanitize-recover=all")
endif()
set(NSM_AFFINE_LIBS "$<TARGET_FILE:nsmcli>:$<TARGET_FILE:nsmrt>")
if(NSM_HAVE_HDF5)
  string(APPEND NSM_AFFINE_LIBS ":${NSM_HDF5_LIBRARY}")
endif()
add_test(NAME derive.switch_affine
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/switches/affine_test.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_AFFINE_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include
          --cc ${CMAKE_C_COMPILER} "--cflags=${NSM_AFFINE_CFLAGS}")
set_tests_properties(derive.switch_affine PROPERTIES LABELS "derive;generated" TIMEOUT 600)
