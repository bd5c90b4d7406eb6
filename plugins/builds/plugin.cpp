// The builds plugin: ingestion, processing and the diff engine's `loupe diff` command.
#include "loupe/plugin.hpp"

#include "diff_command.hpp"
#include "loupe/host.hpp"

namespace {

void install(loupe::Host& host) { loupe::builds::add_diff_command(host); }

}  // namespace

LOUPE_PLUGIN("builds", LOUPE_VERSION, LOUPE_REQUIRES("auth"), install)
