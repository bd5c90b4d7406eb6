#include "loupe/db/row_reader.hpp"

#include <stdexcept>

namespace loupe {
std::optional<int64_t> RowReader::integer_at(const std::string& column) const {
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
            throw std::runtime_error("column " + column + " is not an integer");
    }
}

std::optional<double> RowReader::real_at(const std::string& column) const {
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

std::optional<std::string> RowReader::text_at(const std::string& column) const {
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

}  // namespace loupe
