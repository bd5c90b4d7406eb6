#include "auth/oauth_scopes.hpp"

#include <algorithm>
#include <string>

#include "loupe/http/http_error.hpp"

namespace loupe {
namespace {

bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

/// The scope of a route on a project (or on what the page shows of one).
std::string_view project_route_scope(bool read, std::string_view pattern) {
    if (contains(pattern, "/comments") || pattern.ends_with("/subscription")) {
        return read ? "comments:read" : "comments:write";
    }
    if (read) {
        return "projects:read";
    }
    if (contains(pattern, "/reviews") || contains(pattern, "/reviewers") ||
        contains(pattern, "/changes/")) {
        return "reviews:write";
    }
    return "projects:write";
}

}  // namespace

std::optional<std::string_view> oauth_scope_for(Method method, std::string_view pattern) {
    const bool read = method == Method::get || method == Method::head;
    if (pattern.starts_with("/media") || contains(pattern, "/media/") ||
        pattern.ends_with("/media")) {
        return read ? "media:read" : "media:write";
    }
    if (pattern == "/me") {
        return read ? std::optional<std::string_view>("profile") : std::nullopt;
    }
    if (pattern == "/_loupe/notifications/settings") {
        return "profile";  // the caller's own
    }
    if (pattern == "/_loupe/reviews/waiting") {
        return "projects:read";  // builds of the projects the caller may review
    }
    constexpr std::string_view account = "/accounts/{accountSlug}";
    constexpr std::string_view loupe_prefix = "/_loupe";
    const std::string_view account_pattern =
        pattern.starts_with("/_loupe/accounts/") ? pattern.substr(loupe_prefix.size()) : pattern;
    if (account_pattern.starts_with(account)) {
        const std::string_view rest = account_pattern.substr(account.size());
        if (rest.empty() || rest == "/permissions") {
            return read ? "profile" : "account:admin";
        }
        if (rest.starts_with("/projects") || rest.starts_with("/analytics")) {
            return read ? std::optional<std::string_view>("projects:read") : std::nullopt;
        }
        if (rest.starts_with("/members") || rest.starts_with("/invites") ||
            rest.starts_with("/domains") || rest.starts_with("/invite-link") ||
            rest.starts_with("/audit")) {
            return "account:admin";
        }
        return std::nullopt;
    }
    if (pattern == "/projects") {
        return read ? "projects:read" : "projects:write";
    }
    if (pattern.starts_with("/projects/{owner}/{project}") ||
        pattern.starts_with("/_loupe/projects/{owner}/{project}") ||
        pattern.starts_with("/_loupe/live/") || pattern.starts_with("/_loupe/thumbnails/")) {
        return project_route_scope(read, pattern);
    }
    return std::nullopt;
}

void require_oauth_scope(const Principal& principal, Method method, std::string_view pattern) {
    if (!principal.oauth_scopes) {
        return;
    }
    const auto scope = oauth_scope_for(method, pattern);
    if (!scope) {
        throw HttpError::forbidden(
            "This endpoint does not accept OAuth access tokens: use a personal access token or "
            "a project token.");
    }
    const auto& held = *principal.oauth_scopes;
    if (std::find(held.begin(), held.end(), *scope) == held.end()) {
        throw HttpError::forbidden(
            "Insufficient scope. This endpoint requires: " + std::string(*scope) + ".");
    }
}

}  // namespace loupe
