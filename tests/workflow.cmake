# The newcomer's workflow: `nsmc run` end to end (build, cache, parameters,
# plots, errors), the installed tree, the terminal progress bar and the
# tutorial's commands.  See tests/workflow/.

set(NSM_WORKFLOW_CASES run cache set_file errors no_plot sim_failure run_progress
    install)
foreach(case ${NSM_WORKFLOW_CASES})
  add_test(NAME workflow/${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/workflow/workflow_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case} ${PROJECT_BINARY_DIR})
  set_tests_properties(workflow/${case} PROPERTIES LABELS workflow TIMEOUT 600)
endforeach()

add_executable(progress_test ${NSM_SOURCE_DIR}/tests/workflow/progress_test.c)
target_include_directories(progress_test PRIVATE ${NSM_SOURCE_DIR}/runtime/programs)
target_link_libraries(progress_test PRIVATE nsmcli)
add_test(NAME workflow/progress
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/workflow/progress_test.py
          $<TARGET_FILE:progress_test>)
set_tests_properties(workflow/progress PROPERTIES LABELS workflow)

# Every command of the tutorial, against an installed nsmc.
set(NSM_TUTORIAL_CC_FLAGS "")
if(NSM_SANITIZE)
  set(NSM_TUTORIAL_CC_FLAGS "-fsanitize=address,undefined")
endif()
add_test(NAME workflow/tutorial
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/workflow/tutorial_test.py
          ${PROJECT_BINARY_DIR} ${NSM_SOURCE_DIR}/docs/tutorial.md "${NSM_TUTORIAL_CC_FLAGS}")
set_tests_properties(workflow/tutorial PROPERTIES LABELS workflow TIMEOUT 600)

# The command lines of nsmc, nsmc run and the simulators: every option in
# the help texts, the event table only when asked, units in --set, size
# parameters, nsmc run's options, nsmc cache clean (tests/workflow/options_test.py).
foreach(case help table set_units size_param run cache)
  add_test(NAME workflow/options_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/workflow/options_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${CMAKE_BINARY_DIR}/sims ${case})
  set_tests_properties(workflow/options_${case} PROPERTIES LABELS workflow TIMEOUT 300)
endforeach()

# docs/language.md's keyword lists against compiler/lexer.re's.
add_test(NAME workflow/keywords
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/workflow/keywords_test.py ${NSM_SOURCE_DIR})
set_tests_properties(workflow/keywords PROPERTIES LABELS workflow)

# What a first day reaches for (issue 28, point 5): nsmc run --out FILE.h5,
# a renamed energy.error's balance line, units in nsmc sweep --set, clean
# grid values, the bifurcation diagram's marks (tests/workflow/firstday_test.py).
foreach(case run_h5 energy_rename sweep_units sweep_grid bifurcation_marks)
  add_test(NAME workflow/firstday_${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/workflow/firstday_test.py
            $<TARGET_FILE:nsmc> ${NSM_SOURCE_DIR} ${case})
  set_tests_properties(workflow/firstday_${case} PROPERTIES LABELS workflow TIMEOUT 300)
endforeach()

# The newcomer's path as one test (issue 28's "Done when"): an install
# prefix, a fresh venv with --system-site-packages, pip install of python/,
# docs/python.md's examples in that venv, docs/tutorial.md's commands from
# that prefix (tests/workflow/newcomer_test.py).  Not under the sanitizers:
# the interpreter is not instrumented (python.* preload the run-time
# libraries for the build tree's package; workflow/tutorial covers the
# tutorial there).
if(NOT NSM_SANITIZE)
  add_test(NAME workflow/newcomer
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/workflow/newcomer_test.py
            ${PROJECT_BINARY_DIR} ${NSM_SOURCE_DIR})
  set_tests_properties(workflow/newcomer PROPERTIES LABELS "workflow;python" TIMEOUT 1200)
endif()
