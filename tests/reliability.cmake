# Fault injection: a full disk, signals at random moments, two runs into one
# folder, damaged cache entries, `-o` onto FIFOs, symlinks and devices, and
# the limits on what a typo can cost.  See tests/reliability/.

set(NSM_RELIABILITY_CASES disk_full open_error signals every_limit set_file_limits
    run_disk_full run_signals run_concurrent cache_damage run_summaries output_targets
    messages run_group_signal cancel)
foreach(case ${NSM_RELIABILITY_CASES})
  add_test(NAME reliability/${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/reliability_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/${case} PROPERTIES LABELS reliability TIMEOUT 600)
endforeach()

# Substitution is linear in the expression graph (the equations report of a
# 6-body, 5-gap model took 4.1 s and 324 MB when it walked trees).
add_executable(expr_dag_test ${NSM_SOURCE_DIR}/tests/reliability/expr_dag_test.c
  ${NSM_SOURCE_DIR}/compiler/expr.c ${NSM_SOURCE_DIR}/compiler/arena.c)
target_include_directories(expr_dag_test PRIVATE ${NSM_SOURCE_DIR}/compiler)
target_compile_definitions(expr_dag_test PRIVATE _POSIX_C_SOURCE=200809L)
target_link_libraries(expr_dag_test PRIVATE m)
add_test(NAME reliability/expr_dag COMMAND expr_dag_test)
set_tests_properties(reliability/expr_dag PROPERTIES LABELS "reliability;unit" TIMEOUT 120)

# The whole compiler (front end, derivation, both back ends) on the fuzz
# corpus and regressions, without libFuzzer; with -DNSM_FUZZ=ON also the
# libFuzzer harness fuzz_pipeline (docs/fuzzing.md).
add_executable(fuzz_pipeline_replay ${NSM_SOURCE_DIR}/tests/fuzz/fuzz_pipeline.c
                                    ${NSM_SOURCE_DIR}/tests/fuzz/replay.c)
target_link_libraries(fuzz_pipeline_replay PRIVATE nsmcore)
file(GLOB NSM_PIPELINE_INPUTS CONFIGURE_DEPENDS ${NSM_SOURCE_DIR}/tests/fuzz/regressions/*
                                               ${NSM_SOURCE_DIR}/tests/fuzz/corpus/*)
add_test(NAME reliability/fuzz_pipeline_regressions COMMAND fuzz_pipeline_replay ${NSM_PIPELINE_INPUTS})
set_tests_properties(reliability/fuzz_pipeline_regressions PROPERTIES LABELS "reliability;frontend"
                     TIMEOUT 600)
if(NSM_FUZZ)
  add_executable(fuzz_pipeline ${NSM_SOURCE_DIR}/tests/fuzz/fuzz_pipeline.c)
  target_link_libraries(fuzz_pipeline PRIVATE nsmcore)
  target_compile_options(fuzz_pipeline PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_options(fuzz_pipeline PRIVATE -fsanitize=fuzzer,address,undefined)
endif()

# nsmc sweep under fault injection: arguments refused before the grid, a grid
# too large for memory, the out-dir's lock, signals and SIGKILL with the
# partial files checked, a file-size limit, every point failing.
set(NSM_SWEEP_RELIABILITY_CASES arguments memory lock signals disk_full all_failed all_short)
foreach(case ${NSM_SWEEP_RELIABILITY_CASES})
  add_test(NAME reliability/sweep_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/sweep_reliability_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/sweep_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/sweep_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()

# A rank of mpirun -np 2 killed while the grid runs (MPI is installed by
# scripts/setup.sh; only -DNSM_MPI=OFF leaves this test out, as studies.sweep)
if(NSM_HAVE_MPI AND MPIEXEC_EXECUTABLE)
  add_test(NAME reliability/sweep_killed_rank
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/sweep_reliability_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} killed_rank ${MPIEXEC_EXECUTABLE})
  set_tests_properties(reliability/sweep_killed_rank PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/sweep_killed_rank PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endif()

# The simulators' HDF5 output under fault injection: a file-size limit while
# replacing a file, open errors, SIGKILL, two writers, long names, x.H5
# (h5py reads the files back).
if(NSM_HAVE_HDF5)
  foreach(case keep open killed stale early_stop writers names upper)
    add_test(NAME reliability/h5_${case}
      COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/h5_reliability_test.py
              $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass> ${NSM_SOURCE_DIR}
              "$<TARGET_FILE:nsmcli>:$<TARGET_FILE:nsmrt>:${NSM_HDF5_LIBRARY}"
              ${CMAKE_C_COMPILER} ${case})
    set_tests_properties(reliability/h5_${case} PROPERTIES LABELS reliability TIMEOUT 600)
    if(NSM_SANITIZE)
      set_tests_properties(reliability/h5_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
    endif()
  endforeach()
endif()

# A 1e19 N/m spring: its numbers are beyond long long in the paper's reduced
# forms (derive_paper.c once converted them, undefined behaviour that the
# sanitizer build, with float-cast-overflow, reports).  The
# equations are written with exit 0 (the test is an exit status, so that a
# sanitizer's abort fails it).
add_test(NAME reliability/huge_stiffness_equations
  COMMAND nsmc --emit=equations --format=text -o /dev/null
          ${NSM_SOURCE_DIR}/tests/reliability/huge_stiffness.nsm)
set_tests_properties(reliability/huge_stiffness_equations PROPERTIES LABELS "reliability;frontend")

# Stop requests and steps the time axis cannot carry: tests/reliability/stop_test.py
# on a mass on a spring (no event ever, so only the per-step stop flag can
# stop it between samples) and on the sprung table (exact, a held contact
# whose force starts at a double zero).
set(NSM_STIFF_SPRING_C ${CMAKE_BINARY_DIR}/reliability/stiff_spring.c)
add_custom_command(OUTPUT ${NSM_STIFF_SPRING_C}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/reliability
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/reliability/stiff_spring.nsm -o ${NSM_STIFF_SPRING_C}
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/reliability/stiff_spring.nsm
  COMMENT "nsmc: generating stiff_spring.c for the stop tests" VERBATIM)
add_executable(sim_stiff_spring ${NSM_STIFF_SPRING_C})
target_link_libraries(sim_stiff_spring PRIVATE nsmcli)

# A mass on a cubic spring (nonlinear: taylor's reach and adaptive's error
# control choose the steps) for the refusals of those methods.
set(NSM_STIFF_CUBIC_C ${CMAKE_BINARY_DIR}/reliability/stiff_cubic.c)
add_custom_command(OUTPUT ${NSM_STIFF_CUBIC_C}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/reliability
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/reliability/stiff_cubic.nsm -o ${NSM_STIFF_CUBIC_C}
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/reliability/stiff_cubic.nsm
  COMMENT "nsmc: generating stiff_cubic.c for the stop tests" VERBATIM)
add_executable(sim_stiff_cubic ${NSM_STIFF_CUBIC_C})
target_link_libraries(sim_stiff_cubic PRIVATE nsmcli)

# A block lifted off a floor whose contact force leaves 0 at a triple zero
# (released) or touches it at double zeros (held), against closed forms.
set(NSM_TRIPLE_ZERO_C ${CMAKE_BINARY_DIR}/reliability/triple_zero.c)
add_custom_command(OUTPUT ${NSM_TRIPLE_ZERO_C}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/reliability
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/reliability/triple_zero.nsm -o ${NSM_TRIPLE_ZERO_C}
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/reliability/triple_zero.nsm
  COMMENT "nsmc: generating triple_zero.c for the stop tests" VERBATIM)
add_executable(sim_triple_zero ${NSM_TRIPLE_ZERO_C})
target_link_libraries(sim_triple_zero PRIVATE nsmcli)
foreach(case stop refuse sprung double_zero)
  add_test(NAME reliability/stop_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/stop_test.py
            $<TARGET_FILE:sim_stiff_spring> $<TARGET_FILE:sim_sprung_table> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE:sim_stiff_cubic> $<TARGET_FILE:sim_triple_zero>)
  set_tests_properties(reliability/stop_${case} PROPERTIES LABELS reliability TIMEOUT 300)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/stop_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()

# The runtime and a few simulators built with clang's UBSan (undefined,
# float-cast-overflow, and the integer checks, suppressions documented in
# tests/reliability/ubsan.supp) and run: every report fails the test.
find_program(NSM_CLANG NAMES clang PATHS /usr/bin NO_DEFAULT_PATH)
if(NSM_CLANG)
  add_test(NAME reliability/clang_ubsan
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/clang_ubsan.py ${NSM_CLANG}
            ${NSM_SOURCE_DIR} ${CMAKE_BINARY_DIR}/clang-ubsan)
  set_tests_properties(reliability/clang_ubsan PROPERTIES LABELS reliability TIMEOUT 900)
endif()

# A generated simulator's command line fuzzed with a fixed seed (150 argument
# vectors; longer runs in docs/fuzzing.md): every run ends by itself with
# exit 0, 1 or 3 and a message.
add_test(NAME reliability/fuzz_sim_argv
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/fuzz/argv_fuzz.py
          $<TARGET_FILE:sim_two_mass> 0 1)
set_tests_properties(reliability/fuzz_sim_argv PROPERTIES LABELS "reliability;frontend" TIMEOUT 600)

# A hostile user's pass over the studies (tests/reliability/studies_hostile_test.py):
# degenerate section periods refused naming the option, and about a hundred
# hostile inputs to nsmc sweep, nsmc continue and the simulator's section
# options, each ending by itself with 0, 1 or 3 and a message.
foreach(case section_period findings hostile)
  add_test(NAME reliability/studies_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/studies_hostile_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR}
            ${case})
  set_tests_properties(reliability/studies_${case} PROPERTIES LABELS reliability TIMEOUT 900)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/studies_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()

# A fresh hostile pass over every surface (tests/reliability/hostile_pass_test.py):
# the simulators' options (hostile values, repeats, nothing opened on exit 1),
# outputs (full disks, size limits, unwritable folders, two writers of one
# file), nsmc's commands, signals at random moments of runs and sweeps, and
# the Python API (arguments, Ctrl-C, damaged caches, threads).
foreach(case options outputs commands signals python)
  add_test(NAME reliability/hostile_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/hostile_pass_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/hostile_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/hostile_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()
set(NSM_HOSTILE_PY_ENV ${NSM_PY_ENV})
if(NSM_SANITIZE)
  list(APPEND NSM_HOSTILE_PY_ENV "NSM_SANITIZED=1")
endif()
set_tests_properties(reliability/hostile_python PROPERTIES LABELS "reliability;python"
  ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")

# A second hostile pass (tests/reliability/second_pass_test.py): about 250
# inputs the first pass did not try (the simulator's options, nsmc sweep),
# figures under a file-size limit, stop signals at the earliest moments and
# with the mask inherited blocked, SIGKILL of nsmc run, and the Python API
# against the command line on the same settings.
foreach(case options sweeps figures signals python)
  add_test(NAME reliability/second_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/second_pass_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/second_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/second_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()
set_tests_properties(reliability/second_python PROPERTIES LABELS "reliability;python"
  ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")

# A third hostile pass (tests/reliability/third_pass_test.py): the nonlinear
# models and methods on every surface (about 200 inputs: the simulators'
# options under taylor, rk4 and adaptive, nsmc sweep, --basin and continue,
# stop signals with CSV and HDF5 checked, the Python API against the
# command line and Ctrl-C in every study), each case under a minute (split
# by model or part).
foreach(case nonlinear_pendulum_wall nonlinear_rocking_block nonlinear_double_pendulum
        nonlinear_cart_friction nonlinear_outputs sweeps_a sweeps_b signals_pendulum_wall
        signals_double_pendulum signals_cart_friction python_cli python_threads python_studies)
  add_test(NAME reliability/third_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/third_pass_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/third_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/third_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()
foreach(part cli threads studies)
  set_tests_properties(reliability/third_python_${part} PROPERTIES LABELS "reliability;python"
    ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A fourth hostile pass (tests/reliability/fourth_pass_test.py): the third
# pass's leftovers (a derived inertia named, t_end beyond the resolution,
# rocking_block at m = 1e-300, Ctrl-C of nsmc continue), impossible steps on
# a loop model of 1000 beads and the models written by their energies, a
# real full disk (a tmpfs in a private mount namespace), sweeps, continue
# and stop signals on the newest models, Python's guards, Ctrl-C in
# continuation and damaged caches.
set(NSM_BEADS_C ${CMAKE_BINARY_DIR}/reliability/beads.c)
add_custom_command(OUTPUT ${NSM_BEADS_C}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/reliability
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/reliability/beads.nsm -o ${NSM_BEADS_C}
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/reliability/beads.nsm
  COMMENT "nsmc: generating beads.c for the fourth hostile pass" VERBATIM)
add_executable(sim_beads ${NSM_BEADS_C})
target_link_libraries(sim_beads PRIVATE nsmcli)
set_target_properties(sim_beads PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/sims)
foreach(case findings findings_continue steps_loops steps_energies disk_sims disk_commands
        disk_studies sweeps signals_loops signals_loops_rk4 signals_lyapunov signals_energies
        python)
  add_test(NAME reliability/fourth_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/fourth_pass_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/fourth_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/fourth_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()
set_tests_properties(reliability/fourth_python PROPERTIES LABELS "reliability;python"
  ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")

# A fifth hostile pass (tests/reliability/fifth_pass_test.py): the bodies in
# space (free_top, thrown_body: hostile inertias, masses, quaternions, tilts,
# spins and points, every option, HDF5), nsmc run, sweep and continue with
# unicode, long and empty names, stop signals on the rigid models, the
# Python API on them and cart_friction's impossible parameters; each case
# under 20 s in the normal build.
foreach(case findings rigid commands signals python)
  add_test(NAME reliability/fifth_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/fifth_pass_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/fifth_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/fifth_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()
set_tests_properties(reliability/fifth_python PROPERTIES LABELS "reliability;python"
  ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")

# A sixth hostile pass (tests/reliability/sixth_pass_test.py): the bodies in
# space against planes (ball_in_space, super_ball, sphere_drop, the tippe
# top: hostile --set values, options and model texts), the energetic and
# simultaneous impact laws on hostile trains, sweeps, continue and stop
# signals on them, the Python API, and the fifth pass's leftovers; each case
# under 20 s in the normal build.
foreach(case findings space laws studies signals python)
  add_test(NAME reliability/sixth_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/sixth_pass_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/sixth_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/sixth_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()
set_tests_properties(reliability/sixth_python PROPERTIES LABELS "reliability;python"
  ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")

# A seventh hostile pass (tests/reliability/seventh_pass_test.py): the
# compiler and the command-line front ends: about 300 model texts (odd
# numerals, undefined and overflowing constants, deep expressions, unicode,
# CRLF, names of C keywords and runtime symbols, every statement), the
# simulators' numeric options and --set on ten models with hostile values,
# nsmc's options, run, sweep, basins and continue, and the findings as
# Python sees them; each case under 20 s in the normal build.
foreach(case findings language options sets_a sets_b commands python)
  add_test(NAME reliability/seventh_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/seventh_pass_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/seventh_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/seventh_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()
set_tests_properties(reliability/seventh_python PROPERTIES LABELS "reliability;python"
  ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")

# A seventh hostile pass on the runtime's I/O and study surfaces
# (tests/reliability/seventh_pass_io_test.py): outputs onto pipes whose
# reader went away, full disks and odd files, HDF5, nsmc sweep, continue,
# run and cache, program caches with folders where files belong, and the
# Python API's studies with hostile arguments; each case under 20 s in the
# normal build.
foreach(case findings python sweep sweep_more outputs)
  add_test(NAME reliability/seventh_io_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/seventh_pass_io_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/seventh_io_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/seventh_io_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()
set_tests_properties(reliability/seventh_io_python PROPERTIES LABELS "reliability;python"
  ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")

# An eighth hostile pass (tests/reliability/eighth_pass_test.py): friction
# elements pressed by a gap in their derived modes with hostile --set values
# and every method, bodies in space under taylor, the friction statistics of
# Python and HDF5, and the energetic and simultaneous impact laws on odd
# trains of beads; each case under 20 s in the normal build.
foreach(case findings gapfric space trains python)
  add_test(NAME reliability/eighth_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/eighth_pass_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/eighth_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/eighth_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()
set_tests_properties(reliability/eighth_findings reliability/eighth_python PROPERTIES
  LABELS "reliability;python" ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")

# A ninth hostile pass on the I/O surfaces (tests/reliability/ninth_pass_io_test.py):
# outputs written once the run is over (--lyapunov-out onto devices, FIFOs,
# links and missing folders), HDF5 partial files of killed runs, names of any
# length through sections, sweeps and HDF5, sweeps stopped and resumed, the
# run loop's stop at tiny steps, figures without gnuplot; each case under
# 20 s in the normal build.
foreach(case findings h5kill sweeps stops plots)
  add_test(NAME reliability/ninth_io_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/ninth_pass_io_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/ninth_io_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/ninth_io_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()

# A ninth hostile pass on the Python package (tests/reliability/ninth_pass_py_test.py):
# compile and compile_source with paths and texts of every kind, arguments as
# numpy scalars and arrays of odd dtypes, booleans and complex numbers, the
# program cache damaged (FIFOs, links to /dev/zero, garbage checksums) and
# rebuilt by other processes at once, Ctrl-C at random moments (during the C
# build, as a run's handler is installed, during runs and studies), threads
# and processes compiling and running at once; each case under 20 s in the
# normal build.
foreach(case findings findings_cache args signals threads cache)
  add_test(NAME reliability/ninth_py_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/ninth_pass_py_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/ninth_py_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A ninth hostile pass on the core (tests/reliability/ninth_pass_core_test.py):
# impossible or extreme steps and values through the simulators' options
# under every method, models whose only defect appears at run time (an
# operand of min, max or a comparison, a gap's slope or a curved gap
# undefined after --set), model texts combining features, the reporting
# options in odd combinations, and answers at extreme values against closed
# forms; each case under 20 s in the normal build.
foreach(case findings closed values texts options python)
  add_test(NAME reliability/ninth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/ninth_pass_core_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/ninth_core_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/ninth_core_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()
set_tests_properties(reliability/ninth_core_findings reliability/ninth_core_python PROPERTIES
  LABELS "reliability;python" ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")

# A tenth hostile pass on the Python package (tests/reliability/tenth_pass_py_test.py):
# texts holding a NUL or a lone surrogate handed to the runtime and to nsmc,
# a killed build's temporaries in the cache, step caps at 2^63, results
# indexed by what is not a column, CC, TMPDIR, XDG_CACHE_HOME, HOME and the
# locale replaced, Ctrl-C while another process holds the cache's lock; each
# case under 20 s in the normal build.
foreach(case findings args env)
  add_test(NAME reliability/tenth_py_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/tenth_pass_py_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/tenth_py_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the seventh and eighth passes left loud (tests/reliability/leftovers_test.py):
# the mass scale 1e-300 to 1e300 kg under every method, counts of one, nsmc's
# standard output with its reader gone, a sweep's result that is a link.
foreach(case mass_block_drop mass_disc_corner mass_sliding_block plural pipe sweep_link)
  add_test(NAME reliability/leftovers_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE_DIR:sim_block_drop> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/leftovers_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/leftovers_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()

# A tenth hostile pass on the I/O surfaces (tests/reliability/tenth_pass_io_test.py):
# the out-dir's lock when a link, a FIFO or a device stands in its place,
# outputs naming one file through links, HDF5 names at the length limit and
# states left by earlier failures, impossible steps on every method; each
# case under 20 s in the normal build.
foreach(case findings outputs steps)
  add_test(NAME reliability/tenth_io_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/tenth_pass_io_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/tenth_io_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/tenth_io_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()

# What the ninth hostile pass on the I/O surfaces left as found
# (tests/reliability/ioleft_test.py): figures killed while gnuplot draws,
# figures without gnuplot, labels of long names, a subnormal end time and
# the reasons of bad values; each case under 20 s in the normal build.
foreach(case plotkill nognuplot labels tiny)
  add_test(NAME reliability/ioleft_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/ioleft_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/ioleft_${case} PROPERTIES LABELS reliability TIMEOUT 600
    ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the ninth hostile pass on the core left as found
# (tests/reliability/causes_test.py): failures that name their real cause,
# a subnormal stiffness under exact, a vanishing mass matrix, a force's
# pole on the path, tolerances given to a method that does not read them;
# each case under 20 s in the normal build.
foreach(case subnormal masszero pole tolerances)
  add_test(NAME reliability/causes_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/causes_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_impacting_oscillator> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/causes_${case} PROPERTIES LABELS reliability TIMEOUT 600
    ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the tenth hostile passes left as found (tests/reliability/ioleft2_test.py):
# a folder in place of a kept partial sweep file, a continuation's partial
# points (killed outright, or run to the end beside an earlier stop's),
# figures' temporaries of ended processes, and Python's wait for a cache
# lock held by another process; each case under 20 s in the normal build.
foreach(case sweepprev contend contkill plottmp pylock)
  add_test(NAME reliability/ioleft2_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/ioleft2_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_forced_impact_oscillator>
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/ioleft2_${case} PROPERTIES LABELS reliability TIMEOUT 600
    ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# An eleventh hostile pass on the I/O surfaces
# (tests/reliability/eleventh_pass_io_test.py): the out-dir's lock as a hard
# link, a continuation's partial file under a file-size limit, results'
# temporaries of killed studies, a replaced .partial.prev, HDF5 failing
# beside --stats, --lyapunov-out of a run that does not end, sweeps with
# failing points on two jobs, stop signals at random moments; each case
# under 20 s in the normal build.
foreach(case findings kept)
  add_test(NAME reliability/eleventh_io_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/eleventh_pass_io_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/eleventh_io_${case} PROPERTIES LABELS reliability TIMEOUT 600)
  if(NSM_SANITIZE)
    set_tests_properties(reliability/eleventh_io_${case} PROPERTIES ENVIRONMENT "NSM_SANITIZED=1")
  endif()
endforeach()

# What the ninth and tenth hostile passes left as found on the programs and
# the Python package (tests/reliability/leftovers11_io_test.py): two outputs
# on one FIFO, stdout or terminal, a link to nothing as any output, a stop
# signal while gnuplot draws, names of any length through sweeps and figures,
# tolerances a method does not read, number texts and Model's arguments in
# Python, an object whose loading ends the interpreter, an interrupt raised
# without a signal, a continuation's note said once; each case under 20 s in
# the normal build.
foreach(case outputs dangling gnuplot names tolerances texts loadcheck interrupt contnote)
  add_test(NAME reliability/left11io_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers11_io_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left11io_${case} PROPERTIES LABELS reliability TIMEOUT 600
    ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# An eleventh hostile pass on the Python package
# (tests/reliability/eleventh_pass_py_test.py): arguments of odd types and
# beyond range, values whose __float__ raises or answers twice, the cache
# damaged, hard-linked, read-only, full and noexec, Ctrl-C during a cold
# build, threads; each case under 20 s in the normal build.
foreach(case findings args cache)
  add_test(NAME reliability/eleventh_py_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/eleventh_pass_py_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/eleventh_py_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the ninth and tenth hostile passes left as found in the core
# (tests/reliability/leftovers11_core_test.py): wrong answers and failures
# that named the wrong cause; each case under 20 s in the normal build.
foreach(case zenoshift rk4cause spacepole overflow heavypair)
  add_test(NAME reliability/left11core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers11_core_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left11core_${case} PROPERTIES LABELS reliability TIMEOUT 600
    ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# An eleventh hostile pass on the core (tests/reliability/eleventh_pass_core_test.py):
# the simulators' numerics under hostile models and settings against closed
# forms (Zeno times on shifted floors, cradles, ties, impacts at t = 0 and at
# t_end, the friction threshold, oscillators at 1e+-200, Hertz pairs and
# pendulums), and what it left held to failing loudly; each case under 20 s
# in the normal build.
foreach(case findings zeno cradles ties friction loud)
  add_test(NAME reliability/eleventh_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/eleventh_pass_core_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_two_mass>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case}
            $<TARGET_FILE_DIR:sim_pendulum_wall>)
  set_tests_properties(reliability/eleventh_core_${case} PROPERTIES LABELS reliability TIMEOUT 600
    ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A twelfth hostile pass on the core (tests/reliability/twelfth_pass_core_test.py):
# the numerics against closed forms through the Python package (forced,
# resonant and critically damped oscillators, Floquet multipliers, Lyapunov
# exponents, Poincare planes and impacts, impact laws on a cradle, a belt,
# a free top); each case under 20 s in the normal build.
foreach(case findings linear studies laws)
  add_test(NAME reliability/twelfth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twelfth_pass_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twelfth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A twelfth hostile pass on the programs and the Python package together
# (tests/reliability/twelfth_pass_prog_test.py): the command line's numbers
# against Python's, the sweep's option parsing, outputs onto FIFOs without a
# reader stopped by a signal; each case under 20 s in the normal build.
foreach(case findings same)
  add_test(NAME reliability/twelfth_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twelfth_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twelfth_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the eleventh hostile pass on the core left as found
# (tests/reliability/leftovers12_core_test.py): failures of legitimate
# models and a status line that judged nothing; each case under 20 s in the
# normal build.
foreach(case zenostiff press zeroenergy)
  add_test(NAME reliability/left12core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers12_core_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left12core_${case} PROPERTIES LABELS reliability TIMEOUT 600
    ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the eleventh and twelfth hostile passes on the programs and the
# Python package left as found (tests/reliability/leftovers13_prog_test.py):
# figures and complete files that cannot be written (a small tmpfs), a stop
# before the simulator opened its outputs, /dev/tty beside stdout on that
# terminal, and the Python package's errors, masked values and warnings;
# each case under 20 s in the normal build.
foreach(case figures complete fifo tty python)
  add_test(NAME reliability/left13prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers13_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left13prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A thirteenth hostile pass on the core (tests/reliability/thirteenth_pass_core_test.py):
# nonlinear models, bodies in the plane and trains of beads under each impact
# law against closed forms and references written by hand; each case under
# 20 s in the normal build.
foreach(case findings pendulum bodies contacts laws)
  add_test(NAME reliability/thirteenth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/thirteenth_pass_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/thirteenth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()
# A thirteenth hostile pass on the programs and the Python package
# (tests/reliability/thirteenth_pass_prog_test.py): grids at a double's
# range, basin axes, parameter files, the program cache under `nsmc cache
# clean`, an earlier study's results in a sweep's folder, HDF5 under a
# file-size limit, Python's basins and spectra against the command line's;
# each case under 20 s in the normal build.
foreach(case findings kept)
  add_test(NAME reliability/thirteenth_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/thirteenth_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR}
            ${case})
  set_tests_properties(reliability/thirteenth_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()
if(NSM_HAVE_MPI AND MPIEXEC_EXECUTABLE)
  add_test(NAME reliability/thirteenth_prog_mpi
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/thirteenth_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR}
            mpi ${MPIEXEC_EXECUTABLE})
  set_tests_properties(reliability/thirteenth_prog_mpi PROPERTIES LABELS reliability TIMEOUT 600
    ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endif()

# What the thirteenth core pass left (tests/reliability/leftovers13b_test.py):
# Python's studies past the sample cap, a plane section named by the state
# columns; each case under 20 s in the normal build.
foreach(case sampling sweep names)
  add_test(NAME reliability/left13b_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers13b_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left13b_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the twelfth hostile pass on the core and the eleventh's leftovers left
# as found (tests/reliability/leftovers13_core_test.py): coincident Zeno
# points, ill-conditioned Floquet orbits, a press growing from 0 with a zero
# rate, a section time tied with an impact within rounding; each case under
# 20 s in the normal build.
foreach(case twozeno floquet press tie)
  add_test(NAME reliability/left13core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers13_core_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left13core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the hostile passes on the programs and the Python package left as found
# (tests/reliability/leftovers14_prog_test.py): a CSV output without even its
# header on a full disk, result files placed together or not at all, every
# output named, Ctrl-C during basins, flags given twice, studies' warnings, CR
# in parameter files, a section whose samples go nowhere, the killed-rank
# case's own rank; each case under 20 s in the normal build.
foreach(case disk place results basins twice warnings setcr unsampled rankpid)
  add_test(NAME reliability/left14prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers14_prog_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} $<TARGET_FILE:sim_bouncing_ball> ${case})
  set_tests_properties(reliability/left14prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the thirteenth hostile pass on the core and the twelfth's leftovers
# left as found (tests/reliability/leftovers14_core_test.py): a pendulum
# released within rounding of its top under taylor, a block lifted from rest
# by a force growing from 0; each case under 20 s in the normal build.
foreach(case top lift rate companion taylorscale)
  add_test(NAME reliability/left14core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers14_core_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left14core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A fourteenth hostile pass on the programs and the Python package
# (tests/reliability/fourteenth_pass_prog_test.py): nsmc continue's steps and
# starts, the figures under a gnuplot that fails, draws nothing or is
# stopped, nsmc run's outputs naming its inputs, Floquet multipliers against
# the closed form, sweeps on two jobs stopped by signals; each case under
# 20 s in the normal build.
foreach(case findings kept)
  add_test(NAME reliability/fourteenth_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/fourteenth_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR}
            ${case})
  set_tests_properties(reliability/fourteenth_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A fourteenth hostile pass on the core (tests/reliability/fourteenth_pass_core_test.py):
# dry friction, frictional impacts, compliant contacts, ties and starting
# states against closed forms derived by hand; each case under 20 s in the
# normal build.
foreach(case findings friction impacts compliant ties)
  add_test(NAME reliability/fourteenth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/fourteenth_pass_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/fourteenth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A fifteenth hostile pass on the core (tests/reliability/fifteenth_pass_core_test.py):
# bodies in space rolling, sliding and spinning up, the tippe top's integrals,
# Hertz trains, a disc into a corner under the impact laws with friction, the
# balance's floors under large steps, against closed forms derived by hand;
# each case under 20 s in the normal build.
foreach(case findings space top hertz corner balance)
  add_test(NAME reliability/fifteenth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/fifteenth_pass_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/fifteenth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A fifteenth hostile pass on the programs and the Python package
# (tests/reliability/fifteenth_pass_prog_test.py): nsmc as a program (its
# options together, -o onto odd targets, models with odd bytes, a mutation
# fuzz), the simulator's outputs against its parameter file, parameter files
# with control characters, a CSV output through a link on a full disk,
# nsm.compile's options, Model.sweep and section in threads; each case under
# 20 s in the normal build.
foreach(case findings kept)
  add_test(NAME reliability/fifteenth_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/fifteenth_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR}
            ${case})
  set_tests_properties(reliability/fifteenth_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the fourteenth hostile pass on the programs left as found
# (tests/reliability/leftovers15_prog_test.py): a stop signal before the
# handlers exist, an earlier study's partial files, a study's results in
# nsmc run's folder, special points printed to their tolerance, flags given
# twice; each case under 20 s in the normal build.
foreach(case early partial run tol twice inputs)
  add_test(NAME reliability/left15prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers15_prog_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left15prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the fourteenth hostile pass on the core left as found
# (tests/reliability/leftovers15_core_test.py): a belt and a wall slower
# than the velocity floors' reach, exact's step cap on a free mass, taylor at
# g = 1e-100 over 16 periods; each case under 20 s in the normal build.
foreach(case belt wall cap taylorscale)
  add_test(NAME reliability/left15core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers15_core_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left15core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A sixteenth hostile pass on the programs and the Python package
# (tests/reliability/sixteenth_pass_prog_test.py): a Ctrl-C between a
# Python sweep's runs, the output folder's lock against the run's own
# inputs; the simulators' options in two orders, stdout closed, the
# velocity floors' edge, the Lyapunov spectrum through Python and the
# command line, the studies' bad arguments, an MPI rank stopped; each case
# under 20 s in the normal build.
foreach(case findings kept)
  add_test(NAME reliability/sixteenth_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/sixteenth_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR}
            ${case})
  set_tests_properties(reliability/sixteenth_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the fifteenth hostile pass on the core and the rounds before it left
# as found (tests/reliability/leftovers16_core_test.py): rk4 without a dt
# through a soft Hertz contact, taylor starting a slip from zero, a contact
# decided on the velocity floor, a strobe time tied with an impact; each
# case under 20 s in the normal build.
foreach(case hertz taylorstart floor floorslip tie)
  add_test(NAME reliability/left16core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers16_core_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left16core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A sixteenth hostile pass on the core (tests/reliability/sixteenth_pass_core_test.py):
# a block pushed until it slides or would tip, Housner's impact under each
# law, a slow contact beside fast bodies at the velocity floor, a compliant
# stop's period, Floquet multipliers over long periods, an impact at a time
# switch, the energetic law with friction, the tippe top's inversion, a sweep
# of a nonlinear model, exact's step cap, against closed forms derived by
# hand; each case under 20 s in the normal build.
foreach(case findings floor rock stop floquet switch energetic tippe sweep cap)
  add_test(NAME reliability/sixteenth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/sixteenth_pass_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/sixteenth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the fifteenth hostile pass on the programs and the rounds after it
# left as found (tests/reliability/leftovers16_prog_test.py): nsmc run's
# energy line and the balance check's verdict, a byte order mark in a
# parameter file, options that stand alone, stop signals ignored at the
# start, a stop while a program is compiled, --tol at its edges; each case
# under 20 s in the normal build.
foreach(case energy bom alone ignored compile tol)
  add_test(NAME reliability/left16prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers16_prog_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left16prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A seventeenth hostile pass on the programs and the Python package
# (tests/reliability/seventeenth_pass_prog_test.py): NSM_REPORT_FD set by
# hand, a full TMPDIR, a decimal comma in Python's locale; lock contents,
# byte order marks, signal states, HDF5 against CSV and under limits, two
# writers, a sweep and a run in one folder, the environment, the command
# line against Python; each case under 20 s in the normal build.
foreach(case findings kept kept_io)
  add_test(NAME reliability/seventeenth_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/seventeenth_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR}
            ${case})
  set_tests_properties(reliability/seventeenth_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A seventeenth hostile pass on the core (tests/reliability/seventeenth_pass_core_test.py):
# the newest fixes at their edges (the per-contact floor beside an impact at
# the start, contacts that must lift under friction, a slip started on a
# slope at its hold, rk4's step on Hertz contacts, badly scaled exponentials)
# and the seeds' benchmarks pushed (the paper's two masses, a ball bouncing
# to rest on a rough floor, beads on a rough or damped floor, the
# cart-pendulum at its stop), against closed forms derived by hand; each
# case under 20 s in the normal build.
foreach(case findings floor slope hertz lift zeno cradle twomass cart scaled discs zswitch
             chain hrest)
  add_test(NAME reliability/seventeenth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/seventeenth_pass_core_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/seventeenth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the sixteenth hostile pass on the programs and the rounds after it
# left as found (tests/reliability/leftovers17_prog_test.py): the Python
# studies' guards as the command line's, the study programs' option words
# checked before their compile, SIGTERM while nsm.compile runs the C
# compiler; each case under 20 s in the normal build.
foreach(case guards words term)
  add_test(NAME reliability/left17prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers17_prog_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left17prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the sixteenth hostile pass on the core and the round after it left as
# found (tests/reliability/leftovers17_core_test.py): rk4's own step through
# a stiff linear stop of a nonlinear model, a strobe time on a landing under
# rk4 and adaptive; each case under 20 s in the normal build.
foreach(case stop tie)
  add_test(NAME reliability/left17core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers17_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left17core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the sixteenth passes left as found in the velocity floors
# (tests/reliability/leftovers17_floor_test.py): nonlinear models and
# configuration-dependent masses at their start, a friction slip started
# during the run by a tiny force, a slow landing judged on kinetic energies
# and the contact's own forces; each case under 20 s in the normal build.
foreach(case nonlinear midslip offset)
  add_test(NAME reliability/left17floor_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers17_floor_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left17floor_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# An eighteenth hostile pass on the core (tests/reliability/eighteenth_pass_core_test.py):
# a time switch and a section plane inside a Zeno accumulation, a disc
# pushed after its Zeno point on a rough floor, friction on Hertz contacts,
# a pendulum's impacts on a wall at large angles, a spinning sphere onto a
# rough tilted plane, forces' units with negated bare numbers, against
# closed forms derived by hand; each case under 20 s in the normal build.
foreach(case findings push hfric pendwall space units)
  add_test(NAME reliability/eighteenth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/eighteenth_pass_core_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/eighteenth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the seventeenth hostile pass on the programs and Python left as found
# (tests/reliability/leftovers18_prog_test.py): t_reached and the stop's
# time against the rows written, --help beside other words, "1 byte";
# each case under 20 s in the normal build.
foreach(case reached help plural locale load cap)
  add_test(NAME reliability/left18prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers18_prog_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left18prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# An eighteenth hostile pass on the programs and the Python package
# (tests/reliability/eighteenth_pass_prog_test.py): a model's name of
# hundreds of characters, an output folder whose files' paths would pass
# PATH_MAX, a model file named with bytes that are not UTF-8 from Python,
# programs started without a standard descriptor, a pickled Model whose
# cached object was cut short; odd characters in every
# path, lost standard outputs, studies and runs in one folder, every study
# program under the stop signals, Python's bad arguments, threads and a
# cache shared with the command line; each case under 20 s in the normal
# build.
foreach(case findings_names findings_paths findings_fds findings_pickle kept kept_signals kept_py)
  add_test(NAME reliability/eighteenth_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/eighteenth_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR}
            ${case})
  set_tests_properties(reliability/eighteenth_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the seventeenth core pass and the round after it left as found
# (tests/reliability/leftovers18_core_test.py): a ball released at rest on
# a Hertz floor, the frictionless rocking block, exact on a free mass,
# units of bare parameters, the mid-run velocity floor per element; each
# case under 20 s in the normal build.
foreach(case hrest rock free units floor spatial)
  add_test(NAME reliability/left18core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers18_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left18core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the eighteenth hostile pass on the programs left as found
# (tests/reliability/leftovers19_prog_test.py): the other programs' results
# removed from a shared folder and said, a continuation's partial file under
# a file-size limit said, a NUL in a name shown escaped from Python, the
# default folder of a model with a long name; each case under 20 s in the
# normal build.
foreach(case folder partial nul longname)
  add_test(NAME reliability/left19prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers19_prog_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left19prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the eighteenth hostile pass on the core left as found
# (tests/reliability/leftovers19_core_test.py): a block sliding beside a
# rocking block's summed tail, a friction whose slip row vanishes where the
# slip crosses 0 under taylor, a block pushed at exactly mu_s N; each case
# under 20 s in the normal build.
foreach(case rock sliprow limit)
  add_test(NAME reliability/left19core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers19_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left19core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The nineteenth hostile pass on the programs and the Python package
# (tests/reliability/nineteenth_pass_prog_test.py): outputs named as the
# files a program writes itself (the simulator's --plot folder and GIF,
# `nsmc run`'s folder and its lock); the inputs that found nothing, kept;
# each case under 20 s in the normal build.
foreach(case findings_plot findings_run findings_sweep findings_cont findings_note findings_py kept kept_py)
  add_test(NAME reliability/nineteenth_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/nineteenth_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/nineteenth_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A nineteenth hostile pass on the core
# (tests/reliability/nineteenth_pass_core_test.py): a push switched by an
# oscillating condition (sin(w t) > 1/2) by every method, beside a Zeno tail
# and across a Zeno point; a Zeno tail beside an oscillator reversing under
# friction; trains of beads with mixed masses and restitutions under the
# sequential law; an elastic ball bouncing 1e4 times and sampled long runs; a
# ball rolling on a rough floor into a frictionless wall;
# each case under 20 s in the normal build.
foreach(case oscswitch osczeno zenofric beads long spacewall)
  add_test(NAME reliability/nineteenth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/nineteenth_pass_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/nineteenth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the eighteenth hostile passes on the core left as found
# (tests/reliability/leftovers20_core_test.py): a contact decided on the
# velocity floor and a stuck element's cone, each judged on its own part of
# the model; taylor on a sphere sliding slowly onto its stick and on a ball
# released at rest on a Hertz floor, a push inside a rough floor's Zeno
# tail; each case under 20 s in the normal build.
foreach(case floorpart conepart slowsphere hertzrest zenopush)
  add_test(NAME reliability/left20core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers20_core_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left20core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the eighteenth hostile passes on the programs and the review of the
# latest changes left as found (tests/reliability/leftovers20_prog_test.py):
# each case under 20 s in the normal build.
foreach(case stoppable sweepstart plotlock helpvalue cap cacheclean)
  add_test(NAME reliability/left20prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers20_prog_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left20prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A twentieth hostile pass on the programs and the Python package
# (tests/reliability/twentieth_pass_prog_test.py): outputs named as the
# --plot folder's lock, a study's model kept in its output folder under a
# result's name, Model.basins' parameters; every study program under every
# stop signal, odd folder names, basins' arguments; each case under 20 s in
# the normal build.
foreach(case findings_lock findings_model findings_basins findings_fsize findings_mpi findings_busy
    findings_gnuplot findings_curve
    kept_signals kept_odd kept_py)
  add_test(NAME reliability/twentieth_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentieth_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentieth_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The adaptive method's reuse of a step's last stage as the next step's
# first (tests/reliability/fsal_test.py): a free mass pushed from a time
# switch, or between two, by adaptive: its closed-form motion at every
# sample, the stage kept from before a switch never read after it; each
# case under 20 s in the normal build.
foreach(case switch pulse)
  add_test(NAME reliability/fsal_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/fsal_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/fsal_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the nineteenth hostile passes on the programs left as found
# (tests/reliability/leftovers21_prog_test.py): each case under 20 s in the
# normal build.
foreach(case optvalue animplot plotmove h5move csvkill)
  add_test(NAME reliability/left21prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers21_prog_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left21prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the nineteenth hostile pass on the core left as found
# (tests/reliability/leftovers21_core_test.py): a rough Zeno tail judged on
# its own part's forces, a switch function with a small ripple on a trend,
# long trains of beads and the sequential law against its own sequence, a
# block stopping inside the rocking block's tail;
# each case under 20 s in the normal build.
foreach(case fricpart ripple longtrain seqbound rockstop)
  add_test(NAME reliability/left21core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers21_core_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left21core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A twentieth hostile pass on the core (tests/reliability/twentieth_pass_core_test.py):
# time switches with bumps and tangent zeros, ...; each case under 20 s in
# the normal build.
foreach(case pulse tangent zenolift zenostrobe alias frichertz lyapsum walls slidewall beltswitch)
  add_test(NAME reliability/twentieth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentieth_pass_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentieth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# Twenty-first hostile pass, core: plastic trains under the sequential law,
# switches tied with impacts, a step force under adaptive's reuse of its
# last stage; each case under 20 s in the normal build.
foreach(case plastictrain switchtie oscswitch cradles)
  add_test(NAME reliability/twentyfirst_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentyfirst_pass_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentyfirst_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The twenty-first hostile pass over the programs
# (tests/reliability/twentyfirst_pass_prog_test.py): a CSV output that
# stops receiving lines still written within 0.25 s under SIGKILL, every
# option in both forms (--NAME VALUE, --NAME=VALUE); each case under 20 s
# in the normal build.
foreach(case findings_quiet findings_order findings_steps findings_script findings_h5clash
    kept_attached)
  add_test(NAME reliability/twentyfirst_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentyfirst_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentyfirst_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the twentieth hostile passes left as found
# (tests/reliability/leftovers22_test.py): the spectrum's file inside the
# folder --plot makes, nsmc's -o given an option's word; each case under
# 20 s in the normal build.
foreach(case lyapplot nsmco frichertz)
  add_test(NAME reliability/left22_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers22_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left22_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The twenty-second hostile pass over the simulators' command line and
# outputs and the Python package
# (tests/reliability/twentysecond_pass_py_test.py): outputs written out
# between the run's callbacks (a SIGKILL long after the last event keeps
# them), an empty section, init as a text, numeric option values, Python
# and the command line giving the
# same bits; each case under 20 s in the normal build.
foreach(case findings_sparse findings_empty findings_init findings_sweepempty findings_lyapzero
    kept_values kept_same kept_py)
  add_test(NAME reliability/twentysecond_py_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentysecond_pass_py_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentysecond_py_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A twenty-second hostile pass on the nsmc programs
# (tests/reliability/twentysecond_pass_cli_test.py): the simulator's words
# after `nsmc run ... --` as --NAME=VALUE, a study's --out-dir=D, the
# animation's script and log, a study's folder moved mid-run, an earlier
# GIF without gnuplot; each case
# under 20 s in the normal build.
foreach(case findings_extras findings_studyout findings_animscript findings_moved
    findings_movedsweep findings_nognuplot findings_animlate kept_names)
  add_test(NAME reliability/twentysecond_cli_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentysecond_pass_cli_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentysecond_cli_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the twenty-first hostile passes left as found
# (tests/reliability/leftovers23_test.py): the folder lock and a folder
# made for nothing removed at a program's end; each case under 20 s in the
# normal build.
foreach(case lockleft fifolink basinstwice gpfull ccenv)
  add_test(NAME reliability/left23_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers23_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left23_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The twenty-second hostile pass on the smooth and nonlinear dynamics
# (tests/reliability/twentysecond_pass_dyn_test.py): Hertz pairs, pendulums,
# Housner's block and free bodies in space against closed forms, and a
# penalty contact's force column never pulling; each case under 20 s in the
# normal build.
foreach(case hertzpair pendulum rocking rigid section jellett pull highexp)
  add_test(NAME reliability/twentysecond_dyn_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentysecond_pass_dyn_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentysecond_dyn_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The twenty-second hostile pass on contacts, events and time switches
# (tests/reliability/twentysecond_pass_contact_test.py): trains under the
# three impact laws, Zeno and strobes on a moving floor, switches of every
# form; each case under 20 s in the normal build.
foreach(case findings_energetic findings_origin findings_switchnoise findings_simulgain
    kept_risingfloor kept_trains kept_strobe kept_switchforms kept_switchforms2)
  add_test(NAME reliability/twentysecond_contact_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentysecond_pass_contact_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentysecond_contact_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A twenty-third hostile pass on the nsmc programs
# (tests/reliability/twentythird_pass_cli_test.py): a run's folder moved
# mid-run, studies stopped after their folder moved; each case under 20 s
# in the normal build.
foreach(case findings_runmoved findings_stopmoved findings_simmoved findings_animfail
    findings_basinplot findings_contearly kept_sound)
  add_test(NAME reliability/twentythird_cli_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentythird_pass_cli_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentythird_cli_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The twenty-third hostile pass over the simulators' command line and
# outputs and the Python package
# (tests/reliability/twentythird_pass_py_test.py): --lyapunov-out naming a
# file another running simulator writes, --animate likewise, the writer thread against stop
# signals and SIGKILL, odd outputs, Model.run reused, from threads and
# interrupted; each case under 20 s in the normal build.
foreach(case findings_lyapbusy findings_animbusy kept_stops kept_outputs kept_py)
  add_test(NAME reliability/twentythird_py_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentythird_pass_py_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentythird_py_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A twenty-fourth hostile pass on the core
# (tests/reliability/twentyfourth_pass_core_test.py): the simultaneous law's
# energy check, exact's contacts below their band, switches and penalty
# forces; each case under 20 s in the normal build.
foreach(case findings_gainzero findings_valuetext findings_gainedge findings_quintic findings_gainmoving
    kept_kelvin kept_sine kept_pairs kept_cradles kept_cradles2)
  add_test(NAME reliability/twentyfourth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentyfourth_pass_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentyfourth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The twenty-fourth hostile pass over the programs
# (tests/reliability/twentyfourth_pass_prog_test.py): folders a program made
# moved mid-run, the lock's removal, programs racing on one folder; each
# case under 20 s in the normal build.
foreach(case findings_movedmade findings_ccnoprog findings_ownabs kept_race)
  add_test(NAME reliability/twentyfourth_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentyfourth_pass_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentyfourth_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the twenty-second and twenty-third hostile passes left as found
# (tests/reliability/leftovers25_test.py): a value below a double's range
# refused as one beyond it is; each case under 20 s in the normal build.
foreach(case underflow cachesafe tabletwice dangling pyunits animstop)
  add_test(NAME reliability/left25_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers25_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left25_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# What the twenty-second hostile passes left as found
# (tests/reliability/leftovers24_test.py): empty fields of a section spec,
# nsmc continue's --plot with --no-plot, the simulator's --plot naming nsmc
# run's own folder, a run's own file named in messages, an MPI sweep's rank
# count, Lyapunov spans too short for the exponents, a failed write of the
# outputs' writer thread, the trajectory's last row at t_end; each case under
# 20 s in the normal build.
foreach(case sectionempty contplot plotdir ownfile mpiranks lyapshort flushfail
    finalsample)
  add_test(NAME reliability/left24_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers24_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left24_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A scouting pass on the programs (tests/reliability/scout26_prog_test.py):
# the program cache's entries under a permissive umask, and an output
# folder named through a folder not yet there (`A/../B`); each case under
# 10 s in the normal build.
foreach(case cache_modes py_cache_modes dotdot_dir)
  add_test(NAME reliability/scout26_prog_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/scout26_prog_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR}
            ${case})
  set_tests_properties(reliability/scout26_prog_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A scouting pass after the twenty-fourth, on the core
# (tests/reliability/scout26_core_test.py): the simultaneous law's energy
# check under a barely moving surface and beside unrelated kinetic energy,
# numbers with a unit that underflow to 0, section specs' numbers and
# blank fields; each case under 10 s in the
# normal build.
foreach(case surfacework unrelated underflow section)
  add_test(NAME reliability/scout26_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/scout26_core_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/scout26_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The twenty-fifth hostile pass on the simulators' command line and outputs
# and the Python package (tests/reliability/twentyfifth_pass_py_test.py):
# counts and sweep values given as texts that underflow, the last row at
# t_end in the CSV, HDF5 and Python, malformed option values, SIGKILL and
# SIGTERM while writing, units in params= and damaged cache entries; each
# case under 20 s in the normal build.
foreach(case counts values summary lyapend finalsample options kill pyunits)
  add_test(NAME reliability/twentyfifth_py_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentyfifth_pass_py_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentyfifth_py_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# Review leftovers of issue #29 (tests/reliability/leftovers26_test.py):
# one rule where two pieces of code held it in two forms; each case under
# 20 s in the normal build.
foreach(case cachecheck pyblank helpevery capdigits animstale)
  add_test(NAME reliability/left26_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers26_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left26_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The twenty-fifth hostile pass on the smooth and nonlinear dynamics and the
# studies' numbers (tests/reliability/twentyfifth_pass_dyn_test.py): each
# answer against a closed form or an exact invariant; each case under 20 s
# in the normal build.
foreach(case findings_spread findings_underflow findings_flatgap kept_lyap kept_floquet
             kept_duffing kept_impactsum kept_continuation)
  add_test(NAME reliability/twentyfifth_dyn_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentyfifth_pass_dyn_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentyfifth_dyn_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The twenty-fifth hostile pass on the nsmc programs
# (tests/reliability/twentyfifth_pass_cli_test.py): nsmc run's words after
# "--", results it cannot read back (also a simulator's --plot), the C
# compiler named by CC, odd output
# folders and result files; each case under 20 s in the normal build.
foreach(case findings_tablevalue findings_unread findings_ccshared findings_plotfifo
        findings_gone findings_basinline kept_outdirs kept_signals)
  add_test(NAME reliability/twentyfifth_cli_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentyfifth_pass_cli_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentyfifth_cli_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A twenty-fifth hostile pass on contacts, events and time switches
# (tests/reliability/twentyfifth_pass_core_test.py): every answer against a
# closed form or an exact invariant; each case under 20 s in the normal
# build.
foreach(case findings_surfacegain findings_belttouch findings_energeticnan findings_stiffunit
    findings_pendtie
    kept_galilean kept_galilean2 kept_galilean3 kept_zenoend)
  add_test(NAME reliability/twentyfifth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentyfifth_pass_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentyfifth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# Review leftovers of issue #29 (tests/reliability/leftovers27_test.py):
# each case a check that failed before its fix, under 20 s in the normal
# build.
foreach(case stdoutcsv lyapevery oddset fnunder jobs pyunits manyexp afterrun)
  add_test(NAME reliability/left27_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/leftovers27_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/left27_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The twenty-sixth hostile pass on the smooth and nonlinear dynamics and the
# studies' numbers (tests/reliability/twentysixth_pass_dyn_test.py): each
# answer against a closed form or an exact invariant; each case under 20 s
# in the normal build.
foreach(case findings_overflow findings_oddproduct findings_infmass findings_frame
             kept_pendulum kept_housner kept_space kept_hertz kept_studies)
  add_test(NAME reliability/twentysixth_dyn_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentysixth_pass_dyn_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentysixth_dyn_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A twenty-sixth hostile pass on the nsmc programs
# (tests/reliability/twentysixth_pass_cli_test.py): results replaced while a
# run ran, grids finer than 15 digits, CC, stale temporaries, the cache and
# signals; each case under 20 s in the normal build.
foreach(case findings_devstdout findings_replaced findings_finegrid findings_stale findings_ccprogram
             kept_cc kept_cache kept_setfile kept_signals kept_mpi)
  add_test(NAME reliability/twentysixth_cli_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentysixth_pass_cli_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentysixth_cli_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# The twenty-sixth hostile pass on the generated simulators' command line and
# outputs and on the Python package (tests/reliability/twentysixth_pass_py_test.py):
# each case under 20 s in the normal build.
foreach(case devstdout devpipe devstderr comma stalled stalledtable writefail
    kept_grid kept_pyargs kept_h5temp)
  add_test(NAME reliability/twentysixth_py_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentysixth_pass_py_test.py
            $<TARGET_FILE:nsmc> $<TARGET_FILE:sim_bouncing_ball>
            $<TARGET_FILE:sim_forced_impact_oscillator> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentysixth_py_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()

# A twenty-sixth hostile pass on contacts, events and time switches
# (tests/reliability/twentysixth_pass_core_test.py; docs/fuzzing.md): a
# simultaneous law's gain hidden by a fast floor's rounding, and the checks it kept (moving corners, vibrating floors under the simultaneous
# law, a belt the mass never catches, impacts on a moving floor).
foreach(case findings_fastfloor kept_wedge kept_sinfloor kept_beltnear kept_zenorise)
  add_test(NAME reliability/twentysixth_core_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/reliability/twentysixth_pass_core_test.py
            ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(reliability/twentysixth_core_${case} PROPERTIES LABELS "reliability;python"
    TIMEOUT 600 ENVIRONMENT "${NSM_HOSTILE_PY_ENV}")
endforeach()
