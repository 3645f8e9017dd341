# Many contacts at one instant (label cradle): Newton's cradles and bead
# chains (models/cradle*.nsm) against tests/reference/cradle.py, the
# sequential model in exact rational arithmetic, written independently of the
# simulator; and a ball resting on a sprung table (models/sprung_table.nsm)
# against its closed form (tests/reference/sprung_table.py).  Each model is
# run through tests/cradle/cradle_run.c, which prints the events and the
# final state at full precision.
#  - cradle.<n>.e<e>.<method>: every final velocity to 1e-12 m/s, every
#    collision (contact, closing and opening speeds, one instant), no zeno
#    record; d0: the first ball starts touching (the impacts at t = 0).
#  - cradle.collapse.*: sequences that never end (three beads below
#    McNamara and Young's e_c = 7 - 4 sqrt(3), five balls at e = 0.2): one
#    zeno record and the exact limit to 1e-12; with --no-zeno no zeno
#    record, every collision resolved down to the velocity tolerance, and the
#    limit to 1e-9.
#  - sprung_table.<method>: one stick, no impact, no chatter, no guard; the
#    motion to 1e-9 m.
#  - cradle.squeeze.<method>: a ball touching a floor and a ceiling at once
#    (tests/cradle/squeeze.nsm): its collapse onto two dependent contacts
#    stops it, and with e = 1 the run stops with an error.
set(NSM_CRADLE_PY ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/reference/cradle.py)
set(NSM_METHODS rk4 adaptive exact)

add_test(NAME reference_cradle COMMAND ${NSM_CRADLE_PY} --selftest)
set_tests_properties(reference_cradle PROPERTIES LABELS "reference;cradle")

foreach(model cradle3 cradle5 cradle6 cradle10 cradle20 sprung_table)
  add_executable(cradle_run_${model} ${NSM_SOURCE_DIR}/tests/cradle/cradle_run.c
                 ${NSM_SOURCE_DIR}/generated/${model}.c)
  target_compile_definitions(cradle_run_${model} PRIVATE NSM_NO_MAIN NSM_MODEL=nsm_model_${model})
  target_link_libraries(cradle_run_${model} PRIVATE nsmrt m)
endforeach()

set(NSM_SQUEEZE_C ${CMAKE_CURRENT_BINARY_DIR}/squeeze.c)
add_custom_command(OUTPUT ${NSM_SQUEEZE_C}
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/cradle/squeeze.nsm -o ${NSM_SQUEEZE_C}
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/cradle/squeeze.nsm
  VERBATIM)
add_executable(cradle_run_squeeze ${NSM_SOURCE_DIR}/tests/cradle/cradle_run.c ${NSM_SQUEEZE_C})
target_compile_definitions(cradle_run_squeeze PRIVATE NSM_NO_MAIN NSM_MODEL=nsm_model_squeeze)
target_link_libraries(cradle_run_squeeze PRIVATE nsmrt m)

# A cradle sized by a parameter (param N = 12; mass P[1..N]): the same
# references as the cradles above, and a run that asks for another N is
# refused with the message that the simulator must be generated again.
set(NSM_SIZED_C ${CMAKE_CURRENT_BINARY_DIR}/cradle_sized.c)
add_custom_command(OUTPUT ${NSM_SIZED_C}
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/cradle/cradle_sized.nsm -o ${NSM_SIZED_C}
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/cradle/cradle_sized.nsm
  VERBATIM)
add_executable(cradle_run_cradle12 ${NSM_SOURCE_DIR}/tests/cradle/cradle_run.c ${NSM_SIZED_C})
target_compile_definitions(cradle_run_cradle12 PRIVATE NSM_NO_MAIN NSM_MODEL=nsm_model_cradle_sized)
target_link_libraries(cradle_run_cradle12 PRIVATE nsmrt m)
add_test(NAME cradle.sized.refuses_new_size
  COMMAND $<TARGET_FILE:cradle_run_cradle12> rk4 1 N=13)
set_tests_properties(cradle.sized.refuses_new_size PROPERTIES LABELS "cradle"
  PASS_REGULAR_EXPRESSION "parameter 'N' sizes the model.*fixed at 12.*generate the simulator again")
add_test(NAME cradle.sized.same_size_accepted
  COMMAND $<TARGET_FILE:cradle_run_cradle12> rk4 0.01 N=12)
