# Simulator goldens: tests/golden/simout/NAME.sim is `MODEL ARGS...`, run on
# the simulator built from generated/MODEL.c (tests/validation.cmake builds
# them into ${CMAKE_BINARY_DIR}/sims); NAME.simout holds its exit status,
# stdout and stderr (see tests/golden.py). They hold the event logs of the
# paper's cases and every error path of the simulator's command line.
file(GLOB NSM_SIM_GOLDENS CONFIGURE_DEPENDS ${NSM_SOURCE_DIR}/tests/golden/simout/*.simout)
foreach(expect ${NSM_SIM_GOLDENS})
  file(RELATIVE_PATH rel ${NSM_SOURCE_DIR} ${expect})
  string(REGEX REPLACE "^tests/" "" name ${rel})
  add_test(NAME ${name}
    COMMAND ${NSM_PYTHON} tests/golden.py --nsmc $<TARGET_FILE:nsmc>
            --sims ${CMAKE_BINARY_DIR}/sims ${rel}
    WORKING_DIRECTORY ${NSM_SOURCE_DIR})
  set_tests_properties(${name} PROPERTIES LABELS "golden;runtime")
endforeach()
