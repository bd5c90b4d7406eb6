#pragma once
// Columns aligned with two spaces between them: the tables `loupe admin` and `loupe jobs` print.

#include <ostream>
#include <string>
#include <vector>

namespace loupe {

void print_text_table(std::ostream& out, const std::vector<std::vector<std::string>>& rows);

}  // namespace loupe
