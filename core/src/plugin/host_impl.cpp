#include "plugin/host_impl.hpp"

#include <stdexcept>
#include <utility>

#include "auth/access_gate.hpp"
#include "db/transaction.hpp"
#include "events/event_envelope.hpp"
#include "events/event_outbox.hpp"
#include "http/registered_listener.hpp"
#include "identity/project_core_fields.hpp"
#include "jobs/job_store.hpp"
#include "log/stderr_logger.hpp"

namespace loupe {
namespace {

void require_open(bool committed, const std::string& plugin, const char* what) {
    if (committed) {
        throw std::logic_error("plugin '" + plugin + "' registered " + what +
                               " after install(); registration is only allowed during install()");
    }
}

}  // namespace

std::set<std::string> referenced_blobs(const Registries& registries, soci::session& session,
                                       const std::vector<std::string>& keys) {
    std::set<std::string> referenced;
    if (keys.empty()) {
        return referenced;
    }
    for (const auto& finder : registries.blob_finders) {
        referenced.merge(finder.find(session, keys));
    }
    return referenced;
}

struct HostImpl::Staged {
    explicit Staged(HostImpl& host) : host_(host) {}

    HostImpl& host_;
    bool committed = false;
    std::vector<Route> routes;
    std::vector<std::shared_ptr<RegisteredListener>> listeners;
    std::vector<MigrationStep> migrations;
    JobKindTable jobs;
    std::map<std::string, RegisteredService> services;
    std::vector<RegisteredCommand> commands;
    std::map<std::string, TokenResolver> token_resolvers;
    std::vector<ProjectFieldsWriter> project_field_writers;
    std::map<std::string, ProjectFieldSetter> project_field_setters;
    std::vector<SessionResolver> session_resolvers;
    std::map<std::string, std::set<int>> published_events;  ///< type → versions
    std::vector<std::unique_ptr<EventSubscriberTable>> subscribers;
    std::vector<BlobReferenceFinder> blob_finders;
    std::vector<std::function<void()>> ready_hooks;
    std::vector<std::function<void()>> shutdown_hooks;
    std::vector<BootstrapHook> bootstrap_hooks;
    std::unique_ptr<ConfigView> config;
    std::unique_ptr<Logger> log;

    struct StagedRoutes final : Routes {
        explicit StagedRoutes(Staged& s) : s_(s) {}
        void add(Route route) override {
            require_open(s_.committed, s_.host_.plugin_name_, "a route");
            // Every route says which object's permission guards it, or why it is public.
            if (const auto problem = route_access_problem(route)) {
                throw std::invalid_argument("route " + std::string(to_string(route.method)) + " " +
                                            route.pattern + " " + *problem);
            }
            s_.routes.push_back(std::move(route));
        }
        using Routes::add;
        Staged& s_;
    } routes_facade{*this};

    struct StagedListeners final : Listeners {
        explicit StagedListeners(Staged& s) : s_(s) {}
        Listener& add(ListenerSpec spec) override {
            require_open(s_.committed, s_.host_.plugin_name_, "a listener");
            auto listener =
                std::make_shared<RegisteredListener>(std::move(spec), s_.host_.plugin_name_);
            for (const auto* table : {&s_.listeners, &s_.host_.core_.registries.listeners}) {
                for (const auto& existing : *table) {
                    if (existing->name() == listener->name()) {
                        throw std::logic_error("plugin '" + s_.host_.plugin_name_ +
                                               "' asked for listener '" + listener->name() +
                                               "', already asked for by plugin '" +
                                               existing->plugin() + "'");
                    }
                }
            }
            s_.listeners.push_back(listener);
            return *listener;
        }
        Staged& s_;
    } listeners_facade{*this};

    struct StagedMigrations final : Migrations {
        explicit StagedMigrations(Staged& s) : s_(s) {}
        void add(int version, std::string name, std::string sql) override {
            require_open(s_.committed, s_.host_.plugin_name_, "a migration");
            s_.migrations.push_back(MigrationStep{version, std::move(name), std::move(sql)});
        }
        Staged& s_;
    } migrations_facade{*this};

    struct StagedJobs final : JobQueue {
        explicit StagedJobs(Staged& s) : s_(s) {}
        void handle(std::string kind, JobHandler handler, JobGiveUpHandler on_give_up) override {
            require_open(s_.committed, s_.host_.plugin_name_, "a job handler");
            if (!handler) {
                throw std::logic_error("job kind '" + kind + "' registered without a handler");
            }
            if (!s_.jobs.emplace(kind, JobKindHandlers{std::move(handler), std::move(on_give_up)})
                     .second) {
                throw std::logic_error("job kind '" + kind + "' registered twice");
            }
        }
        int64_t enqueue(soci::session& session, const std::string& kind, const Json& payload,
                        JobOptions options) override {
            const auto& registries = s_.host_.core_.registries;
            if (registries.frozen && !registries.job_handlers.contains(kind)) {
                throw std::logic_error("no plugin handles job kind '" + kind + "'");
            }
            const int64_t id = enqueue_job(session, kind, payload, options);
            // The workers may only see the job once the transaction commits.
            run_after_commit([&signal = s_.host_.core_.job_signal] { signal.notify(); });
            return id;
        }
        Staged& s_;
    } jobs_facade{*this};

