#pragma once
// Process-wide tables filled by the plugins' install() (through their staged Hosts) and by the
// core itself, frozen before serving: after freeze() they are read without locks.

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "db/migration_runner.hpp"
#include "events/event_subscriber_table.hpp"
#include "jobs/job_kinds.hpp"
#include "loupe/auth/project_fields.hpp"
#include "loupe/auth/token_resolvers.hpp"
#include "loupe/blob/blob_references.hpp"
#include "loupe/cli/commands.hpp"
#include "loupe/host.hpp"
#include "loupe/http/routes.hpp"

namespace loupe {

class RegisteredListener;

struct RegisteredRoute {
    Route route;
    std::string plugin;
};

struct RegisteredCommand {
    std::string name;
    std::string summary;
    CommandFn run;
    std::string plugin;
};

struct RegisteredService {
    int version = 0;
    void* object = nullptr;
    std::string plugin;
};

struct RegisteredBlobFinder {
    BlobReferenceFinder find;
    std::string plugin;
};

/// A subscriber's interest in one event type: deliveries of `version` become jobs of the
/// subscriber's kind.
struct EventSubscription {
    std::string subscriber;
    std::string plugin;
    int version = 1;
    int max_attempts = 5;
};

/// The plugin that publishes an event type, and the versions it declared.
struct EventPublisher {
    std::string plugin;
    std::set<int> versions;
};

struct Registries {
    std::vector<RegisteredRoute> routes;
    /// Extra listeners, each with its own route table (http/registered_listener.hpp).
    std::vector<std::shared_ptr<RegisteredListener>> listeners;
    std::vector<MigrationTrack> migrations;         ///< in install order
    JobKindTable job_handlers;                      ///< kind → handler and give-up handler
    std::map<std::string, std::string> job_owners;  ///< kind → plugin
    std::map<std::string, RegisteredService> services;
    std::vector<RegisteredCommand> commands;
    std::map<std::string, TokenResolver> token_resolvers;
    std::vector<ProjectFieldsWriter> project_field_writers;             ///< in install order
    std::map<std::string, ProjectFieldSetter> project_field_setters;    ///< field → its owner's
    std::vector<SessionResolver> session_resolvers;                     ///< in install order
    std::multimap<std::string, EventSubscription> event_subscriptions;  ///< by event type
    std::map<std::string, EventPublisher> event_publishers;             ///< by event type
    /// The subscribers' dispatch tables, which their job handlers point into.
    std::vector<std::unique_ptr<EventSubscriberTable>> event_subscribers;
    std::vector<RegisteredBlobFinder> blob_finders;
    std::vector<std::function<void()>> ready_hooks;
    std::vector<std::function<void()>> shutdown_hooks;  ///< run in reverse
    std::vector<BootstrapHook> bootstrap_hooks;
    bool frozen = false;
};

}  // namespace loupe
