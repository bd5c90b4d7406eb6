// POST /builds: a new build, or the shared build of parallel shards, and
// upload targets for the screenshots and traces Loupe does not hold yet.
#include <soci/soci.h>

#include <set>

#include "build_resources.hpp"
#include "finalize.hpp"
#include "loupe/http/json_reader.hpp"
#include "loupe/text/strings.hpp"
#include "processing/baseline.hpp"
#include "routes/routes.hpp"
#include "store/settings.hpp"
#include "uploads/upload_policy.hpp"
#include "validation.hpp"

namespace loupe::builds {
namespace {

struct CreateBuildInput {
    Build build;
    std::vector<Upload> screenshots;
    bool secure_form = false;
    std::vector<std::string> trace_keys;
    bool skipped = false;
    bool merge_queue_prs_given = false;
};

void read_secure_uploads(JsonReader& reader, CreateBuildInput& input) {
    const Json* list = reader.array("screenshots", true);
    if (list == nullptr) {
        return;
    }
    std::set<std::string> seen;
    bool unique = true;
    for (std::size_t i = 0; i < list->size(); ++i) {
        const auto path = "screenshots." + std::to_string(i);
        if (!(*list)[i].is_object()) {
            reader.validation().add(path, expected_message("object", &(*list)[i]));
            continue;
        }
        JsonReader item((*list)[i], reader.validation(), path);
        auto key = item.pattern("key", true, sha256_pattern);
        auto type = item.string("contentType", true);
        std::optional<std::string> normalized;
        if (type) {
            normalized = normalize_content_type(*type);
            if (!normalized) {
                item.issue("contentType", unsupported_content_type_message());
            }
        }
        if (key && normalized) {
            unique = seen.insert(*key).second && unique;
            input.screenshots.push_back({to_lower(*key), *normalized});
        }
    }
    if (!unique) {
        reader.issue("screenshots", "Must be an array of uploads with unique keys");
    }
    if (list->size() > max_screenshots) {
        reader.issue("screenshots",
                     "A build cannot contain more than 5000 screenshots. Use "
                     "parallel mode to split a larger test suite across several "
                     "builds.");
    }
}

CreateBuildInput parse_create_build_input(Request& request) {
    const Json& body = object_body(request);
    Validation validation;
    JsonReader reader(body, validation);
    CreateBuildInput input;
    Build& b = input.build;
    if (reader.nullish("screenshotKeys") == reader.nullish("screenshots")) {
        validation.add("", "Invalid input");
    } else if (!reader.nullish("screenshotKeys")) {
        if (auto keys = read_key_list(reader, "screenshotKeys", "screenshots")) {
            for (auto& key : *keys) {
                input.screenshots.push_back({std::move(key), ""});
            }
        }
    } else {
        input.secure_form = true;
        read_secure_uploads(reader, input);
    }
    if (auto traces = read_key_list(reader, "pwTraceKeys", "Playwright traces")) {
        input.trace_keys = std::move(*traces);
    }
    b.commit = reader.pattern("commit", true, sha1_pattern).value_or("");
    b.branch = reader.string("branch", true, 1).value_or("");
    if (auto name = reader.string("name", false)) {
        if (name->size() > 255) {
            reader.issue("name", "Too big: expected string to have <=255 characters");
        } else if (!name->empty()) {
            b.name = *name;
        }
    }
    b.parallel = reader.boolean("parallel").value_or(false);
    b.parallel_nonce = reader.string("parallelNonce", false);
    if (b.parallel_nonce && b.parallel_nonce->empty()) {
        b.parallel_nonce.reset();
    }
    b.pr_number = reader.integer("prNumber", false, 1);
    b.pr_head_commit = reader.pattern("prHeadCommit", false, sha1_pattern);
    b.reference_commit = reader.pattern("referenceCommit", false, sha1_pattern);
    b.reference_branch = reader.string("referenceBranch", false);
    if (auto parents = read_commit_list(reader, "parentCommits", false)) {
        b.parent_commits = Json(*parents);
    }
    b.mode =
        *parse_state<BuildMode>(reader.one_of("mode", false, {"ci", "monitoring"}).value_or("ci"));
    b.ci_provider = reader.string("ciProvider", false);
    b.argos_sdk = reader.string("argosSdk", false);
    b.run_id = reader.string("runId", false);
    b.run_attempt = reader.integer("runAttempt", false, 1);
    input.skipped = reader.boolean("skipped").value_or(false);
    b.merge_queue = reader.boolean("mergeQueue").value_or(false);
    if (const Json* prs = reader.array("mergeQueuePrNumbers", false, 1)) {
        b.merge_queue_pr_numbers = Json::array();
        for (std::size_t i = 0; i < prs->size(); ++i) {
            const Json& number = (*prs)[i];
            const auto path = "mergeQueuePrNumbers." + std::to_string(i);
            if (!number.is_number_integer() || number.get<int64_t>() < 1) {
                validation.add(path, number.is_number_integer()
                                         ? "Too small: expected number to be >=1"
                                         : expected_message("number", &number));
            } else {
                b.merge_queue_pr_numbers.push_back(number);
            }
        }
        input.merge_queue_prs_given = !prs->empty();
    }
    b.subset = reader.boolean("subset").value_or(false);
    validation.throw_if_any();
    return input;
}

}  // namespace

void add_create_build(Host& host, const BuildEvents& events, const UploadPolicy& policy) {
    auto& identity = host.identity();
    auto& database = host.db();
    auto& blobs = host.blobs();
    auto& jobs = host.jobs();
    auto& log = host.log();
    host.routes().add_validated(
        Method::post, "/builds", AuthRequirement::project_token, RouteAccess::token_project(),
        parse_create_build_input, [&, host_ptr = &host](Request& request, CreateBuildInput& input) {
            const auto& principal = request.principal();
            Build& requested = input.build;
            check_bound_run(principal, requested);
            if (requested.parallel && !requested.parallel_nonce) {
                throw HttpError::bad_request(
                    "`parallelNonce` is required when `parallel` is `true`");
            }
            if (input.merge_queue_prs_given && !requested.merge_queue) {
                throw HttpError::bad_request(
                    "`mergeQueue` must be `true` when `mergeQueuePrNumbers` is provided");
            }
            const Project* project = &request.access().require_project();
            const auto dialect = database.dialect();
            int64_t build_id = 0;
            Json rendered = database.transaction([&](soci::session& session) {
                const BuildSettings settings = build_settings_of(session, project->id);
                check_untrusted_head(principal, requested, auto_approve_glob(settings, *project));
                check_screenshot_quota(quotas_of(settings, policy),
                                       static_cast<int64_t>(input.screenshots.size()));
                lock_build_counter(session, dialect, project->id);
                std::optional<Build> existing;
                if (requested.parallel) {
                    existing = find_parallel_build(session, dialect, project->id,
                                                   *requested.parallel_nonce, requested.name);
                    if (existing && input.skipped) {
                        build_id = existing->id;
                        return render_build(session, *existing, *project, host_ptr->public_url());
                    }
                    if (existing && existing->complete) {
                        throw HttpError::conflict("Build already finalized");
                    }
                }
                Build build = existing ? *existing : requested;
                if (!existing) {
                    build.project_id = project->id;
                    build.number = allocate_build_number(session, project->id);
                    build.created_at = build.updated_at = now_ms();
                    if (!build.parallel) {
                        build.parallel_nonce.reset();
                    }
                    if (input.skipped) {
                        build.type = BuildType::skipped;
                    }
                    insert_build(session, build);
                    if (principal.untrusted_head) {
                        mark_untrusted_head(session, build.id);
                    }
                    identity.touch_project(session, project->id, build.created_at);
                    events.publish(session, BuildEvent::created, build);
                    if (input.skipped) {
                        finalize_build(session, jobs, events, build);
                    }
                    log.info("build.created", {{"id", std::to_string(build.id)},
                                               {"number", std::to_string(build.number)},
                                               {"project", std::to_string(project->id)}});
                }
                build_id = build.id;
                return render_build(session, build, *project, host_ptr->public_url());
            });
            std::vector<Upload> traces;
            for (const auto& key : input.trace_keys) {
                traces.push_back({key, input.secure_form ? "application/zip" : ""});
            }
            return Response::json(
                {{"build", rendered},
                 {"screenshots",
                  upload_targets(database, blobs, project->id, build_id, input.screenshots,
                                 input.secure_form, policy.clock_skew_ms)},
                 {"pwTraces", upload_targets(database, blobs, project->id, build_id, traces,
                                             input.secure_form, policy.clock_skew_ms)}},
                201);
        });
}

}  // namespace loupe::builds
