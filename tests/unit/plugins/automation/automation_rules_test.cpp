// Automation rules end to end, on one server shared by the file: rules managed through the
// Argos API; builds concluding (and reviewed) on the real server post to local stand-ins of
// Slack's Web API, a Teams and a Discord webhook and a webhook receiver, which check each
// payload against the service's documented shape; a receiver answering 500 is retried and then
// marked failed while builds conclude normally.
#include <doctest/doctest.h>
#include <soci/soci.h>

#include <chrono>
#include <mutex>
#include <thread>

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/encoding.hpp"
#include "support/http_client.hpp"
#include "support/local_http_server.hpp"
#include "support/server_database.hpp"
#include "unit/plugins/builds/processing_client.hpp"

using namespace loupe::test;
using nlohmann::json;

namespace {

/// Whether a body has the shape the service documents (a failure names what is missing).
std::string slack_shape_problem(const json& body) {
    if (!body.contains("channel") || !body["channel"].is_string() || body["channel"] == "") {
        return "channel";
    }
    if (!body.contains("text") || !body["text"].is_string())
        return "text";
    if (!body.contains("blocks") || !body["blocks"].is_array() || body["blocks"].empty()) {
        return "blocks";
    }
    for (const auto& block : body["blocks"]) {
        const std::string type = block.value("type", "");
        if (type == "section" && !block.contains("text") && !block.contains("fields")) {
            return "section without text or fields";
        }
        if (type != "section" && type != "context" && type != "divider")
            return "block " + type;
    }
    return "";
}

std::string teams_shape_problem(const json& body) {
    if (body.value("type", "") != "message")
        return "type";
    const auto& attachments = body.value("attachments", json::array());
    if (attachments.size() != 1)
        return "attachments";
    if (attachments[0].value("contentType", "") != "application/vnd.microsoft.card.adaptive") {
        return "contentType";
    }
    const auto& card = attachments[0]["content"];
    if (card.value("type", "") != "AdaptiveCard" || !card.contains("version"))
        return "card";
    for (const auto& element : card.value("body", json::array())) {
        if (element.value("type", "") != "TextBlock" && element.value("type", "") != "FactSet") {
            return "element";
        }
    }
    return card.value("body", json::array()).empty() ? "body" : "";
}

std::string discord_shape_problem(const json& body) {
    const auto& embeds = body.value("embeds", json::array());
    if (embeds.empty() || embeds.size() > 10)
        return "embeds";
    const auto& embed = embeds[0];
    if (!embed["title"].is_string() || embed["title"].get<std::string>().size() > 256)
        return "title";
    if (!embed["url"].is_string() || !embed["color"].is_number_integer())
        return "url or color";
    for (const auto& field : embed.value("fields", json::array())) {
        if (!field["name"].is_string() || !field["value"].is_string())
            return "field";
    }
    return "";
}

/// The stand-in of every service: records what it received, answers as the service would.
class Receivers {
public:
    Receivers() : server_([this](const LocalRequest& request) { return answer(request); }) {}

    std::string url() const { return server_.url(); }

    /// The requests received on `path` so far.
    std::vector<LocalRequest> received(const std::string& path) {
        std::lock_guard lock(mutex_);
        std::vector<LocalRequest> found;
        for (const auto& request : requests_) {
            if (request.target == path)
                found.push_back(request);
        }
        return found;
    }

    /// The bodies received on `path` whose text mentions `needle`.
    std::vector<json> bodies(const std::string& path, const std::string& needle) {
        std::vector<json> found;
        for (const auto& request : received(path)) {
            if (request.body.find(needle) != std::string::npos) {
                found.push_back(json::parse(request.body));
            }
        }
        return found;
    }

