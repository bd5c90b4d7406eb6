// A project's contributors, as `argos project contributor list|set|remove` uses them:
// GET /projects/{owner}/{project}/contributors (anyone who sees the project),
// PUT .../contributors/{userId} (project administrators) and DELETE .../contributors/{userId}
// (project administrators, or the contributor leaving the project themselves).
#include "loupe/http/json_reader.hpp"
#include "loupe/http/pagination.hpp"
#include "routes/account_resources.hpp"
#include "routes/routes.hpp"

namespace loupe::auth {
namespace {

constexpr const char* not_project_admin = "You are not an administrator of this project.";

/// {id, user: {id, slug, name}, level}; `id` is the grant's, `user.id` the personal account's.
Json contributor_json(const ProjectContributor& contributor) {
    return Json{{"id", std::to_string(contributor.id)},
                {"user",
                 {{"id", std::to_string(contributor.user_account_id)},
                  {"slug", contributor.slug},
                  {"name", contributor.name.empty() ? Json(nullptr) : Json(contributor.name)}}},
                {"level", contributor.level}};
}

struct ContributorLevelInput {
    int64_t user_account_id = 0;
    std::string level;
};

ContributorLevelInput read_contributor_level(Request& request) {
    ContributorLevelInput input;
    input.user_account_id = member_account_id_of(request);
    Validation validation;
    JsonReader body(object_body(request), validation);
    const auto level = body.one_of("level", true, {"admin", "reviewer", "viewer"});
    validation.throw_if_any();
    input.level = *level;
    return input;
}

Pagination read_contributor_page(Request& request) {
    Validation validation;
    const Pagination pagination = parse_pagination(request, validation);
    validation.throw_if_any();
    return pagination;
}

}  // namespace

void add_project_contributors(Host& host, ContributorStore& contributors) {
    const std::string path = "/projects/{owner}/{project}/contributors";
    host.routes().add_validated(
        Method::get, path, AuthRequirement::project_or_personal_token,
        RouteAccess::project(ProjectPermission::view), read_contributor_page,
        [&contributors](Request& request, const Pagination& pagination) {
            const ContributorPage page =
                contributors.list(request.access().require_project(), request.principal().user_id,
                                  pagination.offset(), pagination.limit());
            Json results = Json::array();
            for (const auto& contributor : page.contributors) {
                results.push_back(contributor_json(contributor));
            }
            return Response::json(page_envelope(pagination, page.total, std::move(results)));
        });
    host.routes().add_validated(
        Method::put, path + "/{userId}", AuthRequirement::project_or_personal_token,
        RouteAccess::project(ProjectPermission::admin, not_project_admin), read_contributor_level,
        [&contributors](Request& request, const ContributorLevelInput& input) {
            return Response::json(contributor_json(
                contributors.set(request.access().require_project(), input.user_account_id,
                                 input.level, request.principal().user_id)));
        });
    // Seeing the project is enough to leave it; removing someone else takes its admin
    // permission, as the guard computed it.
    host.routes().add_validated(
        Method::del, path + "/{userId}", AuthRequirement::project_or_personal_token,
        RouteAccess::project(ProjectPermission::view), member_account_id_of,
        [&contributors](Request& request, int64_t user_account_id) {
            const Project& project = request.access().require_project();
            const bool self =
                request.principal().user_id != 0 &&
                contributors.user_of_account(user_account_id) == request.principal().user_id;
            if (!self && !request.access().permissions.admin) {
                throw HttpError::forbidden(not_project_admin);
            }
            contributors.remove(project, user_account_id, request.principal().user_id);
            return Response::no_content();
        });
}

}  // namespace loupe::auth
