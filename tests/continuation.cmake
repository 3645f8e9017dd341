# Continuation of periodic orbits (label studies): nsmc continue on the
# forced impact oscillator with a clearance, its grazings against the closed
# form and its fold and period doubling against the impact map's fixed point
# in mpmath (tests/studies/continuation_test.py).
add_test(NAME studies.continuation
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/continuation_test.py
          --nsmc $<TARGET_FILE:nsmc> --model ${NSM_SOURCE_DIR}/tests/studies/impact_clearance.nsm)
set_tests_properties(studies.continuation PROPERTIES LABELS studies TIMEOUT 300)
# Two-parameter curves (fold and period doubling in (omega, e), grazing in
# (omega, d)) and branch switching onto the doubled orbit, against the
# impact map in mpmath and the grazing's closed form
# (tests/studies/curves_test.py).
add_test(NAME studies.curves
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/curves_test.py
          --nsmc $<TARGET_FILE:nsmc> --fio ${NSM_SOURCE_DIR}/models/forced_impact_oscillator.nsm
          --clearance ${NSM_SOURCE_DIR}/tests/studies/impact_clearance.nsm)
set_tests_properties(studies.curves PROPERTIES LABELS studies TIMEOUT 900)
# Neimark-Sacker points: a two-degree-of-freedom impact oscillator whose
# period-1 orbit's complex pair leaves the unit circle and comes back,
# against the impact map's fixed point and monodromy in mpmath
# (tests/studies/ns_test.py).
add_test(NAME studies.ns
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/ns_test.py
          --nsmc $<TARGET_FILE:nsmc> --model ${NSM_SOURCE_DIR}/tests/studies/two_dof_impact.nsm)
set_tests_properties(studies.ns PROPERTIES LABELS studies TIMEOUT 600)
