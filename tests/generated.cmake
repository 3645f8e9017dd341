# generated/ holds nsmc's output for every model in models/, committed so that
# changes to the generated code are reviewed like code.
#  - generated.fresh: regenerates every model into a scratch directory and fails
#    when any committed file differs (or is missing, or is left over);
#    `cmake --build . --target regenerate` rewrites generated/.
#  - generated.compile/<cc>/<model>: each committed file compiles warning-free
#    with -std=c11 -Wall -Wextra -pedantic -Werror under gcc and clang.
#
# Run as a script (cmake -P) with NSMC, SRC (the repository) and OUT (a scratch
# directory), this file performs the freshness check; with UPDATE=1 it rewrites.
if(CMAKE_SCRIPT_MODE_FILE)
  file(GLOB models ${SRC}/models/*.nsm)
  list(SORT models)
  file(REMOVE_RECURSE ${OUT})
  file(MAKE_DIRECTORY ${OUT})
  set(stale "")
  set(expected "")
  foreach(model ${models})
    get_filename_component(stem ${model} NAME_WE)
    list(APPEND expected ${stem}.c)
    # relative path, as a user would type it: the header names only the base name
    execute_process(COMMAND ${NSMC} models/${stem}.nsm -o ${OUT}/${stem}.c
                    WORKING_DIRECTORY ${SRC} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "nsmc failed on models/${stem}.nsm")
    endif()
    if(UPDATE)
      file(COPY ${OUT}/${stem}.c DESTINATION ${SRC}/generated)
      continue()
    endif()
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/${stem}.c ${SRC}/generated/${stem}.c
                    RESULT_VARIABLE diff)
    if(NOT diff EQUAL 0)
      list(APPEND stale generated/${stem}.c)
    endif()
  endforeach()
  if(NOT UPDATE)
    file(GLOB committed RELATIVE ${SRC}/generated ${SRC}/generated/*.c)
    foreach(f ${committed})
      list(FIND expected ${f} i)
      if(i LESS 0)
        list(APPEND stale "generated/${f} (no model)")
      endif()
    endforeach()
  endif()
  if(stale)
    string(REPLACE ";" "\n  " stale "${stale}")
    message(FATAL_ERROR "stale generated code (run `cmake --build <build> --target regenerate`):\n  ${stale}")
  endif()
  return()
endif()

add_test(NAME generated.fresh
  COMMAND ${CMAKE_COMMAND} -DNSMC=$<TARGET_FILE:nsmc> -DSRC=${NSM_SOURCE_DIR}
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/generated-fresh -P ${NSM_SOURCE_DIR}/tests/generated.cmake)
set_tests_properties(generated.fresh PROPERTIES LABELS "generated;derive")

add_custom_target(regenerate
  COMMAND ${CMAKE_COMMAND} -DNSMC=$<TARGET_FILE:nsmc> -DSRC=${NSM_SOURCE_DIR} -DUPDATE=1
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/generated-fresh -P ${NSM_SOURCE_DIR}/tests/generated.cmake
  DEPENDS nsmc
  COMMENT "Rewriting generated/ from models/")

find_program(NSM_GCC gcc)
find_program(NSM_CLANG clang)
file(GLOB NSM_GENERATED CONFIGURE_DEPENDS ${NSM_SOURCE_DIR}/generated/*.c)
list(SORT NSM_GENERATED)
foreach(cc_name gcc clang)
  if(cc_name STREQUAL "gcc")
    set(cc ${NSM_GCC})
  else()
    set(cc ${NSM_CLANG})
  endif()
  if(NOT cc)
    message(WARNING "${cc_name} not found: the generated code is not compiled with it")
    continue()
  endif()
  foreach(src ${NSM_GENERATED})
    get_filename_component(stem ${src} NAME_WE)
    add_test(NAME generated.compile/${cc_name}/${stem}
      COMMAND ${cc} -std=c11 -Wall -Wextra -pedantic -Werror -DNSM_NO_MAIN
              -I${NSM_SOURCE_DIR}/runtime/include -c ${src}
              -o ${CMAKE_CURRENT_BINARY_DIR}/generated-${cc_name}-${stem}.o)
    set_tests_properties(generated.compile/${cc_name}/${stem} PROPERTIES LABELS generated)
  endforeach()
endforeach()

# Properties of the C text itself: each committed simulator is compiled into a
# checker (event derivatives against finite differences of the generated
# event functions along the generated right-hand side, w . a = 0, force_dot,
# switch derivatives, generator).
foreach(src ${NSM_GENERATED})
  get_filename_component(stem ${src} NAME_WE)
  # the table's name comes from the `model` statement, not the file name
  file(STRINGS ${src} table REGEX "^const nsm_model nsm_model_[A-Za-z0-9_]+ = {")
  string(REGEX REPLACE "^const nsm_model nsm_model_([A-Za-z0-9_]+) = {.*" "\\1" ident "${table}")
  add_executable(test_generated_${stem} ${NSM_SOURCE_DIR}/tests/unit/test_generated.c)
  target_compile_definitions(test_generated_${stem} PRIVATE
    NSM_GENERATED="${src}" NSM_MODEL=nsm_model_${ident})
  target_include_directories(test_generated_${stem} PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
  target_link_libraries(test_generated_${stem} PRIVATE m)
  add_test(NAME generated.check/${stem} COMMAND test_generated_${stem})
  set_tests_properties(generated.check/${stem} PROPERTIES LABELS "generated;derive")
endforeach()

# The same checks on C that nsmc writes at build time for models of
# tests/unit whose closed modes carry forces, which the shipped cradles (no
# springs, no forces: every contact force 0) do not exercise: chain5 (closed
# sets of up to four impact gaps, S^-1 bordered set by set) and mixed_gaps
# (impact and penalty gaps closed together).
foreach(stem chain5 mixed_gaps)
  set(src ${CMAKE_CURRENT_BINARY_DIR}/unit_${stem}.c)
  add_custom_command(OUTPUT ${src}
    COMMAND nsmc ${NSM_SOURCE_DIR}/tests/unit/${stem}.nsm -o ${src}
    DEPENDS nsmc ${NSM_SOURCE_DIR}/tests/unit/${stem}.nsm)
  add_custom_target(unit_${stem}_c DEPENDS ${src})
  add_executable(test_generated_unit_${stem} ${NSM_SOURCE_DIR}/tests/unit/test_generated.c)
  add_dependencies(test_generated_unit_${stem} unit_${stem}_c)
  target_compile_definitions(test_generated_unit_${stem} PRIVATE
    NSM_GENERATED="${src}" NSM_MODEL=nsm_model_${stem})
  target_include_directories(test_generated_unit_${stem} PRIVATE ${NSM_SOURCE_DIR}/runtime/include)
  target_link_libraries(test_generated_unit_${stem} PRIVATE m)
  add_test(NAME generated.check/unit_${stem} COMMAND test_generated_unit_${stem})
  set_tests_properties(generated.check/unit_${stem} PROPERTIES LABELS "generated;derive")
endforeach()
