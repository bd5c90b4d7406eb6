#include "identity/sql_row.hpp"

#include <stdexcept>

namespace loupe {

std::size_t ColumnCursor::take(bool nullable) {
    const std::size_t column = next_++;
    if (column >= row_.size()) {
        throw std::logic_error("ColumnCursor: reading column " + std::to_string(column) +
                               " of a row with " + std::to_string(row_.size()));
    }
    if (!nullable && row_.get_indicator(column) == soci::i_null) {
        throw std::logic_error("ColumnCursor: column " + row_.get_properties(column).get_name() +
                               " is NULL");
    }
    return column;
}

std::optional<int64_t> ColumnCursor::optional_int64() {
    const std::size_t column = take(true);
    if (row_.get_indicator(column) == soci::i_null) {
        return std::nullopt;
    }
    switch (row_.get_properties(column).get_data_type()) {
        case soci::dt_integer:
            return row_.get<int>(column);
        case soci::dt_long_long:
            return row_.get<long long>(column);
        case soci::dt_unsigned_long_long:
            return static_cast<int64_t>(row_.get<unsigned long long>(column));
        case soci::dt_double:
            return static_cast<int64_t>(row_.get<double>(column));
        case soci::dt_string:
            return std::stoll(row_.get<std::string>(column));
        default:
            throw std::logic_error("ColumnCursor: column " +
                                   row_.get_properties(column).get_name() + " is not an integer");
    }
}

int64_t ColumnCursor::int64() {
    const std::size_t column = next_;
    auto value = optional_int64();
    if (!value) {
        throw std::logic_error("ColumnCursor: column " + row_.get_properties(column).get_name() +
                               " is NULL");
    }
    return *value;
}

std::optional<std::string> ColumnCursor::optional_text() {
    const std::size_t column = take(true);
    if (row_.get_indicator(column) == soci::i_null) {
        return std::nullopt;
    }
    return row_.get<std::string>(column);
}

std::string ColumnCursor::text() {
    const std::size_t column = take(false);
    return row_.get<std::string>(column);
}

}  // namespace loupe
