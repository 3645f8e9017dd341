# The compiler and runtime sources are warning-free under clang too (the
# build uses the system compiler; -DNSM_WERROR=ON makes its warnings errors).
find_program(NSM_CLANG clang)
if(NSM_CLANG)
  file(GLOB NSM_OWN_SOURCES CONFIGURE_DEPENDS
    ${NSM_SOURCE_DIR}/compiler/*.c ${NSM_SOURCE_DIR}/compiler/commands/*.c
    ${NSM_SOURCE_DIR}/runtime/src/*.c ${NSM_SOURCE_DIR}/runtime/studies/*.c
    ${NSM_SOURCE_DIR}/runtime/programs/*.c)
  if(NOT NSM_HAVE_HDF5)
    list(FILTER NSM_OWN_SOURCES EXCLUDE REGEX "/h5out\\.c$")   # needs hdf5.h
  endif()
  add_test(NAME warnings/clang
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/clang_warnings.py ${NSM_CLANG}
            "$<TARGET_PROPERTY:nsmcore,INCLUDE_DIRECTORIES>;$<TARGET_PROPERTY:nsmrt,INCLUDE_DIRECTORIES>;$<TARGET_PROPERTY:nsmcli,INCLUDE_DIRECTORIES>;${NSM_SOURCE_DIR}/runtime/src;${NSM_SOURCE_DIR}/runtime/programs"
            "$<TARGET_PROPERTY:nsmcore,COMPILE_DEFINITIONS>;$<TARGET_PROPERTY:nsmcli,COMPILE_DEFINITIONS>"
            ${NSM_OWN_SOURCES})
  set_tests_properties(warnings/clang PROPERTIES LABELS "warnings")
endif()
