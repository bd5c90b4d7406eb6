# libFuzzer target for the comment body parser (Markdown strings and rich-text documents), with
# the comment body library compiled in. Included by CMakeLists.txt beside it.
include(${CMAKE_CURRENT_LIST_DIR}/../../plugins/reviews/comments/sources.cmake)
find_package(nlohmann_json REQUIRED)
get_filename_component(LOUPE_FUZZ_REPO_DIR "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
# loupe/json.hpp includes the export header the core library generates; the fuzzer links no
# core, so an empty export macro does.
file(CONFIGURE OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/fuzz-include/loupe/export.hpp"
  CONTENT "#pragma once\n#define LOUPE_API\n")

add_executable(loupe_comment_body_fuzz
  ${CMAKE_CURRENT_LIST_DIR}/comment_body_fuzz.cpp ${LOUPE_COMMENT_BODY_SOURCES})
target_include_directories(loupe_comment_body_fuzz PRIVATE
  ${LOUPE_FUZZ_REPO_DIR}/core/include ${LOUPE_FUZZ_REPO_DIR}/plugins/reviews
  ${CMAKE_CURRENT_BINARY_DIR}/fuzz-include)
target_compile_features(loupe_comment_body_fuzz PRIVATE cxx_std_20)
target_compile_options(loupe_comment_body_fuzz PRIVATE
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
target_link_options(loupe_comment_body_fuzz PRIVATE -fsanitize=fuzzer,address,undefined)
target_link_libraries(loupe_comment_body_fuzz PRIVATE
  ${LOUPE_COMMENT_BODY_LIBRARIES} nlohmann_json::nlohmann_json)
