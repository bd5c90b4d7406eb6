#pragma once
// Durable events between plugins: an outbox on the job queue.
//
// A plugin publishes an event inside the transaction that caused it; the core writes one job
// per subscriber in that same transaction, so an event is delivered if and only if the change
// that caused it committed. Each subscriber handles its deliveries later, on a job worker of
// any instance that loaded it, with the job queue's retries and backoff; a subscriber that
// fails never rolls back the publisher, and never holds up another subscriber. A delivery may
// run more than once (an instance crashed mid-way; an attempt failed after writing): handlers
// MUST BE IDEMPOTENT, and each delivery carries the event's id to key that on. Deliveries of
// different events may run in any order and in parallel: read the current state of what the
// event names rather than trusting the order of arrival.
//
// An event type is a header-only struct in the publishing plugin's include folder
// (plugins/builds/include/loupe/builds/events.hpp), so a subscriber includes it and never
// links the publisher:
//
//   struct BuildConcluded {
//       static constexpr const char* event_type = "build.concluded";
//       static constexpr int event_version = 1;
//       int64_t build_id = 0;
//       ...
//   };
//   inline void to_json(loupe::Json& json, const BuildConcluded& event);    // found by ADL
//   inline void from_json(const loupe::Json& json, BuildConcluded& event);
//
// VERSIONING: a new field is a minor change (subscribers ignore what they do not read, and
// read a missing field as its default); a removed field or a changed meaning is a new
// event_version, which the publisher may publish beside the old one for a while. A subscription
// to a version that no enabled plugin publishes (while another version of that type is
// published) stops the start with a message naming both.
//
// Publisher, during install():  host.events().publishes<BuildConcluded>();
//            in its transaction: host.events().publish(sql, BuildConcluded{...});
// Subscriber, during install():
//   host.events()
//       .subscriber("hello.greeter", {.max_attempts = 3})
//       .on<loupe::builds::BuildConcluded>(
//           [](const loupe::builds::BuildConcluded& event, const loupe::EventDelivery& delivery) {
//               ... delivery.event.id ...
//           });
//
// A subscriber is a job kind (its name, prefixed with the plugin's name): `loupe jobs list
// --kind hello.greeter` shows its deliveries, each job's payload the event's envelope
// {"id", "type", "version", "publisher", "publishedAt", "data"}.
// THREADS: publishes<>(), subscriber() and on<>() during install() only; publish() from any
// thread once every plugin is installed. Handlers run on job worker threads.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "loupe/export.hpp"
#include "loupe/json.hpp"

namespace soci {
class session;
}

namespace loupe {

/// One published event, as every delivery of it carries it.
struct EventEnvelope {
    std::string id;            ///< unique per publication (a UUIDv7): key idempotency on it
    std::string type;          ///< "build.concluded"
    int version = 1;           ///< the type's event_version it was published at
    std::string publisher;     ///< the plugin that published it
    int64_t published_at = 0;  ///< epoch milliseconds, the publisher's clock
    Json data;                 ///< the event's own fields
};

/// One delivery of an event to one subscriber: a job of the subscriber's kind.
struct EventDelivery {
    const EventEnvelope& event;
    const std::string& subscriber;
    int64_t job_id = 0;
    int attempt = 1;       ///< 1 on the first run
    int max_attempts = 5;  ///< the run with attempt == max_attempts is the last one
};

/// Handles one delivery; throwing fails this attempt (retried with backoff until max_attempts).
using EventDeliveryHandler = std::function<void(const EventDelivery&)>;
/// Called once when a delivery failed its last attempt, with the last error.
using EventGiveUpHandler = std::function<void(const EventDelivery&, const std::string& last_error)>;

struct SubscriberOptions {
    int max_attempts = 5;
    EventGiveUpHandler on_give_up;  ///< may be empty
};

class Events;

/// The handlers of one subscriber, one per event type (see the header's comment).
class EventSubscriber {
public:
    EventSubscriber(Events& events, std::string name) : events_(events), name_(std::move(name)) {}

    /// Handles the deliveries of event type E: `handler(const E&, const EventDelivery&)`.
    template <class E, class Handler>
    EventSubscriber& on(Handler handler);

    const std::string& name() const { return name_; }

private:
    Events& events_;
    std::string name_;
};

class LOUPE_API Events {
public:
    virtual ~Events();

    /// Declares that this plugin publishes E at E::event_version (install() only). One plugin
    /// owns an event type; publishing an undeclared type or version throws std::logic_error.
    template <class E>
    void publishes() {
        declare(E::event_type, E::event_version);
    }

    /// Writes one delivery job per subscriber of E in `session`, the caller's transaction;
    /// returns the event's id. Costs nothing when nobody subscribes.
    template <class E>
    std::string publish(soci::session& session, const E& event) {
        return publish_raw(session, E::event_type, E::event_version, Json(event));
    }

    /// Declares a subscriber named `name` (a job kind: "<plugin>.<what it does>") with its
    /// retry policy, and returns it to add handlers with on<E>() (install() only).
    EventSubscriber subscriber(std::string name, SubscriberOptions options = {}) {
        add_subscriber(name, std::move(options));
        return EventSubscriber(*this, std::move(name));
    }

    /// What publishes<>(), publish(), subscriber() and on<>() call: the type by name.
    virtual void declare(const std::string& type, int version) = 0;
    virtual std::string publish_raw(soci::session& session, const std::string& type, int version,
                                    const Json& data) = 0;
    virtual void add_subscriber(const std::string& name, SubscriberOptions options) = 0;
    virtual void subscribe(const std::string& subscriber, const std::string& type, int version,
                           EventDeliveryHandler handler) = 0;
};

template <class E, class Handler>
EventSubscriber& EventSubscriber::on(Handler handler) {
    events_.subscribe(name_, E::event_type, E::event_version,
                      [handler = std::move(handler)](const EventDelivery& delivery) {
                          handler(delivery.event.data.template get<E>(), delivery);
                      });
    return *this;
}

/// Helpers for an event's to_json/from_json: an optional field is null when absent, and a
/// missing or null field reads as nullopt (or the default).
template <class T>
Json optional_json(const std::optional<T>& value) {
    return value ? Json(*value) : Json(nullptr);
}

template <class T>
std::optional<T> optional_field(const Json& json, const char* key) {
    if (!json.is_object() || !json.contains(key) || json[key].is_null()) {
        return std::nullopt;
    }
    return json[key].get<T>();
}

template <class T>
T field_or(const Json& json, const char* key, T fallback) {
    return optional_field<T>(json, key).value_or(std::move(fallback));
}

}  // namespace loupe
