#include "loupe/db/row_reader.hpp"

#include <stdexcept>

namespace loupe {
namespace {

std::string column_name(const soci::row& row, const std::string& column) {
    (void)row;
    return column;
}

std::string column_name(const soci::row& row, std::size_t position) {
    return row.get_properties(position).get_name();
}

}  // namespace

template <class Column>
std::optional<int64_t> RowReader::integer_at(const Column& column) const {
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
            throw std::runtime_error("column " + column_name(row_, column) + " is not an integer");
    }
}

template <class Column>
std::optional<double> RowReader::real_at(const Column& column) const {
    if (row_.get_indicator(column) == soci::i_null) {
        return std::nullopt;
    }
    switch (row_.get_properties(column).get_data_type()) {
        case soci::dt_double:
            return row_.get<double>(column);
        case soci::dt_string:
            return std::stod(row_.get<std::string>(column));
        default:
            return static_cast<double>(*integer_at(column));
    }
}

template <class Column>
std::optional<std::string> RowReader::text_at(const Column& column) const {
    if (row_.get_indicator(column) == soci::i_null) {
        return std::nullopt;
    }
    if (row_.get_properties(column).get_data_type() == soci::dt_string) {
        return row_.get<std::string>(column);
    }
    return std::to_string(*integer_at(column));
}

namespace {

template <class Value>
Value required(std::optional<Value> value, const std::string& name) {
    if (!value) {
        throw std::runtime_error("column " + name + " is NULL");
    }
    return std::move(*value);
}

Json parse_json(const std::optional<std::string>& text) {
    if (!text || text->empty()) {
        return nullptr;
    }
    return Json::parse(*text);
}

}  // namespace

std::optional<int64_t> RowReader::optional_int(const std::string& column) const {
    return integer_at(column);
}
int64_t RowReader::int64(const std::string& column) const {
    return required(integer_at(column), column);
}
std::optional<double> RowReader::optional_double(const std::string& column) const {
    return real_at(column);
}
std::optional<std::string> RowReader::optional_text(const std::string& column) const {
    return text_at(column);
}
std::string RowReader::text(const std::string& column) const {
    return text_at(column).value_or("");
}
bool RowReader::flag(const std::string& column) const {
    return integer_at(column).value_or(0) != 0;
}
Json RowReader::json(const std::string& column) const {
    return parse_json(text_at(column));
}

std::optional<int64_t> RowReader::optional_int(std::size_t position) const {
    return integer_at(position);
}
int64_t RowReader::int64(std::size_t position) const {
    return required(integer_at(position), column_name(row_, position));
}
std::optional<double> RowReader::optional_double(std::size_t position) const {
    return real_at(position);
}
std::optional<std::string> RowReader::optional_text(std::size_t position) const {
    return text_at(position);
}
std::string RowReader::text(std::size_t position) const {
    return text_at(position).value_or("");
}
bool RowReader::flag(std::size_t position) const {
    return integer_at(position).value_or(0) != 0;
}
Json RowReader::json(std::size_t position) const {
    return parse_json(text_at(position));
}

std::size_t RowCursor::take() {
    const std::size_t column = next_++;
    if (column >= row_.size()) {
        throw std::logic_error("RowCursor: reading column " + std::to_string(column) +
                               " of a row with " + std::to_string(row_.size()));
    }
    return column;
}

int64_t RowCursor::int64() {
    const std::size_t column = take();
    auto value = reader_.optional_int(column);
    if (!value) {
        throw std::logic_error("RowCursor: column " + column_name(row_, column) + " is NULL");
    }
    return *value;
}
std::optional<int64_t> RowCursor::optional_int64() {
    return reader_.optional_int(take());
}
std::string RowCursor::text() {
    const std::size_t column = take();
    auto value = reader_.optional_text(column);
    if (!value) {
        throw std::logic_error("RowCursor: column " + column_name(row_, column) + " is NULL");
    }
    return *value;
}
std::optional<std::string> RowCursor::optional_text() {
    return reader_.optional_text(take());
}
std::optional<double> RowCursor::optional_double() {
    return reader_.optional_double(take());
}
Json RowCursor::json() {
    return reader_.json(take());
}

}  // namespace loupe
