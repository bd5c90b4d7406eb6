#pragma once
// States kept as text columns: written with to_text(), read back with these, which refuse a
// value the code does not know (a row written by a newer version) instead of guessing.

#include <optional>
#include <stdexcept>
#include <string>

#include "loupe/builds/build_states.hpp"

namespace loupe::builds {

template <NamedState E>
E stored_state(const std::string& text, const char* column) {
    if (auto state = parse_state<E>(text)) {
        return *state;
    }
    throw std::runtime_error(std::string(column) + " holds an unknown value '" + text + "'");
}

template <NamedState E>
std::optional<E> stored_state(const std::optional<std::string>& text, const char* column) {
    if (!text) {
        return std::nullopt;
    }
    return stored_state<E>(*text, column);
}

/// The column value of an optional state: '' for none (the SQL turns it into NULL).
template <NamedState E>
std::string state_text_or_empty(const std::optional<E>& state) {
    return state ? std::string(to_text(*state)) : std::string();
}

}  // namespace loupe::builds