    std::vector<std::string> problems() {
        std::lock_guard lock(mutex_);
        return problems_;
    }

private:
    LocalReply answer(const LocalRequest& request) {
        std::lock_guard lock(mutex_);
        requests_.push_back(request);
        const auto body = json::parse(request.body, nullptr, false);
        std::string problem;
        if (body.is_discarded()) {
            problem = "not JSON";
        } else if (request.target == "/slack/api/chat.postMessage") {
            // The operator's bot token, or the team's (registered in the test).
            const auto token = request.headers.count("authorization") == 0
                                   ? std::string()
                                   : request.headers.at("authorization");
            problem = token != "Bearer xoxb-automation" && token != "Bearer xoxb-team-token"
                          ? "slack token"
                          : slack_shape_problem(body);
            if (problem.empty())
                return {200, {}, json{{"ok", true}, {"ts", "1.2"}}.dump()};
            problems_.push_back("slack: " + problem);
            return {200, {}, json{{"ok", false}, {"error", "invalid_blocks"}}.dump()};
        } else if (request.target == "/teams/hook") {
            problem = teams_shape_problem(body);
            if (problem.empty())
                return {202, {}, "1"};
        } else if (request.target == "/discord/hook" || request.target == "/discord/team-hook") {
            problem = discord_shape_problem(body);
            if (problem.empty())
                return {204, {}, ""};
        } else if (request.target == "/webhook/ok") {
            return {200, {}, "{}"};
        } else if (request.target == "/webhook/down") {
            return {500, {}, "receiver down"};
        }
        problems_.push_back(request.target + ": " + problem);
        return {400, {}, "{\"error\": \"" + problem + "\"}"};
    }

    std::mutex mutex_;
    std::vector<LocalRequest> requests_;
    std::vector<std::string> problems_;
    LocalHttpServer server_;
};

Receivers& receivers() {
    static Receivers instance;
    return instance;
}

ServerProcess& automation_server() {
    static ServerProcess instance([] {
        ServerOptions options;
        options.plugins = {"auth", "builds", "reviews", "automation"};
        const std::string base = receivers().url();
        options.settings = {{"plugins.automation.slack_api_url", base + "/slack/api"},
                            {"plugins.automation.slack_bot_token", "xoxb-automation"},
                            {"plugins.automation.teams_webhook.design", base + "/teams/hook"},
                            {"plugins.automation.discord_webhook.ops", base + "/discord/hook"},
                            {"plugins.automation.webhook_allowed_networks", "127.0.0.0/8,::1"},
                            {"plugins.automation.max_attempts", "3"},
                            {"plugins.automation.timeout_ms", "2000"},
                            {"jobs.retry_base_ms", "20"},
                            {"jobs.retry_max_ms", "100"}};
        return options;
    }());
    return instance;
}

std::string rules_url(const ServerProcess& server) {
    return server.base_url() + "/v2/projects/default/default/automation-rules";
}

json create_rule(const ServerProcess& server, const json& definition) {
    const auto created = http_json("POST", rules_url(server), definition, server.personal_token());
    REQUIRE_MESSAGE(created.status == 201, created.body);
    return created.json();
}

json rule_runs(const ServerProcess& server, const std::string& rule_id) {
    const auto runs =
        http_get(server.base_url() + "/v2/_loupe/projects/default/default/automation-rules/" +
                     rule_id + "/runs",
                 server.personal_token());
    REQUIRE_MESSAGE(runs.status == 200, runs.body);
    return runs.json();
}

/// Pushes a build of one screenshot named after `name` (with `paint` over it) and waits until
/// it concluded and every rule it matched has delivered (or given up). `parent`: the commit
/// whose build is the baseline.
int64_t conclude_build(const ServerProcess& server, const std::string& name,
                       const std::string& branch, std::optional<Paint> paint, char commit,
                       std::optional<char> parent = std::nullopt) {
    json fields = {{"name", name}};
    if (parent)
        fields["parentCommits"] = {sha(commit), sha(*parent)};
    const auto build =
        push_shots(server, {{"page", png_blob(name, paint)}}, body(sha(commit), branch, fields));
    const int64_t number = number_of(build);
    wait_concluded(server, number);
    wait_jobs_settled(server, "automation.rules");
    wait_jobs_settled(server, "automation.deliver");
    return number;
}

}  // namespace

