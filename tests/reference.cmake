# Independent reference solutions (closed-form piecewise solutions in mpmath).
# Each test recomputes one case and compares it with the committed data in
# tests/reference/data, so the references are provably the scripts' output.
set(NSM_REFERENCE_CASES
  selftest two_mass_a two_mass_b two_mass_c sdnd121 sdnd108a sdnd108b sdld29
  sdnd101 zeno_ball bouncing_ball impacting_oscillator ball_two_contacts e1_thousand
  coulomb_oscillator belt_friction friction_two_mass sliding_block
  rotating_ball disc_incline disc_walls disc_corner vibrating_table cart_pendulum
  double_pendulum cart_friction brush_pendulum)
foreach(case ${NSM_REFERENCE_CASES})
  add_test(NAME reference_${case}
    COMMAND ${NSM_PYTHON} -B tests/reference/${case}.py --check
    WORKING_DIRECTORY ${NSM_SOURCE_DIR})
  set_tests_properties(reference_${case} PROPERTIES LABELS reference TIMEOUT 120)
endforeach()
# The friction references search their events on mpmath's matrix exponential
# (tests/reference/friction.py): slower than the eigen-decompositions above.
set_tests_properties(reference_coulomb_oscillator reference_belt_friction
  reference_friction_two_mass reference_sliding_block PROPERTIES TIMEOUT 600)
# The cart carrying a pendulum integrates its Euler-Lagrange equations with
# mp.odefun (tests/reference/cart_pendulum.py): about a minute of CPU.
# So does the double pendulum against a wall (tests/reference/
# double_pendulum.py): about 70 s of CPU.
# The pendulum whose bob brushes a plate (tests/reference/brush_pendulum.py)
# too: about a minute of CPU.
set_tests_properties(reference_cart_pendulum reference_double_pendulum reference_cart_friction
  reference_brush_pendulum PROPERTIES TIMEOUT 900)
# Bodies in space (issue 24): the tippe top's series integration, the super
# ball's impacts and the rolling sphere's onset check their own algebra
# (tests/reference/tippe_top.py, super_ball.py, rolling_sphere.py).  The
# super ball's section in the plane of the throw is compared with
# models/super_ball.nsm by tests/python/test_super_ball.py (python.super_ball).
foreach(case tippe_top super_ball rolling_sphere)
  add_test(NAME reference_${case}_selftest
    COMMAND ${NSM_PYTHON} -B tests/reference/${case}.py --selftest
    WORKING_DIRECTORY ${NSM_SOURCE_DIR})
  set_tests_properties(reference_${case}_selftest PROPERTIES LABELS reference TIMEOUT 300)
endforeach()
