# Parameter studies (label studies): Poincare sections against closed forms,
# the forced impact oscillator's period-1 orbits against an mpmath reference,
# nsmc sweep.
add_test(NAME studies.sections
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/sections_test.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_PROPERTY_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include --cc ${CMAKE_C_COMPILER}
          "--cflags=${NSM_PROPERTY_CFLAGS}")
set_tests_properties(studies.sections PROPERTIES LABELS studies)
add_test(NAME studies.impact_oscillator_period1
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/period1_test.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_PROPERTY_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include --cc ${CMAKE_C_COMPILER}
          "--cflags=${NSM_PROPERTY_CFLAGS}")
set_tests_properties(studies.impact_oscillator_period1 PROPERTIES LABELS studies)
# the reference itself: recomputed and compared with its committed data
add_test(NAME reference_forced_impact_oscillator
  COMMAND ${NSM_PYTHON} -B tests/reference/forced_impact_oscillator.py --check
  WORKING_DIRECTORY ${NSM_SOURCE_DIR})
set_tests_properties(reference_forced_impact_oscillator PROPERTIES LABELS reference TIMEOUT 300)
# nsmc sweep: reference orbits, the doubling, identical files for --jobs 1,
# --jobs 2 and mpirun -np 2 (MPI is installed by scripts/setup.sh)
# A build that looked for MPI and did not find it fails this test (the
# setup script installs it); only -DNSM_MPI=OFF leaves the MPI case out.
set(NSM_SWEEP_MPIRUN "")
if(NSM_HAVE_MPI AND MPIEXEC_EXECUTABLE)
  set(NSM_SWEEP_MPIRUN "--mpirun=${MPIEXEC_EXECUTABLE}")
elseif(NOT NSM_MPI)
  set(NSM_SWEEP_MPIRUN "--no-mpi")
endif()
add_test(NAME studies.sweep
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/sweep_test.py
          --nsmc $<TARGET_FILE:nsmc> ${NSM_SWEEP_MPIRUN})
set_tests_properties(studies.sweep PROPERTIES LABELS studies TIMEOUT 600)
# Floquet multipliers from the monodromy matrices and the first period
# doubling by bisection, against the mpmath reference
add_executable(floquet_test ${NSM_SOURCE_DIR}/tests/studies/floquet_test.c
  ${NSM_SOURCE_DIR}/generated/forced_impact_oscillator.c)
target_compile_definitions(floquet_test PRIVATE NSM_NO_MAIN)
target_link_libraries(floquet_test PRIVATE nsmrt m)
add_test(NAME studies.floquet
  COMMAND floquet_test ${NSM_SOURCE_DIR}/tests/reference/data/forced_impact_oscillator.period1.csv
          ${NSM_SOURCE_DIR}/tests/reference/data/forced_impact_oscillator.doubling.csv)
set_tests_properties(studies.floquet PROPERTIES LABELS studies)
# State columns named by the coordinates' own names and units (angles in
# rad, planar bodies' coordinates) in sections, sweeps and basins
add_test(NAME studies.labels
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/labels_test.py
          --nsmc $<TARGET_FILE:nsmc> --sim $<TARGET_FILE:sim_double_pendulum>)
set_tests_properties(studies.labels PROPERTIES LABELS studies TIMEOUT 300)
