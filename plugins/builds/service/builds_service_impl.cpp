#include "service/builds_service_impl.hpp"

#include "build_resources.hpp"
#include "diff_json.hpp"
#include "service/build_summary.hpp"
#include "store/diffs.hpp"
#include "store/screenshots.hpp"

namespace loupe::builds {

std::optional<BuildSummary> BuildsServiceImpl::find_build(soci::session& session,
                                                          int64_t project_id, int64_t number) {
    auto build = find_build_by_number(session, project_id, number);
    if (!build) {
        return std::nullopt;
    }
    return summarize_builds(session, {*build}).front();
}

std::optional<BuildSummary> BuildsServiceImpl::find_build_by_id(soci::session& session,
                                                                int64_t build_id) {
    auto found = find_builds_by_id(session, {build_id});
    if (found.empty()) {
        return std::nullopt;
    }
    return found.front();
}

std::optional<BuildSummary> BuildsServiceImpl::lock_build(soci::session& session,
                                                          int64_t build_id) {
    auto build = builds::find_build(session, dialect_of(session), build_id, true);
    if (!build) {
        return std::nullopt;
    }
    return summarize_builds(session, {*build}).front();
}

std::vector<BuildSummary> BuildsServiceImpl::find_builds_by_id(soci::session& session,
                                                               const std::vector<int64_t>& ids) {
    auto rows = builds::find_builds_by_id(session, ids);
    std::vector<Build> ordered;
    for (auto id : ids) {
        if (auto it = rows.find(id); it != rows.end()) {
            ordered.push_back(it->second);
        }
    }
    return summarize_builds(session, ordered);
}

std::vector<BuildSummary> BuildsServiceImpl::branch_builds(soci::session& session,
                                                           int64_t project_id,
                                                           const std::string& name,
                                                           const std::string& branch, int limit) {
    Query query;
    query.where("project_id = ?", {project_id})
        .where("name = ?", {name})
        .where("branch = ?", {branch});
    return summarize_builds(session, find_builds(session, query, "ORDER BY id DESC LIMIT ?",
                                                 {static_cast<int64_t>(limit)}));
}

std::vector<DiffSummary> BuildsServiceImpl::diff_summaries(soci::session& session, int64_t build_id,
                                                           const std::vector<DiffRow>& rows) {
    std::vector<int64_t> ids;
    for (const auto& row : rows) {
        for (const auto& id : {row.base_screenshot_id, row.head_screenshot_id}) {
            if (id) {
                ids.push_back(*id);
            }
        }
    }
    const auto screenshots = screenshots_by_id(session, ids, ScreenshotFields::without_metadata);
    auto build = builds::find_build(session, dialect_of(session), build_id);
    const bool subset = build && build->subset;
    std::vector<DiffSummary> out;
    for (const auto& view : diff_views(rows, screenshots)) {
        DiffSummary diff;
        diff.id = view.row.id;
        diff.build_id = view.row.build_id;
        diff.name = view.head ? view.head->name : view.base ? view.base->name : "";
        diff.status = view.status;
        diff.score = view.row.score;
        diff.fingerprint = view.row.fingerprint;
        if (view.base) {
            diff.base_key = view.base->key;
        }
        if (view.head) {
            diff.head_key = view.head->key;
        }
        diff.test_id = view.row.test_id;
        diff.needs_review = needs_review(view, subset);
        out.push_back(std::move(diff));
    }
    return out;
}

std::vector<DiffSummary> BuildsServiceImpl::build_diffs(soci::session& session, int64_t build_id) {
    return diff_summaries(session, build_id, builds::build_diffs(session, build_id));
}

std::vector<DiffSummary> BuildsServiceImpl::find_diffs(soci::session& session, int64_t build_id,
                                                       const std::vector<int64_t>& diff_ids) {
    return diff_summaries(session, build_id, build_diffs_with_ids(session, build_id, diff_ids));
}

Json BuildsServiceImpl::build_json(soci::session& session, const BuildSummary& build,
                                   const Project& project) {
    return std::move(builds_json(session, {build}, project).front());
}

std::vector<Json> BuildsServiceImpl::builds_json(soci::session& session,
                                                 const std::vector<BuildSummary>& builds,
                                                 const Project& project) {
    std::vector<int64_t> ids;
    for (const auto& build : builds) {
        ids.push_back(build.id);
    }
    auto rows = builds::find_builds_by_id(session, ids);
    std::vector<Build> ordered;
    for (auto id : ids) {
        if (auto it = rows.find(id); it != rows.end()) {
            ordered.push_back(it->second);
        }
    }
    return render_builds(session, ordered, project, host_.public_url());
}

}  // namespace loupe::builds
