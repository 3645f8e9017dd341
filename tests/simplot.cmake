# `--plot DIR` on a generated simulator (label workflow).  Included by
# tests/CMakeLists.txt, this file registers the tests; run with
# `cmake -DSIM=... -DWORK=... -DCASE=... -P simplot.cmake` it is the test:
#
#   plots        --plot DIR --phase: DIR/trajectory.csv and events.csv written,
#                plot.png a PNG (magic bytes), plot.svg an SVG, phase.png and
#                phase.svg there, stderr says where they are.
#   no_gnuplot   the same with PATH holding no gnuplot: exit 0, a note on
#                stderr, the CSV files and the script written, no picture.
#   named_files  --out and --events name files elsewhere: the plot reads
#                them, DIR holds no CSV of its own.
#   refusals     --out - or --events - with --plot, --phase without --plot,
#                a plot directory that cannot be created: exit 1 and a clear
#                message.
#
# It also registers tests/plot/plot_test.py's cases (workflow/plot.*),
# tests/plot/anim_test.py's (workflow/anim.*: the animated GIFs) and
# tests/plot/fixes_test.py's (workflow/plotfix.*: the plots' rough edges).

if(NOT CMAKE_SCRIPT_MODE_FILE)
  foreach(case plots no_gnuplot named_files refusals)
    add_test(NAME workflow/simplot.${case}
      COMMAND ${CMAKE_COMMAND} -DSIM=$<TARGET_FILE:sim_two_mass>
              -DWORK=${CMAKE_BINARY_DIR}/simplot/${case} -DCASE=${case}
              -P ${CMAKE_CURRENT_LIST_FILE})
    set_tests_properties(workflow/simplot.${case} PROPERTIES LABELS workflow TIMEOUT 300)
  endforeach()
  # Models that used to break the plots (tests/plot/plot_test.py): indexed
  # families, more kinds of output than panels, 2000 impacts, 32 contacts.
  foreach(case columns left_out impacts contacts planar)
    add_test(NAME workflow/plot.${case}
      COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/plot/plot_test.py $<TARGET_FILE:nsmc>
              ${NSM_SOURCE_DIR} ${CMAKE_BINARY_DIR}/plot-tests/${case} ${case})
    set_tests_properties(workflow/plot.${case} PROPERTIES LABELS workflow TIMEOUT 600)
  endforeach()
  # Animated GIFs (tests/plot/anim_test.py): frame count, pixels where the
  # trajectory puts the bodies, refusals.
  foreach(case frames pixels disc table nsmc_run refusals)
    add_test(NAME workflow/anim.${case}
      COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/plot/anim_test.py ${case}
              ${CMAKE_BINARY_DIR}/anim-tests/${case} $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR}
              $<TARGET_FILE:sim_two_mass> $<TARGET_FILE:sim_disc_walls>
              $<TARGET_FILE:sim_vibrating_table>)
    set_tests_properties(workflow/anim.${case} PROPERTIES LABELS workflow TIMEOUT 300)
  endforeach()
  # The plots' rough edges (tests/plot/fixes_test.py).
  foreach(case negzero phase_one friction t0 surface rolling)
    add_test(NAME workflow/plotfix.${case}
      COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/plot/fixes_test.py ${case}
              ${CMAKE_BINARY_DIR}/plotfix-tests/${case} $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR}
              $<TARGET_FILE:sim_cradle5> $<TARGET_FILE:sim_vibrating_table>
              $<TARGET_FILE:sim_disc_walls_friction> $<TARGET_FILE:sim_rotating_ball_3>
              $<TARGET_FILE:sim_chain20>)
    set_tests_properties(workflow/plotfix.${case} PROPERTIES LABELS workflow TIMEOUT 300)
  endforeach()
  return()
endif()

# ---- script mode: one case --------------------------------------------------

set(FAILS 0)

# Record one check: expect(WHAT CONDITION...), the condition as for if().
function(expect what)
  if(${ARGN})
    message("ok    ${what}")
  else()
    message("FAIL  ${what}")
    math(EXPR n "${FAILS} + 1")
    set(FAILS ${n} PARENT_SCOPE)
  endif()
endfunction()

# Run the simulator with the given arguments (and environment prefix ENV);
# sets RC, OUT and ERR in the caller.
function(run_sim)
  cmake_parse_arguments(R "" "" "ENV;ARGS" ${ARGN})
  if(R_ENV)
    set(cmd ${CMAKE_COMMAND} -E env ${R_ENV} ${SIM} ${R_ARGS})
  else()
    set(cmd ${SIM} ${R_ARGS})
  endif()
  string(REPLACE ";" " " shown "${cmd}")
  message("run: ${shown}")
  execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("stderr: ${err}")
  set(RC ${rc} PARENT_SCOPE)
  set(OUT "${out}" PARENT_SCOPE)
  set(ERR "${err}" PARENT_SCOPE)
endfunction()

# Whether file f starts with the PNG signature 89 50 4E 47 0D 0A 1A 0A.
function(is_png f var)
  set(${var} FALSE PARENT_SCOPE)
  if(EXISTS ${f})
    file(READ ${f} magic LIMIT 8 HEX)
    if(magic STREQUAL "89504e470d0a1a0a")
      set(${var} TRUE PARENT_SCOPE)
    endif()
  endif()
endfunction()

