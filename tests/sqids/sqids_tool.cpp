// Loupe's Sqids on the command line, for tests/sqids/sqids.test.mjs to compare with npm sqids.
// Arguments: [ALPHABET MIN_LENGTH] (default: Argos's). Reads one request per line on stdin:
//   e N[,N...]  -> the id          d ID  -> the numbers, comma-separated (empty line: none)
//   b           -> the default blocklist, one line, space-separated
#include <iostream>
#include <sstream>
#include <string>

#include "ids/sqids.hpp"

int main(int argc, char** argv) {
    const std::string alphabet = argc > 2 ? argv[1] : "FN5LTPGRW98EB2X3ZYHDCU0AS7KJQV64MO1I";
    const unsigned min_length = argc > 2 ? static_cast<unsigned>(std::stoul(argv[2])) : 4;
    const loupe::builds::Sqids sqids(alphabet, min_length);
    std::string line;
    while (std::getline(std::cin, line)) {
        const std::string argument = line.size() > 2 ? line.substr(2) : "";
        if (line.starts_with("e ")) {
            std::vector<uint64_t> numbers;
            std::istringstream list(argument);
            for (std::string item; std::getline(list, item, ',');) {
                numbers.push_back(std::stoull(item));
            }
            std::cout << sqids.encode(numbers) << '\n';
        } else if (line.starts_with("d")) {
            const auto numbers = sqids.decode(argument);
            for (std::size_t i = 0; i < numbers.size(); ++i) {
                std::cout << (i ? "," : "") << numbers[i];
            }
            std::cout << '\n';
        } else if (line == "b") {
            for (const auto& word : loupe::builds::sqids_default_blocklist()) {
                std::cout << word << ' ';
            }
            std::cout << '\n';
        }
    }
    return 0;
}
