# `simulate` and `output every` evaluated at run time (label runtime): a
# --set of a parameter they use moves the output period and the end time.
add_test(NAME runtime.settings_follow_set
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/settings/settings_test.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_PROPERTY_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include --cc ${CMAKE_C_COMPILER}
          "--cflags=${NSM_PROPERTY_CFLAGS}")
set_tests_properties(runtime.settings_follow_set PROPERTIES LABELS runtime)