TEST_CASE("automation rules: the Argos API creates, lists, reads, replaces and deactivates") {
    auto& server = automation_server();
    const json definition = {
        {"name", "Regressions on main"},
        {"events", {"build.completed"}},
        {"conditions",
         {{{"type", "build-conclusion"}, {"value", "changes-detected"}},
          {{"not", {{"glob", {{"type", "build-branch"}, {"value", "renovate/*"}}}}}}}},
        {"actions", {{{"type", "sendSlackMessage"}, {"payload", {{"name", "alerts"}}}}}}};
    const json created = create_rule(server, definition);
    CHECK(created["active"] == true);
    CHECK(created["conditions"] == definition["conditions"]);
    CHECK(created["actions"] ==
          json::parse(
              R"([{"action":"sendSlackMessage","actionPayload":{"name":"alerts","slackId":""}}])"));
    CHECK(created["webhookSecret"].get<std::string>().rfind("whsec_", 0) == 0);
    const std::string id = created["id"];

    const auto read = http_get(rules_url(server) + "/" + id, server.personal_token());
    REQUIRE(read.status == 200);
    CHECK_FALSE(read.json().contains("webhookSecret"));

    json replaced = definition;
    replaced["name"] = "Any regression";
    replaced["events"] = {"build.completed", "build.reviewed"};
    replaced.erase("conditions");
    const auto updated =
        http_json("PUT", rules_url(server) + "/" + id, replaced, server.personal_token());
    REQUIRE_MESSAGE(updated.status == 200, updated.body);
    CHECK(updated.json()["name"] == "Any regression");
    CHECK(updated.json()["conditions"] == json::array());

    const auto deactivated = http_json("POST", rules_url(server) + "/" + id + "/deactivate",
                                       json::object(), server.personal_token());
    REQUIRE(deactivated.status == 200);
    CHECK(deactivated.json()["active"] == false);
    const auto inactive = http_get(rules_url(server) + "?active=false", server.personal_token());
    REQUIRE(inactive.status == 200);
    bool listed = false;
    const json inactive_rules = inactive.json()["results"];
    for (const auto& rule : inactive_rules)
        listed = listed || rule["id"] == id;
    CHECK_MESSAGE(listed, inactive.body);

    SUBCASE("bad definitions are 400s naming each field, unknown rules 404s") {
        const auto refused =
            http_json("POST", rules_url(server),
                      {{"name", "x"},
                       {"events", {"build.created"}},
                       {"conditions", {{{"type", "build-mode"}, {"value", "nightly"}}}},
                       {"actions",
                        {{{"type", "sendDiscordMessage"}, {"payload", {{"webhookId", "nope"}}}},
                         {{"type", "sendWebhook"}, {"payload", {{"url", "ftp://x"}}}}}}},
                      server.personal_token());
        REQUIRE(refused.status == 400);
        const std::string details = refused.json()["details"].dump();
        for (const char* field :
             {"name", "events.0", "conditions.0.value", "actions.1.payload.url"}) {
            CHECK_MESSAGE(details.find(std::string("\"") + field + " is") != std::string::npos,
                          field, " in ", details);
        }
        // A well-formed rule naming a chat webhook neither the team nor the operator has.
        const auto unknown_hook = http_json(
            "POST", rules_url(server),
            {{"name", "Unknown hook"},
             {"events", {"build.completed"}},
             {"actions", {{{"type", "sendDiscordMessage"}, {"payload", {{"webhookId", "nope"}}}}}}},
            server.personal_token());
        REQUIRE(unknown_hook.status == 400);
        CHECK(unknown_hook.json()["details"][0]["message"] ==
              "actions.0.payload.webhookId is No Discord webhook is configured with this id");
        CHECK(http_get(rules_url(server) + "/99999", server.personal_token()).status == 404);
        CHECK(http_get(rules_url(server) + "/abc", server.personal_token()).status == 404);
        CHECK(http_get(rules_url(server) + "?active=maybe", server.personal_token()).status == 400);
        // A project token is not a person: rules are for the project's administrators.
        CHECK(http_get(rules_url(server), server.project_token()).status == 401);
    }
}

