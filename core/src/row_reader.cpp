#include "loupe/db/row_reader.hpp"

#include <stdexcept>

namespace loupe {

std::optional<int64_t> RowReader::optional_int(const std::string& column) const {
    const auto& properties = row_.get_properties(column);
    if (row_.get_indicator(column) == soci::i_null) {
        return std::nullopt;
    }
    switch (properties.get_data_type()) {
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

int64_t RowReader::int64(const std::string& column) const {
    auto value = optional_int(column);
    if (!value) {
        throw std::runtime_error("column " + column + " is NULL");
    }
    return *value;
}

std::optional<double> RowReader::optional_double(const std::string& column) const {
    if (row_.get_indicator(column) == soci::i_null) {
        return std::nullopt;
    }
    switch (row_.get_properties(column).get_data_type()) {
        case soci::dt_double:
            return row_.get<double>(column);
        case soci::dt_string:
            return std::stod(row_.get<std::string>(column));
        default:
            return static_cast<double>(*optional_int(column));
    }
}

std::optional<std::string> RowReader::optional_text(const std::string& column) const {
    if (row_.get_indicator(column) == soci::i_null) {
        return std::nullopt;
    }
    if (row_.get_properties(column).get_data_type() == soci::dt_string) {
        return row_.get<std::string>(column);
    }
    return std::to_string(*optional_int(column));
}

std::string RowReader::text(const std::string& column) const {
    return optional_text(column).value_or("");
}

bool RowReader::flag(const std::string& column) const {
    return optional_int(column).value_or(0) != 0;
}

Json RowReader::json(const std::string& column) const {
    auto text = optional_text(column);
    if (!text || text->empty()) {
        return nullptr;
    }
    return Json::parse(*text);
}

}  // namespace loupe
