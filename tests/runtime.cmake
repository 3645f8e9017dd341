# Runtime tests (label runtime): closed-form numeric tests of libnsmrt on
# hand-written model tables, and command-line tests of its driver.
set(RT_DIR ${CMAKE_CURRENT_SOURCE_DIR}/runtime)
add_library(rt_models OBJECT
  ${RT_DIR}/models/ball.c ${RT_DIR}/models/two_mass.c ${RT_DIR}/models/two_mass_generic.c
  ${RT_DIR}/models/penalty.c ${RT_DIR}/models/forced.c ${RT_DIR}/models/stack.c)
target_link_libraries(rt_models PRIVATE nsmrt)

add_executable(rt_tests ${RT_DIR}/rt_tests.c $<TARGET_OBJECTS:rt_models>)
target_compile_definitions(rt_tests PRIVATE _POSIX_C_SOURCE=200809L _DEFAULT_SOURCE)
target_link_libraries(rt_tests PRIVATE nsmrt m)

set(RT_NUMERIC_TESTS
  ball_rk4 ball_adaptive ball_exact
  zeno_rk4 zeno_adaptive zeno_exact
  case_a_derived_rk4 case_a_generic_rk4 case_a_generic_adaptive case_a_generic_exact
  case_a_derived_exact agree_rk4 agree_adaptive
  plastic_rk4 plastic_exact stack_rk4 stack_exact tend_rk4 tend_adaptive tend_exact
  penalty_rk4 penalty_adaptive penalty_exact
  pendamp_force_rk4 pendamp_force_adaptive pendamp_force_exact
  pendamp_gap_rk4 pendamp_gap_adaptive pendamp_gap_exact
  grazing_rk4 grazing_adaptive grazing_exact
  switch_rk4 switch_adaptive switch_exact
  exact_refused guards entries nan resume adaptive_tol potential_rk4 potential_exact)
foreach(t ${RT_NUMERIC_TESTS})
  add_test(NAME runtime.${t} COMMAND rt_tests ${t})
  set_tests_properties(runtime.${t} PROPERTIES LABELS runtime)
endforeach()

# Test simulators: sim_main.c + a model table, as nsmc's output would be.
foreach(model ball two_mass penalty)
  add_executable(rt_sim_${model} ${RT_DIR}/sim_main.c ${RT_DIR}/models/${model}.c)
  target_compile_definitions(rt_sim_${model} PRIVATE NSM_TEST_MODEL=${model}_model)
  target_link_libraries(rt_sim_${model} PRIVATE nsmcli)
endforeach()

set(RT_CLI ${NSM_PYTHON} ${RT_DIR}/cli_check.py)
set(RT_OUT ${CMAKE_CURRENT_BINARY_DIR}/runtime-out)
file(MAKE_DIRECTORY ${RT_OUT})
function(rt_cli name)
  add_test(NAME runtime.cli.${name} COMMAND ${RT_CLI} ${ARGN})
  set_tests_properties(runtime.cli.${name} PROPERTIES LABELS runtime)
endfunction()

rt_cli(default_table --exit 0 --stdout "^t \\[s\\] +event" --stdout "separation +r"
  --stderr "two_mass: [0-9]+ events, .*energy error"
  -- $<TARGET_FILE:rt_sim_two_mass> --t-end 13)
rt_cli(csv --exit 0 --file ${RT_OUT}/traj.csv "^t \\[s\\],M1.x \\[m\\],M2.x \\[m\\],r.force \\[N\\],E.error \\[J\\]$"
  --file ${RT_OUT}/traj.csv "^13,"
  --csv-lines ${RT_OUT}/traj.csv 1302
  --file ${RT_OUT}/ev.csv "^t,kind,contact,vrel_before,vrel_after,impulse,energy_lost,count$"
  --file ${RT_OUT}/ev.csv "^0,stick,r,"
  --file ${RT_OUT}/ev.csv "^3\\.2[0-9]+,separation,r,"
  --csv-lines ${RT_OUT}/ev.csv 4
  -- $<TARGET_FILE:rt_sim_two_mass> --t-end 13 --out ${RT_OUT}/traj.csv --events ${RT_OUT}/ev.csv)
rt_cli(events_stdout --exit 0 --stdout "^t,kind,contact" --stdout "zeno,floor" --no-stdout "event +contact"
  -- $<TARGET_FILE:rt_sim_ball> --method exact --t-end 2 --events -)
rt_cli(set_param --exit 0 --stdout "^0\\.45152364098[0-9]*,impact,floor,-4\\.429446918[0-9]*,"
  -- $<TARGET_FILE:rt_sim_ball> --set e=0.8 --set h=1 --events - --t-end 0.5)
rt_cli(unknown_param --exit 1 --stderr "unknown parameter 'q'. valid parameters: m, g, h, e, v0"
  -- $<TARGET_FILE:rt_sim_ball> --set q=1)
rt_cli(bad_value --exit 1 --stderr "bad value 'abc' for parameter 'e'"
  -- $<TARGET_FILE:rt_sim_ball> --set e=abc)
rt_cli(invalid_value --exit 1 --stderr "invalid value 2 of parameter 'e' \\(the model needs"
  -- $<TARGET_FILE:rt_sim_ball> --set e=2)
rt_cli(bad_method --exit 1 --stderr "unknown method 'euler' \\(valid: rk4, adaptive, exact, taylor\\)"
  -- $<TARGET_FILE:rt_sim_ball> --method euler)
