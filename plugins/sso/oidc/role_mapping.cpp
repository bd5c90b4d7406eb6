#include "oidc/role_mapping.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace loupe::sso {
namespace {

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) {
        return {};
    }
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

/// Owner is the strongest role, contributor the weakest.
int strength_of(Role role) {
    switch (role) {
        case Role::owner:
            return 3;
        case Role::member:
            return 2;
        case Role::contributor:
            return 1;
    }
    return 0;
}

}  // namespace

MappedRole parse_mapped_role(std::string_view value) {
    const std::string_view text = trimmed(value);
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0) {
        throw std::invalid_argument("expected <account>:owner|member|contributor, got \"" +
                                    std::string(value) + "\"");
    }
    const std::string_view role = trimmed(text.substr(colon + 1));
    const auto parsed = parse_role(role);
    if (!parsed) {
        throw std::invalid_argument("unknown role \"" + std::string(role) +
                                    "\" (owner, member or contributor)");
    }
    return MappedRole{std::string(trimmed(text.substr(0, colon))), *parsed};
}

std::vector<std::string> parse_email_domains(std::string_view list) {
    std::vector<std::string> domains;
    while (!list.empty()) {
        const auto comma = list.find(',');
        std::string domain(trimmed(list.substr(0, comma)));
        std::ranges::transform(domain, domain.begin(), [](char c) {
            return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        });
        if (!domain.empty()) {
            domains.push_back(std::move(domain));
        }
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    }
    return domains;
}

std::vector<std::string> managed_accounts(const RoleMapping& mapping) {
    std::set<std::string> accounts;
    for (const auto& [group, mapped] : mapping) {
        accounts.insert(mapped.account_slug);
    }
    return {accounts.begin(), accounts.end()};
}

std::map<std::string, Role> roles_for(const std::vector<std::string>& groups,
                                      const RoleMapping& mapping) {
    std::map<std::string, Role> roles;
    for (const auto& group : groups) {
        const auto found = mapping.find(group);
        if (found == mapping.end()) {
            continue;
        }
        const auto& [account, role] = found->second;
        const auto held = roles.find(account);
        if (held == roles.end() || strength_of(role) > strength_of(held->second)) {
            roles[account] = role;
        }
    }
    return roles;
}

}  // namespace loupe::sso
