#include "rules/rule_trigger.hpp"

#include <soci/soci.h>

#include "actions/event_facts.hpp"
#include "actions/messages.hpp"
#include "loupe/builds/events.hpp"
#include "loupe/crypto/random.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/reviews/events.hpp"
#include "rules/condition_match.hpp"
#include "store/rules.hpp"
#include "store/runs.hpp"

namespace loupe::automation {
namespace {

/// The facts of the build as the event told them, completed from the build as it reads now
/// (a review event carries no conclusion or counts).
EventFacts facts_of_build(Host& host, soci::session& session, builds::BuildsService& builds,
                          const builds::BuildFacts& build, const Project& project) {
    EventFacts facts;
    facts.account_slug = project.account_slug;
    facts.project_name = project.name;
    facts.build_id = build.id;
    facts.build_number = build.number;
    facts.build_name = build.name;
    facts.build_url = host.public_url() + "/" + project.account_slug + "/" + project.name +
                      "/builds/" + std::to_string(build.number);
    facts.branch = build.branch;
    facts.commit = build.commit;
    facts.pr_number = build.pr_number;
    facts.mode = std::string(builds::to_text(build.mode));
    facts.status = std::string(builds::to_text(build.status));
    if (auto current = builds.find_build_by_id(session, build.id)) {
        facts.conclusion = builds::optional_text(current->conclusion);
        facts.type = builds::optional_text(current->type);
        facts.stats = current->stats;
    }
    return facts;
}

/// One action run and its delivery job per action of `rule`, for the run `run_id`.
void queue_actions(soci::session& session, const ActionDelivery& delivery, const StoredRule& rule,
                   int64_t run_id, const EventFacts& facts, int64_t now) {
    int index = 0;
    for (const Json& action : rule.actions) {
        const std::string type = action.value("action", "");
        const Json payload = action.value("actionPayload", Json::object());
        const std::string key =
            facts.event_id + ":" + std::to_string(rule.id) + ":" + std::to_string(index);
        const int64_t action_run_id =
            insert_action_run(session, run_id, index, type, payload,
                              message_for_action(type, payload, facts), key, now);
        set_action_job(session, action_run_id, delivery.enqueue(session, action_run_id));
        ++index;
    }
}

void run_matching_rules(Host& host, soci::session& session, const ActionDelivery& delivery,
                        const EventFacts& facts, int64_t project_id) {
    const BuildFactsForRules tested{.branch = facts.branch,
                                    .name = facts.build_name,
                                    .mode = facts.mode,
                                    .conclusion = facts.conclusion,
                                    .type = facts.type};
    for (const StoredRule& rule : active_rules_for(session, project_id, facts.event)) {
        if (!conditions_match(rule.conditions, tested))
            continue;
        const int64_t now = now_ms();
        const auto run_id = insert_run(session,
                                       NewRun{.rule_id = rule.id,
                                              .project_id = project_id,
                                              .event_id = facts.event_id,
                                              .event = facts.event,
                                              .build_id = facts.build_id,
                                              .build_number = facts.build_number},
                                       now);
        if (!run_id)
            continue;  // this event already ran the rule
        queue_actions(session, delivery, rule, *run_id, facts, now);
        host.log().info("automation.rule_matched", {{"rule", std::to_string(rule.id)},
                                                    {"event", facts.event},
                                                    {"build", std::to_string(facts.build_id)}});
    }
}

}  // namespace

void subscribe_rules(Host& host, builds::BuildsService& builds, const ActionDelivery& delivery) {
    auto handle = [&host, &builds, &delivery](const builds::BuildFacts& build,
                                              const EventDelivery& event, const std::string& name,
                                              const std::function<void(EventFacts&)>& complete) {
        const auto project = host.identity().find_project(build.project_id);
        if (!project)
            return;  // deleted since
        host.db().transaction([&](soci::session& session) {
            EventFacts facts = facts_of_build(host, session, builds, build, *project);
            facts.event_id = event.event.id;
            facts.event = name;
            facts.occurred_at = event.event.published_at;
            complete(facts);
            run_matching_rules(host, session, delivery, facts, project->id);
        });
    };
    host.events()
        .subscriber("automation.rules")
        .on<builds::BuildConcluded>(
            [handle](const builds::BuildConcluded& concluded, const EventDelivery& event) {
                handle(concluded.build, event, "build.completed", [&](EventFacts& facts) {
                    // The event's own conclusion and counts: the build may read otherwise now.
                    facts.conclusion = std::string(builds::to_text(concluded.conclusion));
                    facts.type = builds::optional_text(concluded.type);
                    facts.stats = concluded.stats;
                    facts.status = std::string(builds::to_text(concluded.build.status));
                });
            })
        .on<reviews::ReviewSubmitted>([handle, &host](const reviews::ReviewSubmitted& submitted,
                                                      const EventDelivery& event) {
            if (submitted.automatic || submitted.decision == reviews::ReviewDecision::commented) {
                return;
            }
            std::string reviewer;
            if (submitted.user_id) {
                if (auto user = host.identity().find_user(*submitted.user_id)) {
                    reviewer = user->name.empty() ? user->slug : user->name;
                }
            }
            handle(submitted.build, event, "build.reviewed", [&](EventFacts& facts) {
                facts.review = submitted.decision == reviews::ReviewDecision::approved ? "approved"
                                                                                       : "rejected";
                facts.reviewer = reviewer;
            });
        });
}

int64_t run_rule_test(Host& host, soci::session& session, builds::BuildsService& builds,
                      const ActionDelivery& delivery, const Project& project, int64_t rule_id) {
    const auto rule = find_rule(session, project.id, rule_id);
    if (!rule) {
        throw HttpError::not_found("Automation rule not found");
    }
    EventFacts facts;
    const auto newest =
        builds.branch_builds(session, project.id, "default", project.default_base_branch, 1);
    if (!newest.empty()) {
        facts = facts_of_build(host, session, builds, builds::facts_of(newest.front()), project);
    } else {
        facts.account_slug = project.account_slug;
        facts.project_name = project.name;
        facts.build_url = host.public_url() + "/" + project.account_slug + "/" + project.name;
        facts.status = "no build yet";
    }
    facts.event = "test";
    facts.event_id = "test-" + crypto::random_hex(16);
    const int64_t now = now_ms();
    facts.occurred_at = now;
    const auto run_id = insert_run(session,
                                   NewRun{.rule_id = rule->id,
                                          .project_id = project.id,
                                          .event_id = facts.event_id,
                                          .event = facts.event,
                                          .build_id = facts.build_id,
                                          .build_number = facts.build_number},
                                   now);
    queue_actions(session, delivery, *rule, *run_id, facts, now);
    return *run_id;
}

}  // namespace loupe::automation
