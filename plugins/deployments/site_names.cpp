#include "site_names.hpp"

#include <algorithm>

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/random.hpp"

namespace loupe::deployments {
namespace {

constexpr std::size_t digest_length = 8;
/// The characters of a random slug part, as Argos draws them.
constexpr std::string_view slug_alphabet = "abcdefghijklmnopqrstuvwxyz123456789";

std::string hex_digest(std::string_view text) {
    return crypto::sha256_hex(text).substr(0, digest_length);
}

std::string trim_dashes(std::string text) {
    while (!text.empty() && text.back() == '-') {
        text.pop_back();
    }
    return text;
}

/// The slug of `text` in at most `room` characters (room > digest_length). An empty slug becomes
/// `<fallback>-<digest>`, a long one is cut and ends with a digest of `text`, so two texts never
/// share a part by truncation.
std::string fitted_part(std::string_view text, std::size_t room, std::string_view fallback) {
    std::string slug = slugify(text);
    if (slug.empty()) {
        slug = std::string(fallback) + "-" + hex_digest(text);
    }
    if (slug.size() > room) {
        slug = trim_dashes(slug.substr(0, room - digest_length - 1)) + "-" + hex_digest(text);
    }
    return slug;
}

/// `<project>-<middle>-<account>` (or `<project>-<account>`) in one DNS label: the account
/// keeps up to 20 characters, the middle part is given, the project takes what is left.
std::string join_label(const std::string& project_name, const std::string& middle,
                       const std::string& account_slug) {
    const std::string account = fitted_part(account_slug, 20, "account");
    const std::size_t used = account.size() + 1 + (middle.empty() ? 0 : middle.size() + 1);
    const std::string project = fitted_part(project_name, max_site_name - used, "site");
    return project + "-" + (middle.empty() ? "" : middle + "-") + account;
}

}  // namespace

std::string slugify(std::string_view text) {
    std::string slug;
    bool dash = false;
    for (char raw : text) {
        const char c = (raw >= 'A' && raw <= 'Z') ? static_cast<char>(raw - 'A' + 'a') : raw;
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            if (dash && !slug.empty()) {
                slug += '-';
            }
            slug += c;
            dash = false;
        } else {
            dash = true;
        }
    }
    return slug;
}

bool is_site_name(std::string_view name) {
    return !name.empty() && name.size() <= max_site_name && slugify(name) == name;
}

std::string new_deployment_slug(const std::string& project_name, const std::string& account_slug) {
    return join_label(project_name, crypto::random_characters(9, slug_alphabet), account_slug);
}

std::string branch_alias(const std::string& project_name, const std::string& branch,
                         const std::string& account_slug) {
    return join_label(project_name, fitted_part(branch, 30, "branch"), account_slug);
}

std::string production_alias(const std::string& project_name, const std::string& account_slug) {
    return join_label(project_name, "", account_slug);
}

}  // namespace loupe::deployments
