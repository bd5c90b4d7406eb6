# How a plugin build id is composed. Used by the tree (cmake/LoupeBuildId.cmake) and installed
# with the SDK, so a plugin built out of tree (find_package(Loupe)) gets an id describing its
# own toolchain: the loader then refuses it exactly when it differs from the core's.

# loupe_sdk_hash_files(<out> <file>...): 16 hex digits of the SHA-256 over the SHA-256 of each
# SDK header file, in the order given.
function(loupe_sdk_hash_files out)
  set(concat "")
  foreach(file IN LISTS ARGN)
    file(SHA256 "${file}" header_hash)
    string(APPEND concat "${header_hash}")
  endforeach()
  string(SHA256 hash "${concat}")
  string(SUBSTRING "${hash}" 0 16 hash)
  set(${out} "${hash}" PARENT_SCOPE)
endfunction()

# loupe_sdk_hash(<out> <root> <header>...): the same for headers relative to <root> (the
# installed include folder), in the order given.
function(loupe_sdk_hash out root)
  set(files "")
  foreach(header IN LISTS ARGN)
    list(APPEND files "${root}/${header}")
  endforeach()
  loupe_sdk_hash_files(hash ${files})
  set(${out} "${hash}" PARENT_SCOPE)
endfunction()

# loupe_compose_build_id(<out> SANITIZE <bool> POCO <version> JSON <version> SDK <hash>): the id
# for the C++ compiler of the calling project.
function(loupe_compose_build_id out)
  cmake_parse_arguments(ARG "" "SANITIZE;POCO;JSON;SDK" "" ${ARGN})
  if(ARG_SANITIZE)
    set(san "asan+ubsan")
  else()
    set(san "none")
  endif()
  set(${out}
    "${CMAKE_CXX_COMPILER_ID}-${CMAKE_CXX_COMPILER_VERSION};cxx20;san=${san};poco=${ARG_POCO};json=${ARG_JSON};civetweb=1.15;sdk=${ARG_SDK}"
    PARENT_SCOPE)
endfunction()
