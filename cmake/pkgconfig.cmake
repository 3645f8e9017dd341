# pkgconfig.cmake - run by `cmake --install` (install(CODE) in install.cmake):
# writes nsm.pc and nsmrt.pc for the prefix being installed to, which may
# differ from the configured one (`cmake --install build --prefix DIR`).
#
#   nsm.pc     a generated simulator: libnsmcli (nsm_main, plots, HDF5) and
#              libnsmrt      cc two_mass.c $(pkg-config --cflags --libs nsm)
#   nsmrt.pc   a program embedding the core only (-DNSM_NO_MAIN)
#
# When the library directory is not one the linker searches by default
# (~/.local/lib, /opt/...), Libs carries -Wl,-rpath so that the programs find
# the shared libnsmrt when they run, with no LD_LIBRARY_PATH.
# Inputs (set by install.cmake): NSM_PC_SOURCE_DIR, NSM_PC_BINARY_DIR,
# NSM_PC_LIBDIR, NSM_PC_INCLUDEDIR, NSM_PC_IMPLICIT_DIRS, NSM_PC_EXTRA_LIBS (after
# libnsmcli: HDF5, the sanitizers), NSM_PC_CORE_EXTRA (the sanitizers), NSM_PC_VERSION.

# Absolute path of an install directory, relative ones under the prefix.
function(nsm_pc_abs dir out)
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "${CMAKE_INSTALL_PREFIX}/${dir}" PARENT_SCOPE)
  endif()
endfunction()

nsm_pc_abs("${NSM_PC_LIBDIR}" PC_LIBDIR)
nsm_pc_abs("${NSM_PC_INCLUDEDIR}" PC_INCLUDEDIR)
set(PC_LIBDIR_ABS "${PC_LIBDIR}")
set(PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
string(REPLACE "${PC_PREFIX}/" "\${prefix}/" PC_LIBDIR_TEXT "${PC_LIBDIR}")
string(REPLACE "${PC_PREFIX}/" "\${prefix}/" PC_INCLUDEDIR_TEXT "${PC_INCLUDEDIR}")
set(PC_RPATH "-Wl,-rpath,\${libdir} ")
foreach(d ${NSM_PC_IMPLICIT_DIRS})
  get_filename_component(d "${d}" REALPATH)
  get_filename_component(l "${PC_LIBDIR}" REALPATH)
  if(d STREQUAL l)
    set(PC_RPATH "")
  endif()
endforeach()
set(PROJECT_VERSION "${NSM_PC_VERSION}")
set(PC_LIBDIR "${PC_LIBDIR_TEXT}")
set(PC_INCLUDEDIR "${PC_INCLUDEDIR_TEXT}")

# one folder per prefix: installs to several prefixes may run at once
string(MD5 PC_KEY "${CMAKE_INSTALL_PREFIX}")
set(PC_OUT "${NSM_PC_BINARY_DIR}/pc/${PC_KEY}")
set(PC_NAME nsm)
set(PC_DESCRIPTION "Runtime and command line of the nonsmooth mechanics simulators nsmc generates")
set(PC_LIBS "-lnsmcli -lnsmrt ${NSM_PC_EXTRA_LIBS} -lm")
configure_file("${NSM_PC_SOURCE_DIR}/cmake/nsm.pc.in" "${PC_OUT}/nsm.pc" @ONLY)
set(PC_NAME nsmrt)
set(PC_DESCRIPTION "Simulation core of nsm (libnsmrt) for programs that embed a model")
set(PC_LIBS "-lnsmrt -lm ${NSM_PC_CORE_EXTRA}")
string(STRIP "${PC_LIBS}" PC_LIBS)
configure_file("${NSM_PC_SOURCE_DIR}/cmake/nsm.pc.in" "${PC_OUT}/nsmrt.pc" @ONLY)
file(INSTALL "${PC_OUT}/nsm.pc" "${PC_OUT}/nsmrt.pc"
     DESTINATION "${PC_LIBDIR_ABS}/pkgconfig")
