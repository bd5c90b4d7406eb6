#pragma once
// Typed reads from a soci::row by column name, the same on SQLite and PostgreSQL (whose drivers
// report different C++ types for the same portable column). Name the columns in the SELECT
// (`a.slug AS account_slug`) when two of them would share a name; use lower-case names
// (PostgreSQL folds unquoted names to lower case).

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>

#include "loupe/export.hpp"
#include "loupe/json.hpp"

namespace loupe {

class LOUPE_API RowReader {
public:
    explicit RowReader(const soci::row& row) : row_(row) {}

    std::optional<int64_t> optional_int(const std::string& column) const;
    int64_t int64(const std::string& column) const;  ///< throws std::runtime_error on NULL
    std::optional<double> optional_double(const std::string& column) const;
    std::optional<std::string> optional_text(const std::string& column) const;
    std::string text(const std::string& column) const;  ///< "" on NULL
    bool flag(const std::string& column) const;         ///< INTEGER 0/1; NULL is false
    /// Parses a TEXT column holding JSON; NULL gives a null Json.
    Json json(const std::string& column) const;

private:
    std::optional<int64_t> integer_at(const std::string& column) const;
    std::optional<double> real_at(const std::string& column) const;
    std::optional<std::string> text_at(const std::string& column) const;

    const soci::row& row_;
};

}  // namespace loupe
