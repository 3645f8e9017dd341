# The runtime's layers call only downward (tests/layers.py, docs/runtime.md).
add_test(NAME layers/runtime
  COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/layers.py ${NSM_SOURCE_DIR}/runtime)
