# The review page's front end: built with npm (Vite) into <plugins>/web-assets, where the web
# plugin finds it. Without node/npm the plugin still builds and its pages answer 503.
find_program(LOUPE_NPM npm)
find_program(LOUPE_NODE_FOR_WEB node)
set(LOUPE_WEB_ASSETS_DIR "${LOUPE_PLUGIN_OUTPUT_DIR}/web-assets")
if(NOT LOUPE_NPM OR NOT LOUPE_NODE_FOR_WEB)
  message(WARNING "web: node/npm not found, the review page's front end is not built")
  return()
endif()
set(frontend_dir "${CMAKE_CURRENT_SOURCE_DIR}/frontend")
file(GLOB_RECURSE frontend_sources CONFIGURE_DEPENDS "${frontend_dir}/src/*")
set(frontend_stamp "${CMAKE_CURRENT_BINARY_DIR}/frontend.stamp")
add_custom_command(
  OUTPUT "${frontend_stamp}"
  COMMAND "${frontend_dir}/build.sh" "${LOUPE_WEB_ASSETS_DIR}"
  COMMAND ${CMAKE_COMMAND} -E touch "${frontend_stamp}"
  DEPENDS ${frontend_sources} "${frontend_dir}/index.html" "${frontend_dir}/package.json"
    "${frontend_dir}/package-lock.json" "${frontend_dir}/vite.config.ts"
    "${frontend_dir}/tsconfig.json" "${frontend_dir}/build.sh"
  WORKING_DIRECTORY "${frontend_dir}"
  COMMENT "Building the review page (Vite)"
  USES_TERMINAL
  VERBATIM)
add_custom_target(loupe_web_frontend ALL DEPENDS "${frontend_stamp}")
add_dependencies(loupe_web loupe_web_frontend)
