# The Python package nsm (label python): pytest on tests/python, including
# docs/python.md's example, with the build tree's package on PYTHONPATH;
# python.install installs it with pip into virtual environments.
# Under the sanitizers the interpreter is not instrumented but libnsmrt.so is:
# the sanitizers' run-time libraries are preloaded (leak checks off: the
# interpreter's own allocations are not ours).
set(NSM_PY_ENV
  "PYTHONPATH=${PROJECT_BINARY_DIR}/python"
  "NSM_SOURCE_DIR=${NSM_SOURCE_DIR}"
  "NSM_BUILD_DIR=${PROJECT_BINARY_DIR}"
  "NSM_VERSION=${PROJECT_VERSION}"
  "XDG_CACHE_HOME=${PROJECT_BINARY_DIR}/python-cache"
  "MPLBACKEND=Agg")
if(NSM_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
    OUTPUT_VARIABLE NSM_ASAN_LIB OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libubsan.so
    OUTPUT_VARIABLE NSM_UBSAN_LIB OUTPUT_STRIP_TRAILING_WHITESPACE)
  list(APPEND NSM_PY_ENV "LD_PRELOAD=${NSM_ASAN_LIB}:${NSM_UBSAN_LIB}"
    "ASAN_OPTIONS=detect_leaks=0")
endif()
foreach(t nsm doc h5 planar super_ball robust install fuzz_args frictions)
  add_test(NAME python.${t}
    COMMAND ${NSM_PYTHON} -m pytest -q -p no:cacheprovider
            ${NSM_SOURCE_DIR}/tests/python/test_${t}.py)
  set_tests_properties(python.${t} PROPERTIES LABELS python TIMEOUT 600
    ENVIRONMENT "${NSM_PY_ENV}")
endforeach()
