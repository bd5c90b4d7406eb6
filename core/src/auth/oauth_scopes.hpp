#pragma once
// Which OAuth scope each route needs from an access token of `argos login` (the scopes the
// official CLI asks for), decided here for every route, plugins' included, from its method and
// pattern, as Argos decides them:
//   profile         GET /me, GET /accounts/{a}, the caller's own notification settings
//   projects:read   every other read of a project and of what it holds (builds, diffs, tests,
//                   changes, reviews and requested reviewers, deployments, automation rules,
//                   analytics), and GET /accounts/{a}/projects
//   projects:write  creating, changing and transferring projects, contributors, automation
//                   rules, deployment links
//   reviews:write   submitting and dismissing reviews, requesting reviewers, ignoring changes
//   comments:read   reading comments
//   comments:write  writing, editing, deleting, reacting to and resolving comments, and
//                   following builds, tests and threads
//   media:read|write  the media library
//   account:admin   changing an account, its members, invites, invite link and email domains,
//                   and reading its administration trail
// A route none of these covers (sending builds and deployments, the page's own session routes)
// refuses OAuth access tokens: it takes a project token or a personal access token.

#include <optional>
#include <string_view>

#include "loupe/auth/principal.hpp"
#include "loupe/export.hpp"
#include "loupe/http/method.hpp"

namespace loupe {

/// The scope a route needs; nullopt when no scope opens it to an OAuth access token.
LOUPE_API std::optional<std::string_view> oauth_scope_for(Method method, std::string_view pattern);

/// 403 "Insufficient scope. This endpoint requires: <scope>." when the principal is an OAuth
/// access token without the route's scope (or the route takes none); nothing otherwise.
LOUPE_API void require_oauth_scope(const Principal& principal, Method method,
                                   std::string_view pattern);

}  // namespace loupe
