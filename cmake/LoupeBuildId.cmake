# LOUPE_BUILD_ID: what a plugin must share with the core to be loaded. The boundary after the
# C entry point is C++, so compiler, standard-library ABI, sanitizer, dependency versions and
# the SDK headers themselves must all match (nginx's module signature, Envoy's ABI hash).
file(GLOB_RECURSE _loupe_sdk_headers CONFIGURE_DEPENDS
  "${CMAKE_SOURCE_DIR}/core/include/loupe/*.hpp")
list(SORT _loupe_sdk_headers)
set(_loupe_sdk_concat "")
foreach(_h IN LISTS _loupe_sdk_headers)
  file(SHA256 "${_h}" _hh)
  string(APPEND _loupe_sdk_concat "${_hh}")
endforeach()
string(SHA256 _loupe_sdk_hash "${_loupe_sdk_concat}")
string(SUBSTRING "${_loupe_sdk_hash}" 0 16 _loupe_sdk_hash)
if(LOUPE_SANITIZE)
  set(_loupe_san "asan+ubsan")
else()
  set(_loupe_san "none")
endif()
set(LOUPE_BUILD_ID
  "${CMAKE_CXX_COMPILER_ID}-${CMAKE_CXX_COMPILER_VERSION};cxx20;san=${_loupe_san};poco=${Poco_VERSION};json=${nlohmann_json_VERSION};civetweb=1.15;sdk=${_loupe_sdk_hash}")
message(STATUS "Loupe plugin build id: ${LOUPE_BUILD_ID}")
