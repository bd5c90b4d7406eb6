#include "db/sql_statements.hpp"

#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

/// What separates SQL words and lines here.
constexpr std::string_view blank = " \t\r\n";

bool has_code(std::string_view statement) {
    std::size_t position = 0;
    while (position <= statement.size()) {
        auto end = statement.find('\n', position);
        if (end == std::string_view::npos) {
            end = statement.size();
        }
        const auto line = trim(statement.substr(position, end - position), blank);
        if (!line.empty() && line.substr(0, 2) != "--") {
            return true;
        }
        position = end + 1;
    }
    return false;
}

}  // namespace

std::vector<std::string> split_sql_statements(std::string_view sql) {
    std::vector<std::string> statements;
    std::string current;
    const auto finish = [&] {
        if (has_code(current)) {
            statements.emplace_back(trim(current, blank));
        }
        current.clear();
    };
    std::size_t position = 0;
    while (position < sql.size()) {
        auto end = sql.find('\n', position);
        if (end == std::string_view::npos) {
            end = sql.size();
        }
        auto line = sql.substr(position, end - position);
        const auto content = trim(line, blank);
        if (!content.empty() && content.back() == ';') {
            line = line.substr(
                0, static_cast<std::size_t>(content.data() - line.data()) + content.size() - 1);
            current += line;
            finish();
        } else {
            current += line;
            current += '\n';
        }
        position = end + 1;
    }
    finish();
    return statements;
}

}  // namespace loupe
