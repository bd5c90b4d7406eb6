#include "service/build_events.hpp"

#include "loupe/builds/events.hpp"
#include "service/build_summary.hpp"

namespace loupe::builds {

BuildEvents::BuildEvents(Events& events) : events_(events) {
    events_.publishes<BuildCreated>();
    events_.publishes<BuildFinalized>();
    events_.publishes<BuildConcluded>();
    events_.publishes<BuildFailed>();
}

void BuildEvents::publish(soci::session& session, BuildEvent event, const Build& build,
                          bool diff_failed) const {
    StatusInputs inputs;
    inputs.now_ms = now_ms();
    inputs.diff_job_failed = diff_failed;
    auto facts = build_facts(build, inputs);
    switch (event) {
        case BuildEvent::created:
            events_.publish(session, BuildCreated{std::move(facts)});
            return;
        case BuildEvent::finalized:
            events_.publish(session, BuildFinalized{std::move(facts), build.screenshot_count});
            return;
        case BuildEvent::concluded:
            events_.publish(
                session,
                BuildConcluded{std::move(facts), build.conclusion.value_or(Conclusion::no_changes),
                               build.type, build.stats, build.base_build_id});
            return;
        case BuildEvent::failed:
            events_.publish(session, BuildFailed{std::move(facts)});
            return;
    }
}

}  // namespace loupe::builds
