#pragma once
// The checks every review and comment endpoint makes first, in order: the personal token's
// scope holds {owner} (else 401), the project and the build {buildNumber} exist (else 404
// "Not found"); then the caller's project permissions decide each endpoint (403).

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

/// Resolves {owner}/{project}/builds/{buildNumber} for the caller.
BuildAccess open_build(Host& host, builds::BuildsService& builds, Request& request, int64_t number);

/// `{buildNumber}` (digits only, at least 1) with the Argos validation messages; adds an issue
/// and returns nullopt when invalid.
std::optional<int64_t> parse_build_number(const std::string& text, Validation& validation);

/// The validation step of routes whose only input is the path's {buildNumber}.
int64_t parse_build_number_param(Request& request);

/// A decimal id we emitted (`{reviewId}`, a diff id): nullopt for anything else.
std::optional<int64_t> parse_id(const std::string& text);

}  // namespace loupe::reviews
