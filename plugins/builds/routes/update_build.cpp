// PUT /builds/{buildId}: screenshots of a build or of one shard, and
// finalization when the build (or its last shard) is complete.
#include <soci/soci.h>

#include <set>

#include "build_resources.hpp"
#include "finalize.hpp"
#include "loupe/http/json_reader.hpp"
#include "loupe/text/strings.hpp"
#include "routes/routes.hpp"
#include "store/screenshots.hpp"
#include "store/settings.hpp"
#include "store/shards.hpp"
#include "uploads/upload_policy.hpp"
#include "validation.hpp"

namespace loupe::builds {
namespace {

struct UpdateBuildInput {
    std::optional<int64_t> build_id;
    std::vector<ScreenshotInput> screenshots;
    bool parallel = false;
    std::optional<int64_t> parallel_total;
    std::optional<int64_t> parallel_index;
    bool final = true;
    Json metadata;
};

ScreenshotInput read_screenshot(const Json& item, const std::string& path, Validation& validation) {
    ScreenshotInput screenshot;
    JsonReader reader(item, validation, path);
    if (auto key = reader.pattern("key", true, sha256_pattern)) {
        screenshot.key = to_lower(*key);
    }
    screenshot.name = reader.string("name", true).value_or("");
    if (const Json* base = reader.get("baseName"); base && !base->is_null()) {
        if (base->is_string()) {
            screenshot.base_names = Json::array({*base});
        } else if (base->is_array() && !base->empty() &&
                   std::all_of(base->begin(), base->end(),
                               [](const Json& v) { return v.is_string(); })) {
            screenshot.base_names = *base;
        } else {
            reader.issue("baseName", "Invalid input");
        }
    }
    screenshot.parent_name = reader.string("parentName", false);
    if (const Json* metadata = reader.get("metadata")) {
        screenshot.metadata =
            read_screenshot_metadata(*metadata, reader.path_of("metadata"), validation);
    }
    if (auto trace = reader.pattern("pwTraceKey", false, sha256_pattern)) {
        screenshot.pw_trace_key = to_lower(*trace);
    }
    screenshot.threshold = reader.number("threshold", false, 0, 1);
    if (auto type = reader.string("contentType", false)) {
        if (auto normalized = normalize_content_type(*type)) {
            screenshot.content_type = *normalized;
        } else {
            reader.issue("contentType", unsupported_content_type_message());
        }
    }
    return screenshot;
}

UpdateBuildInput parse_update_build_input(Request& request) {
    UpdateBuildInput input;
    const auto& id = request.param("buildId");
    if (!id.empty() && id.size() < 19 && std::all_of(id.begin(), id.end(), ::isdigit)) {
        input.build_id = std::stoll(id);
    }
    const Json& body = object_body(request);
    Validation validation;
    JsonReader reader(body, validation);
    if (const Json* list = reader.array("screenshots", true)) {
        for (std::size_t i = 0; i < list->size(); ++i) {
            const auto path = "screenshots." + std::to_string(i);
            if (!(*list)[i].is_object()) {
                validation.add(path, expected_message("object", &(*list)[i]));
                continue;
            }
            input.screenshots.push_back(read_screenshot((*list)[i], path, validation));
        }
    }
    input.parallel = reader.boolean("parallel").value_or(false);
    input.parallel_total = reader.integer("parallelTotal", false, -1);
    input.parallel_index = reader.integer("parallelIndex", false, 1);
    input.final = reader.boolean("final").value_or(true);
    input.metadata = read_build_metadata(reader);
    validation.throw_if_any();
    return input;
}

bool is_idempotent_retry(soci::session& session, const Build& build,
                         const std::vector<ScreenshotInput>& screenshots) {
    auto stored = stored_screenshot_names(session, build.id);
    for (const auto& screenshot : screenshots) {
        auto it = stored.find(screenshot.name);
        if (it == stored.end() || it->second != screenshot.key) {
            return false;
        }
    }
    return true;
}

/// The files the screenshots name (their images and Playwright traces), each once.
std::vector<std::string> named_keys(const std::vector<ScreenshotInput>& screenshots) {
    std::vector<std::string> keys;
    std::set<std::string> checked;
    for (const auto& screenshot : screenshots) {
        for (const auto* key :
             {&screenshot.key, screenshot.pw_trace_key ? &*screenshot.pw_trace_key : nullptr}) {
            if (key != nullptr && checked.insert(*key).second) {
                keys.push_back(*key);
            }
        }
    }
    return keys;
}

std::string shard_key_of(const UpdateBuildInput& input, const Request& request) {
    if (input.parallel_index) {
        return "index:" + std::to_string(*input.parallel_index);
    }
    if (auto id = request.header("x-argos-request-id")) {
        return "request:" + *id;
    }
    return "request:" + request.request_id();
}

/// Records the shard's request; finalizes the build when every announced shard arrived.
void update_parallel(soci::session& session, JobQueue& jobs, const BuildEvents& events,
                     Build& build, const UpdateBuildInput& input, const Request& request) {
    if (input.parallel_total && *input.parallel_total > 0 && build.total_batch &&
        *build.total_batch > 0 && *build.total_batch != *input.parallel_total) {
        throw HttpError::bad_request("`parallelTotal` must be the same on every batch");
    }
    if (!input.final && !input.parallel_index) {
        throw HttpError::bad_request("`parallelIndex` is required when `final` is `false`");
    }
    Shard shard{shard_key_of(input, request), input.parallel_index, input.final, input.metadata};
    const auto completed = shard_completed(session, build.id, shard.key);
    if (completed == true) {
        return;  // a retry of a shard that already counted
    }
    insert_screenshots(session, build.project_id, build.id, build.name, input.screenshots);
    save_shard(session, build.id, shard, completed.has_value());
    if (!input.final) {
        return;
    }
    build.batch_count += 1;
    if (input.parallel_total) {
        build.total_batch = *input.parallel_total;
    }
    if (build.total_batch && *build.total_batch > 0 && build.batch_count >= *build.total_batch) {
        build.metadata = shard_metadata(session, build.id);
        finalize_build(session, jobs, events, build);
        return;
    }
    update_build_state(session, build);
}

}  // namespace

void add_update_build(Host& host, const BuildEvents& events, const UploadPolicy& policy) {
    auto& database = host.db();
    auto& blobs = host.blobs();
    auto& jobs = host.jobs();
    host.routes().add_validated(
        Method::put, "/builds/{buildId}", AuthRequirement::project_token,
        // The build named must belong to the token's project (checked below, with its row).
        RouteAccess::token_project(), parse_update_build_input,
        [&, host_ptr = &host](Request& request, UpdateBuildInput& input) {
            const auto& principal = request.principal();
            if (!input.build_id) {
                throw HttpError::not_found("Build not found");
            }
            const Project* project = &request.access().require_project();
            const auto dialect = database.dialect();
            Json rendered = database.transaction([&](soci::session& session) {
                auto build = find_build(session, dialect, *input.build_id, true);
                if (!build) {
                    throw HttpError::not_found("Build not found");
                }
                check_bound_run(principal, *build);
                if (build->complete) {
                    if (!is_idempotent_retry(session, *build, input.screenshots)) {
                        throw HttpError::conflict("Build is already finalized");
                    }
                } else {
                    if (build->project_id != principal.project_id) {
                        throw HttpError::forbidden("Build does not belong to project");
                    }
                    const auto keys = named_keys(input.screenshots);
                    if (auto missing = blobs.missing(keys); !missing.empty()) {
                        std::vector<std::string> details;
                        for (const auto& key : missing) {
                            details.push_back("No uploaded file for key " + key);
                        }
                        throw HttpError(400,
                                        "Some screenshots were never uploaded: upload them "
                                        "to their putUrl before updating the build",
                                        details);
                    }
                    const ProjectQuotas quotas =
                        quotas_of(build_settings_of(session, build->project_id), policy);
                    check_screenshot_quota(quotas,
                                           count_build_screenshots(session, build->id) +
                                               static_cast<int64_t>(input.screenshots.size()));
                    require_held(session, blobs, build->project_id, build->id, keys, quotas,
                                 policy.clock_skew_ms);
                    if (input.parallel) {
                        update_parallel(session, jobs, events, *build, input, request);
                    } else {
                        insert_screenshots(session, build->project_id, build->id, build->name,
                                           input.screenshots);
                        if (input.final) {
                            build->metadata = input.metadata;
                            finalize_build(session, jobs, events, *build);
                        }
                    }
                }
                // Argos answers an idempotent retry before checking the project; Loupe does not
                // hand another project's build to the caller.
                if (build->project_id != principal.project_id) {
                    throw HttpError::forbidden("Build does not belong to project");
                }
                return render_build(session, *build, *project, host_ptr->public_url());
            });
            return Response::json({{"build", rendered}});
        });
}

}  // namespace loupe::builds
