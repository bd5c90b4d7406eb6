#include "comment_place.hpp"

#include <soci/soci.h>

#include "build_access.hpp"
#include "comment_facts.hpp"

namespace loupe::reviews {

std::function<bool(Request&)> CommentPlaceKind::path_only() const {
    return [check = check_path](Request& request) {
        Validation validation;
        check(request, validation);
        validation.throw_if_any();
        return true;
    };
}

std::vector<CommentPlaceKind> comment_place_kinds(Host& host, builds::BuildsService& builds,
                                                  builds::ProjectTests* tests) {
    std::vector<CommentPlaceKind> kinds;
    CommentPlaceKind build_kind;
    build_kind.kind = CommentSubject::Kind::build;
    build_kind.prefix = "/projects/{owner}/{project}/builds/{buildNumber}";
    build_kind.noun = "build";
    build_kind.check_path = [](Request& request, Validation& validation) {
        parse_build_number(request.param("buildNumber"), validation);
    };
    build_kind.open = [&host, &builds](Request& request) {
        Validation validation;
        const auto number = parse_build_number(request.param("buildNumber"), validation);
        validation.throw_if_any();
        auto access = open_build(host, builds, request, *number);
        CommentPlace place;
        place.project = access.project;
        place.subject = CommentSubject::build(access.build.id);
        place.user_id = access.user_id;
        place.build = std::move(access.build);
        return place;
    };
    kinds.push_back(std::move(build_kind));
    if (tests == nullptr) {
        return kinds;
    }
    CommentPlaceKind test_kind;
    test_kind.kind = CommentSubject::Kind::test;
    test_kind.prefix = "/projects/{owner}/{project}/tests/{testId}";
    test_kind.noun = "test";
    test_kind.check_path = [](Request&, Validation&) {};
    test_kind.open = [&host, tests](Request& request) {
        const Project& project = request.access().require_project();
        std::optional<builds::TestSummary> test;
        {
            auto session = host.db().session();
            test = tests->find_test(*session, project, request.param("testId"));
        }
        if (!test) {
            throw HttpError::not_found("Test not found");
        }
        CommentPlace place;
        place.project = project;
        place.subject = CommentSubject::test(test->id);
        place.user_id = request.principal().user_id;
        place.test_ids[test->id] = test->public_id;
        place.test = std::move(test);
        return place;
    };
    kinds.push_back(std::move(test_kind));
    return kinds;
}

Json place_comments_json(Host& host, soci::session& session, const CommentPlace& place,
                         const std::vector<Comment>& comments) {
    return comments_json(session, host.identity(), comments, place.test_ids);
}

Json place_comment_json(Host& host, soci::session& session, const CommentPlace& place,
                        const Comment& comment) {
    return comment_json(session, host.identity(), comment, place.test_ids);
}

}  // namespace loupe::reviews
