#pragma once
// The build every review and comment endpoint works on. The core already decided the route's
// RouteAccess (the token's scope holds {owner}, else 401; the project exists, else 404; the
// caller holds the permission the route declared, else 403); here the build {buildNumber} of
// that project must exist (else 404 "Not found").

#include <cstdint>
#include <optional>
#include <string>

#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"

namespace loupe::reviews {

struct BuildAccess {
    Project project;
    builds::BuildSummary build;
    int64_t user_id = 0;
    Permissions permissions;
};

/// The build {buildNumber} of the route's guarded project, with the caller's permissions.
BuildAccess open_build(Host& host, builds::BuildsService& builds, Request& request, int64_t number);

/// `{buildNumber}` (digits only, at least 1) with the Argos validation messages; adds an issue
/// and returns nullopt when invalid.
std::optional<int64_t> parse_build_number(const std::string& text, Validation& validation);

/// The validation step of routes whose only input is the path's {buildNumber}.
int64_t parse_build_number_param(Request& request);

/// A decimal id we emitted (`{reviewId}`, a diff id): nullopt for anything else.
std::optional<int64_t> parse_id(const std::string& text);

}  // namespace loupe::reviews
