// GET, POST and DELETE …/builds/{buildNumber}/reviewers: the users asked to review a build
// (`argos review reviewer list|add|remove`). Adding keeps the requests already standing; users
// who cannot see the project, ids naming no user and the caller themselves are left out, as
// Argos does. Removing a user who was not requested changes nothing. Each answer is the build's
// requested reviewers after the change. The users newly asked are announced (review.requested,
// which mails them), and the asker follows the build (unless they chose not to), so they hear
// of the reviews.
#include <soci/soci.h>

#include "build_access.hpp"
#include "loupe/http/json_reader.hpp"
#include "routes/routes.hpp"
#include "store/requested_reviewers.hpp"
#include "store/subscriptions.hpp"

namespace loupe::reviews {
namespace {

/// The most users one request may name.
constexpr std::size_t max_reviewer_ids = 100;

struct ReviewersInput {
    int64_t build_number = 0;
    std::vector<int64_t> account_ids;
};

/// `{userIds: string[1..100]}`, each a user's id (their personal account's id).
ReviewersInput read_reviewers_input(Request& request) {
    ReviewersInput input;
    Validation validation;
    if (auto number = parse_build_number(request.param("buildNumber"), validation)) {
        input.build_number = *number;
    }
    JsonReader body(object_body(request), validation);
    if (const Json* ids = body.array("userIds", true, 1)) {
        if (ids->size() > max_reviewer_ids) {
            body.issue("userIds", "Too big: expected array to have <=100 items");
        }
        for (std::size_t i = 0; i < ids->size() && i < max_reviewer_ids; ++i) {
            const Json& id = (*ids)[i];
            const auto parsed = id.is_string() ? parse_id(id.get<std::string>()) : std::nullopt;
            if (!parsed) {
                body.issue("userIds." + std::to_string(i), id.is_string()
                                                               ? "Invalid user account ID."
                                                               : expected_message("string", &id));
                continue;
            }
            input.account_ids.push_back(*parsed);
        }
    }
    validation.throw_if_any();
    return input;
}

Json reviewers_json(Host& host, int64_t build_id) {
    auto session = host.db().session();
    Json reviewers = Json::array();
    for (const auto& reviewer : requested_reviewers(*session, build_id)) {
        reviewers.push_back(
            {{"id", std::to_string(reviewer.account_id)},
             {"slug", reviewer.slug},
             {"name", reviewer.name.empty() ? Json(nullptr) : Json(reviewer.name)}});
    }
    return Json{{"reviewers", std::move(reviewers)}};
}

/// A user may be asked to review when they belong to the project's account and see the project.
bool may_review(Host& host, soci::session& session, const Project& project, int64_t user_id) {
    return belongs_to_account(session, project.account_id, user_id) &&
           host.identity().permissions(user_id, project).view;
}

}  // namespace

void add_build_reviewers(Host& host, builds::BuildsService& builds, ReviewRecorder& recorder) {
    const std::string path = "/projects/{owner}/{project}/builds/{buildNumber}/reviewers";
    host.routes().add_validated(
        Method::get, path, AuthRequirement::project_or_personal_token,
        RouteAccess::project(ProjectPermission::view,
                             "You do not have permission to view this build"),
        parse_build_number_param, [&host, &builds](Request& request, int64_t number) {
            const auto access = open_build(host, builds, request, number);
            return Response::json(reviewers_json(host, access.build.id));
        });
    host.routes().add_validated(
        Method::post, path, AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::review,
                             "You cannot request reviewers for this build"),
        read_reviewers_input,
        [&host, &builds, &recorder](Request& request, const ReviewersInput& input) {
            const auto access = open_build(host, builds, request, input.build_number);
            host.db().transaction([&](soci::session& session) {
                std::vector<int64_t> asked;
                for (const int64_t user_id : users_of_accounts(session, input.account_ids)) {
                    if (user_id != access.user_id &&
                        may_review(host, session, access.project, user_id) &&
                        request_reviewer(session, access.build.id, user_id, access.user_id)) {
                        asked.push_back(user_id);
                    }
                }
                if (!asked.empty()) {
                    subscribe_build_by_default(session, access.build.id, access.user_id);
                }
                recorder.reviewers_requested(session, access.build, access.user_id,
                                             std::move(asked));
            });
            return Response::json(reviewers_json(host, access.build.id));
        });
    host.routes().add_validated(
        Method::del, path, AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::review,
                             "You cannot manage reviewers for this build"),
        read_reviewers_input, [&host, &builds](Request& request, const ReviewersInput& input) {
            const auto access = open_build(host, builds, request, input.build_number);
            host.db().transaction([&](soci::session& session) {
                for (const int64_t user_id : users_of_accounts(session, input.account_ids)) {
                    cancel_reviewer(session, access.build.id, user_id);
                }
            });
            return Response::json(reviewers_json(host, access.build.id));
        });
}

}  // namespace loupe::reviews
