#include "actions/action_delivery.hpp"

#include <stdexcept>

#include "actions/webhook_signature.hpp"
#include "store/rules.hpp"
#include "store/runs.hpp"

namespace loupe::automation {
namespace {

struct Outcome {
    bool delivered = false;
    bool retryable = false;
    std::optional<int> status;
    std::string error;
};

Outcome judge(const HttpResponse& response, bool slack) {
    Outcome outcome;
    outcome.status = response.status;
    if (response.ok()) {
        if (!slack) {
            outcome.delivered = true;
            return outcome;
        }
        // Slack's Web API answers 200 with {"ok": false, "error": "channel_not_found"}.
        const auto json = response.json();
        if (json && json->is_object() && json->value("ok", false)) {
            outcome.delivered = true;
            return outcome;
        }
        const std::string error =
            json && json->is_object() ? json->value("error", "unknown") : "not JSON";
        outcome.error = "Slack refused the message: " + error;
        outcome.retryable = error == "ratelimited" || error == "internal_error" ||
                            error == "service_unavailable" || error == "fatal_error";
        return outcome;
    }
    outcome.error = "HTTP " + std::to_string(response.status) + ": " + response.body.substr(0, 200);
    outcome.retryable = response.status == 408 || response.status == 429 || response.status >= 500;
    return outcome;
}

}  // namespace

ActionDelivery::ActionDelivery(Host& host, const AutomationSettings& settings,
                               const ChatTargets& targets)
    : host_(host), settings_(settings), targets_(targets) {}

void ActionDelivery::install() {
    host_.jobs().handle(
        deliver_job_kind, [this](const Job& job) { deliver(job); },
        [this](const Job& job, const std::string& last_error) {
            // Gave up (its lease expired on the last attempt, or the last attempt threw before
            // recording): the run must not stay pending.
            const int64_t id = job.payload.value("actionRunId", int64_t{0});
            host_.db().transaction([&](soci::session& session) {
                const auto run = find_action_run(session, id);
                if (run && run->status == "pending") {
                    record_attempt(session, id, "failed", std::nullopt, last_error, now_ms());
                }
            });
        });
}

int64_t ActionDelivery::enqueue(soci::session& session, int64_t action_run_id) const {
    JobOptions options;
    options.max_attempts = settings_.max_attempts;
    return host_.jobs().enqueue(session, deliver_job_kind, Json{{"actionRunId", action_run_id}},
                                options);
}

void ActionDelivery::deliver(const Job& job) const {
    const int64_t id = job.payload.value("actionRunId", int64_t{0});
    std::optional<ActionRun> run;
    std::string secret;
    TargetSecret chat;  // Slack: the bot token; Teams, Discord: the webhook URL
    {
        auto session = host_.db().session();
        run = find_action_run(*session, id);
        if (!run || run->status != "pending")
            return;  // delivered, or failed for good
        if (run->action == "sendWebhook") {
            secret = rule_secret(*session, run->rule_id);
        } else if (run->action == "sendSlackMessage") {
            chat = targets_.slack_token(*session, run->account_id);
        } else {
            chat = targets_.webhook_url(*session, run->account_id,
                                        run->action == "sendMsTeamsMessage" ? "teams" : "discord",
                                        run->target.value("webhookId", ""));
        }
    }

    HttpRequest request;
    request.method = "POST";
    HttpHeaders headers = {{"Content-Type", "application/json; charset=utf-8"}};
    const std::string body = run->message.dump();
    const bool slack = run->action == "sendSlackMessage";
    Outcome outcome;
    if (slack) {
        if (chat.value) {
            request.url = settings_.slack_api_url + "/chat.postMessage";
            headers.emplace_back("Authorization", "Bearer " + *chat.value);
        }
    } else if (run->action == "sendWebhook") {
        request.url = run->target.value("url", "");
        const int64_t timestamp = now_ms() / 1000;
        headers.emplace_back("webhook-id", run->idempotency_key);
        headers.emplace_back("webhook-timestamp", std::to_string(timestamp));
        headers.emplace_back("webhook-signature",
                             webhook_signature(secret, run->idempotency_key, timestamp, body));
    } else {
        request.url = chat.value.value_or("");
    }
    if (request.url.empty()) {
        outcome.error = chat.error.empty()
                            ? "the action's target is no longer configured for this team nor on "
                              "this server"
                            : chat.error;
    } else {
        request.headers = std::move(headers);
        request.body = body;
        HttpCallOptions options;
        options.io_timeout = std::chrono::milliseconds(settings_.timeout_ms);
        options.connect_timeout = std::chrono::milliseconds(settings_.timeout_ms);
        options.deadline = deadline_in(std::chrono::milliseconds(settings_.timeout_ms));
        options.idempotent = false;  // the job queue retries; one post per attempt
        options.max_response_bytes = 64 * 1024;
        // A URL a user typed (a rule's webhook, a team's Teams or Discord webhook) reaches public
        // addresses only; the Slack API is the operator's (a team gives only its token).
        if (run->action == "sendWebhook" || (chat.from_account && !slack)) {
            options.address_policy = &settings_.webhook_addresses;
        }
        try {
            outcome = judge(http_.send(request, options), slack);
        } catch (const HttpAddressRefused& error) {
            outcome.error = std::string(error.what()) +
                            " (allow it with plugins.automation.webhook_allowed_networks)";
        } catch (const HttpTransportError& error) {
            outcome.retryable = true;
            outcome.error = error.what();
        }
    }

    const bool last = job.attempt >= job.max_attempts;
    const std::string status = outcome.delivered              ? "success"
                               : (outcome.retryable && !last) ? "pending"
                                                              : "failed";
    host_.db().transaction([&](soci::session& session) {
        record_attempt(session, id, status, outcome.status, outcome.error, now_ms());
    });
    host_.log().info("automation.delivery", {{"action_run", std::to_string(id)},
                                             {"action", run->action},
                                             {"attempt", std::to_string(job.attempt)},
                                             {"status", status},
                                             {"error", outcome.error}});
    if (status == "pending" || (status == "failed" && outcome.retryable)) {
        // Failing the job lets the queue retry it (or, on its last attempt, mark it failed, as
        // `loupe jobs list` shows).
        throw std::runtime_error(outcome.error);
    }
}

}  // namespace loupe::automation
