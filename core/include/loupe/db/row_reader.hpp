#pragma once
// Typed reads from a soci::row that behave the same on SQLite and PostgreSQL (whose drivers
// report different C++ types for the same portable column), by column name or position, and a
// cursor that reads the columns in SELECT order.

#include <soci/soci.h>

#include <cstddef>
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

    /// The same reads by position (0 is the first column of the SELECT).
    std::optional<int64_t> optional_int(std::size_t position) const;
    int64_t int64(std::size_t position) const;
    std::optional<double> optional_double(std::size_t position) const;
    std::optional<std::string> optional_text(std::size_t position) const;
    std::string text(std::size_t position) const;
    bool flag(std::size_t position) const;
    Json json(std::size_t position) const;

private:
    template <class Column>
    std::optional<int64_t> integer_at(const Column& column) const;
    template <class Column>
    std::optional<double> real_at(const Column& column) const;
    template <class Column>
    std::optional<std::string> text_at(const Column& column) const;

    const soci::row& row_;
};

/// Reads the columns of a row one after the other, in SELECT order. Reading past the last
/// column, or NULL from a column read as required, throws std::logic_error.
class LOUPE_API RowCursor {
public:
    explicit RowCursor(const soci::row& row) : row_(row), reader_(row) {}

    int64_t int64();
    std::optional<int64_t> optional_int64();
    std::string text();
    std::optional<std::string> optional_text();
    std::optional<double> optional_double();
    bool flag() { return int64() != 0; }
    Json json();

private:
    std::size_t take();

    const soci::row& row_;
    RowReader reader_;
    std::size_t next_ = 0;
};

}  // namespace loupe
