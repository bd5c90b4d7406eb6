# LOUPE_BUILD_ID: what a plugin must share with the core to be loaded. The boundary after the
# C entry point is C++, so compiler, standard-library ABI, sanitizer, dependency versions and
# the SDK headers themselves must all match (nginx's module signature, Envoy's ABI hash).
# LOUPE_SDK_HEADERS: those headers, relative to core/include (installed with the SDK, which
# hashes them again for an out-of-tree plugin).
include(LoupeBuildIdRules)
file(GLOB_RECURSE LOUPE_SDK_HEADERS CONFIGURE_DEPENDS RELATIVE "${CMAKE_SOURCE_DIR}/core/include"
  "${CMAKE_SOURCE_DIR}/core/include/loupe/*.hpp")
list(SORT LOUPE_SDK_HEADERS)
loupe_sdk_hash(LOUPE_SDK_HASH "${CMAKE_SOURCE_DIR}/core/include" ${LOUPE_SDK_HEADERS})
loupe_compose_build_id(LOUPE_BUILD_ID SANITIZE "${LOUPE_SANITIZE}" POCO "${Poco_VERSION}"
  JSON "${nlohmann_json_VERSION}" SDK "${LOUPE_SDK_HASH}")
message(STATUS "Loupe plugin build id: ${LOUPE_BUILD_ID}")
