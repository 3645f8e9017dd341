# The energetic multiple-impact law (runtime/src/multiimpact.c) against
# closed forms and the compliant chains integrated in time by
# tests/reference/lzb_chain.py (its data; the script itself is the
# reference-labelled test reference_lzb_chain).
add_executable(test_multiimpact ${NSM_SOURCE_DIR}/tests/unit/test_multiimpact.c)
target_include_directories(test_multiimpact PRIVATE ${NSM_SOURCE_DIR}/runtime/src ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(test_multiimpact PRIVATE nsmrt m)
add_test(NAME runtime.multiimpact
  COMMAND test_multiimpact ${NSM_SOURCE_DIR}/tests/reference/data/lzb_chain.csv
          ${NSM_SOURCE_DIR}/tests/reference/data/lzb_linear3.csv)
set_tests_properties(runtime.multiimpact PROPERTIES LABELS "unit;runtime")
# Plastic trains of 20 and 100 beads settle (the early stop ends their chatter).
add_test(NAME runtime.multiimpact.plastic COMMAND test_multiimpact --plastic)
set_tests_properties(runtime.multiimpact.plastic PROPERTIES LABELS "unit;runtime")
# 100 Hertz beads with e = 0.3 end by themselves (the budget tests progress).
add_test(NAME runtime.multiimpact.restitution COMMAND test_multiimpact --restitution)
set_tests_properties(runtime.multiimpact.restitution PROPERTIES LABELS "unit;runtime")

add_test(NAME reference_lzb_chain
  COMMAND ${NSM_PYTHON} -B tests/reference/lzb_chain.py --check
  WORKING_DIRECTORY ${NSM_SOURCE_DIR})
set_tests_properties(reference_lzb_chain PROPERTIES LABELS reference TIMEOUT 900)
add_test(NAME reference_lzb_linear3
  COMMAND ${NSM_PYTHON} -B tests/reference/lzb_linear3.py --check
  WORKING_DIRECTORY ${NSM_SOURCE_DIR})
set_tests_properties(reference_lzb_linear3 PROPERTIES LABELS reference TIMEOUT 1800)

# Cost against the chain's length (not a test): bench/lzb_bench.sh.
add_executable(bench_lzb EXCLUDE_FROM_ALL ${NSM_SOURCE_DIR}/bench/lzb_bench.c)
target_include_directories(bench_lzb PRIVATE ${NSM_SOURCE_DIR}/runtime/src ${NSM_SOURCE_DIR}/runtime/include)
target_link_libraries(bench_lzb PRIVATE nsmrt m)