TEST_CASE("automation rules: changes detected on main post to Slack once per build") {
    auto& server = automation_server();
    const std::string name = "slack-main";
    const json rule =
        create_rule(server, {{"name", "Changes on main"},
                             {"events", {"build.completed"}},
                             {"conditions",
                              {{{"type", "build-conclusion"}, {"value", "changes-detected"}},
                               {{"type", "build-branch"}, {"value", "main"}},
                               {{"type", "build-name"}, {"value", name}}}},
                             {"actions",
                              {{{"type", "sendSlackMessage"},
                                {"payload", {{"slackId", "C0123"}, {"name", "alerts"}}}}}}});
    // Another rule of the same builds, for every branch but main.
    create_rule(server, {{"name", "Changes elsewhere"},
                         {"events", {"build.completed"}},
                         {"conditions",
                          {{{"not", {{"type", "build-branch"}, {"value", "main"}}}},
                           {{"type", "build-name"}, {"value", name}}}},
                         {"actions",
                          {{{"type", "sendSlackMessage"},
                            {"payload", {{"slackId", "C-ELSEWHERE"}, {"name", "other"}}}}}}});
    const auto posts_to = [&](int64_t number, const std::string& channel) {
        std::vector<json> found;
        for (const auto& post :
             receivers().bodies("/slack/api/chat.postMessage",
                                "Build #" + std::to_string(number) + " (" + name + ")")) {
            if (post["channel"] == channel)
                found.push_back(post);
        }
        return found;
    };
    const auto posts = [&](int64_t number) { return posts_to(number, "C0123"); };

    // The first build of the name adds its screenshot (changes detected), the second finds
    // none, the third one changed: two posts, one per matching build.
    const int64_t first = conclude_build(server, name, "main", std::nullopt, 'a');
    REQUIRE(posts(first).size() == 1);
    CHECK(posts(first)[0]["blocks"].dump().find("1 added") != std::string::npos);
    const int64_t unchanged = conclude_build(server, name, "main", std::nullopt, 'b', 'a');
    CHECK(get_build(server, unchanged)["conclusion"] == "no-changes");
    CHECK(posts(unchanged).empty());
    const int64_t changed = conclude_build(server, name, "main", block, 'c', 'b');
    const auto sent = posts(changed);
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["channel"] == "C0123");
    CHECK(sent[0]["text"] == "Build #" + std::to_string(changed) + " (" + name + ") completed");
    const std::string blocks = sent[0]["blocks"].dump();
    CHECK(blocks.find("/default/default/builds/" + std::to_string(changed)) != std::string::npos);
    CHECK(blocks.find("Changes detected") != std::string::npos);
    CHECK(blocks.find("1 changed") != std::string::npos);

    // Changes on another branch do not match.
    const int64_t other_branch =
        conclude_build(server, name, "feature/x", Paint{1, 1, 5, 5}, 'd', 'c');
    CHECK(get_build(server, other_branch)["conclusion"] == "changes-detected");
    CHECK(posts(other_branch).empty());
    CHECK(posts_to(other_branch, "C-ELSEWHERE").size() == 1);
    CHECK(posts_to(changed, "C-ELSEWHERE").empty());

    const json runs = rule_runs(server, rule["id"]);
    REQUIRE(runs["pageInfo"]["total"] == 2);
    const json& run = runs["results"][0];
    CHECK(run["event"] == "build.completed");
    CHECK(run["buildNumber"] == changed);
    CHECK(run["actions"][0]["status"] == "success");
    CHECK(run["actions"][0]["attempts"] == 1);
    CHECK(run["actions"][0]["responseStatus"] == 200);

    // Every event delivered again (as after a crash between the work and its record): the
    // runs exist already, so nothing is posted twice.
    const auto slack_posts = receivers().received("/slack/api/chat.postMessage").size();
    {
        auto database = open_server_database(server);
        *database << "UPDATE jobs SET status = 'queued', attempts = 0, run_at = 0 WHERE kind = "
                     "'automation.rules'";
    }
    wait_jobs_settled(server, "automation.rules");
    wait_jobs_settled(server, "automation.deliver");
    CHECK(receivers().received("/slack/api/chat.postMessage").size() == slack_posts);
    CHECK(rule_runs(server, rule["id"])["pageInfo"]["total"] == 2);

    // A deactivated rule stops firing.
    REQUIRE(http_json("POST",
                      rules_url(server) + "/" + rule["id"].get<std::string>() + "/deactivate",
                      json::object(), server.personal_token())
                .status == 200);
    const int64_t changed_again =
        conclude_build(server, name, "main", Paint{30, 20, 8, 8}, 'e', 'c');
    CHECK(get_build(server, changed_again)["conclusion"] == "changes-detected");
    CHECK(posts(changed_again).empty());
    CHECK(rule_runs(server, rule["id"])["pageInfo"]["total"] == 2);
    CHECK(receivers().problems().empty());
}

