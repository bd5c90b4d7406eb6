#include "routes/rule_json.hpp"

#include <charconv>

namespace loupe::automation {

Json rule_json(const StoredRule& rule) {
    return Json{{"id", std::to_string(rule.id)},
                {"name", rule.name},
                {"active", rule.active},
                {"events", rule.events},
                {"conditions", rule.conditions},
                {"actions", rule.actions},
                {"createdAt", iso_time(rule.created_at)},
                {"updatedAt", iso_time(rule.updated_at)}};
}

std::optional<int64_t> parse_rule_id(const std::string& text) {
    if (text.empty() || text.size() > 18 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
        return std::nullopt;
    }
    int64_t id = 0;
    std::from_chars(text.data(), text.data() + text.size(), id);
    return id > 0 ? std::optional<int64_t>(id) : std::nullopt;
}

}  // namespace loupe::automation
