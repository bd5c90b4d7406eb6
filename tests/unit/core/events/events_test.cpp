// Durable events between plugins, on the core's real registries, job queue and workers (both
// databases): one delivery job per subscriber written in the publisher's transaction, handled
// later with retries, never rolling the publisher back; the catalogue checks made at start.
#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <regex>
#include <stdexcept>
#include <vector>

#include "blob/local_blob_store.hpp"
#include "blob/url_signer.hpp"
#include "core_context.hpp"
#include "events/event_catalogue.hpp"
#include "jobs/job_workers.hpp"
#include "plugin/host_impl.hpp"
#include "unit/core/jobs/job_fixture.hpp"

namespace fixture_events {

struct Pinged {
    static constexpr const char* event_type = "fixture.pinged";
    static constexpr int event_version = 1;
    int64_t n = 0;
};
inline void to_json(loupe::Json& json, const Pinged& event) {
    json = loupe::Json{{"n", event.n}};
}
inline void from_json(const loupe::Json& json, Pinged& event) {
    event.n = json.at("n").get<int64_t>();
}

/// The same type at a version nobody publishes.
struct PingedV2 {
    static constexpr const char* event_type = "fixture.pinged";
    static constexpr int event_version = 2;
};
inline void to_json(loupe::Json& json, const PingedV2&) {
    json = loupe::Json::object();
}
inline void from_json(const loupe::Json&, PingedV2&) {}

struct Unpublished {
    static constexpr const char* event_type = "fixture.unpublished";
    static constexpr int event_version = 1;
};
inline void to_json(loupe::Json& json, const Unpublished&) {
    json = loupe::Json::object();
}
inline void from_json(const loupe::Json&, Unpublished&) {}

}  // namespace fixture_events

namespace loupe {
namespace {

using fixture_events::Pinged;
using test::wait_until;

/// The core's context for plugin hosts created in the test, as `loupe serve` builds it.
struct EventsFixture : test::JobFixture {
    test::TempDir blob_dir;
    std::unique_ptr<Config> config = Config::load("", {{"log.level", "error"}});
    IdentityStore identity{*database};
    LocalBlobStore blobs{blob_dir.path(), UrlSigner(std::string(64, 's')),
                         [] { return std::string("http://127.0.0.1"); }};
    Registries registries;
    CoreContext context{*config,    *database, identity,        blobs,
                        registries, signal,    LogLevel::error, {}};
    std::vector<std::unique_ptr<HostImpl>> hosts;

    EventsFixture() {
        auto session = database->session();
        *session << "CREATE TABLE fixture_things (id INTEGER NOT NULL)";
    }

    HostImpl& host(const std::string& plugin) {
        return *hosts.emplace_back(std::make_unique<HostImpl>(plugin, context));
    }

    /// Commits every host, checks the catalogue and freezes, as Runtime::load_plugins does.
    void install_all() {
        for (auto& host : hosts) {
            host->commit();
        }
        check_event_subscriptions(registries);
        registries.frozen = true;
    }

    /// Publishes Pinged{n} from `publisher` in a transaction that also writes a row; throws
    /// (rolling both back) when `fail` is set. Returns the event's id.
    std::string publish(Host& publisher, int64_t n, bool fail = false) {
        return database->transaction([&](soci::session& session) {
            session << "INSERT INTO fixture_things (id) VALUES (:n)", soci::use(n);
            auto id = publisher.events().publish(session, Pinged{n});
            if (fail) {
                throw std::runtime_error("the publisher fails");
            }
            return id;
        });
    }

    int64_t things() {
        auto session = database->session();
        int64_t count = 0;
        *session << "SELECT COUNT(*) FROM fixture_things", soci::into(count);
        return count;
    }

    std::vector<JobRow> deliveries(const std::string& subscriber) {
        JobFilter filter;
        filter.kind = subscriber;
        filter.status = "queued";
        return list_jobs(*database, filter);
    }

