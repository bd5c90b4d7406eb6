// GET /projects/{owner}/{project}/builds/{buildNumber}/diffs: a build's diffs
// in review order, with their screenshots, test flakiness metrics and changes.
#include <soci/soci.h>

#include <map>
#include <memory>

#include "build_resources.hpp"
#include "diff_json.hpp"
#include "diff_order.hpp"
#include "loupe/http/pagination.hpp"
#include "metrics/test_metrics.hpp"
#include "routes/diff_test_facts.hpp"
#include "routes/routes.hpp"
#include "routes/test_params.hpp"
#include "validation.hpp"

namespace loupe::builds {
namespace {

struct ListDiffsInput {
    int64_t number = 0;
    Pagination pagination;
    bool needs_review = false;
    MetricsPeriod period = MetricsPeriod::last_7_days;
};

ListDiffsInput parse_list_diffs_input(Request& request) {
    Validation validation;
    ListDiffsInput input;
    auto number = parse_positive_integer(request.param("buildNumber"), validation);
    input.pagination = parse_pagination(request, validation);
    if (auto value = request.query("needsReview")) {
        if (*value != "true" && *value != "false") {
            validation.add("needsReview", "Invalid input: expected boolean, received string");
        }
        input.needs_review = *value == "true";
    }
    input.period = parse_metrics_period_param(request, validation);
    validation.throw_if_any();
    input.number = *number;
    return input;
}

}  // namespace

void add_list_diffs(Host& host) {
    auto& database = host.db();
    auto& blobs = host.blobs();
    auto orders = std::make_shared<DiffOrderCache>();
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/builds/{buildNumber}/diffs",
        AuthRequirement::project_or_personal_token, RouteAccess::project(ProjectPermission::view),
        parse_list_diffs_input, [&, orders](Request& request, const ListDiffsInput& input) {
            const auto& principal = request.principal();
            const Project& project = request.access().require_project();
            auto session = database.session();
            auto build = find_build_by_number(*session, project.id, input.number);
            if (!build) {
                throw principal.is_project() ? HttpError::unauthorized() : HttpError::not_found();
            }
            const auto rows = build_diffs(*session, build->id);
            const auto order = orders->order_of(*session, build->id, build->subset, rows);
            const auto& ordered = input.needs_review ? order->needing_review : order->all;
            const int64_t total = static_cast<int64_t>(ordered.size());
            const int64_t now = now_ms();
            const int64_t from = period_start_ms(input.period, now);
            const int64_t offset = std::min(total, input.pagination.offset());
            const int64_t end = std::min(total, offset + input.pagination.limit());
            // Only the page's diffs are read in full: their rows, then their screenshots.
            std::map<int64_t, const DiffRow*> row_by_id;
            for (const auto& row : rows) {
                row_by_id.emplace(row.id, &row);
            }
            std::vector<DiffRow> page_rows;
            std::vector<int64_t> page_ids;
            for (int64_t i = offset; i < end; ++i) {
                const DiffRow& row = *row_by_id.at(ordered[static_cast<std::size_t>(i)]);
                page_rows.push_back(row);
                for (const auto& id : {row.base_screenshot_id, row.head_screenshot_id}) {
                    if (id) {
                        page_ids.push_back(*id);
                    }
                }
            }
            const auto screenshots = screenshots_by_id(*session, page_ids);
            const auto views = diff_views(page_rows, screenshots);
            std::vector<const DiffView*> page;
            page.reserve(views.size());
            for (const auto& view : views) {
                page.push_back(&view);
            }
            const auto facts = diff_test_facts(*session, project, page, from, now);
            Json results = Json::array();
            for (const auto* view : page) {
                Json item = diff_json(*view, blobs);
                add_test_and_change(project.name, *view, facts, item);
                results.push_back(std::move(item));
            }
            return Response::json(page_envelope(input.pagination, total, std::move(results)));
        });
}

}  // namespace loupe::builds
