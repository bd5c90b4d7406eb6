#include "settings/provider_keys.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "loupe/text/strings.hpp"

namespace loupe::sso {
namespace {

bool is_provider_id(std::string_view id) {
    return !id.empty() && id.size() <= 40 && std::ranges::all_of(id, [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
}

void add_role(RoleMapping& roles, const std::string& key, const std::string& group,
              const std::string& value) {
    if (group.empty()) {
        refuse_key(key, "a group name is empty");
    }
    try {
        roles[group] = parse_mapped_role(value);
    } catch (const std::invalid_argument& error) {
        refuse_key(key, error.what());
    }
}

}  // namespace

void refuse_key(const std::string& key, const std::string& why) {
    throw std::runtime_error("configuration key '" + key + "': " + why);
}

std::vector<std::string> words_of(std::string text) {
    std::ranges::replace(text, ',', ' ');
    std::vector<std::string> words;
    for (const auto word : split_trimmed(text, ' ')) {
        words.emplace_back(word);
    }
    return words;
}

std::vector<std::string> configured_provider_ids(const ConfigView& config,
                                                 const std::string& prefix,
                                                 const std::string& marker) {
    std::vector<std::string> ids;
    const auto add = [&ids](std::string id) {
        if (std::ranges::find(ids, id) == ids.end()) {
            ids.push_back(std::move(id));
        }
    };
    for (const auto& id : words_of(config.get_string(prefix + "providers", ""))) {
        if (!is_provider_id(id)) {
            refuse_key(prefix + "providers",
                       "\"" + id + "\" is not a provider id ([a-z0-9_-], at most 40)");
        }
        add(id);
    }
    for (const auto& key : config.keys_with_prefix(prefix)) {
        const std::string rest = key.substr(prefix.size());
        const auto dot = rest.find('.');
        if (dot != std::string::npos && rest.substr(dot + 1) == marker &&
            is_provider_id(rest.substr(0, dot))) {
            add(rest.substr(0, dot));
        }
    }
    return ids;
}

std::string read_key_file(const std::string& key, const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        refuse_key(key, "cannot read the file " + path);
    }
    std::ostringstream content;
    content << file.rdbuf();
    std::string text(trim(content.str()));
    if (text.empty()) {
        refuse_key(key, "the file " + path + " is empty");
    }
    return text;
}

RoleMapping read_role_mapping(const ConfigView& config, const std::string& base) {
    RoleMapping roles;
    const std::string role_list = config.get_string(base + "roles", "");
    for (const auto entry : split_trimmed(role_list, ',')) {
        const auto equals = entry.find('=');
        if (equals == std::string_view::npos) {
            refuse_key(base + "roles",
                       "expected <group>=<account>:<role>, got \"" + std::string(entry) + "\"");
        }
        add_role(roles, base + "roles", std::string(trim(entry.substr(0, equals))),
                 std::string(entry.substr(equals + 1)));
    }
    for (const auto& key : config.keys_with_prefix(base + "roles.")) {
        add_role(roles, key, key.substr(base.size() + 6), *config.find(key));
    }
    return roles;
}

}  // namespace loupe::sso
