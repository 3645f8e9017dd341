# Models written by their energies (label lagrange): nsmc's Euler-Lagrange
# derivation of M(q), h(q, v), the generalized forces and the gaps' rows,
# against equations written by hand and against mpmath's numerical
# differentiation of the energies (tests/lagrange/check_equations.py).
add_test(NAME lagrange.equations
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/lagrange/check_equations.py
          --nsmc $<TARGET_FILE:nsmc>)
set_tests_properties(lagrange.equations PROPERTIES LABELS "lagrange;frontend")
