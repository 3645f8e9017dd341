# Parameter studies (label studies): Poincare sections against closed forms,
# the forced impact oscillator's period-1 orbits against an mpmath reference,
# nsmc sweep.
add_test(NAME studies.sections
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/sections_test.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_PROPERTY_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include --cc ${CMAKE_C_COMPILER}
          "--cflags=${NSM_PROPERTY_CFLAGS}")
set_tests_properties(studies.sections PROPERTIES LABELS studies)
add_test(NAME studies.impact_oscillator_period1
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/period1_test.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_PROPERTY_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include --cc ${CMAKE_C_COMPILER}
          "--cflags=${NSM_PROPERTY_CFLAGS}")
set_tests_properties(studies.impact_oscillator_period1 PROPERTIES LABELS studies)
# the reference itself: recomputed and compared with its committed data
add_test(NAME reference_forced_impact_oscillator
  COMMAND ${NSM_PYTHON} -B tests/reference/forced_impact_oscillator.py --check
  WORKING_DIRECTORY ${NSM_SOURCE_DIR})
set_tests_properties(reference_forced_impact_oscillator PROPERTIES LABELS reference TIMEOUT 300)
