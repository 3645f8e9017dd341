# Contact laws (label runtime): a program adds a law of its own through the
# law interface (runtime/src/law.h) with one registration line; the toy law,
# a restitution falling with the approach speed, runs a bouncing, resting and
# lifted ball, a frictional impact of one and of two contacts and a periodic
# orbit's multipliers against closed forms, and without its registration the
# model is refused.
add_executable(test_toy_law ${NSM_SOURCE_DIR}/tests/laws/test_toy_law.c
  ${NSM_SOURCE_DIR}/tests/laws/toy_law.c ${NSM_SOURCE_DIR}/generated/block_drop.c
  ${NSM_SOURCE_DIR}/generated/forced_impact_oscillator.c ${NSM_SOURCE_DIR}/generated/disc_corner.c)
target_compile_definitions(test_toy_law PRIVATE NSM_NO_MAIN)
target_include_directories(test_toy_law PRIVATE ${NSM_SOURCE_DIR}/runtime/src
  ${NSM_SOURCE_DIR}/tests/laws)
target_link_libraries(test_toy_law PRIVATE nsmrt m)
add_test(NAME laws.toy COMMAND test_toy_law)
add_test(NAME laws.toy_unregistered COMMAND test_toy_law unregistered)
set_tests_properties(laws.toy laws.toy_unregistered PROPERTIES LABELS runtime)
# A damped compliant law of a program's own: its dissipation is a line of
# --summary as the penalty law's is
add_executable(test_damped_law ${NSM_SOURCE_DIR}/tests/laws/test_damped_law.c
  ${NSM_SOURCE_DIR}/generated/sdnd121.c)
target_compile_definitions(test_damped_law PRIVATE NSM_NO_MAIN _POSIX_C_SOURCE=200809L)
target_include_directories(test_damped_law PRIVATE ${NSM_SOURCE_DIR}/runtime/src)
target_link_libraries(test_damped_law PRIVATE nsmcli m)
add_test(NAME laws.damped_summary COMMAND test_damped_law)
set_tests_properties(laws.damped_summary PROPERTIES LABELS runtime)
# A force law of a program's own (the exponential contact force, its Taylor
# series by its own recurrence) with one registration line, by taylor, rk4
# and adaptive against an mpmath quadrature (tests/laws/force_law_ref.py);
# a nonlinear force law in a table that says it is linear is refused; and
# the penalty law released by gap, whose brief flight inside one taylor
# step is found only by the penetration's series (closed_gap_event)
add_executable(test_force_law ${NSM_SOURCE_DIR}/tests/laws/test_force_law.c
  ${NSM_SOURCE_DIR}/tests/laws/force_law.c)
target_include_directories(test_force_law PRIVATE ${NSM_SOURCE_DIR}/runtime/src
  ${NSM_SOURCE_DIR}/tests/laws)
target_link_libraries(test_force_law PRIVATE nsmrt m)
add_test(NAME laws.force COMMAND test_force_law)
add_test(NAME laws.force_unregistered COMMAND test_force_law unregistered)
set_tests_properties(laws.force laws.force_unregistered PROPERTIES LABELS runtime)
