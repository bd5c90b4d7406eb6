#include "status/commit_status_pusher.hpp"

#include <algorithm>
#include <stdexcept>

#include "loupe/builds/events.hpp"
#include "loupe/reviews/events.hpp"
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
        status_expiry_job_kind, [this](const Job& job) { check_expiry(job); },
        [this](const Job& job, const std::string& error) { give_up(build_id_of(job), error); });
    SubscriberOptions options;
    options.max_attempts = settings_.status_push_attempts;
    options.on_give_up = [this](const EventDelivery& delivery, const std::string& error) {
        give_up(delivery.event.data.at("build").at("id").get<int64_t>(), error);
    };
    host_.events()
        .subscriber(status_subscriber, options)
        .on<builds::BuildCreated>(
            [this](const builds::BuildCreated& created, const EventDelivery& delivery) {
                if (delivery.attempt == 1) {
                    queue_expiry_check(created.build);
                }
                push(created.build.id, delivery.attempt);
            })
        .on<builds::BuildConcluded>(
            [this](const builds::BuildConcluded& concluded, const EventDelivery& delivery) {
                push(concluded.build.id, delivery.attempt);
            })
        .on<builds::BuildFailed>(
            [this](const builds::BuildFailed& failed, const EventDelivery& delivery) {
                push(failed.build.id, delivery.attempt);
            })
        .on<reviews::BuildReviewStateChanged>(
            [this](const reviews::BuildReviewStateChanged& changed, const EventDelivery& delivery) {
                push(changed.build.id, delivery.attempt);
            });
}

void CommitStatusPusher::queue_expiry_check(const builds::BuildFacts& build) {
    host_.db().transaction([&](soci::session& session) {
        if (!find_link(session, build.project_id)) {
            return;
        }
        auto summary = builds_.find_build_by_id(session, build.id);
        if (!summary) {
            return;
        }
        JobOptions options;
        options.max_attempts = settings_.status_push_attempts;
        options.delay_ms = std::max<int64_t>(
            0, summary->created_at + settings_.build_expiry_ms + 1'000 - now_ms());
        host_.jobs().enqueue(session, status_expiry_job_kind, Json{{"buildId", build.id}}, options);
    });
}

void CommitStatusPusher::check_expiry(const Job& job) {
    const auto build_id = build_id_of(job);
    {
        auto session = host_.db().session();
        auto build = builds_.find_build_by_id(*session, build_id);
        if (!build || build->status != builds::BuildStatus::expired) {
            return;  // concluded (or gone) in time: its last push stands
        }
    }
    push(build_id, job.attempt);
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

void CommitStatusPusher::push(int64_t build_id, int attempt) {
    std::optional<Claim> claim;
    host_.db().transaction([&](soci::session& session) {
        claim.reset();
        auto build = builds_.find_build_by_id(session, build_id);
        if (!build || !find_link(session, build->project_id)) {
            return;  // gone, or its project is not linked: nothing to push
        }
        claim = claim_push(session, build_id, build->project_id, now_ms(), claim_lease_ms_);
    });
    if (!claim) {
        return;
    }
    if (claim->result == ClaimResult::busy) {
        // Another push of this build is under way: look again once it is over; it may have sent
        // an older state.
        const int64_t wait =
            std::clamp<int64_t>(claim->lease_until - now_ms(), 100, claim_lease_ms_);
        throw JobDeferred(wait,
                          "another push of build " + std::to_string(build_id) + " is under way");
    }
    const auto release_failed = [&](const std::string& error) {
        host_.db().transaction([&](soci::session& session) {
            release_failed_push(session, build_id, error, now_ms());
        });
    };
    Plan plan;
    try {
        plan = this->plan(build_id);
    } catch (const std::exception& failure) {
        release_failed(failure.what());
        throw;
    }
    if (!plan.link || plan.unchanged) {
        // Unlinked since, or the provider already shows exactly this: nothing to send.
        host_.db().transaction(
            [&](soci::session& session) { release_push(session, build_id, now_ms()); });
        return;
    }
    const auto result = providers_.push_commit_status(*plan.link, plan.status);
    const char* provider = provider_name(plan.link->provider);
    if (!result.ok()) {
        release_failed(result.message);
        host_.log().warn("git.status_push_failed", {{"build", std::to_string(build_id)},
                                                    {"provider", provider},
                                                    {"attempt", std::to_string(attempt)},
                                                    {"error", result.message}});
        throw std::runtime_error(result.message);
    }
    host_.db().transaction([&](soci::session& session) {
        record_pushed(session, build_id,
                      PushedStatus{provider, plan.status.sha, plan.status.state,
                                   plan.status.description, plan.status.context},
                      now_ms());
    });
    host_.log().info("git.status_pushed", {{"build", std::to_string(build_id)},
                                           {"provider", provider},
                                           {"sha", plan.status.sha},
                                           {"state", plan.status.state}});
}

void CommitStatusPusher::give_up(int64_t build_id, const std::string& error) {
    host_.db().transaction(
        [&](soci::session& session) { record_push_failed(session, build_id, error, now_ms()); });
    host_.log().warn("git.status_push_gave_up",
                     {{"build", std::to_string(build_id)}, {"error", error}});
}

}  // namespace loupe::git
