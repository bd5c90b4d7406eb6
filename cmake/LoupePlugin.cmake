# loupe_add_plugin(name SOURCES ... [LIBRARIES ...] [OUTPUT_DIR dir]): a plugin is a MODULE
# (nothing can link against it) with hidden visibility; only the loupe_plugin entry point is
# exported. --no-undefined makes a symbol missing from libloupe-core a link error, not a dlopen
# error. The target is named loupe_<name> and the file <name>.so.
#
# The same function serves this source tree and, installed with the SDK, out-of-tree plugins
# (find_package(Loupe) sets LOUPE_SDK_INSTALLED). Out of tree it also:
#   - defines LOUPE_BUILD_ID from the plugin's own toolchain (compiler, sanitizer, dependency
#     versions, a hash of the SDK headers as installed), so the core refuses the plugin exactly
#     when they differ from its own; a difference is reported at configure time already;
#   - installs the plugin into LOUPE_PLUGIN_INSTALL_DIR (default lib/loupe/plugins under the
#     project's install prefix: add that folder to plugins.path).
#
# The JSON files of the plugin's api/ folder (its part of GET /openapi.json) are compiled in as
# loupe::embedded_api_description().
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/LoupeBuildIdRules.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/LoupeEmbedJson.cmake")

function(loupe_add_plugin name)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "SOURCES;LIBRARIES" ${ARGN})
  set(target loupe_${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  if(NOT ARG_OUTPUT_DIR)
    if(LOUPE_SDK_INSTALLED)
      set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    else()
      set(ARG_OUTPUT_DIR "${LOUPE_PLUGIN_OUTPUT_DIR}")
    endif()
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    OUTPUT_NAME "${name}"
    LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIR}"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  target_link_libraries(${target} PRIVATE Loupe::core ${ARG_LIBRARIES})
  file(GLOB api_files CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/api/*.json")
  if(api_files)
    loupe_embed_json(${target} FUNCTION loupe::embedded_api_description
      HEADER loupe/http/api_description.hpp FILES ${api_files})
  endif()
  if(LOUPE_SDK_INSTALLED)
    _loupe_out_of_tree_plugin(${target} ${name})
    return()
  endif()
  loupe_enable_warnings(${target})
  if(ARG_OUTPUT_DIR STREQUAL "${LOUPE_PLUGIN_OUTPUT_DIR}")
    set_property(GLOBAL APPEND PROPERTY LOUPE_PLUGIN_TARGETS ${target})
    install(TARGETS ${target} LIBRARY DESTINATION "${LOUPE_INSTALL_PLUGINDIR}" COMPONENT runtime)
  endif()
endfunction()

# loupe_plugin_build_id(<out>): the build id a plugin compiled by this project gets.
function(loupe_plugin_build_id out)
  loupe_sdk_hash(sdk "${LOUPE_SDK_INCLUDE_DIR}" ${LOUPE_SDK_HEADERS})
  # Poco is part of the id because the core links it; a plugin that links it too must use the
  # same one. Otherwise the core's version stands.
  if(DEFINED Poco_VERSION)
    set(poco "${Poco_VERSION}")
  else()
    set(poco "${LOUPE_CORE_POCO_VERSION}")
  endif()
  loupe_compose_build_id(id SANITIZE "${LOUPE_CORE_SANITIZE}" POCO "${poco}"
    JSON "${nlohmann_json_VERSION}" SDK "${sdk}")
  set(${out} "${id}" PARENT_SCOPE)
endfunction()

function(_loupe_out_of_tree_plugin target name)
  loupe_plugin_build_id(id)
  if(NOT id STREQUAL LOUPE_CORE_BUILD_ID)
    message(WARNING "Loupe plugin '${name}': its build id\n  ${id}\ndiffers from the installed "
      "core's\n  ${LOUPE_CORE_BUILD_ID}\nso the core will refuse to load it. Build it with "
      "the compiler and dependencies the core was built with.")
  endif()
  # A ';' would split the definition in two: it is written as the C escape \073 instead.
  string(REPLACE ";" "\\073" escaped_id "${id}")
  target_compile_definitions(${target} PRIVATE "LOUPE_BUILD_ID=\"${escaped_id}\"")
  target_compile_features(${target} PRIVATE cxx_std_20)
  if(LOUPE_CORE_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined
      -fno-sanitize-recover=all -fno-omit-frame-pointer -fno-sanitize=vptr)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
  if(NOT LOUPE_PLUGIN_INSTALL_DIR)
    set(LOUPE_PLUGIN_INSTALL_DIR lib/loupe/plugins)
  endif()
  install(TARGETS ${target} LIBRARY DESTINATION "${LOUPE_PLUGIN_INSTALL_DIR}")
endfunction()
