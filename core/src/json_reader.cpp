#include "loupe/http/json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <regex>

namespace loupe {
namespace {

const std::regex& compiled(const std::string& pattern) {
    static std::mutex mutex;
    static std::map<std::string, std::regex> cache;
    std::lock_guard lock(mutex);
    auto it = cache.find(pattern);
    if (it == cache.end()) {
        it = cache.emplace(pattern, std::regex(pattern, std::regex::ECMAScript)).first;
    }
    return it->second;
}

bool is_integer(const Json& value) {
    if (value.is_number_integer()) {
        return true;
    }
    return value.is_number_float() && std::isfinite(value.get<double>()) &&
           std::floor(value.get<double>()) == value.get<double>();
}

std::string format_number(double value) {
    if (std::floor(value) == value && std::abs(value) < 1e15) {
        return std::to_string(static_cast<int64_t>(value));
    }
    return Json(value).dump();
}

}  // namespace

const Json& object_body(Request& request) {
    const Json& body = request.json();
    if (!body.is_object()) {
        Validation validation;
        validation.add("", expected_message("object", body.is_null() ? nullptr : &body));
        validation.throw_if_any();
    }
    return body;
}

namespace {

bool is_hex_of_length(const std::string& text, std::size_t length, bool upper_case_allowed) {
    return text.size() == length && std::all_of(text.begin(), text.end(), [&](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
                      (upper_case_allowed && c >= 'A' && c <= 'F');
           });
}

}  // namespace

bool matches(const std::string& text, const std::string& pattern) {
    // The hash patterns are checked for each of thousands of keys per build: without a regex.
    if (pattern == sha256_pattern) {
        return is_hex_of_length(text, 64, true);
    }
    if (pattern == sha1_pattern) {
        return is_hex_of_length(text, 40, false);
    }
    return std::regex_match(text, compiled(pattern));
}

JsonReader::JsonReader(const Json& object, Validation& validation, std::string path)
    : object_(object), validation_(validation), path_(std::move(path)) {}

const Json* JsonReader::get(std::string_view key) const {
    if (!object_.is_object()) {
        return nullptr;
    }
    auto it = object_.find(key);
    return it == object_.end() ? nullptr : &*it;
}

bool JsonReader::nullish(std::string_view key) const {
    const Json* value = get(key);
    return value == nullptr || value->is_null();
}

std::string JsonReader::path_of(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void JsonReader::issue(std::string_view key, std::string_view message) {
    validation_.add(path_of(key), message);
}

std::optional<std::string> JsonReader::string(std::string_view key, bool required,
                                              std::size_t min_length) {
    const Json* value = get(key);
    if (value == nullptr || value->is_null()) {
        if (required) {
            issue(key, expected_message("string", value));
        }
        return std::nullopt;
    }
    if (!value->is_string()) {
        issue(key, expected_message("string", value));
        return std::nullopt;
    }
    auto text = value->get<std::string>();
    if (text.size() < min_length) {
        issue(key,
              "Too small: expected string to have >=" + std::to_string(min_length) + " characters");
        return std::nullopt;
    }
    return text;
}

std::optional<std::string> JsonReader::pattern(std::string_view key, bool required,
                                               const std::string& regex) {
    auto text = string(key, required);
    if (text && !matches(*text, regex)) {
        issue(key, "Invalid string: must match pattern /" + regex + "/");
        return std::nullopt;
    }
    return text;
}

std::optional<std::string> JsonReader::one_of(std::string_view key, bool required,
                                              const std::vector<std::string>& options) {
    const Json* value = get(key);
    if (value == nullptr || value->is_null()) {
        if (required) {
            issue(key, expected_message("string", value));
        }
        return std::nullopt;
    }
    if (value->is_string()) {
        for (const auto& option : options) {
            if (value->get<std::string>() == option) {
                return option;
            }
        }
    }
    std::string list;
    for (const auto& option : options) {
        list += (list.empty() ? "\"" : "|\"") + option + "\"";
    }
    issue(key, "Invalid option: expected one of " + list);
    return std::nullopt;
}

std::optional<bool> JsonReader::boolean(std::string_view key, bool required) {
    const Json* value = get(key);
    if (value == nullptr || value->is_null()) {
        if (required) {
            issue(key, expected_message("boolean", value));
        }
        return std::nullopt;
    }
    if (!value->is_boolean()) {
        issue(key, expected_message("boolean", value));
        return std::nullopt;
    }
    return value->get<bool>();
}

std::optional<int64_t> JsonReader::integer(std::string_view key, bool required, int64_t minimum) {
    const Json* value = get(key);
    if (value == nullptr || value->is_null()) {
        if (required) {
            issue(key, expected_message("number", value));
        }
        return std::nullopt;
    }
    if (!value->is_number()) {
        issue(key, expected_message("number", value));
        return std::nullopt;
    }
    if (!is_integer(*value)) {
        issue(key, "Invalid input: expected int, received number");
        return std::nullopt;
    }
    // Integers past 2^53 - 1 are not exact in JavaScript, and a double past int64 has no
    // integer to convert to at all.
    constexpr int64_t max_safe_integer = 9007199254740991;
    const bool safe = value->is_number_unsigned()
                          ? value->get<uint64_t>() <= static_cast<uint64_t>(max_safe_integer)
                      : value->is_number_integer()
                          ? value->get<int64_t>() >= -max_safe_integer &&
                                value->get<int64_t>() <= max_safe_integer
                          : std::fabs(value->get<double>()) <= double(max_safe_integer);
    if (!safe) {
        issue(key, "Too big: expected int to be <=" + std::to_string(max_safe_integer));
        return std::nullopt;
    }
    const auto number = value->is_number_float() ? static_cast<int64_t>(value->get<double>())
                                                 : value->get<int64_t>();
    if (number < minimum) {
        issue(key, "Too small: expected number to be >=" + std::to_string(minimum));
        return std::nullopt;
    }
    return number;
}

std::optional<double> JsonReader::number(std::string_view key, bool required, double minimum,
                                         double maximum) {
    const Json* value = get(key);
    if (value == nullptr || value->is_null()) {
        if (required) {
            issue(key, expected_message("number", value));
        }
        return std::nullopt;
    }
    if (!value->is_number()) {
        issue(key, expected_message("number", value));
        return std::nullopt;
    }
    double number = value->get<double>();
    if (number < minimum) {
        issue(key, "Too small: expected number to be >=" + format_number(minimum));
        return std::nullopt;
    }
    if (number > maximum) {
        issue(key, "Too big: expected number to be <=" + format_number(maximum));
        return std::nullopt;
    }
    return number;
}

const Json* JsonReader::array(std::string_view key, bool required, std::size_t min_items) {
    const Json* value = get(key);
    if (value == nullptr || value->is_null()) {
        if (required) {
            issue(key, expected_message("array", value));
        }
        return nullptr;
    }
    if (!value->is_array()) {
        issue(key, expected_message("array", value));
        return nullptr;
    }
    if (value->size() < min_items) {
        issue(key, "Too small: expected array to have >=" + std::to_string(min_items) + " items");
        return nullptr;
    }
    return value;
}

const Json* JsonReader::object(std::string_view key, bool required) {
    const Json* value = get(key);
    if (value == nullptr || value->is_null()) {
        if (required) {
            issue(key, expected_message("object", value));
        }
        return nullptr;
    }
    if (!value->is_object()) {
        issue(key, expected_message("object", value));
        return nullptr;
    }
    return value;
}

}  // namespace loupe
