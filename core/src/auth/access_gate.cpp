#include "auth/access_gate.hpp"

#include <stdexcept>

#include "loupe/http/http_error.hpp"

namespace loupe {
namespace {

std::string default_refusal(ProjectPermission permission) {
    switch (permission) {
        case ProjectPermission::view:
            return "You do not have permission to view this project";
        case ProjectPermission::view_settings:
            return "You do not have permission to view the settings of this project";
        case ProjectPermission::review:
            return "You do not have permission to review this project";
        case ProjectPermission::review_dismiss:
            return "You do not have permission to dismiss reviews in this project";
        case ProjectPermission::admin:
            return "You do not have permission to administer this project";
        case ProjectPermission::upload:
            return "Only a token of this project may send builds and deployments to it";
        case ProjectPermission::contribute:
            return "You do not have permission to add to this project";
    }
    return "Forbidden";
}

bool has_capture(const std::string& pattern, std::string_view name) {
    return pattern.find("{" + std::string(name) + "}") != std::string::npos;
}

}  // namespace

const Project& AccessGrant::require_project() const {
    if (!project) {
        throw std::logic_error("the route's access guard names no project");
    }
    return *project;
}

const Account& AccessGrant::require_account() const {
    if (!account) {
        throw std::logic_error("the route's access guard names no account");
    }
    return *account;
}

std::string access_name(const RouteAccess& access) {
    static const char* const project_permissions[] = {
        "view", "view_settings", "review", "review_dismiss", "admin", "upload", "contribute"};
    const auto project_permission =
        project_permissions[static_cast<int>(access.project_permission)];
    switch (access.guard) {
        case RouteAccess::Guard::undeclared:
            return "undeclared";
        case RouteAccess::Guard::public_route:
            return "public";
        case RouteAccess::Guard::signed_in:
            return "signed-in";
        case RouteAccess::Guard::project:
            return std::string("project:") + project_permission;
        case RouteAccess::Guard::token_project:
            return std::string("token-project:") + project_permission;
        case RouteAccess::Guard::account:
            return access.account_permission == AccountPermission::admin ? "account:admin"
                                                                         : "account:member";
        case RouteAccess::Guard::object:
            return std::string("object:") + project_permission;
    }
    return "undeclared";
}

bool holds(const AccessGrant& grant, ProjectPermission permission) {
    const Permissions& p = grant.permissions;
    switch (permission) {
        case ProjectPermission::view:
            return p.view;
        case ProjectPermission::view_settings:
            return p.view_settings;
        case ProjectPermission::review:
            return p.review;
        case ProjectPermission::review_dismiss:
            return p.review_dismiss;
        case ProjectPermission::admin:
            return p.admin;
        case ProjectPermission::upload:
            return grant.upload;
        case ProjectPermission::contribute:
            return grant.upload || p.review;
    }
    return false;
}

std::optional<std::string> route_access_problem(const Route& route) {
    const RouteAccess& access = route.access;
    const bool token_required = route.auth != AuthRequirement::none;
    const bool personal = route.auth == AuthRequirement::personal_token ||
                          route.auth == AuthRequirement::personal_token_for_account;
    switch (access.guard) {
        case RouteAccess::Guard::undeclared:
            return "declares no RouteAccess: name the object whose permission guards it "
                   "(RouteAccess::project(ProjectPermission::view), ...) or say why it is public "
                   "(RouteAccess::public_route(\"...\"))";
        case RouteAccess::Guard::public_route:
            if (access.note.empty()) {
                return "is public without a reason: RouteAccess::public_route(\"why\")";
            }
            return std::nullopt;
        case RouteAccess::Guard::signed_in:
            if (!token_required) {
                return "is guarded by the signed-in caller but requires no token";
            }
            return std::nullopt;
        case RouteAccess::Guard::project:
            if (!has_capture(route.pattern, "owner") || !has_capture(route.pattern, "project")) {
                return "is guarded by a project but its path has no {owner} and {project}";
            }
            if (!token_required) {
                return "is guarded by a project but requires no token";
            }
            return std::nullopt;
        case RouteAccess::Guard::token_project:
            if (route.auth != AuthRequirement::project_token) {
                return "is guarded by the token's project but does not require a project token";
            }
            return std::nullopt;
        case RouteAccess::Guard::account:
            if (access.account_field.empty() && !has_capture(route.pattern, "accountSlug")) {
                return "is guarded by an account but its path has no {accountSlug} and it names "
                       "no body field";
            }
            // An account route may let project tokens reach its guard, which refuses them with
            // a 403 (the token is genuine but can never act on an account).
            if (!personal && route.auth != AuthRequirement::project_or_personal_token) {
                return "is guarded by an account but does not require a personal access token";
            }
            return std::nullopt;
        case RouteAccess::Guard::object:
            if (!access.find_project) {
                return "is guarded by an object but says not how to find its project";
            }
            if (!token_required) {
                return "is guarded by an object but requires no token";
            }
            return std::nullopt;
    }
    return "declares an unknown RouteAccess";
}

AccessGate::AccessGate(Identity& identity) : identity_(identity) {}

AccessGrant AccessGate::project_grant(const Principal& principal, const Project& project) const {
    AccessGrant grant;
    grant.project = project;
    if (principal.is_project()) {
        grant.permissions.view = principal.project_id == project.id;
        grant.upload = principal.project_id == project.id;
    } else if (principal.is_user()) {
        grant.permissions = identity_.permissions(principal.user_id, project);
    }
    return grant;
}

AccessGrant AccessGate::check(const RouteAccess& access, Request& request) const {
    switch (access.guard) {
        case RouteAccess::Guard::public_route:
            return {};
        case RouteAccess::Guard::signed_in:
            if (!request.principal().is_user()) {
                throw HttpError::unauthorized();
            }
            return {};
        case RouteAccess::Guard::project:
            return check_project(access, request);
        case RouteAccess::Guard::token_project:
            return check_token_project(access, request);
        case RouteAccess::Guard::account:
            return check_account(access, request);
        case RouteAccess::Guard::object:
            return check_object(access, request);
        case RouteAccess::Guard::undeclared:
            break;
    }
    throw std::logic_error("route " + request.path() + " has no access guard");
}

AccessGrant AccessGate::check_project(const RouteAccess& access, Request& request) const {
    const Principal& principal = request.principal();
    const Project project =
        identity_.authorize_project(principal, request.param("owner"), request.param("project"));
    AccessGrant grant = project_grant(principal, project);
    if (!holds(grant, access.project_permission)) {
        throw HttpError::forbidden(access.note.empty() ? default_refusal(access.project_permission)
                                                       : access.note);
    }
    return grant;
}

AccessGrant AccessGate::check_token_project(const RouteAccess& access, Request& request) const {
    const Principal& principal = request.principal();
    if (!principal.is_project()) {
        throw HttpError::unauthorized();
    }
    const std::optional<Project> project = identity_.find_project(principal.project_id);
    if (!project) {
        throw HttpError::unauthorized();
    }
    AccessGrant grant = project_grant(principal, *project);
    if (!holds(grant, access.project_permission)) {
        throw HttpError::forbidden(access.note.empty() ? default_refusal(access.project_permission)
                                                       : access.note);
    }
    return grant;
}

AccessGrant AccessGate::check_object(const RouteAccess& access, Request& request) const {
    const Principal& principal = request.principal();
    if (!principal.is_project() && !principal.is_user()) {
        throw HttpError::unauthorized();
    }
    const std::optional<Project> project = access.find_project(request);
    if (!project) {
        throw HttpError::not_found(access.note);
    }
    AccessGrant grant = project_grant(principal, *project);
    // Whoever may not see the project learns nothing of its objects, not even that they exist.
    if (!grant.permissions.view && !grant.upload) {
        throw HttpError::not_found(access.note);
    }
    if (!holds(grant, access.project_permission)) {
        throw HttpError::forbidden(default_refusal(access.project_permission));
    }
    return grant;
}

AccessGrant AccessGate::check_account(const RouteAccess& access, Request& request) const {
    const Principal& principal = request.principal();
    std::string slug;
    if (access.account_field.empty()) {
        slug = request.param("accountSlug");
    } else {
        const Json& body = request.json();
        const auto field = body.is_object() ? body.find(access.account_field) : body.end();
        if (!body.is_object() || field == body.end() || !field->is_string()) {
            // The route's validation step words this; a body that got past it still names no
            // account, so nothing is granted.
            throw HttpError::invalid({access.account_field + " is required"});
        }
        slug = field->get<std::string>();
    }
    if (principal.is_project()) {
        throw HttpError::forbidden(
            "A project token cannot act on an account: use a personal access token");
    }
    // An account named in the path that does not exist is a 404 before the scope check (which
    // would say 401 of any account outside the token's scope).
    if (access.account_field.empty() && !identity_.find_account(slug)) {
        throw HttpError::not_found("Account not found.");
    }
    AccessGrant grant;
    grant.account = identity_.authorize_account(principal, slug);
    if (access.account_permission == AccountPermission::admin &&
        !identity_.can_administer(principal.user_id, *grant.account)) {
        throw HttpError::forbidden(access.note.empty()
                                       ? "You do not have permission to administer this account"
                                       : access.note);
    }
    return grant;
}

}  // namespace loupe
