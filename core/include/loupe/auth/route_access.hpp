#pragma once
// Which object's permission guards a route. Every route declares it when it is registered
// (Routes::add refuses a route without one, and a test walks the route table with a caller who
// may see nothing); the core decides it in one place, after the route's validation step and
// before its handler, and lends the handler what it established (Request::access()).
//
// Objects that live inside a project (builds, diffs, reviews, comments, deployments, tests)
// take the permissions of their project: their routes are guarded by the project, and the
// plugin that owns the object adds only what is particular to it (a comment's author may edit
// it; a build named by id must belong to the token's project).

#include <functional>
#include <optional>
#include <string>

#include "loupe/auth/identity.hpp"
#include "loupe/export.hpp"

namespace loupe {

/// Argos's project permissions, plus `upload`: what a project token may do (send builds and
/// deployments). A project token holds `view` and `upload` on its own project and nothing else;
/// a person holds what Identity::permissions derives from their role and project level.
/// `contribute`: add content to the project (media): a project token of the project, or a person
/// who may review it.
enum class ProjectPermission {
    view,
    view_settings,
    review,
    review_dismiss,
    admin,
    upload,
    contribute
};

class Request;

/// For object guards: the project of the object the request names (its id in the path, or the
/// project the body names for a new one), found after authentication; nullopt when there is no
/// such object. It may throw an HttpError of its own (a malformed id, a missing field).
using ObjectProjectFinder = std::function<std::optional<Project>(Request& request)>;

/// A personal access token scoped to the account is a `member`; `admin` is staff, the owner of
/// a personal account or a team owner (Identity::can_administer).
enum class AccountPermission { member, admin };

struct RouteAccess {
    enum class Guard {
        undeclared,     ///< refused at registration
        public_route,   ///< anyone may call it; `note` says why (signed URL, health, page shell)
        signed_in,      ///< any authenticated person, acting on their own session or identity
        project,        ///< the path's {owner}/{project}
        token_project,  ///< the project of the calling project token
        account,        ///< the path's {accountSlug}, or the JSON body field `account_field`
        object,         ///< an object named by id (`find_project` says its project): media, ...
    };
    Guard guard = Guard::undeclared;
    ProjectPermission project_permission = ProjectPermission::view;
    AccountPermission account_permission = AccountPermission::member;
    /// For account guards: the body field naming the account (empty: the path's {accountSlug}).
    std::string account_field;
    /// Public routes: why they need no permission. Others: the 403 message (empty: a default
    /// naming the permission). Object guards: the 404 message of an object the caller may not
    /// see or that does not exist (which the caller cannot tell apart).
    std::string note;
    ObjectProjectFinder find_project;

    static RouteAccess public_route(std::string why) {
        return RouteAccess{Guard::public_route, {}, {}, {}, std::move(why), {}};
    }
    static RouteAccess signed_in() { return RouteAccess{Guard::signed_in, {}, {}, {}, {}, {}}; }
    static RouteAccess project(ProjectPermission permission, std::string refusal = {}) {
        return RouteAccess{Guard::project, permission, {}, {}, std::move(refusal), {}};
    }
    static RouteAccess token_project(ProjectPermission permission = ProjectPermission::upload) {
        return RouteAccess{Guard::token_project, permission, {}, {}, {}, {}};
    }
    static RouteAccess account(AccountPermission permission, std::string refusal = {},
                               std::string body_field = {}) {
        return RouteAccess{Guard::account,     {}, permission, std::move(body_field),
                           std::move(refusal), {}};
    }
    /// An object named by id: `find_project` gives its project; a caller who may not view that
    /// project gets the 404 `not_found` (as for no object), one who may view it but lacks
    /// `permission` a 403.
    static RouteAccess object(ProjectPermission permission, ObjectProjectFinder find_project,
                              std::string not_found) {
        return RouteAccess{Guard::object,          permission, {}, {}, std::move(not_found),
                           std::move(find_project)};
    }
};

/// What the guard established: the project or account of the route and the caller's
/// permissions on that project. OWNERSHIP: lent with the Request.
struct AccessGrant {
    std::optional<Project> project;
    std::optional<Account> account;
    Permissions permissions;
    bool upload = false;  ///< a project token on its own project

    /// The guarded project; throws std::logic_error when the route's guard names none.
    LOUPE_API const Project& require_project() const;
    /// The guarded account; throws std::logic_error when the route's guard names none.
    LOUPE_API const Account& require_account() const;
};

/// "project:view", "account:admin", "public", ... (the OpenAPI document's x-loupe-access).
LOUPE_API std::string access_name(const RouteAccess& access);

}  // namespace loupe
