// `loupe diff` needs no database, no configuration and no other plugin: it is exported as a
// standalone command, which the `loupe` launcher runs from the command module commands/diff.so
// (this file and the diff tool, without the server), and which the builds plugin exports too.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "diff_tool/diff_tool.hpp"
#include "diff_tool/one_shot_heap.hpp"
#include "loupe/standalone_command.hpp"

LOUPE_STANDALONE_COMMAND(diff) {
    loupe::builds::prefer_huge_pages_for_one_diff();
    try {
        return loupe::builds::run_diff(std::vector<std::string>(argv, argv + argc));
    } catch (const std::exception& error) {
        std::cerr << "loupe diff: " << error.what() << "\n";
        return 2;
    }
}
