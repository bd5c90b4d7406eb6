# LOUPE_BUILD_ID: what a plugin must share with the core to be loaded. The boundary after the
# C entry point is C++, so compiler, standard-library ABI, sanitizer, dependency versions and
# the SDK headers themselves must all match (nginx's module signature, Envoy's ABI hash).
# The SDK headers are the core's (core/include/loupe) and the plugins' service headers
# (plugins/<name>/include/loupe/<name>), as they are installed side by side under include/loupe:
# a plugin compiled against another version of a service interface is refused like one
# compiled against another core.
# LOUPE_SDK_HEADERS: those headers, relative to the installed include folder and sorted
# (installed with the SDK, which hashes them again for an out-of-tree plugin).
include(LoupeBuildIdRules)
set(loupe_sdk_header_pairs "")
set(loupe_sdk_include_roots "${CMAKE_SOURCE_DIR}/core/include")
file(GLOB loupe_plugin_include_roots LIST_DIRECTORIES true CONFIGURE_DEPENDS
  "${CMAKE_SOURCE_DIR}/plugins/*/include")
list(APPEND loupe_sdk_include_roots ${loupe_plugin_include_roots})
foreach(root IN LISTS loupe_sdk_include_roots)
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS RELATIVE "${root}" "${root}/loupe/*.hpp")
  foreach(header IN LISTS headers)
    list(APPEND loupe_sdk_header_pairs "${header}|${root}/${header}")
  endforeach()
endforeach()
list(SORT loupe_sdk_header_pairs)
set(LOUPE_SDK_HEADERS "")
set(loupe_sdk_header_files "")
foreach(pair IN LISTS loupe_sdk_header_pairs)
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 relative)
  list(GET parts 1 absolute)
  list(APPEND LOUPE_SDK_HEADERS "${relative}")
  list(APPEND loupe_sdk_header_files "${absolute}")
endforeach()
# The hash covers the headers' contents: an edited header re-runs the configure step, so the
# build id never lags behind the headers it names (a stale one refuses the packaged example).
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${loupe_sdk_header_files})
loupe_sdk_hash_files(LOUPE_SDK_HASH ${loupe_sdk_header_files})
loupe_compose_build_id(LOUPE_BUILD_ID SANITIZE "${LOUPE_SANITIZE}" POCO "${Poco_VERSION}"
  JSON "${nlohmann_json_VERSION}" SDK "${LOUPE_SDK_HASH}")
message(STATUS "Loupe plugin build id: ${LOUPE_BUILD_ID}")