    struct StagedServices final : Services {
        explicit StagedServices(Staged& s) : s_(s) {}
        void provide_raw(const std::string& name, int version, void* object) override {
            require_open(s_.committed, s_.host_.plugin_name_, "a service");
            s_.services[name] = RegisteredService{version, object, s_.host_.plugin_name_};
        }
        void* find_raw(const std::string& name, int version) override {
            for (const auto* table : {&s_.services, &s_.host_.core_.registries.services}) {
                auto it = table->find(name);
                if (it != table->end() && it->second.version == version) {
                    return it->second.object;
                }
            }
            return nullptr;
        }
        void* require_raw(const std::string& name, int version) override {
            if (void* object = find_raw(name, version)) {
                return object;
            }
            throw std::runtime_error("plugin '" + s_.host_.plugin_name_ + "' requires service '" +
                                     name + "' version " + std::to_string(version) +
                                     ", which no enabled plugin provides");
        }
        Staged& s_;
    } services_facade{*this};

    struct StagedEvents final : Events {
        explicit StagedEvents(Staged& s) : s_(s) {}
        void declare(const std::string& type, int version) override {
            require_open(s_.committed, s_.host_.plugin_name_, "a published event");
            s_.published_events[type].insert(version);
        }
        std::string publish_raw(soci::session& session, const std::string& type, int version,
                                const Json& data) override {
            const auto& plugin = s_.host_.plugin_name_;
            const auto& registries = s_.host_.core_.registries;
            if (!registries.frozen) {
                throw std::logic_error("plugin '" + plugin + "' published event '" + type +
                                       "' before every plugin was installed");
            }
            const auto publisher = registries.event_publishers.find(type);
            if (publisher == registries.event_publishers.end() ||
                publisher->second.plugin != plugin ||
                !publisher->second.versions.contains(version)) {
                throw std::logic_error("plugin '" + plugin + "' published event '" + type +
                                       "' version " + std::to_string(version) +
                                       " without declaring it (events().publishes<E>())");
            }
            EventEnvelope envelope{new_event_id(), type, version, plugin, now_ms(), data};
            if (write_deliveries(session, registries, envelope) > 0) {
                // The workers may only see the deliveries once the transaction commits.
                run_after_commit([&signal = s_.host_.core_.job_signal] { signal.notify(); });
            }
            return envelope.id;
        }
        void add_subscriber(const std::string& name, SubscriberOptions options) override {
            const auto& plugin = s_.host_.plugin_name_;
            require_open(s_.committed, plugin, "an event subscriber");
            if (!name.starts_with(plugin + ".") || name.size() == plugin.size() + 1) {
                throw std::logic_error("event subscriber '" + name + "' of plugin '" + plugin +
                                       "' must be named '" + plugin + ".<name>'");
            }
            if (options.max_attempts < 1) {
                throw std::logic_error("event subscriber '" + name + "' needs max_attempts >= 1");
            }
            if (s_.jobs.contains(name)) {
                throw std::logic_error("job kind '" + name + "' registered twice");
            }
            auto& table = *s_.subscribers.emplace_back(
                std::make_unique<EventSubscriberTable>(name, std::move(options), *s_.log));
            s_.jobs.emplace(name, subscriber_job_handlers(table));
        }
        void subscribe(const std::string& subscriber, const std::string& type, int version,
                       EventDeliveryHandler handler) override {
            require_open(s_.committed, s_.host_.plugin_name_, "an event subscription");
            for (auto& table : s_.subscribers) {
                if (table->name() == subscriber) {
                    table->add(type, version, std::move(handler));
                    return;
                }
            }
            throw std::logic_error("event subscriber '" + subscriber +
                                   "' is not declared (events().subscriber(name) first)");
        }
        Staged& s_;
    } events_facade{*this};

    struct StagedCommands final : Commands {
        explicit StagedCommands(Staged& s) : s_(s) {}
        void add(std::string name, std::string summary, CommandFn run) override {
            require_open(s_.committed, s_.host_.plugin_name_, "a command");
            s_.commands.push_back(RegisteredCommand{std::move(name), std::move(summary),
                                                    std::move(run), s_.host_.plugin_name_});
        }
        Staged& s_;
    } commands_facade{*this};

