# Debian packages with CPack, from an already built tree: `cpack` in the build folder writes
# loupe_<version>-<release>_<arch>.deb (component runtime) and loupe-dev_... (component dev).
# One version for the server, the SDK and the packages: project(loupe VERSION ...).
set(LOUPE_PACKAGE_MAINTAINER "Loupe maintainers <maintainers@loupe.example.org>" CACHE STRING
  "Maintainer field of the Debian packages")
set(LOUPE_PACKAGE_RELEASE 1 CACHE STRING "Debian revision of the packages")

# Per package: the copyright file, the changelog (required in every binary package's doc
# folder) and, for loupe, the manual page.
set(deb_dir "${PROJECT_SOURCE_DIR}/packaging/deb")
string(TIMESTAMP loupe_changelog_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
foreach(package IN ITEMS loupe loupe-dev)
  if(package STREQUAL loupe)
    set(component runtime)
  else()
    set(component dev)
  endif()
  set(out "${LOUPE_PACKAGING_DIR}/${package}")
  file(WRITE "${out}/changelog.Debian"
    "${package} (${PROJECT_VERSION}-${LOUPE_PACKAGE_RELEASE}) unstable; urgency=medium\n\n"
    "  * Built from the Loupe source tree (CPack).\n\n"
    " -- ${LOUPE_PACKAGE_MAINTAINER}  ${loupe_changelog_date}\n")
  add_custom_command(OUTPUT "${out}/changelog.Debian.gz"
    COMMAND gzip -9nf -k "${out}/changelog.Debian"
    DEPENDS "${out}/changelog.Debian" VERBATIM)
  list(APPEND loupe_packaging_outputs "${out}/changelog.Debian.gz")
  install(FILES "${out}/changelog.Debian.gz" "${deb_dir}/copyright"
    DESTINATION "share/doc/${package}" COMPONENT ${component})
  install(FILES "${deb_dir}/lintian-overrides" DESTINATION share/lintian/overrides
    RENAME ${package} COMPONENT ${component})
endforeach()
add_custom_command(OUTPUT "${LOUPE_PACKAGING_DIR}/loupe.1.gz"
  COMMAND ${CMAKE_COMMAND} -E copy "${PROJECT_SOURCE_DIR}/packaging/loupe.1" "${LOUPE_PACKAGING_DIR}"
  COMMAND gzip -9nf "${LOUPE_PACKAGING_DIR}/loupe.1"
  DEPENDS "${PROJECT_SOURCE_DIR}/packaging/loupe.1" VERBATIM)
list(APPEND loupe_packaging_outputs "${LOUPE_PACKAGING_DIR}/loupe.1.gz")
add_custom_target(loupe_packaging_files ALL DEPENDS ${loupe_packaging_outputs})
install(FILES "${LOUPE_PACKAGING_DIR}/loupe.1.gz" DESTINATION share/man/man1 COMPONENT runtime)
install(FILES "${PROJECT_SOURCE_DIR}/README.md" DESTINATION "${LOUPE_INSTALL_DOCDIR}"
  COMPONENT runtime)
install(FILES "${PROJECT_SOURCE_DIR}/docs/plugin-sdk.md" DESTINATION share/doc/loupe-dev
  COMPONENT dev)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME loupe)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${LOUPE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE "${LOUPE_PACKAGE_RELEASE}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME loupe)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION web)
# Depends: computed by dpkg-shlibdeps from the ELF files, plus what the maintainer scripts use.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS "${CPACK_PACKAGING_INSTALL_PREFIX}/${LOUPE_INSTALL_LIBDIR}")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "adduser")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "self-hosted visual regression review server
Loupe stores the screenshots of CI test runs as builds, diffs them against a
baseline with its own image comparison engine and lets a team review the
changes in the browser. It speaks the Argos REST API, so the official Argos
command-line clients upload to it unchanged.
.
This package holds the server, its plugins (auth, builds, reviews,
deployments, web, analytics, git, sso, oauth, automation, notifications,
media),
the configuration in /etc/loupe and a systemd service running as the loupe
user with its data in /var/lib/loupe.")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA
  "${deb_dir}/postinst;${deb_dir}/prerm;${deb_dir}/postrm;${deb_dir}/conffiles")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME loupe-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION devel)
# A plugin binary loads only into the core it was built against: the exact same version.
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS
  "loupe (= ${PROJECT_VERSION}-${LOUPE_PACKAGE_RELEASE}), cmake (>= 3.24), g++, nlohmann-json3-dev, libsoci-dev")
set(CPACK_COMPONENT_DEV_DESCRIPTION "plugin SDK for the Loupe review server
Headers, the plugins' service interfaces and the CMake package for building
Loupe plugins out of tree: find_package(Loupe) gives the Loupe::core target
and the loupe_add_plugin() function. A plugin is loaded only by the core it
was built against (same version, compiler and dependencies).")

include(CPack)