TEST_CASE("automation rules: Teams, Discord and a signed webhook; build.reviewed on approval") {
    auto& server = automation_server();
    const std::string name = "all-targets";
    const json rule = create_rule(
        server,
        {{"name", "Everywhere"},
         {"events", {"build.completed", "build.reviewed"}},
         {"conditions",
          {{{"glob", {{"type", "build-branch"}, {"value", "release/**"}}}},
           {{"type", "build-name"}, {"value", name}}}},
         {"actions",
          {{{"type", "sendMsTeamsMessage"}, {"payload", {{"webhookId", "design"}}}},
           {{"type", "sendDiscordMessage"}, {"payload", {{"webhookId", "ops"}}}},
           {{"type", "sendWebhook"}, {"payload", {{"url", receivers().url() + "/webhook/ok"}}}}}}});
    const std::string secret = rule["webhookSecret"];
    conclude_build(server, name, "main", std::nullopt, 'f');
    const int64_t number = conclude_build(server, name, "release/2026/rc", block, '1', 'f');
    const std::string headline = "Build #" + std::to_string(number) + " (" + name + ")";

    // Teams text is markdown-escaped: find the card by its build link.
    const auto teams =
        receivers().bodies("/teams/hook", "/builds/" + std::to_string(number) + "\"");
    REQUIRE(teams.size() == 1);
    CHECK(teams[0]["attachments"][0]["content"]["actions"][0]["url"].get<std::string>().find(
              "/builds/" + std::to_string(number)) != std::string::npos);
    const auto discord = receivers().bodies("/discord/hook", headline);
    REQUIRE(discord.size() == 1);
    CHECK(discord[0]["embeds"][0]["title"] == headline + " completed");
    CHECK(discord[0]["allowed_mentions"]["parse"] == json::array());

    std::vector<LocalRequest> hooks;
    for (const auto& request : receivers().received("/webhook/ok")) {
        if (json::parse(request.body)["data"]["buildNumber"] == number)
            hooks.push_back(request);
    }
    REQUIRE(hooks.size() == 1);
    const auto& hook = hooks[0];
    const json payload = json::parse(hook.body);
    CHECK(payload["type"] == "build.completed");
    CHECK(payload["data"]["conclusion"] == "changes-detected");
    CHECK(payload["data"]["branch"] == "release/2026/rc");
    CHECK(payload["data"]["stats"]["changed"] == 1);
    // Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body"> keyed by the secret's
    // decoded bytes.
    const auto key = loupe::crypto::base64_decode(secret.substr(6));
    REQUIRE(key);
    const std::string expected =
        "v1," + loupe::crypto::base64_encode(loupe::crypto::hmac_sha256(
                    *key, hook.headers.at("webhook-id") + "." +
                              hook.headers.at("webhook-timestamp") + "." + hook.body));
    CHECK(hook.headers.at("webhook-signature") == expected);
    CHECK(hook.headers.at("webhook-id").find(":" + rule["id"].get<std::string>() + ":2") !=
          std::string::npos);

    const auto approved = http_json("POST",
                                    server.base_url() + "/v2/projects/default/default/builds/" +
                                        std::to_string(number) + "/reviews",
                                    {{"event", "APPROVE"}}, server.personal_token());
    REQUIRE_MESSAGE(approved.status == 200, approved.body);
    wait_jobs_settled(server, "automation.rules");
    wait_jobs_settled(server, "automation.deliver");
    const auto reviewed = receivers().bodies("/discord/hook", headline + " has been approved");
    REQUIRE(reviewed.size() == 1);
    CHECK(reviewed[0]["embeds"][0]["description"].get<std::string>().find("Approved by") !=
          std::string::npos);
    CHECK(rule_runs(server, rule["id"])["pageInfo"]["total"] == 2);
    CHECK(receivers().problems().empty());
}

