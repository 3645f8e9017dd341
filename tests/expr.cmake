# Unit tests of the symbolic expression engine: simplification, hash-consing,
# differentiation against finite differences, printing, and a round trip of
# the C printing style through the C compiler.  The engine is compiled
# straight into the test so it does not depend on the rest of nsmcore.
add_executable(test_expr ${NSM_SOURCE_DIR}/tests/unit/test_expr.c
  ${NSM_SOURCE_DIR}/compiler/expr.c ${NSM_SOURCE_DIR}/compiler/arena.c)
target_include_directories(test_expr PRIVATE ${NSM_SOURCE_DIR}/compiler)
target_compile_definitions(test_expr PRIVATE _POSIX_C_SOURCE=200809L)
target_link_libraries(test_expr PRIVATE m)
set(NSM_EXPR_WORKDIR ${CMAKE_CURRENT_BINARY_DIR}/expr_work)
file(MAKE_DIRECTORY ${NSM_EXPR_WORKDIR})
add_test(NAME derive.expr COMMAND test_expr ${CMAKE_C_COMPILER} ${NSM_EXPR_WORKDIR})
set_tests_properties(derive.expr PROPERTIES LABELS "unit;derive")
