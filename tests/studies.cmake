# Parameter studies (label studies): Poincare sections against closed forms,
# the forced impact oscillator's period-1 orbits against an mpmath reference,
# nsmc sweep.
add_test(NAME studies.sections
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/sections_test.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_PROPERTY_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include --cc ${CMAKE_C_COMPILER}
          "--cflags=${NSM_PROPERTY_CFLAGS}")
set_tests_properties(studies.sections PROPERTIES LABELS studies)
