# The comment body library (Markdown and rich-text comment bodies, reaction emoji): its sources
# as absolute paths and the libraries they need. Included by the reviews plugin, the unit tests
# and the fuzz target; includers add plugins/reviews to their include path and core/include
# (for loupe/json.hpp).
# libcmark through pkg-config: Debian's CMake package file for it also requires the cmark
# command-line tool.
find_package(PkgConfig REQUIRED)
pkg_check_modules(CMARK REQUIRED IMPORTED_TARGET libcmark)
find_package(ICU REQUIRED COMPONENTS uc)
set(LOUPE_COMMENT_BODY_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/comment_body.cpp
  ${CMAKE_CURRENT_LIST_DIR}/emoji.cpp
  ${CMAKE_CURRENT_LIST_DIR}/markdown.cpp
  ${CMAKE_CURRENT_LIST_DIR}/mentions.cpp
  ${CMAKE_CURRENT_LIST_DIR}/rich_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/unicode.cpp)
set(LOUPE_COMMENT_BODY_LIBRARIES PkgConfig::CMARK ICU::uc)
