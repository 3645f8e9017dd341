# Lyapunov exponents, basins of attraction (label studies).
# A test's simulator links libnsmcli, libnsmrt and HDF5 when found, with the
# sanitizers in their build (as tests/property.cmake, included after this file)
set(NSM_LYAP_CFLAGS "-O2")
if(NSM_SANITIZE)
  set(NSM_LYAP_CFLAGS "-O1 -fsanitize=address,undefined -fno-sanitize-recover=all")
endif()
set(NSM_LYAP_LIBS "$<TARGET_FILE:nsmcli>:$<TARGET_FILE:nsmrt>")
if(NSM_HAVE_HDF5)
  string(APPEND NSM_LYAP_LIBS ":${NSM_HDF5_LIBRARY}")
endif()
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
# --lyapunov: a damped linear oscillator's exponents (real parts of its
# eigenvalues), a chaotic forced impact oscillator against its impact map
# recomputed in mpmath, refused options
add_test(NAME studies.lyapunov
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/lyapunov_test.py
          --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_LYAP_LIBS}
          --include ${NSM_SOURCE_DIR}/runtime/include --cc ${CMAKE_C_COMPILER}
          "--cflags=${NSM_LYAP_CFLAGS}")
set_tests_properties(studies.lyapunov PROPERTIES LABELS studies TIMEOUT 300)
# nsmc sweep --basin: a bistable impact oscillator's basins against an
# independent closed-form simulation, shares under refinement, the same
# files for --jobs 1, --jobs 2 and mpirun -np 2 (as studies.sweep)
set(NSM_BASIN_MPIRUN "")
if(NSM_HAVE_MPI AND MPIEXEC_EXECUTABLE)
  set(NSM_BASIN_MPIRUN "--mpirun=${MPIEXEC_EXECUTABLE}")
elseif(NOT NSM_MPI)
  set(NSM_BASIN_MPIRUN "--no-mpi")
endif()
add_test(NAME studies.basin
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/basin_test.py
          --nsmc $<TARGET_FILE:nsmc> ${NSM_BASIN_MPIRUN})
set_tests_properties(studies.basin PROPERTIES LABELS studies TIMEOUT 600)
# The Python studies (Model.section, floquet, lyapunov, run(init=...),
# compile_source), with the environment of tests/python.cmake
add_test(NAME python.studies
  COMMAND ${NSM_PYTHON} -m pytest -q -p no:cacheprovider
          ${NSM_SOURCE_DIR}/tests/python/test_studies.py)
set(NSM_STUDIES_PY_ENV
  "PYTHONPATH=${PROJECT_BINARY_DIR}/python"
  "NSM_SOURCE_DIR=${NSM_SOURCE_DIR}"
  "NSM_BUILD_DIR=${PROJECT_BINARY_DIR}"
  "NSM_VERSION=${PROJECT_VERSION}"
  "XDG_CACHE_HOME=${PROJECT_BINARY_DIR}/python-cache"
  "MPLBACKEND=Agg")
if(NSM_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
    OUTPUT_VARIABLE NSM_STUDIES_ASAN_LIB OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libubsan.so
    OUTPUT_VARIABLE NSM_STUDIES_UBSAN_LIB OUTPUT_STRIP_TRAILING_WHITESPACE)
  list(APPEND NSM_STUDIES_PY_ENV "LD_PRELOAD=${NSM_STUDIES_ASAN_LIB}:${NSM_STUDIES_UBSAN_LIB}"
    "ASAN_OPTIONS=detect_leaks=0")
endif()
set_tests_properties(python.studies PROPERTIES LABELS python TIMEOUT 600
  ENVIRONMENT "${NSM_STUDIES_PY_ENV}")
# The bifurcation studies from Python (Model.continuation: branches, curves,
# branch switching; Model.sweep; Model.basins) against the impact map in
# mpmath and closed forms (tests/python/test_bifurcation.py)
add_test(NAME python.bifurcation
  COMMAND ${NSM_PYTHON} -m pytest -q -p no:cacheprovider
          ${NSM_SOURCE_DIR}/tests/python/test_bifurcation.py)
set_tests_properties(python.bifurcation PROPERTIES LABELS python TIMEOUT 900
  ENVIRONMENT "${NSM_STUDIES_PY_ENV}")
# Model.floquet after a transient of no whole number of periods: the orbit
# through t = 0 sought from a state at the forcing's phase 0, its
# multipliers against a finite-differenced Poincare map of the model's runs
# (tests/studies/floquet_transient_test.py)
add_test(NAME python.floquet_transient
  COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/studies/floquet_transient_test.py)
set_tests_properties(python.floquet_transient PROPERTIES LABELS python TIMEOUT 300
  ENVIRONMENT "${NSM_STUDIES_PY_ENV}")
