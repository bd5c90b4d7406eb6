#pragma once
// Site names: a deployment's slug and its aliases. They are single DNS labels (lower-case
// letters, digits and inner dashes, at most 63 characters), so the same name works as a path
// segment (/d/{name}/) and as a subdomain ({name}.deploy.example.com). Every slug and alias
// holds a dash; a private link's key (site/link_keys.hpp) holds none.

#include <string>
#include <string_view>

namespace loupe::deployments {

inline constexpr std::size_t max_site_name = 63;

/// Lower-case ASCII letters and digits kept, every other run of characters one dash, no dash
/// at either end. May be empty.
std::string slugify(std::string_view text);
/// True for a possible site name: 1 to 63 lower-case letters, digits and dashes, no dash at
/// either end (a slug, an alias, or a private link's key).
bool is_site_name(std::string_view name);

/// `<project>-<9 random [a-z1-9]>-<account>`, shortened to fit a DNS label (never holds "--").
std::string new_deployment_slug(const std::string& project_name, const std::string& account_slug);

// Aliases join their parts with "--", which no part holds (a part is a slug: single dashes,
// none at either end), so an alias names exactly one (project, branch, account): project `web`
// deploying branch `app` gets `web--app--acme`, never `web-app--acme`, the production alias of
// project `web-app`. A part is its name itself when that already is a short slug; any other
// name (upper case, dots, underscores, "--", over its length) becomes its slug cut to fit,
// then a dash and a digest of the full name, so two names never share a part by slugifying or
// truncation. Slugs never hold "--", so no alias is ever a deployment's slug.

/// The branch alias `<project>--<branch>--<account>`. The branch part is the branch's slug (so
/// `feature/login` and `feature-login` of one project share their alias), cut to 30 characters
/// and ended with a digest when longer, or replaced by a digest when it has no letter or digit.
std::string branch_alias(const std::string& project_name, const std::string& branch,
                         const std::string& account_slug);
/// The production alias `<project>--<account>`.
std::string production_alias(const std::string& project_name, const std::string& account_slug);

/// The names of the encoding before "--" (`<project>-<branch>-<account>`, `<project>-<account>`),
/// ambiguous across projects. Aliases created with them keep working and keep following their
/// own project's branch or production; no new one is created.
std::string legacy_branch_alias(const std::string& project_name, const std::string& branch,
                                const std::string& account_slug);
std::string legacy_production_alias(const std::string& project_name,
                                    const std::string& account_slug);

}  // namespace loupe::deployments
