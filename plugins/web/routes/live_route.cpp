// The live state of a build for an open page: short polling with an ETag. The page asks every
// couple of seconds with If-None-Match and gets an empty 304 until a diff completes, the build
// concludes or its review state changes; only then does it read the API again. Polling, not
// Server-Sent Events: the HTTP server gives every open connection a handler thread of its own
// (http.threads), so a stream per open tab would exhaust them, while a poll holds one for about
// a millisecond and works the same behind any proxy and across instances sharing the database.

#include <algorithm>

#include "routes/build_lookup.hpp"
#include "routes/routes.hpp"
#include "session/session_tokens.hpp"

namespace loupe::web {
namespace {

/// A digest of everything the build page shows that can change while it is open.
std::string state_digest(const builds::BuildSummary& build,
                         std::vector<builds::DiffSummary> diffs) {
    std::sort(diffs.begin(), diffs.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
    std::string text = std::string(builds::to_text(build.status)) + "|" +
                       builds::optional_text(build.conclusion).value_or("") + "|" +
                       builds::optional_text(build.review_state).value_or("") + "|" +
                       build.stats.dump();
    for (const auto& diff : diffs) {
        text += "|" + std::to_string(diff.id) + ":" + std::string(builds::to_text(diff.status)) +
                ":" + (diff.score ? std::to_string(*diff.score) : "-");
    }
    return token_hash(text).substr(0, 32);
}

bool matches(const std::optional<std::string>& if_none_match, const std::string& etag) {
    return if_none_match && (if_none_match->find(etag) != std::string::npos);
}

}  // namespace

void add_live_route(Host& host) {
    auto* service = host.services().find<builds::BuildsService>();
    host.routes().add(
        Method::get, "/_loupe/live/{owner}/{project}/{buildNumber}",
        AuthRequirement::project_or_personal_token, RouteAccess::project(ProjectPermission::view),
        [&host, service](Request& request) {
            const BuildRef ref = find_visible_build(host, service, request);
            std::vector<builds::DiffSummary> diffs;
            {
                auto session = host.db().session();
                diffs = service->build_diffs(*session, ref.build.id);
            }
            const auto pending = std::count_if(diffs.begin(), diffs.end(), [](const auto& d) {
                return d.status == builds::DiffStatus::pending;
            });
            const std::string etag = "\"" + state_digest(ref.build, diffs) + "\"";
            if (matches(request.header("If-None-Match"), etag)) {
                Response response;
                response.status = 304;
                return response.with_header("ETag", etag).with_header("Cache-Control", "no-cache");
            }
            Json body{
                {"status", ref.build.status},
                {"conclusion", ref.build.conclusion ? Json(*ref.build.conclusion) : Json()},
                {"reviewState", ref.build.review_state ? Json(*ref.build.review_state) : Json()},
                {"diffs",
                 {{"total", diffs.size()},
                  {"pending", pending},
                  {"done", static_cast<int64_t>(diffs.size()) - pending}}},
                {"version", etag.substr(1, etag.size() - 2)}};
            return Response::json(body)
                .with_header("ETag", etag)
                .with_header("Cache-Control", "no-cache");
        });
}

}  // namespace loupe::web
