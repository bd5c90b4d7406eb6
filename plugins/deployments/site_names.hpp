#pragma once
// Site names: a deployment's slug and its aliases. They are single DNS labels (lower-case
// letters, digits and inner dashes, at most 63 characters), so the same name works as a path
// segment (/d/{name}/) and as a subdomain ({name}.deploy.example.com).

#include <string>
#include <string_view>

namespace loupe::deployments {

inline constexpr std::size_t max_site_name = 63;

/// Lower-case ASCII letters and digits kept, every other run of characters one dash, no dash
/// at either end. May be empty.
std::string slugify(std::string_view text);
/// True for a possible site name (what slugify produces, non-empty, at most 63 characters).
bool is_site_name(std::string_view name);

/// `<project>-<9 random [a-z1-9]>-<account>`, shortened to fit a DNS label.
std::string new_deployment_slug(const std::string& project_name, const std::string& account_slug);
/// The branch alias `<project>-<branch>-<account>`. A branch part with no letter or digit, or
/// longer than 30 characters, is replaced or cut and ends with a digest of the full branch name,
/// so two branches never share an alias by truncation.
std::string branch_alias(const std::string& project_name, const std::string& branch,
                         const std::string& account_slug);
/// The production alias `<project>-<account>` (a branch alias always has a middle part).
std::string production_alias(const std::string& project_name, const std::string& account_slug);

}  // namespace loupe::deployments
