# `cmake --install`: public headers, the static and shared libraries, relay-opt, a CMake package
# (find_package(relaypass) gives relaypass::relaypass, and relaypass::relaypass_shared) and a
# pkg-config file. tests/outside_project/run.sh builds the README's example against it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/relaypass DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS relaypass relaypass_shared EXPORT relaypassTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS relay-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(RELAYPASS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/relaypass)
install(EXPORT relaypassTargets NAMESPACE relaypass:: DESTINATION ${RELAYPASS_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/relaypassConfig.cmake.in
  ${PROJECT_BINARY_DIR}/relaypassConfig.cmake INSTALL_DESTINATION ${RELAYPASS_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/relaypassConfigVersion.cmake
  VERSION 0.13.0 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/relaypassConfig.cmake
  ${PROJECT_BINARY_DIR}/relaypassConfigVersion.cmake DESTINATION ${RELAYPASS_CMAKE_DIR})

configure_file(${PROJECT_SOURCE_DIR}/cmake/relaypass.pc.in ${PROJECT_BINARY_DIR}/relaypass.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/relaypass.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The README's C++ example, built as an outside project against the installed package, with
# CMake and with pkg-config. Not in sanitizer builds: their library needs the sanitizer runtime,
# which an outside project's plain build does not link.
if(NOT RELAYPASS_SANITIZE)
  add_test(NAME outside_project_builds_readme_example
    COMMAND ${PROJECT_SOURCE_DIR}/tests/outside_project/run.sh ${PROJECT_BINARY_DIR}
            ${PROJECT_SOURCE_DIR})
  set_tests_properties(outside_project_builds_readme_example PROPERTIES TIMEOUT 600)
endif()
