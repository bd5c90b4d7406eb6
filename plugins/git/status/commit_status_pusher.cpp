#include "status/commit_status_pusher.hpp"

#include <algorithm>
#include <stdexcept>

#include "status/build_commit_status.hpp"
#include "store/commit_statuses.hpp"
#include "store/links.hpp"

namespace loupe::git {
namespace {

int64_t build_id_of(const Job& job) {
    return job.payload.at("buildId").get<int64_t>();
}

}  // namespace

CommitStatusPusher::CommitStatusPusher(Host& host, GitProvidersImpl& providers,
                                       builds::BuildsService& builds, const GitSettings& settings)
    : host_(host),
      providers_(providers),
      builds_(builds),
      settings_(settings),
      // A push takes at most one call's budget; the row is free again well after that.
      claim_lease_ms_(2 * settings.timeout_ms + 5'000) {}

void CommitStatusPusher::install() {
    host_.jobs().handle(
        status_push_job_kind, [this](const Job& job) { push(job); },
        [this](const Job& job, const std::string& error) { give_up(job, error); });
    host_.jobs().handle(status_expiry_job_kind, [this](const Job& job) { check_expiry(job); });
    subscribe_to_build_changes(
        host_, builds_, status_change_subscriber, settings_.status_push_attempts,
        [this](soci::session& session, BuildChange change, const builds::BuildSummary& build) {
            observe(session, change, build);
        });
}

void CommitStatusPusher::queue_push(soci::session& session, int64_t build_id, int64_t project_id) {
    const int64_t seq = request_push(session, build_id, project_id, now_ms());
    JobOptions options;
    options.max_attempts = settings_.status_push_attempts;
    host_.jobs().enqueue(session, status_push_job_kind, Json{{"buildId", build_id}, {"seq", seq}},
                         options);
}

void CommitStatusPusher::observe(soci::session& session, BuildChange change,
                                 const builds::BuildSummary& build) {
    if (!find_link(session, build.project_id)) {
        return;
    }
    queue_push(session, build.id, build.project_id);
    if (change == BuildChange::created) {
        JobOptions options;
        options.delay_ms =
            std::max<int64_t>(0, build.created_at + settings_.build_expiry_ms + 1'000 - now_ms());
        host_.jobs().enqueue(session, status_expiry_job_kind, Json{{"buildId", build.id}}, options);
    }
}

void CommitStatusPusher::check_expiry(const Job& job) {
    const auto build_id = build_id_of(job);
    host_.db().transaction([&](soci::session& session) {
        auto build = builds_.find_build_by_id(session, build_id);
        if (!build || build->status != builds::BuildStatus::expired ||
            !find_link(session, build->project_id)) {
            return;  // concluded (or gone) in time: its last push stands
        }
        queue_push(session, build->id, build->project_id);
    });
}

CommitStatusPusher::Plan CommitStatusPusher::plan(int64_t build_id) {
    Plan plan;
    auto session = host_.db().session();
    auto build = builds_.find_build_by_id(*session, build_id);
    if (!build) {
        return plan;
    }
    auto project = host_.identity().find_project(build->project_id);
    plan.link = find_link(*session, build->project_id);
    if (!project || !plan.link) {
        plan.link.reset();
        return plan;
    }
    const bool shared = links_to(*session, plan.link->provider, plan.link->repository).size() > 1;
    const auto resource = builds_.build_json(*session, *build, *project);
    // A merge-queue build reports on the queue's commit, never on the pull request's head.
    const auto& sha = build->merge_queue ? build->commit : build->head_sha;
    plan.status =
        build_commit_status(resource, sha, build->name, plan.link->provider,
                            shared ? std::optional<std::string>(project->name) : std::nullopt);
    if (auto last = last_pushed(*session, build_id)) {
        plan.unchanged = last->provider == provider_name(plan.link->provider) &&
                         last->sha == plan.status.sha && last->state == plan.status.state &&
                         last->description == plan.status.description &&
                         last->context == plan.status.context;
    }
    return plan;
}

void CommitStatusPusher::push(const Job& job) {
    const auto build_id = build_id_of(job);
    const auto seq = job.payload.at("seq").get<int64_t>();
    Claim claim;
    host_.db().transaction([&](soci::session& session) {
        const int64_t now = now_ms();
        claim = claim_push(session, build_id, seq, now, claim_lease_ms_);
        if (claim.result == ClaimResult::busy) {
            // Another push of this build is under way: look again once it is over.
            JobOptions options;
            options.max_attempts = settings_.status_push_attempts;
            options.delay_ms = std::clamp<int64_t>(claim.lease_until - now, 100, claim_lease_ms_);
            host_.jobs().enqueue(session, status_push_job_kind, job.payload, options);
        }
    });
    if (claim.result != ClaimResult::claimed) {
        return;
    }
    const auto release = [&](const std::string& error) {
        host_.db().transaction(
            [&](soci::session& session) { release_push(session, build_id, error, now_ms()); });
    };
    Plan plan;
    try {
        plan = this->plan(build_id);
    } catch (const std::exception& failure) {
        release(failure.what());
        throw;
    }
    if (!plan.link || plan.unchanged) {
        // Unlinked since, or the provider already shows exactly this: nothing to send.
        host_.db().transaction([&](soci::session& session) {
            mark_covered(session, build_id, claim.claimed_seq, now_ms());
        });
        return;
    }
    const auto result = providers_.push_commit_status(*plan.link, plan.status);
    const char* provider = provider_name(plan.link->provider);
    if (!result.ok()) {
        release(result.message);
        host_.log().warn("git.status_push_failed", {{"build", std::to_string(build_id)},
                                                    {"provider", provider},
                                                    {"attempt", std::to_string(job.attempt)},
                                                    {"error", result.message}});
        throw std::runtime_error(result.message);
    }
    host_.db().transaction([&](soci::session& session) {
        record_pushed(session, build_id, claim.claimed_seq,
                      PushedStatus{provider, plan.status.sha, plan.status.state,
                                   plan.status.description, plan.status.context},
                      now_ms());
    });
    host_.log().info("git.status_pushed", {{"build", std::to_string(build_id)},
                                           {"provider", provider},
                                           {"sha", plan.status.sha},
                                           {"state", plan.status.state}});
}

void CommitStatusPusher::give_up(const Job& job, const std::string& error) {
    const auto build_id = build_id_of(job);
    host_.db().transaction(
        [&](soci::session& session) { record_push_failed(session, build_id, error, now_ms()); });
    host_.log().warn("git.status_push_gave_up",
                     {{"build", std::to_string(build_id)}, {"error", error}});
}

}  // namespace loupe::git
