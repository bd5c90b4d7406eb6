#include "diff_order.hpp"

#include <bit>

#include "diff_json.hpp"
#include "loupe/crypto/digest.hpp"
#include "processing/diff_status.hpp"

namespace loupe::builds {
namespace {

void append_field(std::string& text, const std::optional<int64_t>& value) {
    text += value ? std::to_string(*value) : "-";
    text += ',';
}

}  // namespace

DiffOrderCache::DiffOrderCache(std::size_t builds) : cache_({.capacity = builds}) {}

std::string DiffOrderCache::version_of(int64_t build_id, bool subset,
                                       const std::vector<DiffRow>& rows) {
    crypto::Sha256 digest;
    std::string text;
    for (const auto& row : rows) {
        text.clear();
        text += std::to_string(row.id) + ',';
        append_field(text, row.base_screenshot_id);
        append_field(text, row.head_screenshot_id);
        text += std::to_string(static_cast<int>(row.job_status)) + ',';
        text += row.score ? std::to_string(std::bit_cast<uint64_t>(*row.score)) : "-";  // exact
        text += ',';
        text += row.group_key ? *row.group_key : "-";  // a fingerprint: hex digits, no separator
        text += row.ignored ? ",i;" : ",;";
        digest.update(text);
    }
    return std::to_string(build_id) + (subset ? ":s:" : ":f:") + digest.finish_hex();
}

std::shared_ptr<const DiffOrder> DiffOrderCache::order_of(soci::session& session, int64_t build_id,
                                                          bool subset,
                                                          const std::vector<DiffRow>& rows) {
    return cache_.get(version_of(build_id, subset, rows), [&] {
        return std::make_shared<const DiffOrder>(read_diff_order(session, subset, rows));
    });
}

DiffOrder read_diff_order(soci::session& session, bool subset, const std::vector<DiffRow>& rows) {
    std::vector<int64_t> ids;
    for (const auto& row : rows) {
        for (const auto& id : {row.base_screenshot_id, row.head_screenshot_id}) {
            if (id) {
                ids.push_back(*id);
            }
        }
    }
    // Metadata is the large part of a screenshot row; the order reads it only for failure
    // screenshots, whose retry count decides between "failure" and "retry failure".
    auto screenshots = screenshots_by_id(session, ids, ScreenshotFields::without_metadata);
    std::vector<int64_t> failures;
    for (const auto& [id, screenshot] : screenshots) {
        if (is_failure_name(screenshot.name)) {
            failures.push_back(id);
        }
    }
    for (auto& [id, full] : screenshots_by_id(session, failures)) {
        screenshots[id].metadata = std::move(full.metadata);
    }
    auto views = diff_views(rows, screenshots);
    sort_for_review(views);
    DiffOrder order;
    order.all.reserve(views.size());
    for (const auto& view : views) {
        order.all.push_back(view.row.id);
        if (needs_review(view, subset)) {
            order.needing_review.push_back(view.row.id);
        }
    }
    return order;
}

}  // namespace loupe::builds
