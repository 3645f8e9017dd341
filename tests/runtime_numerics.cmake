# Unit tests of the runtime's numerical kernels (dense linear algebra, matrix
# exponential, Van Loan integrals, LCP) against closed forms. The kernels are
# compiled straight into the test so it does not depend on the rest of nsmrt.
set(NSM_LINALG_SOURCES
  ${NSM_SOURCE_DIR}/runtime/src/linalg.c
  ${NSM_SOURCE_DIR}/runtime/src/expm.c
  ${NSM_SOURCE_DIR}/runtime/src/lcp.c)

add_executable(test_linalg ${NSM_SOURCE_DIR}/tests/unit/test_linalg.c ${NSM_LINALG_SOURCES})
target_include_directories(test_linalg PRIVATE ${NSM_SOURCE_DIR}/runtime/src)
target_link_libraries(test_linalg PRIVATE m)
add_test(NAME runtime.linalg COMMAND test_linalg)
set_tests_properties(runtime.linalg PROPERTIES LABELS "unit;runtime")

# Micro-benchmark (not a test): `cmake --build . --target bench_linalg`.
add_executable(bench_linalg EXCLUDE_FROM_ALL ${NSM_SOURCE_DIR}/bench/bench_linalg.c ${NSM_LINALG_SOURCES})
target_include_directories(bench_linalg PRIVATE ${NSM_SOURCE_DIR}/runtime/src)
target_link_libraries(bench_linalg PRIVATE m)

# Energy terms: hand computations and the exact energy balance of a step.
add_executable(test_energy ${NSM_SOURCE_DIR}/tests/unit/test_energy.c
  ${NSM_SOURCE_DIR}/runtime/src/energy.c ${NSM_LINALG_SOURCES})
target_include_directories(test_energy PRIVATE ${NSM_SOURCE_DIR}/runtime/src ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_energy PRIVATE m)
add_test(NAME runtime.energy COMMAND test_energy)
set_tests_properties(runtime.energy PROPERTIES LABELS "unit;runtime")

# The exact method's first-zero search on polynomials with known zeros.
add_executable(test_taylor ${NSM_SOURCE_DIR}/tests/unit/test_taylor.c)
target_include_directories(test_taylor PRIVATE ${NSM_SOURCE_DIR}/runtime/src ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_taylor PRIVATE nsmrt m)
add_test(NAME runtime.taylor COMMAND test_taylor)
set_tests_properties(runtime.taylor PROPERTIES LABELS "unit;runtime")

# The locator's shared pieces (locate.c, rt.h): Horner's rule, one loop for
# the vector and the scalar sums (-0 kept), and the shared bracket with and
# without a caller's tolerance (the continuation's).
add_executable(test_locate ${NSM_SOURCE_DIR}/tests/unit/test_locate.c)
target_include_directories(test_locate PRIVATE ${NSM_SOURCE_DIR}/runtime/src ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_locate PRIVATE nsmrt m)
add_test(NAME runtime.locate COMMAND test_locate)
set_tests_properties(runtime.locate PROPERTIES LABELS "unit;runtime")

# The exact method's large-model path (the mode as an operator, modeop.c)
# against closed forms and against its dense path, forced on a 20-bead
# chain (tests/unit/beads20.nsm) through the simulation's dense_na.
set(NSM_BEADS20_C ${CMAKE_CURRENT_BINARY_DIR}/beads20.c)
add_custom_command(OUTPUT ${NSM_BEADS20_C}
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/unit/beads20.nsm -o ${NSM_BEADS20_C}
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/unit/beads20.nsm
  VERBATIM)
add_executable(test_exact_large ${NSM_SOURCE_DIR}/tests/unit/test_exact_large.c ${NSM_BEADS20_C})
target_compile_definitions(test_exact_large PRIVATE NSM_NO_MAIN)
target_include_directories(test_exact_large PRIVATE ${NSM_SOURCE_DIR}/runtime/src ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_exact_large PRIVATE nsmrt m)
add_test(NAME runtime.exact_large COMMAND test_exact_large)
set_tests_properties(runtime.exact_large PROPERTIES LABELS "unit;runtime;numeric")

# The run loop's per-step test of the time resolution (message.c:
# rt_t_resolved, which skips nextafter above a bound) against RT_T_RES ulps
# taken from frexp's exponent.
add_executable(test_t_resolved ${NSM_SOURCE_DIR}/tests/unit/test_t_resolved.c)
target_include_directories(test_t_resolved PRIVATE ${NSM_SOURCE_DIR}/runtime/src ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_t_resolved PRIVATE nsmrt m)
add_test(NAME runtime.t_resolved COMMAND test_t_resolved)
set_tests_properties(runtime.t_resolved PROPERTIES LABELS "unit;runtime")

# The runtime's Horner sums (rt.h: rt_poly_eval2, RT_HORNER_N; taylor.c:
# rt_taylor_sum) against explicit sums exact in long double, and the same
# bits whether summed at 1 without the products, or side by side.
add_executable(test_horner ${NSM_SOURCE_DIR}/tests/unit/test_horner.c)
target_include_directories(test_horner PRIVATE ${NSM_SOURCE_DIR}/runtime/src ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_horner PRIVATE nsmrt m)
add_test(NAME runtime.horner COMMAND test_horner)
set_tests_properties(runtime.horner PROPERTIES LABELS "unit;runtime")