    struct StagedBlobReferences final : BlobReferences {
        explicit StagedBlobReferences(Staged& s) : s_(s) {}
        void add(BlobReferenceFinder finder) override {
            require_open(s_.committed, s_.host_.plugin_name_, "a blob reference finder");
            s_.blob_finders.push_back(std::move(finder));
        }
        std::set<std::string> referenced(soci::session& session,
                                         const std::vector<std::string>& keys) override {
            return referenced_blobs(s_.host_.core_.registries, session, keys);
        }
        Staged& s_;
    } blob_references_facade{*this};

    struct StagedTokenResolvers final : TokenResolvers {
        explicit StagedTokenResolvers(Staged& s) : s_(s) {}
        void add(std::string prefix, TokenResolver resolver) override {
            require_open(s_.committed, s_.host_.plugin_name_, "a token resolver");
            s_.token_resolvers[std::move(prefix)] = std::move(resolver);
        }
        void add_session(SessionResolver resolver) override {
            require_open(s_.committed, s_.host_.plugin_name_, "a session resolver");
            s_.session_resolvers.push_back(std::move(resolver));
        }
        Staged& s_;
    } token_resolvers_facade{*this};

    struct StagedProjectFields final : ProjectFields {
        explicit StagedProjectFields(Staged& s) : s_(s) {}
        void add(ProjectFieldsWriter writer) override {
            require_open(s_.committed, s_.host_.plugin_name_, "project fields");
            s_.project_field_writers.push_back(std::move(writer));
        }
        void add_setter(std::string field, ProjectFieldSetter setter) override {
            require_open(s_.committed, s_.host_.plugin_name_, "a project field setter");
            if (core_project_field_setters().contains(field)) {
                throw std::logic_error("project field \"" + field + "\" belongs to the core");
            }
            if (!s_.project_field_setters.emplace(field, std::move(setter)).second) {
                throw std::logic_error("project field \"" + field + "\" has a setter already");
            }
        }
        Staged& s_;
    } project_fields_facade{*this};
};

HostImpl::HostImpl(std::string plugin_name, CoreContext& core)
    : plugin_name_(std::move(plugin_name)), core_(core), staged_(std::make_unique<Staged>(*this)) {
    staged_->config = core_.config.view("plugins." + plugin_name_ + ".");
    staged_->log = std::make_unique<StderrLogger>(plugin_name_, core_.log_level);
}

HostImpl::~HostImpl() {
    // The last kept first: an object kept later may refer to one kept before it.
    while (!kept_.empty()) {
        kept_.pop_back();
    }
}

Routes& HostImpl::routes() {
    return staged_->routes_facade;
}
Listeners& HostImpl::listeners() {
    return staged_->listeners_facade;
}
Migrations& HostImpl::migrations() {
    return staged_->migrations_facade;
}
JobQueue& HostImpl::jobs() {
    return staged_->jobs_facade;
}
Services& HostImpl::services() {
    return staged_->services_facade;
}
Events& HostImpl::events() {
    return staged_->events_facade;
}
Commands& HostImpl::commands() {
    return staged_->commands_facade;
}
BlobReferences& HostImpl::blob_references() {
    return staged_->blob_references_facade;
}
TokenResolvers& HostImpl::token_resolvers() {
    return staged_->token_resolvers_facade;
}
ProjectFields& HostImpl::project_fields() {
    return staged_->project_fields_facade;
}
const ConfigView& HostImpl::config() {
    return *staged_->config;
}
Logger& HostImpl::log() {
    return *staged_->log;
}

std::string HostImpl::public_url() {
    return core_.public_url.empty() ? public_url_of(core_.config) : core_.public_url;
}

void HostImpl::on_ready(std::function<void()> hook) {
    require_open(staged_->committed, plugin_name_, "an on_ready hook");
    staged_->ready_hooks.push_back(std::move(hook));
}

void HostImpl::on_shutdown(std::function<void()> hook) {
    require_open(staged_->committed, plugin_name_, "an on_shutdown hook");
    staged_->shutdown_hooks.push_back(std::move(hook));
}

void HostImpl::keep_object(std::shared_ptr<void> object) {
    kept_.push_back(std::move(object));
}

void HostImpl::on_bootstrap(BootstrapHook hook) {
    require_open(staged_->committed, plugin_name_, "an on_bootstrap hook");
    staged_->bootstrap_hooks.push_back(std::move(hook));
}

void HostImpl::commit() {
    auto& registries = core_.registries;
    auto& s = *staged_;
    if (registries.frozen) {
        throw std::logic_error("registries are frozen; plugin '" + plugin_name_ +
                               "' cannot be committed");
    }
    auto conflict = [&](const std::string& what, const std::string& owner) {
        return std::runtime_error("plugin '" + plugin_name_ + "' registers " + what +
                                  ", already registered by plugin '" + owner + "'");
    };
    for (const auto& [kind, _] : s.jobs) {
        if (auto it = registries.job_owners.find(kind); it != registries.job_owners.end()) {
            throw conflict("job kind '" + kind + "'", it->second);
        }
    }
    for (const auto& [name, _] : s.services) {
        if (auto it = registries.services.find(name); it != registries.services.end()) {
            throw conflict("service '" + name + "'", it->second.plugin);
        }
    }
    for (const auto& command : s.commands) {
        for (const auto& existing : registries.commands) {
            if (existing.name == command.name) {
                throw conflict("command '" + command.name + "'", existing.plugin);
            }
        }
    }
    for (const auto& [prefix, _] : s.token_resolvers) {
        if (registries.token_resolvers.contains(prefix)) {
            throw conflict("token prefix '" + prefix + "'", "another");
        }
    }
    for (const auto& [type, _] : s.published_events) {
        if (auto it = registries.event_publishers.find(type);
            it != registries.event_publishers.end()) {
            throw conflict("event type '" + type + "'", it->second.plugin);
        }
    }
    for (const auto& table : s.subscribers) {
        if (table->handlers().empty()) {
            throw std::logic_error("event subscriber '" + table->name() + "' handles no event");
        }
    }

    for (const auto& listener : s.listeners) {
        for (const auto& existing : registries.listeners) {
            if (existing->name() == listener->name()) {
                throw conflict("listener '" + listener->name() + "'", existing->plugin());
            }
        }
    }

    for (auto& route : s.routes) {
        registries.routes.push_back(RegisteredRoute{std::move(route), plugin_name_});
    }
    for (auto& listener : s.listeners) {
        listener->close_registration();
        registries.listeners.push_back(std::move(listener));
    }
    if (!s.migrations.empty()) {
        registries.migrations.push_back(MigrationTrack{plugin_name_, std::move(s.migrations)});
    }
    for (auto& [kind, handlers] : s.jobs) {
        registries.job_owners[kind] = plugin_name_;
        registries.job_handlers[kind] = std::move(handlers);
    }
    for (auto& [name, service] : s.services) {
        registries.services[name] = service;
    }
    for (auto& command : s.commands) {
        registries.commands.push_back(std::move(command));
    }
    for (auto& [prefix, resolver] : s.token_resolvers) {
        registries.token_resolvers[prefix] = std::move(resolver);
    }
    for (auto& writer : s.project_field_writers) {
        registries.project_field_writers.push_back(std::move(writer));
    }
    for (auto& [field, setter] : s.project_field_setters) {
        registries.project_field_setters[field] = std::move(setter);
    }
    for (auto& resolver : s.session_resolvers) {
        registries.session_resolvers.push_back(std::move(resolver));
    }
    for (auto& hook : s.bootstrap_hooks) {
        registries.bootstrap_hooks.push_back(std::move(hook));
    }
    for (auto& [type, versions] : s.published_events) {
        registries.event_publishers[type] = EventPublisher{plugin_name_, std::move(versions)};
    }
    for (auto& table : s.subscribers) {
        for (const auto& [key, _] : table->handlers()) {
            registries.event_subscriptions.emplace(
                key.first,
                EventSubscription{table->name(), plugin_name_, key.second, table->max_attempts()});
        }
        registries.event_subscribers.push_back(std::move(table));
    }
    for (auto& finder : s.blob_finders) {
        registries.blob_finders.push_back(RegisteredBlobFinder{std::move(finder), plugin_name_});
    }
    for (auto& hook : s.ready_hooks) {
        registries.ready_hooks.push_back(std::move(hook));
    }
    for (auto& hook : s.shutdown_hooks) {
        registries.shutdown_hooks.push_back(std::move(hook));
    }
    discard();
    s.committed = true;
}

void HostImpl::discard() {
    auto& s = *staged_;
    s.routes.clear();
    s.listeners.clear();
    s.migrations.clear();
    s.jobs.clear();
    s.services.clear();
    s.commands.clear();
    s.token_resolvers.clear();
    s.project_field_writers.clear();
    s.project_field_setters.clear();
    s.session_resolvers.clear();
    s.bootstrap_hooks.clear();
    s.published_events.clear();
    s.subscribers.clear();
    s.blob_finders.clear();
    s.ready_hooks.clear();
    s.shutdown_hooks.clear();
}

std::string public_url_of(const ConfigView& config) {
    auto url = config.get_string("http.public_url", "");
    if (url.empty()) {
        url = "http://127.0.0.1:" + config.get_string("http.port", "8080");
    }
    while (!url.empty() && url.back() == '/') {
        url.pop_back();
    }
    return url;
}

}  // namespace loupe
