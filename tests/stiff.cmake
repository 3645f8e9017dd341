# Stiff contacts against independent references (label property):
# tests/property/stiff_models.py draws models with penalty contacts of 1e4
# to 1e14 N/m (both release laws, with or without damping), Newton impacts,
# one or two bodies, springs, dampers, gravity and forcing, with steps far
# longer than a contact, and compares every method's events with the
# event-driven closed form of tests/reference/eventdriven.py (no missed or
# extra event, times and contact durations within each method's tolerance).
# Where a method errs beyond the plain tolerances, each event's tolerance
# grows by its condition factor, measured on the reference run again from
# perturbed initial states (stiff_common.condition): seed 17's contacts from
# t = 1.05 s make its events 500 to 7000 times more sensitive than its first
# one, and every method's errors (exact's too, 1e-14 s growing to 2e-11 s)
# grow with that factor.  (Seed 12 passes because rk4 stops with a clear
# "passed through" error, after every earlier event right, instead of going
# on.)
# tests/property/stiff_regressions.py does the same for a ball on a 1e10 N/m
# floor, a ball on a 5e9 N/m floor with release = gap, and SDND121 at steps
# of 1 ms and 10 ms (exact) and 0.2 ms and 0.5 ms (rk4).
set(NSM_STIFF_CFLAGS "-O2")
if(NSM_SANITIZE)
  set(NSM_STIFF_CFLAGS "-O1 -fsanitize=address,undefined -fno-sanitize-recover=all")
endif()
add_test(NAME property.stiff_models
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/property/stiff_models.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_PROPERTY_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include --seeds 1-40
          --cc ${CMAKE_C_COMPILER} "--cflags=${NSM_STIFF_CFLAGS}")
add_test(NAME property.stiff_regressions
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/property/stiff_regressions.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_PROPERTY_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include
          --cc ${CMAKE_C_COMPILER} "--cflags=${NSM_STIFF_CFLAGS}")
set_tests_properties(property.stiff_models property.stiff_regressions
  PROPERTIES LABELS property TIMEOUT 600)
