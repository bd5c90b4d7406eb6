#include "diff_command.hpp"

#include "diff_tool/diff_tool.hpp"

namespace loupe::builds {

void add_diff_command(Host& host) {
    host.commands().add("diff",
                        "compare two screenshots: BASE HEAD [--threshold 0.5] "
                        "[--out mask.png] [--json]",
                        run_diff);
}

}  // namespace loupe::builds
