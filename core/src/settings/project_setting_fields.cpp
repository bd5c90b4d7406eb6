#include "loupe/settings/project_setting_fields.hpp"

#include <limits>

#include "loupe/http/http_error.hpp"

namespace loupe {
namespace {

[[noreturn]] void refuse(const std::string& field, const std::string& message) {
    Validation validation;
    validation.add(field, message);
    validation.throw_if_any();
    throw HttpError::bad_request(field + " is " + message);  // not reached: throw_if_any throws
}

}  // namespace

bool flag_setting(const std::string& field, const Json& value) {
    if (!value.is_boolean()) {
        refuse(field, expected_message("boolean", &value));
    }
    return value.get<bool>();
}

std::optional<std::string> optional_text_setting(const std::string& field, const Json& value,
                                                 std::size_t max_length) {
    if (value.is_null()) {
        return std::nullopt;
    }
    if (!value.is_string()) {
        refuse(field, expected_message("string", &value));
    }
    const auto& text = value.get_ref<const std::string&>();
    if (text.empty()) {
        refuse(field, "Too small: expected string to have >=1 characters");
    }
    if (text.size() > max_length) {
        refuse(field,
               "Too big: expected string to have <=" + std::to_string(max_length) + " characters");
    }
    return text;
}

std::string choice_setting(const std::string& field, const Json& value,
                           const std::vector<std::string>& choices) {
    if (value.is_string()) {
        for (const auto& choice : choices) {
            if (value.get_ref<const std::string&>() == choice) {
                return choice;
            }
        }
    }
    std::string expected;
    for (const auto& choice : choices) {
        expected += (expected.empty() ? "" : "|") + ("\"" + choice + "\"");
    }
    refuse(field, "Invalid option: expected one of " + expected);
}

int64_t integer_setting(const std::string& field, const Json& value, int64_t min, int64_t max) {
    if (!value.is_number_integer()) {
        refuse(field, expected_message("int", &value));
    }
    if (value.is_number_unsigned() &&
        value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        refuse(field, "Too big: expected number to be <=" + std::to_string(max));
    }
    const auto number = value.get<int64_t>();
    if (number < min) {
        refuse(field, "Too small: expected number to be >=" + std::to_string(min));
    }
    if (number > max) {
        refuse(field, "Too big: expected number to be <=" + std::to_string(max));
    }
    return number;
}

}  // namespace loupe