TEST_CASE("automation rules: a receiver answering 500 is retried, then marked failed") {
    auto& server = automation_server();
    const std::string name = "receiver-down";
    const json rule =
        create_rule(server, {{"name", "Down receiver"},
                             {"events", {"build.completed"}},
                             {"conditions", {{{"type", "build-name"}, {"value", name}}}},
                             {"actions",
                              {{{"type", "sendWebhook"},
                                {"payload", {{"url", receivers().url() + "/webhook/down"}}}}}}});
    const auto before = receivers().received("/webhook/down").size();
    const auto build =
        push_shots(server, {{"page", png_blob(name)}}, body(sha('9'), "main", {{"name", name}}));
    // The build concludes as if no rule existed.
    CHECK(wait_concluded(server, number_of(build))["status"] != "error");
    wait_jobs_settled(server, "automation.rules");
    wait_jobs_settled(server, "automation.deliver");
    CHECK(receivers().received("/webhook/down").size() - before == 3);

    const json action = rule_runs(server, rule["id"])["results"][0]["actions"][0];
    CHECK(action["status"] == "failed");
    CHECK(action["attempts"] == 3);
    CHECK(action["responseStatus"] == 500);
    CHECK(action["error"].get<std::string>().find("receiver down") != std::string::npos);

    std::string out;
    REQUIRE(server.run_cli(
                {"jobs", "list", "--kind", "automation.deliver", "--status", "failed", "--json"},
                out) == 0);
    const json jobs = json::parse(out.substr(out.find('{'), out.rfind('}') - out.find('{') + 1));
    bool found = false;
    for (const auto& job : jobs["jobs"]) {
        found = found || job["id"] == action["jobId"];
    }
    CHECK_MESSAGE(found, out);
}

TEST_CASE("automation rules: a webhook never reaches a private address unless allowed") {
    // The receivers listen on loopback; this server allows no private network.
    ServerOptions options;
    options.plugins = {"auth", "builds", "reviews", "automation"};
    options.settings = {{"plugins.automation.max_attempts", "3"},
                        {"jobs.retry_base_ms", "20"},
                        {"jobs.retry_max_ms", "100"}};
    ServerProcess server(options);
    const auto definition = [](const std::string& url) {
        return json{{"name", "Internal"},
                    {"events", {"build.completed"}},
                    {"actions", {{{"type", "sendWebhook"}, {"payload", {{"url", url}}}}}}};
    };
    // An address written in the URL is refused when the rule is saved.
    for (const std::string url : {"http://127.0.0.1:9/x", "http://169.254.169.254/latest/meta-data",
                                  "http://[::ffff:10.0.0.1]/x", "http://user@192.168.0.1:80/x"}) {
        CAPTURE(url);
        const auto refused =
            http_json("POST", rules_url(server), definition(url), server.personal_token());
        CHECK(refused.status == 400);
        CHECK(refused.body.find("webhook_allowed_networks") != std::string::npos);
    }
    // A name is checked where it resolves, when the webhook is sent: refused, not retried, and
    // the receiver hears nothing.
    const std::string port = receivers().url().substr(receivers().url().rfind(':') + 1);
    const json rule =
        create_rule(server, definition("http://localhost:" + port + "/webhook/internal"));
    conclude_build(server, "internal-hook", "main", std::nullopt, 'a');
    CHECK(receivers().received("/webhook/internal").empty());
    const json action = rule_runs(server, rule["id"])["results"][0]["actions"][0];
    CHECK(action["status"] == "failed");
    CHECK(action["attempts"] == 1);
    CHECK(action["error"].get<std::string>().find("loopback address") != std::string::npos);
}

