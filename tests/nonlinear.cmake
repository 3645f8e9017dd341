# Nonlinear models (label nonlinear): the taylor method and the nonlinear
# paths of rk4 and adaptive against independent mpmath references
# (tests/nonlinear/refs.py: closed forms and mp.odefun), and the property
# test on random nonlinear models (tests/nonlinear/property_nl.py).
set(NSM_NL_CFLAGS "-O2")
if(NSM_SANITIZE)
  set(NSM_NL_CFLAGS "-O1 -fsanitize=address,undefined -fno-sanitize-recover=all")
endif()
set(NSM_NL_LIBS "$<TARGET_FILE:nsmcli>:$<TARGET_FILE:nsmrt>")
if(NSM_HAVE_HDF5)
  string(APPEND NSM_NL_LIBS ":${NSM_HDF5_LIBRARY}")
endif()
# nonlinear.CASE.METHOD for each method: tests/nonlinear/check_nl.py runs
# the case's model with that method against its reference.
function(nsm_nl_check case)
  foreach(method ${ARGN})
    add_test(NAME nonlinear.${case}.${method}
      COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/nonlinear/check_nl.py
              --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_NL_LIBS}
              --include ${NSM_SOURCE_DIR}/runtime/include
              --cc ${CMAKE_C_COMPILER} "--cflags=${NSM_NL_CFLAGS}"
              --case ${case} --method ${method})
    set_tests_properties(nonlinear.${case}.${method} PROPERTIES LABELS nonlinear TIMEOUT 600)
  endforeach()
endfunction()
add_test(NAME nonlinear.property
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/nonlinear/property_nl.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_NL_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include --seeds 9
          --cc ${CMAKE_C_COMPILER} "--cflags=${NSM_NL_CFLAGS}")
set_tests_properties(nonlinear.property PROPERTIES LABELS "nonlinear;property" TIMEOUT 900)
foreach(case pendulum hertz discs duffing chain)
  nsm_nl_check(${case} taylor rk4 adaptive)
endforeach()
# Friction in models whose forces depend on the state (constant contact
# geometry), against quadratures of the energy at 50 digits
# (refs.duffing_coulomb, refs.belt_duffing): reversals and a final stick,
# a constant normal force or a held floor's contact force; a belt's
# stick-slip cycle (slip onsets from the cubic spring at the current state).
foreach(case duffing_coulomb duffing_floor belt_duffing)
  nsm_nl_check(${case} taylor rk4 adaptive)
endforeach()
# A Hertz floor as a friction element's normal force (the block bounces
# off and engages again: taylor's entry into the Hertz law, landed within
# rounding above p = 0, is taken as the entry at p = 0).
nsm_nl_check(hertz_friction taylor rk4 adaptive)
# Housner's rocking block at its corner impact (both corners at once, with
# friction, e = 0; the rows of the impact configuration): the frictional
# law of several contacts against Housner's ratio, and a squat block that
# stops (tests/nonlinear/rocking_impact.nsm, a linear model: exact).
foreach(case rocking_impact rocking_squat)
  nsm_nl_check(${case} exact rk4 adaptive)
endforeach()
# Housner's rocking block in full (models/rocking_block.nsm): curved
# corner gaps and slips whose coefficients depend on the angle (rows and
# curvature terms at each state), every corner impact against
# refs.rocking_block (mp.odefun and Housner's ratio); taylor expands the
# corners' rows and curvature terms and the stuck corner's multiplier as
# series (nl_slip_series).
nsm_nl_check(rocking_block taylor rk4 adaptive)
# The same block past the accumulation of its impacts (the rocking
# cascade summed, zeno.c): landed at rest on both corners at t* against
# refs.rocking_accumulation (quadratures of the energy flight by flight),
# then at rest on both corners to t_end.
nsm_nl_check(rocking_rest taylor rk4 adaptive)
# A block at rest on both corners with both elements stuck (their slip
# rows the same: statically indeterminate friction, merged and split by
# the elements' capacities in the constrained solves): it stays at rest;
# pushed at its centre by a ramp it lifts its corner when the push's moment
# reaches m g b, or slides on both corners at once when the push reaches
# mu m g, at the closed-form instants (tests/nonlinear/rocking_push.nsm).
foreach(case rocking_hold rocking_tip rocking_slip)
  nsm_nl_check(${case} taylor rk4 adaptive)
endforeach()
# A block whose corners slip (mu = 0.15): its alternating cascade is no
# rocking about a stuck corner and is refused with the reason.
nsm_nl_check(rocking_slide taylor)
# The same block reduced to its one-coordinate rocking equation
# (bench/models_nl/rocking_reduced.nsm, which bench/nl_bench.py times beside
# CVODE and SciPy on that equation) against the same reference.
nsm_nl_check(rocking_reduced taylor rk4 adaptive)
# The whole rocking motion's reference (mp.odefun on the free rocking
# equation and Housner's ratio) against quadratures of the energy, so the
# reference the rocking block's tests use is itself checked.
add_test(NAME nonlinear.rocking_reference
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/nonlinear/refs.py)
set_tests_properties(nonlinear.rocking_reference PROPERTIES LABELS nonlinear TIMEOUT 600)
# A rod whose end slides on a rough floor (tests/nonlinear/sliding_rod.nsm:
# a curved gap and a slip whose coefficient depends on the angle) slips at
# release and reverses once, against refs.sliding_rod (mp.odefun on the
# reduced equations): the corner that slips, where the rocking block's
# only sticks.
nsm_nl_check(sliding_rod taylor rk4 adaptive)
# The touching Hertzian chain (models/hertz_wave.nsm: twenty beads at zero
# overlap, the first struck): the solitary wave against wave_ref.py's
# mpmath integration of the same equations (32 digits), computed once per
# build tree by the fixture and read by the three methods' checks
# (NSM_WAVE_REF): every release, the states on a 10 us grid, the beads'
# velocity peaks and the wave's speed in beads per second.
add_test(NAME nonlinear.wave.reference
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/nonlinear/wave_ref.py
          --out ${CMAKE_CURRENT_BINARY_DIR}/hertz_wave_ref.json)
set_tests_properties(nonlinear.wave.reference PROPERTIES LABELS nonlinear TIMEOUT 1800
  FIXTURES_SETUP nsm_wave_ref)
nsm_nl_check(wave taylor rk4 adaptive)
foreach(method taylor rk4 adaptive)
  set_tests_properties(nonlinear.wave.${method} PROPERTIES FIXTURES_REQUIRED nsm_wave_ref
    ENVIRONMENT "NSM_WAVE_REF=${CMAKE_CURRENT_BINARY_DIR}/hertz_wave_ref.json")
endforeach()
