# `cmake --install` rules, in two components:
#   runtime  the server: loupe, libloupe-core, the plugins and the review page's assets, the
#            configuration (PREFIX/etc/loupe/loupe.properties, data in PREFIX/var/lib/loupe;
#            with the /usr prefix: /etc/loupe, /var/lib/loupe and the systemd unit)
#                                                                      (Debian package loupe)
#   dev      the plugin SDK: headers, the plugins' service headers and the CMake package
#            find_package(Loupe) with Loupe::core and loupe_add_plugin()  (package loupe-dev)
include(CMakePackageConfigHelpers)

# --- runtime -----------------------------------------------------------------------------
install(TARGETS loupe RUNTIME DESTINATION "${LOUPE_INSTALL_BINDIR}" COMPONENT runtime)
# libloupe-cli finds libloupe-core next to it; the launcher loads both by path.
set_target_properties(loupe_cli PROPERTIES INSTALL_RPATH "$ORIGIN")
install(TARGETS loupe_cli LIBRARY DESTINATION "${LOUPE_INSTALL_LIBDIR}" COMPONENT runtime)
get_property(loupe_command_modules GLOBAL PROPERTY LOUPE_COMMAND_MODULE_TARGETS)
if(loupe_command_modules)
  install(TARGETS ${loupe_command_modules}
    LIBRARY DESTINATION "${LOUPE_INSTALL_LIBDIR}/commands" COMPONENT runtime)
endif()
install(TARGETS loupe_core EXPORT LoupeTargets
  LIBRARY DESTINATION "${LOUPE_INSTALL_LIBDIR}" COMPONENT runtime
  INCLUDES DESTINATION "${LOUPE_INSTALL_INCLUDEDIR}")
set_target_properties(loupe_core PROPERTIES EXPORT_NAME core)
# The web plugin serves <folder of web.so>/web-assets (absent when node was missing).
install(DIRECTORY "${LOUPE_PLUGIN_OUTPUT_DIR}/web-assets" DESTINATION "${LOUPE_INSTALL_PLUGINDIR}"
  COMPONENT runtime OPTIONAL)

# The configuration and the systemd unit: their folders depend on the prefix, known only when
# installing (see the script).
set(LOUPE_PACKAGING_DIR "${CMAKE_BINARY_DIR}/packaging")
configure_file("${PROJECT_SOURCE_DIR}/cmake/LoupeInstallSystemFiles.cmake.in"
  "${LOUPE_PACKAGING_DIR}/LoupeInstallSystemFiles.cmake" @ONLY)
install(SCRIPT "${LOUPE_PACKAGING_DIR}/LoupeInstallSystemFiles.cmake" COMPONENT runtime)

# --- dev ---------------------------------------------------------------------------------
install(DIRECTORY "${PROJECT_SOURCE_DIR}/core/include/loupe"
  DESTINATION "${LOUPE_INSTALL_INCLUDEDIR}" COMPONENT dev FILES_MATCHING PATTERN "*.hpp")
install(FILES "${CMAKE_BINARY_DIR}/generated/include/loupe/export.hpp"
  DESTINATION "${LOUPE_INSTALL_INCLUDEDIR}/loupe" COMPONENT dev)
# version.hpp as installed: the core's build id for reference; each plugin defines its own
# (loupe_add_plugin), which the loader compares with the core's.
set(LOUPE_BUILD_ID_DEFINITION "/// The build id of the core these headers were installed with. loupe_add_plugin()
/// (find_package(Loupe)) defines LOUPE_BUILD_ID from the plugin's own compiler, sanitizer,
/// dependencies and a hash of these headers; the core loads a plugin only when the two are equal.
#define LOUPE_CORE_BUILD_ID \"${LOUPE_BUILD_ID}\"
#ifndef LOUPE_BUILD_ID
#error \"LOUPE_BUILD_ID is not defined: build the plugin with loupe_add_plugin() from find_package(Loupe)\"
#endif")
configure_file("${PROJECT_SOURCE_DIR}/core/include/loupe/version.hpp.in"
  "${LOUPE_PACKAGING_DIR}/include/loupe/version.hpp" @ONLY)
install(FILES "${LOUPE_PACKAGING_DIR}/include/loupe/version.hpp"
  DESTINATION "${LOUPE_INSTALL_INCLUDEDIR}/loupe" COMPONENT dev)
# The plugins' public service headers: plugins/<name>/include/loupe/<name>/...
file(GLOB loupe_service_header_dirs LIST_DIRECTORIES true CONFIGURE_DEPENDS
  "${PROJECT_SOURCE_DIR}/plugins/*/include/loupe")
foreach(dir IN LISTS loupe_service_header_dirs)
  install(DIRECTORY "${dir}" DESTINATION "${LOUPE_INSTALL_INCLUDEDIR}" COMPONENT dev
    FILES_MATCHING PATTERN "*.hpp")
endforeach()

install(EXPORT LoupeTargets NAMESPACE Loupe:: DESTINATION "${LOUPE_INSTALL_CMAKEDIR}"
  COMPONENT dev)
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/LoupeConfig.cmake.in"
  "${LOUPE_PACKAGING_DIR}/LoupeConfig.cmake"
  INSTALL_DESTINATION "${LOUPE_INSTALL_CMAKEDIR}"
  PATH_VARS LOUPE_INSTALL_INCLUDEDIR LOUPE_INSTALL_PLUGINDIR LOUPE_INSTALL_BINDIR)
# A plugin binary loads only into the core build it was compiled against (the build id); the
# SDK's source interface is kept within a minor version (0.1.x), which find_package checks.
write_basic_package_version_file("${LOUPE_PACKAGING_DIR}/LoupeConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${LOUPE_PACKAGING_DIR}/LoupeConfig.cmake"
  "${LOUPE_PACKAGING_DIR}/LoupeConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/LoupePlugin.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/LoupeBuildIdRules.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/LoupeEmbedJson.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/FindSOCI.cmake"
  DESTINATION "${LOUPE_INSTALL_CMAKEDIR}" COMPONENT dev)

include(LoupePackaging)
