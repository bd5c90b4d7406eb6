#pragma once
// Where the build under test lives: the `loupe` binary, the plugin folders and the source tree.
// Defined in build_paths.cpp only, so the checkout's path is on one object's command line and
// every other test object is the same in every checkout (ccache shares them).

namespace loupe::test::build_paths {
extern const char* const binary;
extern const char* const plugin_dir;
extern const char* const fixture_plugin_dir;
extern const char* const source_dir;
}  // namespace loupe::test::build_paths

#define LOUPE_TEST_BINARY (::loupe::test::build_paths::binary)
#define LOUPE_TEST_PLUGIN_DIR (::loupe::test::build_paths::plugin_dir)
#define LOUPE_TEST_FIXTURE_PLUGIN_DIR (::loupe::test::build_paths::fixture_plugin_dir)
#define LOUPE_TEST_SOURCE_DIR (::loupe::test::build_paths::source_dir)
