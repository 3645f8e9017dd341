# Bodies in space (docs/theory.md section 19, docs/validation.md "Bodies in
# space"): the runtime's state layout Y = (q[nq], u[nu], E_d, E_w) with a
# quaternion per rigid body, on a model table written by hand
# (tests/unit/test_rigid.c), run by rk4 and adaptive against closed forms:
# the torque-free symmetric top's rates and precession, an asymmetric
# body's energy and angular momentum, free fall, |p| = 1, and the methods
# and studies that refuse such a state.
add_executable(test_rigid ${NSM_SOURCE_DIR}/tests/unit/test_rigid.c)
target_include_directories(test_rigid PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_rigid PRIVATE nsmrt m)
add_test(NAME rigid.runtime COMMAND test_rigid)
set_tests_properties(rigid.runtime PROPERTIES LABELS "unit;runtime;rigid")
