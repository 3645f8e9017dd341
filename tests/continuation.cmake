# Continuation of periodic orbits (label studies): nsmc continue on the
# forced impact oscillator with a clearance, its grazings against the closed
# form and its fold and period doubling against the impact map's fixed point
# in mpmath (tests/studies/continuation_test.py).
add_test(NAME studies.continuation
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/continuation_test.py
          --nsmc $<TARGET_FILE:nsmc> --model ${NSM_SOURCE_DIR}/tests/studies/impact_clearance.nsm)
set_tests_properties(studies.continuation PROPERTIES LABELS studies TIMEOUT 300)
