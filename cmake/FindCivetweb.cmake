# Debian 12's civetweb CMake config references /usr/bin/civetweb (the standalone server,
# another package) and fails without it, so the library is found directly instead.
find_path(CIVETWEB_INCLUDE_DIR civetweb.h)
find_library(CIVETWEB_LIBRARY NAMES civetweb)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Civetweb REQUIRED_VARS CIVETWEB_INCLUDE_DIR CIVETWEB_LIBRARY)
if(Civetweb_FOUND AND NOT TARGET civetweb::civetweb)
  add_library(civetweb::civetweb SHARED IMPORTED)
  set_target_properties(civetweb::civetweb PROPERTIES
    IMPORTED_LOCATION "${CIVETWEB_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${CIVETWEB_INCLUDE_DIR}")
endif()
mark_as_advanced(CIVETWEB_INCLUDE_DIR CIVETWEB_LIBRARY)
