# `simulate` and `output every` evaluated at run time (label runtime): a
# --set of a parameter they use moves the output period and the end time.
add_test(NAME runtime.settings_follow_set
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/settings/settings_test.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_PROPERTY_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include --cc ${CMAKE_C_COMPILER}
          "--cflags=${NSM_PROPERTY_CFLAGS}")
set_tests_properties(runtime.settings_follow_set PROPERTIES LABELS runtime)
# The model's dt caps exact's steps with a one-line note; --dt 0 lifts the
# cap, the samples stay every `output every`, the events where they were.
add_test(NAME runtime.exact_dt
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/settings/exact_dt_test.py
          ${CMAKE_BINARY_DIR}/sims/sim_two_mass)
set_tests_properties(runtime.exact_dt PROPERTIES LABELS runtime)
