# Models written by their energies (label lagrange): nsmc's Euler-Lagrange
# derivation of M(q), h(q, v), the generalized forces and the gaps' rows,
# against equations written by hand and against mpmath's numerical
# differentiation of the energies (tests/lagrange/check_equations.py).
add_test(NAME lagrange.equations
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/lagrange/check_equations.py
          --nsmc $<TARGET_FILE:nsmc>)
set_tests_properties(lagrange.equations PROPERTIES LABELS "lagrange;frontend")
# The cart carrying a pendulum (models/cart_pendulum.nsm) run by rk4,
# adaptive and taylor against the mpmath reference
# tests/reference/cart_pendulum.py:
# impact times and the velocities on both sides of each impact (the
# impulse problem with M(q) at the impact configuration), the states every
# 0.1 s, the horizontal momentum between impacts and its jump equal to the
# impulse, and the energy balance with T = 1/2 v^T M(q) v and V(q).
# taylor (M_0 a_k = f_k - sum_{j>=1} M_j a_{k-j}) is held to the issue's
# targets: events within 1e-12 s, states within 1e-10, balance 1e-10.
set(NSM_LAG_CFLAGS "-O2")
if(NSM_SANITIZE)
  set(NSM_LAG_CFLAGS "-O1 -fsanitize=address,undefined -fno-sanitize-recover=all")
endif()
set(NSM_LAG_LIBS "$<TARGET_FILE:nsmcli>:$<TARGET_FILE:nsmrt>")
if(NSM_HAVE_HDF5)
  string(APPEND NSM_LAG_LIBS ":${NSM_HDF5_LIBRARY}")
endif()
# nsm_lag_check(NAME SCRIPT METHOD... [ARGS ARG...]): test
# lagrange.NAME.METHOD runs tests/lagrange/SCRIPT.py (with ARGS), which
# builds the model's simulator against the runtime and compares it with its
# reference, once per method.
function(nsm_lag_check name script)
  cmake_parse_arguments(PARSE_ARGV 2 L "" "" "ARGS")
  foreach(method ${L_UNPARSED_ARGUMENTS})
    add_test(NAME lagrange.${name}.${method}
      COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/lagrange/${script}.py
              --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_LAG_LIBS}
              --include ${NSM_SOURCE_DIR}/runtime/include ${L_ARGS}
              --cc ${CMAKE_C_COMPILER} "--cflags=${NSM_LAG_CFLAGS}" --method ${method})
    set_tests_properties(lagrange.${name}.${method} PROPERTIES LABELS lagrange TIMEOUT 600)
  endforeach()
endfunction()
nsm_lag_check(cart_pendulum check_cart rk4 adaptive taylor)
# A damped spring pendulum thrown against a wall (tests/lagrange/
# spring_wall.nsm: M(q) = diag(m, m r^2), a curved gap, a spring, a damper
# and a torque on the coordinates): its impact's time, normal velocities
# and impulse against mp.odefun on the hand-written equations, computed by
# the test, the state at t_end after the impact, and the energy balance.
nsm_lag_check(spring_wall check_spring rk4 adaptive taylor)
# A double pendulum whose lower bob strikes a wall (models/
# double_pendulum.nsm: M(q) with the off-diagonal m2 l1 l2 cos(a - b), a
# curved gap) run by rk4, adaptive and taylor against the mpmath reference
# tests/reference/double_pendulum.py (hand-written equations, mp.odefun at
# 30 digits, the impacts by bisection and Newton's law with M(q) by hand):
# impact times, angular velocities on both sides of each impact, the
# states every 0.1 s and the energy balance.
nsm_lag_check(double_pendulum check_double rk4 adaptive taylor)
# Friction with M(q): a cart on a rough floor carrying a pendulum
# (models/cart_friction.nsm, the friction's normal force the held floor's
# contact force) run by rk4, adaptive and taylor against the mpmath
# reference tests/reference/cart_friction.py: every stick and slip
# instant, the states every 0.1 s, the friction work and the energy
# balance; taylor (the stuck and slipping forces in the order-k problem
# with M_0's factor) to the issue's targets, 1e-12 s, 1e-10, 1e-10.
nsm_lag_check(cart_friction check_friction rk4 adaptive taylor)
# A slip with a coefficient of the configuration: a pendulum on a sprung
# cart whose bob brushes a rough plate (tests/lagrange/brush_pendulum.nsm,
# slip C' + l cos(th) th', a constant normal force, no gap) run by rk4,
# adaptive and taylor against the mpmath reference tests/reference/
# brush_pendulum.py: the stick, slip and reversal instants, the states
# every 0.1 s, the friction work (integrated, and the summary's line for
# the element) and the energy balance.  The model has curved slips and no
# gap: rt_nl_rates (nonlin.c) once called the missing gap function there
# and crashed, under every method.
nsm_lag_check(brush_pendulum check_friction rk4 adaptive taylor ARGS --case brush_pendulum)
# A frictional impact with M(q): the cart and pendulum dropped on the
# rough floor (tests/lagrange/cart_drop.nsm), each impact's normal and
# tangential impulses and the velocities after it against the closed form
# of the impulse problem with M(q) at the impact configuration.
nsm_lag_check(cart_drop check_drop rk4 adaptive taylor)
# The summary's work per coordinate and per `force` statement when the
# forces depend on the state (tests/lagrange/work_split.nsm: a cubic force
# on the cart, a torque -b sin(th) on the pendulum) against the closed
# forms of their potentials at the final state; the lines were 0 and the
# work all "other" before (stats.c took only the time-dependent forces).
nsm_lag_check(work_split check_split rk4 adaptive taylor)
# A Zeno cascade with a dense mass matrix: a body whose kinetic energy
# couples its two coordinates (tests/lagrange/skew_zeno.nsm, constant
# M = [[a, b], [b, c]]) bouncing to rest on a floor; the first impact, the
# velocity the impulse gives the other coordinate (M^-1 w^T), the
# accumulation point t1 (1 + e) / (1 - e) and the rest state (momentum
# a X' + b Y' kept) against closed forms (tests/lagrange/check_zeno.py).
nsm_lag_check(skew_zeno check_zeno rk4 adaptive taylor)
