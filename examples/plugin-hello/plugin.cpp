// plugin-hello: a complete Loupe plugin, built out of tree against the installed SDK
// (find_package(Loupe), see CMakeLists.txt). It has each part a plugin usually has:
//   a migration  its own table, hello_greetings, on its own forward-only track;
//   routes       POST /hello/greetings {"text"} stores a greeting for the caller's project,
//                GET /hello/greetings lists them, GET /hello/builds/{number} greets a build;
//   a job        "hello.reply" writes a greeting's reply after the request has returned;
//   a service    the builds plugin's BuildsService: a build read by its number;
//   an event     a subscriber to the builds plugin's build.concluded, greeting every concluded
//                build once, whichever instance receives it and however often;
//   settings     plugins.hello.salutation (default "Hello").
#include "loupe/plugin.hpp"

#include <soci/soci.h>

#include <cstdint>
#include <string>

#include "loupe/builds/builds_service.hpp"
#include "loupe/builds/events.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/host.hpp"

namespace {

using loupe::Json;

constexpr const char* reply_job = "hello.reply";
constexpr std::size_t max_text_length = 200;

/// Stores a greeting and queues its reply in the caller's transaction: the job exists if and
/// only if the greeting does.
int64_t add_greeting(soci::session& sql, loupe::JobQueue& jobs, int64_t project_id,
                     const std::string& text) {
    const int64_t now = loupe::now_ms();
    int64_t id = 0;
    sql << "INSERT INTO hello_greetings (project_id, text, created_at) VALUES (:p, :t, :c) "
           "RETURNING id",
        soci::use(project_id), soci::use(text), soci::use(now), soci::into(id);
    jobs.enqueue(sql, reply_job, Json{{"greetingId", id}});
    return id;
}

/// Greets a concluded build once per event: a second delivery of the same event (an instance
/// crashed after writing) finds the event's id already recorded and adds nothing.
void greet_concluded_build(soci::session& sql, loupe::JobQueue& jobs,
                           const loupe::builds::BuildConcluded& concluded,
                           const std::string& event_id) {
    soci::statement seen = (sql.prepare << "INSERT INTO hello_seen_events (event_id) VALUES (:e) "
                                           "ON CONFLICT (event_id) DO NOTHING",
                            soci::use(event_id));
    seen.execute(true);
    if (seen.get_affected_rows() == 0) {
        return;
    }
    const auto& build = concluded.build;
    add_greeting(sql, jobs, build.project_id,
                 "build #" + std::to_string(build.number) + " (" +
                     std::string(loupe::builds::to_text(build.status)) + ")");
}

Json project_greetings(soci::session& sql, int64_t project_id) {
    Json greetings = Json::array();
    soci::rowset<soci::row> rows =
        (sql.prepare << "SELECT id, text, reply FROM hello_greetings WHERE project_id = :p "
                        "ORDER BY id",
         soci::use(project_id));
    for (const auto& row : rows) {
        loupe::RowReader r(row);
        const auto reply = r.optional_text("reply");
        greetings.push_back({{"id", r.int64("id")},
                             {"text", r.text("text")},
                             {"reply", reply ? Json(*reply) : Json()}});
    }
    return greetings;
}

/// The body of POST /hello/greetings, checked once the caller is authenticated (the core reads
/// no body before that).
std::string parse_text(loupe::Request& request) {
    const Json& body = request.json();
    if (!body.is_object() || !body.contains("text") || !body["text"].is_string() ||
        body["text"].get<std::string>().empty() ||
        body["text"].get<std::string>().size() > max_text_length) {
        throw loupe::HttpError::invalid({"text must be a string of 1 to 200 characters"});
    }
    return body["text"].get<std::string>();
}

int64_t parse_build_number(loupe::Request& request) {
    const auto& text = request.param("number");
    if (text.empty() || text.size() > 18 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
        throw loupe::HttpError::invalid({"number must be a positive integer"});
    }
    return std::stoll(text);
}

void install(loupe::Host& host) {
    host.migrations().add(1, "create hello_greetings",
                          "CREATE TABLE hello_greetings (id {{id}}, project_id BIGINT NOT NULL, "
                          "text TEXT NOT NULL, reply TEXT, created_at BIGINT NOT NULL);\n"
                          "CREATE INDEX hello_greetings_project ON hello_greetings (project_id)");
    host.migrations().add(2, "create hello_seen_events",
                          "CREATE TABLE hello_seen_events (event_id TEXT PRIMARY KEY)");

    auto& database = host.db();
    auto& jobs = host.jobs();
    auto& builds = host.services().require<loupe::builds::BuildsService>();
    const std::string salutation = host.config().get_string("salutation", "Hello");

    // Runs on a worker thread, possibly more than once for one greeting (a lease that expired
    // after a crash): writing the same reply again is harmless.
    jobs.handle(reply_job, [&database, salutation](const loupe::Job& job) {
        const int64_t id = job.payload.at("greetingId").get<int64_t>();
        database.transaction([&](soci::session& sql) {
            sql << "UPDATE hello_greetings SET reply = :s || ', ' || text || '!' WHERE id = :id",
                soci::use(salutation), soci::use(id);
        });
    });

    // Runs on a worker thread of any instance, after the transaction that concluded the build
    // committed; throwing retries it with backoff (never rolling the build back).
    loupe::SubscriberOptions greeter;
    greeter.max_attempts = 3;
    host.events()
        .subscriber("hello.greeter", greeter)
        .on<loupe::builds::BuildConcluded>(
            [&database, &jobs](const loupe::builds::BuildConcluded& concluded,
                               const loupe::EventDelivery& delivery) {
                database.transaction([&](soci::session& sql) {
                    greet_concluded_build(sql, jobs, concluded, delivery.event.id);
                });
            });

    using loupe::AuthRequirement;
    using loupe::Method;
    using loupe::ProjectPermission;
    using loupe::Response;
    using loupe::RouteAccess;
    // Every route says whose permission guards it: here the calling project token's own project
    // (`upload` to write, `view` to read); the core checks it before the handler runs.
    host.routes().add_validated(
        Method::post, "/hello/greetings", AuthRequirement::project_token,
        RouteAccess::token_project(ProjectPermission::upload), parse_text,
        [&database, &jobs](loupe::Request& request, const std::string& text) {
            const int64_t project = request.principal().project_id;
            const int64_t id = database.transaction(
                [&](soci::session& sql) { return add_greeting(sql, jobs, project, text); });
            return Response::json({{"id", id}, {"text", text}, {"reply", nullptr}}, 201);
        });
    host.routes().add(
        Method::get, "/hello/greetings", AuthRequirement::project_token,
        RouteAccess::token_project(ProjectPermission::view), [&database](loupe::Request& request) {
            auto sql = database.session();
            return Response::json(project_greetings(*sql, request.principal().project_id));
        });
    host.routes().add_validated(
        Method::get, "/hello/builds/{number}", AuthRequirement::project_token,
        RouteAccess::token_project(ProjectPermission::view), parse_build_number,
        [&database, &builds, salutation](loupe::Request& request, int64_t number) {
            auto sql = database.session();
            const auto build = builds.find_build(*sql, request.principal().project_id, number);
            if (!build) {
                throw loupe::HttpError::not_found("Build not found");
            }
            return Response::json(
                {{"greeting", salutation + ", build #" + std::to_string(number) + " on " +
                                  build->branch + " (" +
                                  std::string(loupe::builds::to_text(build->status)) + ")"}});
        });

    host.log().info("hello.installed", {{"salutation", salutation}});
}

}  // namespace

LOUPE_PLUGIN("hello", "1.0.0", LOUPE_REQUIRES("builds"), install)
