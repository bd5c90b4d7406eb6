#include "diff_json.hpp"

#include <algorithm>

namespace loupe::builds {
namespace {

constexpr int64_t url_ttl_ms = 60 * 60 * 1000;

int status_rank(DiffStatus status) {
    switch (status) {
        case DiffStatus::failure:
            return 0;
        case DiffStatus::changed:
            return 1;
        case DiffStatus::added:
            return 2;
        case DiffStatus::removed:
            return 3;
        case DiffStatus::unchanged:
        case DiffStatus::pending:
            return 4;
        case DiffStatus::retry_failure:
            return 5;
        case DiffStatus::ignored:
            return 6;
    }
    return 4;
}

Json snapshot_json(const Screenshot& screenshot, BlobStore& blobs) {
    return Json{{"id", std::to_string(screenshot.id)},
                {"name", screenshot.name},
                {"metadata", screenshot.metadata},
                {"width", screenshot.width ? Json(*screenshot.width) : Json()},
                {"height", screenshot.height ? Json(*screenshot.height) : Json()},
                {"url", blobs.signed_get_url(screenshot.key, screenshot.content_type, url_ttl_ms)},
                {"contentType", screenshot.content_type},
                // Loupe's addition: the Playwright trace recorded with the screenshot, if any.
                {"pwTraceUrl", screenshot.pw_trace_key
                                   ? Json(blobs.signed_get_url(*screenshot.pw_trace_key,
                                                               "application/zip", url_ttl_ms))
                                   : Json()}};
}

// Orders optional values with nulls last.
template <class T, class Less>
int compare_optional(const std::optional<T>& a, const std::optional<T>& b, Less less) {
    if (a.has_value() != b.has_value()) {
        return a.has_value() ? -1 : 1;
    }
    if (!a) {
        return 0;
    }
    if (less(*a, *b)) {
        return -1;
    }
    return less(*b, *a) ? 1 : 0;
}

std::optional<std::string> name_of(const Screenshot* screenshot) {
    return screenshot ? std::optional<std::string>(screenshot->name) : std::nullopt;
}

}  // namespace

std::vector<DiffView> diff_views(const std::vector<DiffRow>& rows,
                                 const std::map<int64_t, Screenshot>& screenshots) {
    auto find = [&](const std::optional<int64_t>& id) -> const Screenshot* {
        if (!id) {
            return nullptr;
        }
        auto it = screenshots.find(*id);
        return it == screenshots.end() ? nullptr : &it->second;
    };
    std::vector<DiffView> views;
    views.reserve(rows.size());
    for (const auto& row : rows) {
        DiffView view{row, find(row.base_screenshot_id), find(row.head_screenshot_id),
                      DiffStatus::pending};
        DiffFacts facts;
        facts.has_base = view.base != nullptr;
        facts.has_head = view.head != nullptr;
        if (view.head) {
            facts.head_name = view.head->name;
            facts.head_metadata = view.head->metadata;
            facts.head_has_parent = view.head->parent_name.has_value();
        }
        facts.score = row.score;
        facts.ignored = row.ignored;
        if (row.job_status == ProcessingState::error) {
            view.status = DiffStatus::failure;  // the comparison itself failed: `error` says why
        } else if (row.job_status == ProcessingState::pending && facts.has_base && facts.has_head) {
            view.status = DiffStatus::pending;
        } else {
            view.status = diff_status(facts);
        }
        views.push_back(std::move(view));
    }
    return views;
}

bool needs_review(const DiffView& diff, bool subset) {
    if (diff.status == DiffStatus::changed) {
        return true;
    }
    if (!diff.base && diff.head) {
        return !is_failure_name(diff.head->name);
    }
    return !diff.head && !subset;
}

void sort_for_review(std::vector<DiffView>& diffs) {
    std::stable_sort(diffs.begin(), diffs.end(), [](const DiffView& a, const DiffView& b) {
        if (int ra = status_rank(a.status), rb = status_rank(b.status); ra != rb) {
            return ra < rb;
        }
        const auto text_less = [](const std::string& x, const std::string& y) { return x < y; };
        if (int c = compare_optional(a.row.group_key, b.row.group_key, text_less); c != 0) {
            return c < 0;
        }
        const auto score_greater = [](double x, double y) { return x > y; };
        if (int c = compare_optional(a.row.score, b.row.score, score_greater); c != 0) {
            return c < 0;
        }
        if (int c = compare_optional(name_of(a.head), name_of(b.head), text_less); c != 0) {
            return c < 0;
        }
        if (int c = compare_optional(name_of(a.base), name_of(b.base), text_less); c != 0) {
            return c < 0;
        }
        return a.row.id < b.row.id;
    });
}

Json diff_json(const DiffView& diff, BlobStore& blobs) {
    const Screenshot* named = diff.head ? diff.head : diff.base;
    std::optional<std::string> parent = diff.head ? diff.head->parent_name : std::nullopt;
    if (!parent && diff.base) {
        parent = diff.base->parent_name;
    }
    return Json{
        {"id", std::to_string(diff.row.id)},
        {"name", named ? Json(named->name) : Json()},
        {"status", diff.status},
        {"score", diff.row.score ? Json(*diff.row.score) : Json()},
        {"group", diff.row.group_key ? Json(*diff.row.group_key) : Json()},
        {"parentName", parent ? Json(*parent) : Json()},
        {"url", diff.row.mask_key
                    ? Json(blobs.signed_get_url(*diff.row.mask_key, "image/png", url_ttl_ms))
                    : Json()},
        {"base", diff.base ? snapshot_json(*diff.base, blobs) : Json()},
        {"head", diff.head ? snapshot_json(*diff.head, blobs) : Json()},
        {"test", nullptr},
        {"change", nullptr},
        {"error", diff.row.job_status == ProcessingState::error ? Json(diff.row.error.value_or(""))
                                                                : Json()}};
}

}  // namespace loupe::builds
