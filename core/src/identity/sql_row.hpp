#pragma once
// Reads the columns of a soci::row in SELECT order (positional; loupe::RowReader reads by
// name), whatever integer type the backend chose for them
// (SQLite and PostgreSQL describe INTEGER/BIGINT columns differently), and with NULL mapped to
// std::optional. Booleans are INTEGER 0/1.

#include <soci/soci.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace loupe {

class ColumnCursor {
public:
    explicit ColumnCursor(const soci::row& row) : row_(row) {}

    int64_t int64();
    std::optional<int64_t> optional_int64();
    std::string text();
    std::optional<std::string> optional_text();
    bool flag() { return int64() != 0; }

private:
    std::size_t take(bool nullable);

    const soci::row& row_;
    std::size_t next_ = 0;
};

}  // namespace loupe
