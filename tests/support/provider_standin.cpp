#include "support/provider_standin.hpp"

#include <Poco/Crypto/RSAKey.h>
#include <Poco/JWT/Signer.h>
#include <Poco/JWT/Token.h>
#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/SSLManager.h>
#include <Poco/Net/SecureServerSocket.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/StreamCopier.h>
#include <Poco/URI.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <regex>
#include <sstream>
#include <thread>

namespace loupe::test {
namespace {

using nlohmann::json;

class StandinHandler : public Poco::Net::HTTPRequestHandler {
public:
    explicit StandinHandler(ProviderStandin& standin) : standin_(standin) {}
    void handleRequest(Poco::Net::HTTPServerRequest& request,
                       Poco::Net::HTTPServerResponse& response) override {
        standin_.handle(request, response);
    }

private:
    ProviderStandin& standin_;
};

class StandinHandlerFactory : public Poco::Net::HTTPRequestHandlerFactory {
public:
    explicit StandinHandlerFactory(ProviderStandin& standin) : standin_(standin) {}
    Poco::Net::HTTPRequestHandler* createRequestHandler(
        const Poco::Net::HTTPServerRequest&) override {
        return new StandinHandler(standin_);
    }

private:
    ProviderStandin& standin_;
};

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string iso_in(std::chrono::seconds from_now) {
    const std::time_t at =
        std::chrono::system_clock::to_time_t(std::chrono::system_clock::now() + from_now);
    std::tm utc{};
    gmtime_r(&at, &utc);
    char text[32];
    std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::string header(Poco::Net::HTTPServerRequest& request, const std::string& name) {
    return request.has(name) ? request.get(name) : "";
}

json message(const std::string& text) {
    return json{{"message", text}};
}

}  // namespace

ProviderStandin::ProviderStandin(StandinOptions options) : options_(std::move(options)) {
    auto params = new Poco::Net::HTTPServerParams;
    params->setMaxThreads(16);
    params->setKeepAlive(false);
    const Poco::Net::SocketAddress address("127.0.0.1", 0);
    if (!options_.tls_certificate_file.empty()) {
        Poco::Net::initializeSSL();
        Poco::Net::Context::Ptr context = new Poco::Net::Context(
            Poco::Net::Context::TLS_SERVER_USE, options_.tls_key_file,
            options_.tls_certificate_file, "", Poco::Net::Context::VERIFY_NONE);
        Poco::Net::SecureServerSocket socket(address, 64, context);
        port_ = socket.address().port();
        server_ = std::make_unique<Poco::Net::HTTPServer>(new StandinHandlerFactory(*this),
                                                          threads_, socket, params);
    } else {
        Poco::Net::ServerSocket socket(address);
        port_ = socket.address().port();
        server_ = std::make_unique<Poco::Net::HTTPServer>(new StandinHandlerFactory(*this),
                                                          threads_, socket, params);
    }
    server_->start();
}

ProviderStandin::~ProviderStandin() {
    stopping_ = true;
    server_->stopAll(true);
    // stopAll() does not wait for the handlers already running (a hanging one among them):
    // they use this object until they return.
    while (handling_.load() > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

std::string ProviderStandin::base_url() const {
    return (options_.tls_certificate_file.empty() ? "http://127.0.0.1:" : "https://localhost:") +
           std::to_string(port_);
}

void ProviderStandin::set_data(json data) {
    std::lock_guard lock(mutex_);
    data_ = std::move(data);
}

void ProviderStandin::update(const std::function<void(json&)>& change) {
    std::lock_guard lock(mutex_);
    change(data_);
}

json ProviderStandin::statuses() const {
    std::lock_guard lock(mutex_);
    return statuses_;
}

json ProviderStandin::posts() const {
    std::lock_guard lock(mutex_);
    return posts_;
}

int ProviderStandin::count(const std::string& kind) const {
    std::lock_guard lock(mutex_);
    auto found = counts_.find(kind);
    return found == counts_.end() ? 0 : found->second;
}

void ProviderStandin::counted(const std::string& kind) {
    std::lock_guard lock(mutex_);
    ++counts_[kind];
}

void ProviderStandin::hang() {
    for (int i = 0; i < 600 && !stopping_; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
}

void ProviderStandin::handle(Poco::Net::HTTPServerRequest& request,
                             Poco::Net::HTTPServerResponse& response) {
    ++handling_;
    struct Done {
        std::atomic<int>& count;
        ~Done() { --count; }
    } done{handling_};
    std::string body;
    Poco::StreamCopier::copyToString(request.stream(), body);
    const Poco::URI uri(request.getURI());
    Reply reply;
    try {
        reply = route(request.getMethod(), uri.getPath(), request, body);
    } catch (const std::exception& error) {
        reply = {500, message(std::string("stand-in failure: ") + error.what())};
    }
    response.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(reply.status));
    response.setContentType("application/json");
    const auto text = reply.body.is_null() ? std::string() : reply.body.dump();
    response.setContentLength(static_cast<std::streamsize>(text.size()));
    response.send() << text;
}

ProviderStandin::Reply ProviderStandin::route(const std::string& method, const std::string& path,
                                              Poco::Net::HTTPServerRequest& request,
                                              const std::string& body) {
    if (path.starts_with("/github/")) {
        return github(method, path.substr(7), request, body);
    }
    if (path.starts_with("/gitlab/api/v4/")) {
        return gitlab(method, path.substr(14), request, body);
    }
    if (method == "GET" && path.starts_with("/oidc/github/")) {
        return oidc("github", path.substr(12), request);
    }
    if (method == "GET" && path.starts_with("/gitlab/")) {
        return oidc("gitlab", path.substr(7), request);
    }
    if (method == "POST" && path == "/_standin/oidc/sign") {
        const auto asked = json::parse(body);
        return {200, json{{"value", sign_id_token(asked.value("issuer", "github"),
                                                  asked.value("claims", json::object()),
                                                  asked.value("kid", ""))}}};
    }
    if (method == "PUT" && path == "/_standin/data") {
        set_data(json::parse(body));
        return {200, json::object()};
    }
    if (method == "GET" && path == "/_standin/statuses") {
        return {200, statuses()};
    }
    if (method == "GET" && path == "/_standin/posts") {
        return {200, posts()};
    }
    if (method == "GET" && path == "/_standin/counts") {
        std::lock_guard lock(mutex_);
        return {200, json(counts_)};
    }
    return {404, message("Not Found")};
}

bool ProviderStandin::verify_app_jwt(const std::string& authorization) const {
    if (!authorization.starts_with("Bearer ") || options_.app_public_key_pem.empty()) {
        return false;
    }
    std::istringstream pem(options_.app_public_key_pem);
    Poco::SharedPtr<Poco::Crypto::RSAKey> key(new Poco::Crypto::RSAKey(&pem));
    Poco::JWT::Signer signer(key);
    signer.setAlgorithms({Poco::JWT::Signer::ALGO_RS256});
    Poco::JWT::Token token;
    if (!signer.tryVerify(authorization.substr(7), token)) {
        return false;
    }
    const auto& claims = token.payload();
    const auto now = static_cast<int64_t>(std::time(nullptr));
    if (!claims.has("iat") || !claims.has("exp") || !claims.has("iss")) {
        return false;
    }
    const auto iat = claims.getValue<Poco::Int64>("iat");
    const auto exp = claims.getValue<Poco::Int64>("exp");
    // GitHub: iss is the App ID, the token is already valid and expires within 10 minutes.
    return claims.get("iss").toString() == options_.app_id && iat <= now + 1 && exp > now &&
           exp - iat <= 600;
}

ProviderStandin::Reply ProviderStandin::access_token(const std::string& installation,
                                                     Poco::Net::HTTPServerRequest& request) {
    counted("installation_token");
    if (!verify_app_jwt(header(request, "Authorization"))) {
        return {401, message("A JSON web token could not be decoded")};
    }
    std::string mode;
    {
        std::lock_guard lock(mutex_);
        const auto& found = data_["installations"][installation];
        mode = found.is_object() ? found.value("mode", "ok") : "missing";
    }
    if (mode == "hang") {
        hang();
        return {504, message("hung")};
    }
    if (mode == "missing") {
        return {404, message("Not Found")};
    }
    if (mode == "suspended") {
        return {403, message("This installation has been suspended")};
    }
    if (mode == "error") {
        return {500, message("Internal error")};
    }
    std::lock_guard lock(mutex_);
    const auto token = "ghs_" + installation + "_" + std::to_string(++token_serial_);
    issued_tokens_[token] = installation;
    return {201, json{{"token", token}, {"expires_at", iso_in(std::chrono::hours(1))}}};
}

bool ProviderStandin::installation_may_see(Poco::Net::HTTPServerRequest& request,
                                           const std::string& repository) {
    auto authorization = header(request, "Authorization");
    for (const std::string scheme : {"Bearer ", "token "}) {
        if (authorization.starts_with(scheme)) {
            authorization = authorization.substr(scheme.size());
        }
    }
    std::lock_guard lock(mutex_);
    auto issued = issued_tokens_.find(authorization);
    if (issued == issued_tokens_.end()) {
        return false;
    }
    const auto& repositories = data_["installations"][issued->second]["repositories"];
    if (!repositories.is_array()) {
        return false;
    }
    return std::any_of(repositories.begin(), repositories.end(), [&](const json& name) {
        return name.is_string() && lower(name.get<std::string>()) == lower(repository);
    });
}

ProviderStandin::Reply ProviderStandin::record_status(const std::string& provider,
                                                      const std::string& repository,
                                                      const std::string& sha,
                                                      const std::string& body) {
    counted(provider == "github" ? "commit_status" : "gitlab_commit_status");
    int64_t delay_ms = 0;
    bool fail = false;
    {
        std::lock_guard lock(mutex_);
        delay_ms = data_.value("statusDelayMs", 0);
        fail = ++status_pushes_ <= data_.value("statusFailures", 0);
    }
    if (delay_ms > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    }
    if (fail) {
        return {500, message("Server Error")};
    }
    const auto sent = json::parse(body);
    json status{{"provider", provider},
                {"repository", repository},
                {"sha", sha},
                {"state", sent.value("state", "")},
                {"description", sent.value("description", "")},
                {"context", sent.value(provider == "github" ? "context" : "name", "")},
                {"target_url", sent.value("target_url", "")}};
    std::lock_guard lock(mutex_);
    statuses_.push_back(status);
    return {201, status};
}

ProviderStandin::Reply ProviderStandin::record_post(const std::string& provider,
                                                    const std::string& repository,
                                                    const std::string& call, int64_t number,
                                                    const std::string& id,
                                                    const std::string& body) {
    counted(call);
    const auto sent = json::parse(body);
    std::lock_guard lock(mutex_);
    if (++post_calls_ <= data_.value("postFailures", 0)) {
        return {500, message("Server Error")};
    }
    std::string answered_id = id;
    if (id.empty()) {
        answered_id = std::to_string(++post_serial_);
        created_posts_[provider + ":" + answered_id] = repository;
    } else {
        const auto created = created_posts_.find(provider + ":" + id);
        bool deleted = false;
        for (const auto& gone : data_.value("deletedComments", json::array())) {
            deleted =
                deleted || (gone.is_number_integer() && std::to_string(gone.get<int64_t>()) == id);
        }
        if (created == created_posts_.end() || created->second != repository || deleted) {
            return {404, message("Not Found")};
        }
    }
    json post{{"provider", provider}, {"repository", repository},      {"call", call},
              {"number", number},     {"id", std::stoll(answered_id)}, {"body", sent}};
    posts_.push_back(post);
    return {id.empty() ? 201 : 200, json{{"id", std::stoll(answered_id)}, {"body", sent}}};
}

ProviderStandin::Reply ProviderStandin::github_sign_in(const std::string& method,
                                                       const std::string& path,
                                                       Poco::Net::HTTPServerRequest& request,
                                                       const std::string& body) {
    std::lock_guard lock(mutex_);
    const json oauth = data_.value("githubOAuth", json::object());
    if (method == "POST" && path == "/login/oauth/access_token") {
        counts_["github_oauth_token"]++;
        std::map<std::string, std::string> form;
        for (const auto& [name, value] : Poco::URI("/?" + body).getQueryParameters()) {
            form[name] = value;
        }
        if (form["client_id"] != oauth.value("clientId", "") ||
            form["client_secret"] != oauth.value("clientSecret", "")) {
            return {200, json{{"error", "incorrect_client_credentials"},
                              {"error_description",
                               "The client_id and/or client_secret passed are incorrect."}}};
        }
        const json codes = oauth.value("codes", json::object());
        if (!codes.contains(form["code"]) || form["code_verifier"].empty()) {
            return {200, json{{"error", "bad_verification_code"},
                              {"error_description", "The code passed is incorrect or expired."}}};
        }
        return {200, json{{"access_token", codes[form["code"]].get<std::string>()},
                          {"token_type", "bearer"},
                          {"scope", "read:user,user:email,read:org"}}};
    }
    const std::string authorization = request.get("Authorization", "");
    const json users = oauth.value("users", json::object());
    const std::string token = authorization.starts_with("Bearer ") ? authorization.substr(7) : "";
    if (method != "GET" || !users.contains(token)) {
        return {401, message("Bad credentials")};
    }
    const json& user = users[token];
    if (path == "/user") {
        return {200, user.value("user", json::object())};
    }
    if (path == "/user/emails") {
        return {200, user.value("emails", json::array())};
    }
    if (path == "/user/orgs") {
        return {200, user.value("orgs", json::array())};
    }
    if (path == "/user/teams") {
        return {200, user.value("teams", json::array())};
    }
    return {404, message("Not Found")};
}

ProviderStandin::Reply ProviderStandin::github(const std::string& method, const std::string& path,
                                               Poco::Net::HTTPServerRequest& request,
                                               const std::string& body) {
    static const std::regex access_tokens(R"(^/app/installations/(\d+)/access_tokens$)");
    static const std::regex run(R"(^/repos/([^/]+)/([^/]+)/actions/runs/(\d+)$)");
    static const std::regex status(R"(^/repos/([^/]+)/([^/]+)/statuses/([0-9a-f]{40})$)");
    static const std::regex comments(R"(^/repos/([^/]+)/([^/]+)/issues/(\d+)/comments$)");
    static const std::regex comment(R"(^/repos/([^/]+)/([^/]+)/issues/comments/(\d+)$)");
    static const std::regex check_runs(R"(^/repos/([^/]+)/([^/]+)/check-runs$)");
    static const std::regex check_run(R"(^/repos/([^/]+)/([^/]+)/check-runs/(\d+)$)");
    static const std::regex repo(R"(^/repos/([^/]+)/([^/]+)$)");
    if (path == "/login/oauth/access_token" || path.starts_with("/user")) {
        return github_sign_in(method, path, request, body);
    }
    std::smatch match;
    const auto post_call = [&](const char* call, int64_t number, const std::string& id) -> Reply {
        const std::string repository = match[1].str() + "/" + match[2].str();
        if (!installation_may_see(request, repository)) {
            return {404, message("Not Found")};
        }
        return record_post("github", repository, call, number, id, body);
    };
    if (method == "POST" && std::regex_match(path, match, comments)) {
        return post_call("comment_create", std::stoll(match[3]), "");
    }
    if (method == "PATCH" && std::regex_match(path, match, comment)) {
        return post_call("comment_edit", 0, match[3]);
    }
    if (method == "POST" && std::regex_match(path, match, check_runs)) {
        return post_call("check_create", 0, "");
    }
    if (method == "PATCH" && std::regex_match(path, match, check_run)) {
        return post_call("check_update", 0, match[3]);
    }
    if (method == "POST" && std::regex_match(path, match, access_tokens)) {
        return access_token(match[1], request);
    }
    // The repository as its installation sees it (linking one from the page asks first).
    if (method == "GET" && std::regex_match(path, match, repo)) {
        counted("repository");
        const std::string repository = match[1].str() + "/" + match[2].str();
        if (!installation_may_see(request, repository)) {
            return {404, message("Not Found")};
        }
        return {200, json{{"full_name", repository}}};
    }
    if (method == "GET" && std::regex_match(path, match, run)) {
        counted("workflow_run");
        const std::string repository = match[1].str() + "/" + match[2].str();
        if (!installation_may_see(request, repository)) {
            return {404, message("Not Found")};
        }
        json found;
        {
            std::lock_guard lock(mutex_);
            found = data_["runs"][repository + "/" + match[3].str()];
        }
        if (found.is_null()) {
            return {404, message("Not Found")};
        }
        if (found.value("hang", false)) {
            hang();
        }
        if (found.contains("respond")) {
            return {found["respond"].get<int>(), message("Server Error")};
        }
        found["id"] = std::stoll(match[3]);
        // As GitHub answers: the run's repository, and the head repository its commit comes
        // from (another one for a pull request from a fork; the test's data says so).
        if (!found.contains("repository")) {
            found["repository"] = {{"full_name", repository}};
        }
        if (!found.contains("head_repository")) {
            found["head_repository"] = found["repository"];
        }
        return {200, found};
    }
    if (method == "POST" && std::regex_match(path, match, status)) {
        const std::string repository = match[1].str() + "/" + match[2].str();
        if (!installation_may_see(request, repository)) {
            return {404, message("Not Found")};
        }
        return record_status("github", repository, match[3], body);
    }
    return {404, message("Not Found")};
}

ProviderStandin::Reply ProviderStandin::gitlab(const std::string& method, const std::string& path,
                                               Poco::Net::HTTPServerRequest& request,
                                               const std::string& body) {
    json gitlab;
    {
        std::lock_guard lock(mutex_);
        gitlab = data_.value("gitlab", json::object());
    }
    if (gitlab.value("hang", false)) {
        hang();
    }
    if (method == "GET" && path == "/job") {
        counted("gitlab_job");
        const auto jobs = gitlab.value("jobs", json::object());
        const auto token = header(request, "JOB-TOKEN");
        if (token.empty() || !jobs.contains(token)) {
            return {401, message("401 Unauthorized")};
        }
        const auto& job = jobs[token];
        return {200, json{{"id", job["id"]},
                          {"status", job["status"]},
                          {"ref", job["ref"]},
                          {"pipeline",
                           {{"id", 1}, {"project_id", job["project_id"]}, {"sha", job["sha"]}}},
                          {"commit", {{"id", job["sha"]}}}}};
    }
    if (header(request, "PRIVATE-TOKEN") != gitlab.value("token", "") ||
        header(request, "PRIVATE-TOKEN").empty()) {
        return {401, message("401 Unauthorized")};
    }
    static const std::regex project(R"(^/projects/([^/]+)$)");
    static const std::regex status(R"(^/projects/([^/]+)/statuses/([0-9a-f]{40})$)");
    static const std::regex notes(R"(^/projects/([^/]+)/merge_requests/(\d+)/notes$)");
    static const std::regex note(R"(^/projects/([^/]+)/merge_requests/(\d+)/notes/(\d+)$)");
    // Poco decodes %2F in the path: match on the raw URI instead.
    const auto& target = request.getURI();
    const std::string raw = target.substr(0, target.find('?')).substr(14);
    std::smatch match;
    const auto projects = gitlab.value("projects", json::object());
    auto decoded = [](const std::string& segment) {
        std::string out;
        Poco::URI::decode(segment, out);
        return out;
    };
    if (method == "GET" && std::regex_match(raw, match, project)) {
        counted("gitlab_project");
        const auto name = decoded(match[1]);
        if (!projects.contains(name)) {
            return {404, message("404 Project Not Found")};
        }
        return {200, json{{"id", projects[name]}, {"path_with_namespace", name}}};
    }
    if (method == "POST" && std::regex_match(raw, match, status)) {
        const auto name = decoded(match[1]);
        if (!projects.contains(name)) {
            return {404, message("404 Project Not Found")};
        }
        return record_status("gitlab", name, match[2], body);
    }
    const bool new_note = method == "POST" && std::regex_match(raw, match, notes);
    if (new_note || (method == "PUT" && std::regex_match(raw, match, note))) {
        const auto name = decoded(match[1]);
        if (!projects.contains(name)) {
            return {404, message("404 Project Not Found")};
        }
        return record_post("gitlab", name, new_note ? "note_create" : "note_edit",
                           std::stoll(match[2]), new_note ? "" : match[3].str(), body);
    }
    (void)path;
    return {404, message("404 Not Found")};
}

}  // namespace loupe::test
