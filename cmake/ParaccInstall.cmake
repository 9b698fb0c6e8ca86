# `cmake --install build --prefix P`: headers, libraries, tools and the CMake
# package (find_package(Paracc) gives Paracc::CAPI and Paracc::Passes).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Installed binaries find libMLIR.so (outside the prefix) through RUNPATH,
# and the libraries of the prefix next to themselves.
set_target_properties(paracc paracc-opt paracc-translate paracc-run PROPERTIES
  INSTALL_RPATH_USE_LINK_PATH ON)
set_target_properties(ParaccCAPI ParaccPasses PROPERTIES
  INSTALL_RPATH_USE_LINK_PATH ON)

install(TARGETS paracc paracc-opt paracc-translate paracc-run
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT paracc)

# The C API: the header and the library, exported alone (no MLIR needed).
install(DIRECTORY include/paracc-c DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT paracc)
install(TARGETS ParaccCAPI EXPORT ParaccCAPITargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT paracc)
install(EXPORT ParaccCAPITargets NAMESPACE Paracc::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Paracc COMPONENT paracc)

# Paracc::Passes: the C++ headers (sources, TableGen's outputs, the
# runtime's) and libParaccPasses.so, which needs MLIR.
install(DIRECTORY include/paracc DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT paracc FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/paracc
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT paracc
  FILES_MATCHING PATTERN "*.inc" PATTERN "*.h"
  PATTERN "CMakeFiles" EXCLUDE)
install(DIRECTORY runtime/include/paracc/runtime
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/paracc COMPONENT paracc)
install(FILES ${PROJECT_BINARY_DIR}/runtime/gen/paracc/runtime/executable_generated.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/paracc/runtime COMPONENT paracc
  OPTIONAL)
install(TARGETS ParaccPasses EXPORT ParaccPassesTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT paracc)
install(EXPORT ParaccPassesTargets NAMESPACE Paracc::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Paracc COMPONENT paracc)

configure_package_config_file(cmake/ParaccConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ParaccConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Paracc)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ParaccConfigVersion.cmake
  VERSION ${PARACC_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ParaccConfig.cmake
  ${PROJECT_BINARY_DIR}/ParaccConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Paracc COMPONENT paracc)
