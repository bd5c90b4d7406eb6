// GET /projects/{owner}/{project}/builds: filters, paging, newest first.
#include <soci/soci.h>

#include "build_resources.hpp"
#include "loupe/db/query.hpp"
#include "loupe/http/json_reader.hpp"
#include "loupe/http/pagination.hpp"
#include "loupe/http/single_query.hpp"
#include "loupe/text/strings.hpp"
#include "routes/routes.hpp"

namespace loupe::builds {
namespace {

struct ListBuildsInput {
    Pagination pagination;
    std::optional<std::string> head;
    std::optional<std::string> head_sha;
    std::optional<std::string> search;
    bool distinct_name = false;
};

ListBuildsInput parse_list_builds_input(Request& request) {
    Validation validation;
    ListBuildsInput input;
    input.pagination = parse_pagination(request, validation);
    input.head = non_empty_single_query(request, "head", validation);
    input.head_sha = single_query(request, "headSha", validation);
    if (input.head_sha && !matches(*input.head_sha, sha1_pattern)) {
        validation.add("headSha",
                       std::string("Invalid string: must match pattern /") + sha1_pattern + "/");
    }
    if (auto search = single_query(request, "search", validation)) {
        if (search->empty()) {
            validation.add("search", "Too small: expected string to have >=1 characters");
        }
        if (const auto text = trim(*search, " \t\r\n"); !text.empty()) {
            input.search = std::string(text);
        }
    }
    input.distinct_name = single_query(request, "distinctName", validation) == "true";
    validation.throw_if_any();
    return input;
}

// LIKE wildcards in user input match themselves ('!' is the escape character).
std::string escape_like(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '%' || c == '_' || c == '!') {
            out += '!';
        }
        out += c;
    }
    return out;
}

}  // namespace

void add_list_builds(Host& host) {
    auto& database = host.db();
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/builds",
        AuthRequirement::project_or_personal_token, RouteAccess::project(ProjectPermission::view),
        parse_list_builds_input,
        [&, host_ptr = &host](Request& request, const ListBuildsInput& input) {
            const Project& project = request.access().require_project();
            Query query;
            query.where("project_id = ?", {project.id});
            if (input.head) {
                query.where("branch = ?", {*input.head});
            }
            if (input.head_sha) {
                query.where("COALESCE(pr_head_commit, commit_sha) = ?", {*input.head_sha});
            }
            if (input.search && !input.search->empty()) {
                const auto needle = to_lower(*input.search);
                const std::string like = "%" + escape_like(needle) + "%";
                if (matches(needle, "^[0-9a-f]{7,40}$")) {
                    query.where(
                        "lower(name) LIKE ? ESCAPE '!' OR lower(branch) LIKE ? ESCAPE '!' "
                        "OR commit_sha LIKE ? OR pr_head_commit LIKE ?",
                        {like, like, needle + "%", needle + "%"});
                } else {
                    query.where("lower(name) LIKE ? ESCAPE '!' OR lower(branch) LIKE ? ESCAPE '!'",
                                {like, like});
                }
            }
            if (input.distinct_name) {
                Query latest = query;
                query.where("id IN (SELECT MAX(id) FROM builds WHERE " + latest.conditions() +
                                " GROUP BY name)",
                            latest.values());
            }
            auto session = database.session();
            const int64_t total = query.count(*session, "builds");
            const auto builds = find_builds(*session, query, "ORDER BY id DESC LIMIT ? OFFSET ?",
                                            {input.pagination.limit(), input.pagination.offset()});
            Json results = Json::array();
            for (auto& rendered :
                 render_builds(*session, builds, project, host_ptr->public_url())) {
                results.push_back(std::move(rendered));
            }
            return Response::json(page_envelope(input.pagination, total, std::move(results)));
        });
}

}  // namespace loupe::builds
