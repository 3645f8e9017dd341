# Loops stay loops (label loops): a chain's generated simulator has the
# same lines at 20 and 1000 beads (tests/loops/check_loops.py), for a chain
# of Hertz contacts and one of cubic springs; the 1000-bead Hertz chain's
# first contacts against the two-body closed form.
set(NSM_LOOPS_CFLAGS "-O2")
if(NSM_SANITIZE)
  set(NSM_LOOPS_CFLAGS "-O1 -fsanitize=address,undefined -fno-sanitize-recover=all")
endif()
set(NSM_LOOPS_LIBS "$<TARGET_FILE:nsmcli>:$<TARGET_FILE:nsmrt>")
if(NSM_HAVE_HDF5)
  string(APPEND NSM_LOOPS_LIBS ":${NSM_HDF5_LIBRARY}")
endif()
add_test(NAME loops.hertz_chain
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/loops/check_loops.py
          --nsmc $<TARGET_FILE:nsmc> --chain hertz --run-hertz --lib ${NSM_LOOPS_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include
          --cc ${CMAKE_C_COMPILER} "--cflags=${NSM_LOOPS_CFLAGS}")
add_test(NAME loops.cubic_chain
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/loops/check_loops.py
          --nsmc $<TARGET_FILE:nsmc> --chain cubic)
set_tests_properties(loops.hertz_chain loops.cubic_chain PROPERTIES LABELS loops TIMEOUT 600)
