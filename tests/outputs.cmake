# Output columns of any quantity (label outputs): springs', dampers' and
# forces' values, friction forces and slip velocities, and expressions of
# t, parameters and the state, checked against closed forms on the CSV, the
# HDF5 file and the Python package's arrays (tests/outputs/); walls' contact
# points, torques' units, `if t` evaluated at each sample's time.
set(NSM_OUT_CFLAGS "-O2")
if(NSM_SANITIZE)
  set(NSM_OUT_CFLAGS "-O1 -fsanitize=address,undefined -fno-sanitize-recover=all")
endif()
set(NSM_OUT_LIBS "$<TARGET_FILE:nsmcli>:$<TARGET_FILE:nsmrt>")
if(NSM_HAVE_HDF5)
  string(APPEND NSM_OUT_LIBS ":${NSM_HDF5_LIBRARY}")
endif()
foreach(case spring expr friction coulomb rate setunits h5 points torque ifsample h5section)
  add_test(NAME outputs.${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/outputs/check_outputs.py
            --nsmc $<TARGET_FILE:nsmc> --lib ${NSM_OUT_LIBS}
            --include ${NSM_SOURCE_DIR}/runtime/include
            --cc ${CMAKE_C_COMPILER} "--cflags=${NSM_OUT_CFLAGS}" --case ${case}
            --nsm-version ${PROJECT_VERSION})
  set_tests_properties(outputs.${case} PROPERTIES LABELS outputs TIMEOUT 300
    SKIP_RETURN_CODE 77)
endforeach()
if(NOT NSM_SANITIZE)
  add_test(NAME outputs.python
    COMMAND ${NSM_PYTHON} -m pytest -q -p no:cacheprovider
            ${NSM_SOURCE_DIR}/tests/outputs/test_outputs_py.py)
  set_tests_properties(outputs.python PROPERTIES LABELS "outputs;python" TIMEOUT 300
    ENVIRONMENT "PYTHONPATH=${PROJECT_BINARY_DIR}/python;XDG_CACHE_HOME=${PROJECT_BINARY_DIR}/python-cache")
endif()
