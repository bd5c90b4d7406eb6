#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

/// Splits a migration step into statements, because SOCI runs one statement per call.
/// The rule is the one migrations.hpp documents: a statement ends with ";" as the last
/// non-blank character of a line (so ";" inside a line, e.g. in a string, never splits).
/// The ";" itself is dropped; pieces holding only blanks and `--` comment lines are skipped.
LOUPE_API std::vector<std::string> split_sql_statements(std::string_view sql);

}  // namespace loupe
