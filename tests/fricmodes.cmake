# The friction elements' derived modes (compiler/derive_fric.c): the
# modes() of generated friction models against closed forms, against the
# runtime's generic path in every mode, and whole runs with and without
# modes() (tests/unit/test_fric_modes.c).
add_executable(test_fric_modes ${NSM_SOURCE_DIR}/tests/unit/test_fric_modes.c
  ${NSM_SOURCE_DIR}/generated/belt_friction.c ${NSM_SOURCE_DIR}/generated/coulomb_oscillator.c
  ${NSM_SOURCE_DIR}/generated/friction_two_mass.c ${NSM_SOURCE_DIR}/generated/disc_incline_roll.c
  ${NSM_SOURCE_DIR}/generated/sliding_block.c ${NSM_SOURCE_DIR}/generated/block_drop.c
  ${NSM_SOURCE_DIR}/generated/disc_corner.c ${NSM_SOURCE_DIR}/generated/disc_walls_friction.c
  ${NSM_SOURCE_DIR}/generated/rotating_ball_2.c ${NSM_SOURCE_DIR}/generated/rotating_ball_3.c
  ${NSM_SOURCE_DIR}/generated/rotating_ball_4.c ${NSM_SOURCE_DIR}/generated/rotating_ball_5.c
  ${NSM_SOURCE_DIR}/generated/super_ball.c)
target_compile_definitions(test_fric_modes PRIVATE NSM_NO_MAIN)
target_include_directories(test_fric_modes PRIVATE ${NSM_SOURCE_DIR}/runtime/src
  ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_fric_modes PRIVATE nsmrt m)
add_test(NAME friction.derived_modes COMMAND test_fric_modes)
set_tests_properties(friction.derived_modes PROPERTIES LABELS runtime)

# Where the friction modes stay on the generic path, the generated file
# says why: more held systems than DV_MAX_FRIC_SYSTEMS (one floor pressing
# four elements: 96), and an element pressed by a penalty gap's force.
add_test(NAME friction.derived_modes_limit
  COMMAND sh -c "$<TARGET_FILE:nsmc> $0 -o many_pressed.c && cat many_pressed.c"
          ${NSM_SOURCE_DIR}/tests/fricmodes/many_pressed.nsm
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(friction.derived_modes_limit PROPERTIES LABELS runtime
  PASS_REGULAR_EXPRESSION "No modes\\(\\): 96 held systems \\(sets of held rows")
add_test(NAME friction.derived_modes_penalty
  COMMAND sh -c "$<TARGET_FILE:nsmc> $0 -o penalty_pressed.c && cat penalty_pressed.c"
          ${NSM_SOURCE_DIR}/tests/fricmodes/penalty_pressed.nsm
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(friction.derived_modes_penalty PROPERTIES LABELS runtime
  PASS_REGULAR_EXPRESSION "No modes\\(\\): friction element 'F' is pressed by penalty gap 'floor''s force")