set_tests_properties(cradle.sized.same_size_accepted PROPERTIES LABELS "cradle"
  PASS_REGULAR_EXPRESSION "status 0")

# nsm_cradle(NAME BALLS METHOD [cradle.py options])
function(nsm_cradle name balls method)
  add_test(NAME cradle.${name}.${method}
    COMMAND ${NSM_CRADLE_PY} --sim $<TARGET_FILE:cradle_run_cradle${balls}> --balls ${balls}
            --method ${method} ${ARGN})
  set_tests_properties(cradle.${name}.${method} PROPERTIES LABELS "cradle;numeric")
endfunction()

foreach(method ${NSM_METHODS})
  foreach(balls 5 6 10 20)
    nsm_cradle(${balls}.e1 ${balls} ${method} --e 1 --expect finite)
    nsm_cradle(${balls}.e0.9 ${balls} ${method} --e 0.9 --expect finite)
  endforeach()
  nsm_cradle(sized12.e1 12 ${method} --e 1 --expect finite)
  nsm_cradle(sized12.e0.9 12 ${method} --e 0.9 --expect finite)
  nsm_cradle(10.e0.9.d0 10 ${method} --e 0.9 --d 0 --expect finite)
  nsm_cradle(20.e1.d0 20 ${method} --e 1 --d 0 --expect finite)
  nsm_cradle(10.e0.9.nozeno 10 ${method} --e 0.9 --no-zeno --expect finite)
  nsm_cradle(6.e0.5 6 ${method} --e 0.5 --expect finite)
  nsm_cradle(3.e0.1 3 ${method} --e 0.1 --expect finite)
  nsm_cradle(collapse.3.e0.05 3 ${method} --e 0.05 --expect collapse)
  nsm_cradle(collapse.3.e0 3 ${method} --e 0 --expect collapse)
  nsm_cradle(collapse.5.e0.2 5 ${method} --e 0.2 --expect collapse)
  nsm_cradle(collapse.3.e0.05.nozeno 3 ${method} --e 0.05 --no-zeno --tol 1e-9 --expect collapse)
  nsm_cradle(collapse.5.e0.2.nozeno 5 ${method} --e 0.2 --no-zeno --tol 1e-9 --expect collapse)
  add_test(NAME sprung_table.${method}
    COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/reference/sprung_table.py
            --sim $<TARGET_FILE:cradle_run_sprung_table> --method ${method})
  set_tests_properties(sprung_table.${method} PROPERTIES LABELS "cradle;numeric")
  add_test(NAME cradle.squeeze.${method}
    COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/cradle/squeeze_check.py
            --sim $<TARGET_FILE:cradle_run_squeeze> --method ${method})
  set_tests_properties(cradle.squeeze.${method} PROPERTIES LABELS "cradle;numeric")
endforeach()

# A thousand beads 1 mm apart (tests/cradle/chain1000.nsm, 999 gaps: the
# mode spans 32 words) against its closed form (tests/cradle/chain_check.py):
# 999 binary collisions handing the velocity down the chain, each time,
# speed and the final state to 1e-12; rk4, adaptive and exact (whose modes
# are operators over the sparse tables at this size: runtime/src/modeop.c).
set(NSM_CHAIN1000_C ${CMAKE_CURRENT_BINARY_DIR}/chain1000.c)
add_custom_command(OUTPUT ${NSM_CHAIN1000_C}
  COMMAND nsmc ${NSM_SOURCE_DIR}/tests/cradle/chain1000.nsm -o ${NSM_CHAIN1000_C}
  DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/cradle/chain1000.nsm
  VERBATIM)
add_executable(cradle_run_chain1000 ${NSM_SOURCE_DIR}/tests/cradle/cradle_run.c ${NSM_CHAIN1000_C})
target_compile_definitions(cradle_run_chain1000 PRIVATE NSM_NO_MAIN NSM_MODEL=nsm_model_chain1000)
target_link_libraries(cradle_run_chain1000 PRIVATE nsmrt m)
foreach(method rk4 adaptive exact)
  add_test(NAME cradle.chain1000.${method}
    COMMAND ${NSM_PYTHON} -B ${NSM_SOURCE_DIR}/tests/cradle/chain_check.py
            --sim $<TARGET_FILE:cradle_run_chain1000> --method ${method})
  set_tests_properties(cradle.chain1000.${method} PROPERTIES LABELS "cradle;numeric")
endforeach()
