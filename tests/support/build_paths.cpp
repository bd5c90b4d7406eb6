#include "support/build_paths.hpp"

namespace loupe::test::build_paths {
const char* const binary = LOUPE_TEST_BUILD_BINARY;
const char* const plugin_dir = LOUPE_TEST_BUILD_PLUGIN_DIR;
const char* const fixture_plugin_dir = LOUPE_TEST_BUILD_FIXTURE_PLUGIN_DIR;
const char* const source_dir = LOUPE_TEST_BUILD_SOURCE_DIR;
}  // namespace loupe::test::build_paths
