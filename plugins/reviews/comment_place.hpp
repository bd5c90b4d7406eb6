#pragma once
// What a comment route works on: a build (`…/builds/{buildNumber}`) or a test
// (`…/tests/{testId}`) of the route's project. Every comment route is registered once per kind
// of place, with the same handler: the place opens the object the path names (else 404) and
// says how its comments name it.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "loupe/builds/builds_service.hpp"
#include "loupe/builds/project_tests.hpp"
#include "loupe/host.hpp"
#include "store/comments.hpp"

namespace loupe::reviews {

struct CommentPlace {
    Project project;
    CommentSubject subject;
    int64_t user_id = 0;
    std::optional<builds::BuildSummary> build;  ///< a build's place: the build
    std::optional<builds::TestSummary> test;    ///< a test's place: the test
    std::map<int64_t, std::string> test_ids;    ///< a test's place: its public id, for the JSON
    /// A media's place: the version a new comment pins (its newest uploaded one).
    std::optional<int64_t> media_version_id;
    std::string media_name;  ///< a media's place: its name
};

struct CommentPlaceKind {
    CommentSubject::Kind kind = CommentSubject::Kind::build;
    std::string
        prefix;  ///< the path up to the object, e.g. "/projects/{owner}/{project}/tests/{testId}"
    std::string noun;  ///< "build" or "test", for refusals
    /// Checks the path's form before the guard (a build number is digits), into `validation`.
    std::function<void(Request&, Validation&)> check_path;
    /// The object the path names, in the guarded project; throws 404 when there is none.
    std::function<CommentPlace(Request&)> open;
    /// The guard of a route of this place, given the permission and its refusal: the path's
    /// project for builds and tests, the object's own project for a media.
    std::function<RouteAccess(ProjectPermission, const std::string&)> access =
        [](ProjectPermission permission, const std::string& refusal) {
            return RouteAccess::project(permission, refusal);
        };

    /// A validation step for routes whose only input is the path.
    std::function<bool(Request&)> path_only() const;
};

/// The build kind, and the test kind when the builds plugin offers its tests.
std::vector<CommentPlaceKind> comment_place_kinds(Host& host, builds::BuildsService& builds,
                                                  builds::ProjectTests* tests);

/// The comments rendered as the API shows them on this place.
Json place_comments_json(Host& host, soci::session& session, const CommentPlace& place,
                         const std::vector<Comment>& comments);
Json place_comment_json(Host& host, soci::session& session, const CommentPlace& place,
                        const Comment& comment);

}  // namespace loupe::reviews
