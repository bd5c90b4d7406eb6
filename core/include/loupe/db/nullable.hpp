#pragma once
// Binding an optional value as a statement parameter: its value, or SQL NULL.
//   Nullable<std::string> branch(row.branch);
//   session << "... :branch ...", soci::use(branch.value, branch.indicator);
// The Nullable must outlive the statement's execution (SOCI binds by reference).

#include <soci/soci.h>

#include <optional>

namespace loupe {

template <class Value>
struct Nullable {
    explicit Nullable(const std::optional<Value>& optional)
        : value(optional.value_or(Value{})), indicator(optional ? soci::i_ok : soci::i_null) {}
    Value value;
    soci::indicator indicator;
};

}  // namespace loupe
