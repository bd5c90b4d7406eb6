#include "site_names.hpp"

#include <algorithm>

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/random.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::deployments {
namespace {

constexpr std::size_t digest_length = 8;
/// The characters of a random slug part, as Argos draws them.
constexpr std::string_view slug_alphabet = "abcdefghijklmnopqrstuvwxyz123456789";

std::string hex_digest(std::string_view text) {
    return crypto::sha256_hex(text).substr(0, digest_length);
}

std::string trim_dashes(std::string_view text) {
    return std::string(trim_end(text, "-"));
}

/// The slug of `text` in at most `room` characters (room > digest_length). An empty slug becomes
/// `<fallback>-<digest>`, a long one is cut and ends with a digest of `text`, so two texts never
/// share a part by truncation. (The encoding of legacy names: slugs that differ only in case or
/// punctuation share a part.)
std::string legacy_part(std::string_view text, std::size_t room, std::string_view fallback) {
    std::string slug = slugify(text);
    if (slug.empty()) {
        slug = std::string(fallback) + "-" + hex_digest(text);
    }
    if (slug.size() > room) {
        slug = trim_dashes(slug.substr(0, room - digest_length - 1)) + "-" + hex_digest(text);
    }
    return slug;
}

/// Legacy `<project>-<middle>-<account>` (or `<project>-<account>`) in one DNS label.
std::string legacy_label(const std::string& project_name, const std::string& middle,
                         const std::string& account_slug) {
    const std::string account = legacy_part(account_slug, 20, "account");
    const std::size_t used = account.size() + 1 + (middle.empty() ? 0 : middle.size() + 1);
    const std::string project = legacy_part(project_name, max_site_name - used, "site");
    return project + "-" + (middle.empty() ? "" : middle + "-") + account;
}

/// One part of an alias, injective in `text`: the text itself when it is a slug that fits in
/// `room` (and is not two characters long: "ab--..." would be a reserved "xn--"-like label),
/// else its slug cut to fit (or `fallback` when it has no letter or digit), a dash and a digest
/// of the full text. room >= fallback + 1 + digest_length.
std::string alias_part(std::string_view text, std::size_t room, std::string_view fallback) {
    std::string slug = slugify(text);
    if (slug == text && !slug.empty() && slug.size() <= room && slug.size() != 2) {
        return slug;
    }
    slug = trim_dashes(slug.substr(0, std::min(slug.size(), room - digest_length - 1)));
    if (slug.empty()) {
        slug = fallback;
    }
    return slug + "-" + hex_digest(text);
}

/// Room of an alias's account and branch parts; the project part takes what is left of the
/// label (at least 63 - 20 - 24 - 4 = 15 characters).
constexpr std::size_t account_room = 20;
constexpr std::size_t branch_room = 24;

/// `<project>--<middle>--<account>` (or `<project>--<account>`) in one DNS label.
std::string alias_label(const std::string& project_name, const std::string& middle,
                        const std::string& account_slug) {
    const std::string account = alias_part(account_slug, account_room, "account");
    const std::size_t used = account.size() + 2 + (middle.empty() ? 0 : middle.size() + 2);
    const std::string project = alias_part(project_name, max_site_name - used, "site");
    return project + "--" + (middle.empty() ? "" : middle + "--") + account;
}

/// The branch part: the branch's slug (branches that slugify alike share it), a digest of the
/// branch when the slug is empty or cut.
std::string branch_part(const std::string& branch) {
    std::string slug = slugify(branch);
    if (!slug.empty() && slug.size() <= branch_room) {
        return slug;
    }
    slug = trim_dashes(slug.substr(0, std::min(slug.size(), branch_room - digest_length - 1)));
    return (slug.empty() ? std::string("branch") : slug) + "-" + hex_digest(branch);
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
    const bool allowed = std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
    return allowed && !name.empty() && name.size() <= max_site_name && name.front() != '-' &&
           name.back() != '-';
}

std::string new_deployment_slug(const std::string& project_name, const std::string& account_slug) {
    return legacy_label(project_name, crypto::random_characters(9, slug_alphabet), account_slug);
}

std::string branch_alias(const std::string& project_name, const std::string& branch,
                         const std::string& account_slug) {
    return alias_label(project_name, branch_part(branch), account_slug);
}

std::string production_alias(const std::string& project_name, const std::string& account_slug) {
    return alias_label(project_name, "", account_slug);
}

std::string legacy_branch_alias(const std::string& project_name, const std::string& branch,
                                const std::string& account_slug) {
    return legacy_label(project_name, legacy_part(branch, 30, "branch"), account_slug);
}

std::string legacy_production_alias(const std::string& project_name,
                                    const std::string& account_slug) {
    return legacy_label(project_name, "", account_slug);
}

}  // namespace loupe::deployments
