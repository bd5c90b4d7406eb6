# loupe_add_plugin(name SOURCES ... [LIBRARIES ...]): a plugin is a MODULE (nothing can link
# against it) with hidden visibility; only the loupe_plugin entry point is exported.
# --no-undefined makes a symbol missing from libloupe-core a link error, not a dlopen error.
# The JSON files of the plugin's api/ folder (its part of GET /openapi.json) are compiled in as
# loupe::embedded_api_description().
include(LoupeEmbedJson)

function(loupe_add_plugin name)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "SOURCES;LIBRARIES" ${ARGN})
  set(target loupe_${name})
  add_library(${target} MODULE ${ARG_SOURCES})
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${LOUPE_PLUGIN_OUTPUT_DIR}")
  endif()
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    OUTPUT_NAME "${name}"
    LIBRARY_OUTPUT_DIRECTORY "${ARG_OUTPUT_DIR}"
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  target_link_libraries(${target} PRIVATE loupe::core ${ARG_LIBRARIES})
  loupe_enable_warnings(${target})
  file(GLOB api_files CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/api/*.json")
  if(api_files)
    loupe_embed_json(${target} FUNCTION loupe::embedded_api_description
      HEADER loupe/http/api_description.hpp FILES ${api_files})
  endif()
  if(ARG_OUTPUT_DIR STREQUAL "${LOUPE_PLUGIN_OUTPUT_DIR}")
    set_property(GLOBAL APPEND PROPERTY LOUPE_PLUGIN_TARGETS ${target})
  endif()
endfunction()
