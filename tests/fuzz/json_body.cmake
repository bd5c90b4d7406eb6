# libFuzzer target for the JSON request body reader (core) and the field validators routes use
# (core's JsonReader, the builds plugin's shared rules), compiled from their sources with no
# database or server. Included by CMakeLists.txt beside it, after comment_body.cmake (whose
# generated export header it shares).
find_package(nlohmann_json REQUIRED)
get_filename_component(LOUPE_FUZZ_REPO_DIR "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(LOUPE_FUZZ_CORE_DIR "${LOUPE_FUZZ_REPO_DIR}/core")

add_executable(loupe_json_body_fuzz
  ${CMAKE_CURRENT_LIST_DIR}/json_body_fuzz.cpp
  ${LOUPE_FUZZ_CORE_DIR}/src/http/json_body.cpp
  ${LOUPE_FUZZ_CORE_DIR}/src/http/http_error.cpp
  ${LOUPE_FUZZ_CORE_DIR}/src/http/request.cpp
  ${LOUPE_FUZZ_CORE_DIR}/src/integer_text.cpp
  ${LOUPE_FUZZ_CORE_DIR}/src/json.cpp
  ${LOUPE_FUZZ_CORE_DIR}/src/json_reader.cpp
  ${LOUPE_FUZZ_CORE_DIR}/src/text/strings.cpp
  ${LOUPE_FUZZ_REPO_DIR}/plugins/builds/validation.cpp)
target_include_directories(loupe_json_body_fuzz PRIVATE
  ${CMAKE_CURRENT_BINARY_DIR}/fuzz-include ${LOUPE_FUZZ_CORE_DIR}/include ${LOUPE_FUZZ_CORE_DIR}/src
  ${LOUPE_FUZZ_REPO_DIR}/plugins/builds)
target_compile_features(loupe_json_body_fuzz PRIVATE cxx_std_20)
target_compile_options(loupe_json_body_fuzz PRIVATE
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
target_link_options(loupe_json_body_fuzz PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_libraries(loupe_json_body_fuzz PRIVATE nlohmann_json::nlohmann_json)
