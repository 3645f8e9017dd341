# The installed runtime as users build against it (label packaging):
# libnsmrt.so's exported symbols, pkg-config and find_package(nsm) builds of
# the tutorial's simulator against an install in a temporary prefix, the HDF5
# flavour nsm.pc links
# (tests/packaging/packaging_test.py), and the models and examples it ships.
foreach(case exports pkgconfig find_package share hdf5)
  add_test(NAME packaging.${case}
    COMMAND ${NSM_PYTHON} ${NSM_SOURCE_DIR}/tests/packaging/packaging_test.py
            ${case} ${PROJECT_BINARY_DIR} ${NSM_SOURCE_DIR})
  set_tests_properties(packaging.${case} PROPERTIES LABELS packaging TIMEOUT 600)
endforeach()