TEST_CASE("automation rules: a team's own chat services, their secrets sealed at rest") {
    auto& server = automation_server();
    const std::string targets = server.base_url() + "/v2/_loupe/accounts/default/chat-targets";
    const std::string hook_url = receivers().url() + "/discord/team-hook";
    const auto saved = http_json("PUT", targets + "/discord/team-ops", {{"secret", hook_url}},
                                 server.personal_token());
    REQUIRE_MESSAGE(saved.status == 200, saved.body);
    CHECK(saved.json()["kind"] == "discord");
    CHECK(saved.json()["name"] == "team-ops");
    CHECK(saved.json()["hint"] == "…hook");
    REQUIRE(http_json("PUT", targets + "/slack/bot", {{"secret", "xoxb-team-token"}},
                      server.personal_token())
                .status == 200);

    // Listed without their secrets, beside the names of the operator's.
    const auto listed = http_get(targets, server.personal_token());
    REQUIRE(listed.status == 200);
    CHECK(listed.body.find("team-hook") == std::string::npos);
    CHECK(listed.body.find("xoxb-team-token") == std::string::npos);
    CHECK(listed.json()["targets"].size() == 2);
    CHECK(listed.json()["server"]["discord"] == json::array({"ops"}));
    CHECK(listed.json()["server"]["slack"] == true);
    // Sealed in the database: neither the URL nor the token is there in clear.
    CHECK(count_rows(server,
                     "SELECT COUNT(*) FROM automation_chat_targets WHERE sealed_secret "
                     "LIKE '%team-hook%' OR sealed_secret LIKE '%xoxb%'") == 0);
    CHECK(count_rows(server,
                     "SELECT COUNT(*) FROM automation_chat_targets WHERE sealed_secret "
                     "LIKE 'v1.%'") == 2);

    // Refused: a webhook of a private address the operator did not allow, a bad kind or name.
    const auto private_hook =
        http_json("PUT", targets + "/teams/internal", {{"secret", "http://10.1.2.3/hook"}},
                  server.personal_token());
    CHECK(private_hook.status == 400);
    CHECK(private_hook.body.find("webhook_allowed_networks") != std::string::npos);
    CHECK(
        http_json("PUT", targets + "/email/x", {{"secret", "a"}}, server.personal_token()).status ==
        400);
    CHECK(
        http_json("PUT", targets + "/slack/other", {{"secret", "xoxb-1"}}, server.personal_token())
            .status == 400);
    CHECK(http_json("PUT", targets + "/discord/team-ops", {{"secret", "not a url"}},
                    server.personal_token())
              .status == 400);

    // A rule of the team posts through them: Discord by the team's webhook, Slack with the
    // team's token (it wins over the operator's).
    const std::string name = "team-targets";
    const json rule = create_rule(
        server, {{"name", "The team's own"},
                 {"events", {"build.completed"}},
                 {"conditions", {{{"type", "build-name"}, {"value", name}}}},
                 {"actions",
                  {{{"type", "sendDiscordMessage"}, {"payload", {{"webhookId", "team-ops"}}}},
                   {{"type", "sendSlackMessage"},
                    {"payload", {{"slackId", "C0TEAM"}, {"name", "team"}}}}}}});
    const int64_t number = conclude_build(server, name, "feature", std::nullopt, '7');
    const std::string headline = "Build #" + std::to_string(number) + " (" + name + ")";
    CHECK(receivers().bodies("/discord/team-hook", headline).size() == 1);
    int team_token_posts = 0;
    for (const auto& request : receivers().received("/slack/api/chat.postMessage")) {
        if (request.body.find(headline) != std::string::npos) {
            team_token_posts += request.headers.at("authorization") == "Bearer xoxb-team-token";
        }
    }
    CHECK(team_token_posts == 1);

    // Removed: rules can no longer name it, and removing it again is a 404.
    CHECK(http_json("DELETE", targets + "/discord/team-ops", json(), server.personal_token())
              .status == 204);
    CHECK(http_json("DELETE", targets + "/discord/team-ops", json(), server.personal_token())
              .status == 404);
    const auto renamed = http_json(
        "PUT", rules_url(server) + "/" + rule["id"].get<std::string>(),
        {{"name", "The team's own"},
         {"events", {"build.completed"}},
         {"actions", {{{"type", "sendDiscordMessage"}, {"payload", {{"webhookId", "team-ops"}}}}}}},
        server.personal_token());
    CHECK(renamed.status == 400);
    CHECK(http_json("DELETE", targets + "/slack/bot", json(), server.personal_token()).status ==
          204);
    CHECK(receivers().problems().empty());
}
