# Debian's libsoci-dev ships neither CMake nor pkg-config files. This finds its shared
# libraries; a static copy in both the core and a plugin would duplicate SOCI's registries.
find_path(SOCI_INCLUDE_DIR soci/soci.h)
find_library(SOCI_CORE_LIBRARY NAMES soci_core)
find_library(SOCI_SQLITE3_LIBRARY NAMES soci_sqlite3)
find_library(SOCI_POSTGRESQL_LIBRARY NAMES soci_postgresql)
find_path(SOCI_PG_INCLUDE_DIR libpq-fe.h PATH_SUFFIXES postgresql)

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SOCI REQUIRED_VARS
  SOCI_INCLUDE_DIR SOCI_CORE_LIBRARY SOCI_SQLITE3_LIBRARY SOCI_POSTGRESQL_LIBRARY)

if(SOCI_FOUND AND NOT TARGET SOCI::core)
  add_library(SOCI::core SHARED IMPORTED)
  set_target_properties(SOCI::core PROPERTIES
    IMPORTED_LOCATION "${SOCI_CORE_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${SOCI_INCLUDE_DIR}")
  add_library(SOCI::sqlite3 SHARED IMPORTED)
  set_target_properties(SOCI::sqlite3 PROPERTIES
    IMPORTED_LOCATION "${SOCI_SQLITE3_LIBRARY}"
    INTERFACE_LINK_LIBRARIES SOCI::core)
  add_library(SOCI::postgresql SHARED IMPORTED)
  set_target_properties(SOCI::postgresql PROPERTIES
    IMPORTED_LOCATION "${SOCI_POSTGRESQL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${SOCI_PG_INCLUDE_DIR}"
    INTERFACE_LINK_LIBRARIES SOCI::core)
endif()
mark_as_advanced(SOCI_INCLUDE_DIR SOCI_CORE_LIBRARY SOCI_SQLITE3_LIBRARY
  SOCI_POSTGRESQL_LIBRARY SOCI_PG_INCLUDE_DIR)