# Whether file f exists and contains an <svg element.
function(is_svg f var)
  set(${var} FALSE PARENT_SCOPE)
  if(EXISTS ${f})
    file(READ ${f} text)
    string(FIND "${text}" "<svg" at)
    if(at GREATER -1)
      set(${var} TRUE PARENT_SCOPE)
    endif()
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(DIR ${WORK}/plots/deeper)

if(CASE STREQUAL "plots")
  run_sim(ARGS --t-end 20 --plot ${DIR} --phase)
  expect("exit status 0 (got ${RC})" RC EQUAL 0)
  expect("trajectory.csv written into DIR" EXISTS ${DIR}/trajectory.csv)
  expect("events.csv written into DIR" EXISTS ${DIR}/events.csv)
  file(STRINGS ${DIR}/trajectory.csv head LIMIT_COUNT 1)
  string(FIND "${head}" "t [s],M1.x [m]" at)
  expect("trajectory.csv has the simulator's header" at EQUAL 0)
  file(STRINGS ${DIR}/events.csv evs)
  list(LENGTH evs nev)
  expect("events.csv holds the events (${nev} lines)" nev GREATER 1)
  is_png(${DIR}/plot.png png)
  expect("plot.png is a PNG" png)
  is_svg(${DIR}/plot.svg svg)
  expect("plot.svg is an SVG" svg)
  is_png(${DIR}/phase.png png)
  expect("phase.png is a PNG (--phase)" png)
  is_svg(${DIR}/phase.svg svg)
  expect("phase.svg is an SVG (--phase)" svg)
  string(FIND "${ERR}" "plots: ${DIR}/plot.png, ${DIR}/plot.svg, ${DIR}/phase.png" at)
  expect("stderr says where the plots are" at GREATER -1)
  # a second run without --phase leaves no stale phase portrait behind
  run_sim(ARGS --t-end 1 --plot ${DIR})
  expect("second run: exit status 0" RC EQUAL 0)
  expect("second run without --phase: old phase.png removed" NOT EXISTS ${DIR}/phase.png)
  is_png(${DIR}/plot.png png)
  expect("second run: plot.png redrawn" png)
elseif(CASE STREQUAL "no_gnuplot")
  file(MAKE_DIRECTORY ${WORK}/emptybin)
  run_sim(ENV PATH=${WORK}/emptybin ARGS --t-end 2 --plot ${DIR})
  expect("no gnuplot on PATH: exit status 0 (got ${RC})" RC EQUAL 0)
  string(FIND "${ERR}" "note: no plot: gnuplot is not installed" at)
  expect("stderr notes that gnuplot is not installed" at GREATER -1)
  string(FIND "${ERR}" "error:" at)
  expect("no error on stderr" at EQUAL -1)
  expect("trajectory.csv still written" EXISTS ${DIR}/trajectory.csv)
  expect("events.csv still written" EXISTS ${DIR}/events.csv)
  expect("the gnuplot script still written" EXISTS ${DIR}/plot.gp)
  expect("no plot.png" NOT EXISTS ${DIR}/plot.png)
elseif(CASE STREQUAL "named_files")
  run_sim(ARGS --t-end 20 --out ${WORK}/traj.csv --events ${WORK}/ev.csv --plot ${DIR})
  expect("exit status 0 (got ${RC})" RC EQUAL 0)
  expect("--out file written" EXISTS ${WORK}/traj.csv)
  expect("--events file written" EXISTS ${WORK}/ev.csv)
  expect("no trajectory.csv of its own in DIR" NOT EXISTS ${DIR}/trajectory.csv)
  expect("no events.csv of its own in DIR" NOT EXISTS ${DIR}/events.csv)
  is_png(${DIR}/plot.png png)
  expect("plot.png drawn from the named files" png)
  is_svg(${DIR}/plot.svg svg)
  expect("plot.svg drawn from the named files" svg)
  file(READ ${DIR}/plot.gp gp)
  string(FIND "${gp}" "traj.csv" at)
  expect("the script reads the --out file" at GREATER -1)
elseif(CASE STREQUAL "refusals")
  foreach(opt --out --events)
    run_sim(ARGS --t-end 1 ${opt} - --plot ${DIR})
    expect("${opt} - with --plot: exit status 1 (got ${RC})" RC EQUAL 1)
    string(FIND "${ERR}" "${opt} - cannot be used with --plot" at)
    expect("${opt} - with --plot: the message says why" at GREATER -1)
  endforeach()
  expect("nothing created when refused" NOT EXISTS ${DIR})
  run_sim(ARGS --t-end 1 --phase)
  expect("--phase without --plot: exit status 1" RC EQUAL 1)
  string(FIND "${ERR}" "--phase needs --plot DIR" at)
  expect("--phase without --plot: the message says why" at GREATER -1)
  file(WRITE ${WORK}/afile "")
  run_sim(ARGS --t-end 1 --plot ${WORK}/afile/sub)
  expect("plot directory under a file: exit status 1" RC EQUAL 1)
  string(FIND "${ERR}" "cannot create the plot directory" at)
  expect("plot directory under a file: the message says why" at GREATER -1)
  run_sim(ARGS --help)
  string(FIND "${OUT}" "--plot DIR" at1)
  string(FIND "${OUT}" "--phase" at2)
  expect("--help lists --plot and --phase" at1 GREATER -1 AND at2 GREATER -1)
else()
  message(FATAL_ERROR "unknown case '${CASE}'")
endif()

if(FAILS GREATER 0)
  message(FATAL_ERROR "${FAILS} check(s) failed")
endif()
message("all checks passed")
