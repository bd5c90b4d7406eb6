#pragma once
// The one place a route's RouteAccess is decided: which project or account the request names,
// whether the caller may reach it (401 outside a token's scope, 404 for a missing object in
// scope, as Argos answers) and whether the caller holds the permission the route declared
// (403). Routes that live inside a project take the project's permissions.

#include <string>

#include "loupe/auth/identity.hpp"
#include "loupe/auth/route_access.hpp"
#include "loupe/export.hpp"
#include "loupe/http/request.hpp"
#include "loupe/http/routes.hpp"

namespace loupe {

/// THREADS: check() runs concurrently on the server's threads; the gate is immutable.
class LOUPE_API AccessGate {
public:
    explicit AccessGate(Identity& identity);

    /// What `access` grants the request's caller; throws HttpError 401/404/403 when it grants
    /// nothing. `request.principal()` is already authenticated.
    AccessGrant check(const RouteAccess& access, Request& request) const;

    /// The permissions `principal` holds on `project`: a project token `view` and `upload` on
    /// its own project (nothing on another), a person what their role and level give.
    AccessGrant project_grant(const Principal& principal, const Project& project) const;

private:
    AccessGrant check_project(const RouteAccess& access, Request& request) const;
    AccessGrant check_token_project(const RouteAccess& access, Request& request) const;
    AccessGrant check_account(const RouteAccess& access, Request& request) const;
    AccessGrant check_object(const RouteAccess& access, Request& request) const;

    Identity& identity_;
};

/// Whether `grant` holds `permission`.
LOUPE_API bool holds(const AccessGrant& grant, ProjectPermission permission);

/// Why a route's declaration cannot be enforced (a project guard on a path without
/// {owner}/{project}, a public route without a reason, no declaration at all...); nullopt when
/// it can. Registration refuses such a route.
LOUPE_API std::optional<std::string> route_access_problem(const Route& route);

}  // namespace loupe