rt_cli(bad_option --exit 1 --stderr "unknown option '--frobnicate'"
  -- $<TARGET_FILE:rt_sim_ball> --frobnicate)
rt_cli(missing_value --exit 1 --stderr "option --dt needs a value"
  -- $<TARGET_FILE:rt_sim_ball> --dt)
rt_cli(bad_dt --exit 1 --stderr "bad value '-1' for --dt"
  -- $<TARGET_FILE:rt_sim_ball> --dt -1)
rt_cli(both_stdout --exit 1 --stderr "--out and --events cannot both write to stdout"
  -- $<TARGET_FILE:rt_sim_ball> --out - --events -)
rt_cli(help --exit 0 --stdout "usage: rt_sim_ball" --stdout "--set NAME=VALUE" --stdout "^  e +0.5"
  -- $<TARGET_FILE:rt_sim_ball> --help)
rt_cli(step_cap --exit 3 --stderr "error: simulation failed: t = 0\\.[0-9]* s, mode free: step cap of 50 steps"
  --csv-lines ${RT_OUT}/cap.csv 2
  -- $<TARGET_FILE:rt_sim_ball> --max-steps 50 --dt 0.04 --every 0.01 --out ${RT_OUT}/cap.csv)
rt_cli(runaway --exit 3 --stderr "mode free, contact 'floor': 20 events in .* exceed the event rate cap"
  --csv-lines ${RT_OUT}/runaway.csv 10
  -- $<TARGET_FILE:rt_sim_ball> --no-zeno --set e=0.9 --max-event-rate 100 --t-end 30 --events ${RT_OUT}/runaway.csv)
rt_cli(penalty --exit 0 --stdout "contact_enter +wall" --stdout "contact_exit +wall"
  -- $<TARGET_FILE:rt_sim_penalty> --t-end 1)

# The embedding example of docs/runtime.md, extracted at configure time and
# compiled against the committed generated bouncing ball.
set(RT_DOC ${NSM_SOURCE_DIR}/docs/runtime.md)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${RT_DOC})
file(READ ${RT_DOC} RT_DOC_TEXT)
string(REGEX MATCH "```c\n(/\\* sweep\\.c[^`]*)```" RT_DOC_MATCH "${RT_DOC_TEXT}")
if(CMAKE_MATCH_1 AND EXISTS ${NSM_SOURCE_DIR}/generated/bouncing_ball.c)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/runtime_doc_example.c "${CMAKE_MATCH_1}")
  add_executable(rt_doc_example ${CMAKE_CURRENT_BINARY_DIR}/runtime_doc_example.c
    ${NSM_SOURCE_DIR}/generated/bouncing_ball.c)
  target_compile_definitions(rt_doc_example PRIVATE NSM_NO_MAIN)
  target_link_libraries(rt_doc_example PRIVATE nsmrt)
  add_test(NAME runtime.doc_example COMMAND rt_doc_example)
  set_tests_properties(runtime.doc_example PROPERTIES LABELS runtime
    PASS_REGULAR_EXPRESSION "e = 0.5: at rest at t = 1\\.35457092295[67][0-9]* s")
else()
  add_test(NAME runtime.doc_example COMMAND ${CMAKE_COMMAND} -E false)
  set_tests_properties(runtime.doc_example PROPERTIES LABELS runtime)
endif()
file(WRITE ${RT_OUT}/good.set "# drop from 2 m\nh = 2   # m\ne = 0.8\n")
file(WRITE ${RT_OUT}/bad.set "h = 2\nfoo = 1\n")
file(WRITE ${RT_OUT}/syntax.set "h 2\n")
rt_cli(set_file --exit 0 --stdout "^0\\.63855085[0-9]*,impact,floor,-6\\.2641839[0-9]*,5\\.01134"
  -- $<TARGET_FILE:rt_sim_ball> --set-file ${RT_OUT}/good.set --events - --t-end 0.7)
rt_cli(set_file_unknown --exit 1 --stderr "bad.set:2: unknown parameter 'foo'. valid parameters: m, g, h, e, v0"
  -- $<TARGET_FILE:rt_sim_ball> --set-file ${RT_OUT}/bad.set)
rt_cli(set_file_syntax --exit 1 --stderr "syntax.set:1: .*NAME = VALUE"
  -- $<TARGET_FILE:rt_sim_ball> --set-file ${RT_OUT}/syntax.set)

# Memory linear in the model's elements: a 10000-bead chain under an
# address-space cap and a peak resident set bound (tests/runtime/mem_check.c).
set(NSM_CHAIN10000_C ${CMAKE_CURRENT_BINARY_DIR}/chain10000.c)
add_custom_command(OUTPUT ${NSM_CHAIN10000_C}
  COMMAND nsmc ${RT_DIR}/chain10000.nsm -o ${NSM_CHAIN10000_C}
  DEPENDS nsmc ${RT_DIR}/chain10000.nsm
  VERBATIM)
add_executable(rt_mem_check ${RT_DIR}/mem_check.c ${NSM_CHAIN10000_C})
target_compile_definitions(rt_mem_check PRIVATE NSM_NO_MAIN)
target_link_libraries(rt_mem_check PRIVATE nsmrt m)
add_test(NAME runtime.memory_linear COMMAND rt_mem_check)
set_tests_properties(runtime.memory_linear PROPERTIES LABELS runtime)
