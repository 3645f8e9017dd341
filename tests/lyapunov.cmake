# Lyapunov exponents, basins of attraction (label studies).
# The spectrum of the forced impact oscillator's period-1 orbits against the
# mpmath reference's multipliers (lambda = log|mu| / T)
add_executable(lyapunov_period1_test ${NSM_SOURCE_DIR}/tests/studies/lyapunov_period1_test.c
  ${NSM_SOURCE_DIR}/generated/forced_impact_oscillator.c)
target_compile_definitions(lyapunov_period1_test PRIVATE NSM_NO_MAIN)
target_link_libraries(lyapunov_period1_test PRIVATE nsmrt m)
add_test(NAME studies.lyapunov_period1
  COMMAND lyapunov_period1_test
          ${NSM_SOURCE_DIR}/tests/reference/data/forced_impact_oscillator.period1.csv)
set_tests_properties(studies.lyapunov_period1 PROPERTIES LABELS studies)
