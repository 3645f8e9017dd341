# The runtime's layers call only downward and its current state has one
# owner (tests/layers.py); the compiler's layers call and include only
# downward (tests/compiler_layers.py); both checks fail on strays
# (tests/layers_selftest.py).  docs/runtime.md describes the layers.
add_test(NAME layers/runtime
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/layers.py ${NSM_SOURCE_DIR}/runtime)
add_test(NAME layers/compiler
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/compiler_layers.py ${NSM_SOURCE_DIR}/compiler)
add_test(NAME layers/selftest
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/layers_selftest.py ${NSM_SOURCE_DIR})
