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

# Contacts of bodies in space (docs/theory.md section 19): a sphere of a
# rigid body against a plane as a curved impact gap whose row of W is over
# the velocities, on a table written by hand (tests/unit/test_rigid_contact.c),
# rk4 and adaptive against closed forms: a spinning ball bouncing on a
# tilted plane through its Zeno accumulation to the held slide, a ball
# resting on the plane (lambda = m g cos alpha), an eccentric sphere's first
# impact by Newton's law with W_N = (n, c x n_b), the energy balance, and
# the refusals (friction, other laws, affine gaps over a rotation).
add_executable(test_rigid_contact ${NSM_SOURCE_DIR}/tests/unit/test_rigid_contact.c)
target_include_directories(test_rigid_contact PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_rigid_contact PRIVATE nsmrt m)
add_test(NAME rigid.contact COMMAND test_rigid_contact)
set_tests_properties(rigid.contact PROPERTIES LABELS "unit;runtime;rigid")