    std::unique_ptr<JobWorkers> start_workers() {
        auto workers = std::make_unique<JobWorkers>(*database, registries.job_handlers, settings(),
                                                    log, signal);
        workers->start();
        return workers;
    }
};

std::string logic_error_of(const std::function<void()>& work) {
    try {
        work();
    } catch (const std::logic_error& error) {
        return error.what();
    }
    return "no std::logic_error";
}

TEST_CASE_FIXTURE(EventsFixture,
                  "events: one delivery job per subscriber, written in the publisher's "
                  "transaction") {
    auto& publisher = host("pub");
    publisher.events().publishes<Pinged>();
    for (const std::string plugin : {"alpha", "beta"}) {
        host(plugin)
            .events()
            .subscriber(plugin + ".listener")
            .on<Pinged>([](const Pinged&, const EventDelivery&) {});
    }
    install_all();

    const auto id = publish(publisher, 7);
    // A UUIDv7: time-ordered, version 7, RFC 9562 variant.
    CHECK(std::regex_match(
        id, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")));
    for (const std::string subscriber : {"alpha.listener", "beta.listener"}) {
        const auto jobs = deliveries(subscriber);
        REQUIRE(jobs.size() == 1);
        CHECK(jobs[0].max_attempts == 5);
        const auto& payload = jobs[0].payload;
        CHECK(payload["id"] == id);
        CHECK(payload["type"] == "fixture.pinged");
        CHECK(payload["version"] == 1);
        CHECK(payload["publisher"] == "pub");
        CHECK(payload["publishedAt"].get<int64_t>() > 0);
        CHECK(payload["data"] == Json{{"n", 7}});
    }
    // Rolled back with the publisher's change: no delivery, no row.
    CHECK_THROWS(publish(publisher, 8, true));
    CHECK(things() == 1);
    CHECK(deliveries("alpha.listener").size() == 1);
    // Each publication is an event of its own.
    CHECK(publish(publisher, 9) != id);
    CHECK(deliveries("beta.listener").size() == 2);
}

TEST_CASE_FIXTURE(EventsFixture,
                  "events: a failing subscriber is retried with the same event id, and neither "
                  "the publisher nor another subscriber notices") {
    auto& publisher = host("pub");
    publisher.events().publishes<Pinged>();
    std::mutex mutex;
    std::vector<std::pair<std::string, int>> flaky_runs;  // (event id, attempt)
    std::atomic<int> steady_runs{0};
    host("flaky")
        .events()
        .subscriber("flaky.listener")
        .on<Pinged>([&](const Pinged& event, const EventDelivery& delivery) {
            CHECK(event.n == 3);
            CHECK(delivery.subscriber == "flaky.listener");
            std::lock_guard lock(mutex);
            flaky_runs.emplace_back(delivery.event.id, delivery.attempt);
            if (delivery.attempt < 3) {
                throw std::runtime_error("not yet");
            }
        });
    host("steady")
        .events()
        .subscriber("steady.listener")
        .on<Pinged>([&](const Pinged&, const EventDelivery&) { ++steady_runs; });
    install_all();

    const auto id = publish(publisher, 3);
    CHECK(things() == 1);
    auto workers = start_workers();
    REQUIRE(wait_until([&] {
        std::lock_guard lock(mutex);
        return flaky_runs.size() == 3 && steady_runs == 1;
    }));
    workers->stop();
    CHECK(flaky_runs == std::vector<std::pair<std::string, int>>{{id, 1}, {id, 2}, {id, 3}});
    CHECK(steady_runs == 1);
    CHECK(count("done") == 2);
    CHECK(things() == 1);
}

TEST_CASE_FIXTURE(EventsFixture,
                  "events: a delivery that fails its last attempt is marked failed and its "
                  "subscriber told once") {
    auto& publisher = host("pub");
    publisher.events().publishes<Pinged>();
    std::mutex mutex;
    std::vector<std::string> given_up;
    SubscriberOptions options;
    options.max_attempts = 2;
    options.on_give_up = [&](const EventDelivery& delivery, const std::string& error) {
        std::lock_guard lock(mutex);
        given_up.push_back(delivery.event.type + " " + std::to_string(delivery.attempt) + " " +
                           error);
    };
    host("doomed")
        .events()
        .subscriber("doomed.listener", options)
        .on<Pinged>(
            [](const Pinged&, const EventDelivery&) { throw std::runtime_error("always"); });
    install_all();

    publish(publisher, 1);
    auto workers = start_workers();
    REQUIRE(wait_until([&] { return count("failed") == 1; }));
    REQUIRE(wait_until([&] {
        std::lock_guard lock(mutex);
        return !given_up.empty();
    }));
    workers->stop();
    CHECK(given_up == std::vector<std::string>{"fixture.pinged 2 always"});
    JobFilter failed;
    failed.status = "failed";
    const auto jobs = list_jobs(*database, failed);
    REQUIRE(jobs.size() == 1);
    CHECK(jobs[0].kind == "doomed.listener");
    CHECK(jobs[0].attempts == 2);
    CHECK(jobs[0].last_error == "always");
    CHECK(things() == 1);
}

TEST_CASE_FIXTURE(EventsFixture,
                  "events: a delivery nobody handles any more is done; a payload that is not an "
                  "event fails") {
    host("listen")
        .events()
        .subscriber("listen.events")
        .on<Pinged>([](const Pinged&, const EventDelivery&) {});
    install_all();
    // Queued by an earlier version that subscribed to another type, or written by hand.
    const auto stale = enqueue("listen.events", {{"id", "x"},
                                                 {"type", "fixture.removed"},
                                                 {"version", 1},
                                                 {"publisher", "gone"},
                                                 {"data", Json::object()}});
    JobOptions once;
    once.max_attempts = 1;
    const auto broken = enqueue("listen.events", {{"buildId", 4}}, once);
    auto workers = start_workers();
    REQUIRE(wait_until([&] { return job(stale).status == "done"; }));
    REQUIRE(wait_until([&] { return job(broken).status == "failed"; }));
    workers->stop();
    CHECK(job(broken).last_error ==
          std::optional<std::string>("not an event delivery: the payload has no \"id\""));
    CHECK(job(stale).last_error == std::nullopt);
}

TEST_CASE_FIXTURE(EventsFixture, "events: what a plugin may declare, subscribe and publish") {
    auto& publisher = host("pub");
    publisher.events().publishes<Pinged>();
    auto& other = host("other");
    CHECK(logic_error_of([&] { other.events().subscriber("listener"); }) ==
          "event subscriber 'listener' of plugin 'other' must be named 'other.<name>'");
    CHECK(logic_error_of([&] { other.events().subscriber("pub.listener"); }) ==
          "event subscriber 'pub.listener' of plugin 'other' must be named 'other.<name>'");
    auto subscriber = other.events().subscriber("other.listener");
    subscriber.on<Pinged>([](const Pinged&, const EventDelivery&) {});
    CHECK(logic_error_of([&] {
              subscriber.on<Pinged>([](const Pinged&, const EventDelivery&) {});
          }) == "subscriber 'other.listener' subscribes to event 'fixture.pinged' version 1 twice");
    CHECK(logic_error_of([&] {
              other.events().subscribe("other.undeclared", "fixture.pinged", 1,
                                       [](const EventDelivery&) {});
          }) ==
          "event subscriber 'other.undeclared' is not declared (events().subscriber(name) "
          "first)");
    CHECK(logic_error_of([&] { other.jobs().handle("other.listener", [](const Job&) {}); }) ==
          "job kind 'other.listener' registered twice");
    other.events()
        .subscriber("other.idle")
        .on<fixture_events::Unpublished>(
            [](const fixture_events::Unpublished&, const EventDelivery&) {});
    // Publishing before every plugin is installed: subscriptions may still be missing.
    CHECK(logic_error_of([&] {
              auto session = database->session();
              publisher.events().publish(*session, Pinged{1});
          }) == "plugin 'pub' published event 'fixture.pinged' before every plugin was installed");
    install_all();
    CHECK(idle_event_subscriptions(registries) ==
          std::vector<std::string>{"other: other.idle <- fixture.unpublished v1"});
    // Only the declaring plugin publishes a type, and only the versions it declared.
    CHECK(logic_error_of([&] {
              auto session = database->session();
              other.events().publish(*session, Pinged{1});
          }) ==
          "plugin 'other' published event 'fixture.pinged' version 1 without declaring it "
          "(events().publishes<E>())");
    CHECK(logic_error_of([&] {
              auto session = database->session();
              publisher.events().publish(*session, fixture_events::PingedV2{});
          }) ==
          "plugin 'pub' published event 'fixture.pinged' version 2 without declaring it "
          "(events().publishes<E>())");
    // Registering after install() is refused like every registration.
    CHECK(logic_error_of([&] {
              publisher.events().publishes<fixture_events::PingedV2>();
          }).starts_with("plugin 'pub' registered a published event after install()"));
}

TEST_CASE_FIXTURE(EventsFixture,
                  "events: the start refuses a subscription to a version the publisher does not "
                  "publish, a second publisher of a type and a subscriber without handlers") {
    host("pub").events().publishes<Pinged>();
    host("newer")
        .events()
        .subscriber("newer.listener")
        .on<fixture_events::PingedV2>([](const fixture_events::PingedV2&, const EventDelivery&) {});
    for (auto& installed : hosts) {
        installed->commit();
    }
    try {
        check_event_subscriptions(registries);
        FAIL("expected a refusal");
    } catch (const std::runtime_error& error) {
        CHECK(std::string(error.what()) ==
              "plugin 'newer' subscribes 'newer.listener' to event 'fixture.pinged' version 2, "
              "but plugin 'pub' publishes version 1 (rebuild one against the other)");
    }

    auto& second = host("second");
    second.events().publishes<Pinged>();
    try {
        second.commit();
        FAIL("expected a conflict");
    } catch (const std::runtime_error& error) {
        CHECK(std::string(error.what()) ==
              "plugin 'second' registers event type 'fixture.pinged', already registered by "
              "plugin 'pub'");
    }
    second.discard();

    auto& empty = host("empty");
    empty.events().subscriber("empty.listener");
    CHECK(logic_error_of([&] { empty.commit(); }) ==
          "event subscriber 'empty.listener' handles no event");
}

}  // namespace
}  // namespace loupe
