#include "sign_in/github_client.hpp"

#include "oidc/oidc_client.hpp"

namespace loupe::sso {
namespace {

std::string text_of(const Json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const auto& word : words) {
        text += (text.empty() ? "" : " ") + word;
    }
    return text;
}

/// The primary verified address, else the first verified one; "" when none is verified.
std::string verified_email(const Json& emails) {
    std::string first;
    for (const auto& entry : emails) {
        if (!entry.is_object() || entry.value("verified", false) != true) {
            continue;
        }
        std::string address = text_of(entry, "email");
        if (entry.value("primary", false) == true && !address.empty()) {
            return address;
        }
        if (first.empty()) {
            first = address;
        }
    }
    return first;
}

}  // namespace

GitHubClient::GitHubClient(const HttpClient& http, OidcProvider provider)
    : http_(http), provider_(std::move(provider)) {
    call_options_.connect_timeout = std::chrono::seconds(5);
    call_options_.io_timeout = std::chrono::seconds(10);
    call_options_.max_response_bytes = std::size_t{1024} * 1024;
}

std::string GitHubClient::authorization_url(const std::string& redirect_uri,
                                            const std::string& state, const std::string&,
                                            const std::string& code_challenge) {
    return provider_.issuer +
           "/login/oauth/authorize?client_id=" + url_query_component(provider_.client_id) +
           "&redirect_uri=" + url_query_component(redirect_uri) +
           "&scope=" + url_query_component(joined(provider_.scopes)) +
           "&state=" + url_query_component(state) +
           "&code_challenge=" + url_query_component(code_challenge) +
           "&code_challenge_method=S256&allow_signup=false";
}

Json GitHubClient::api_get(const std::string& token, const std::string& path) const {
    const std::string url = provider_.api_url + path;
    HttpResponse response;
    try {
        response = http_.get_json(url,
                                  {{"Authorization", "Bearer " + token},
                                   {"Accept", "application/vnd.github+json"},
                                   {"X-GitHub-Api-Version", "2022-11-28"}},
                                  call_options_);
    } catch (const HttpTransportError& error) {
        throw ProviderUnavailable(url + ": " + error.what());
    }
    if (response.status >= 500) {
        throw ProviderUnavailable(url + " answered " + std::to_string(response.status));
    }
    const auto answer = response.json();
    if (!response.ok() || !answer) {
        throw SignInRejected("GitHub refused to tell who you are (" +
                             std::to_string(response.status) + ")");
    }
    return *answer;
}

Json GitHubClient::redeem(const std::string& code, const std::string& code_verifier,
                          const std::string& redirect_uri, const std::string& nonce) {
    const std::string token_url = provider_.issuer + "/login/oauth/access_token";
    const std::string body = "client_id=" + url_query_component(provider_.client_id) +
                             "&client_secret=" + url_query_component(provider_.client_secret) +
                             "&code=" + url_query_component(code) +
                             "&redirect_uri=" + url_query_component(redirect_uri) +
                             "&code_verifier=" + url_query_component(code_verifier);
    HttpResponse response;
    try {
        auto options = call_options_;
        options.idempotent = false;
        response = http_.send(
            HttpRequest{.method = "POST",
                        .url = token_url,
                        .headers = {{"Content-Type", "application/x-www-form-urlencoded"},
                                    {"Accept", "application/json"}},
                        .body = body},
            options);
    } catch (const HttpTransportError& error) {
        throw ProviderUnavailable(token_url + ": " + error.what());
    }
    if (response.status >= 500) {
        throw ProviderUnavailable(token_url + " answered " + std::to_string(response.status));
    }
    const auto answer = response.json();
    // GitHub answers a refused code with 200 and {"error", "error_description"}.
    const std::string token = answer && answer->is_object() ? text_of(*answer, "access_token") : "";
    if (!response.ok() || token.empty()) {
        const std::string why = answer && answer->is_object()
                                    ? (text_of(*answer, "error_description").empty()
                                           ? text_of(*answer, "error")
                                           : text_of(*answer, "error_description"))
                                    : std::string();
        throw SignInRejected("GitHub refused the sign-in" + (why.empty() ? "" : ": " + why));
    }
    const Json user = api_get(token, "/user");
    if (!user.is_object() || !user.contains("id") || !user["id"].is_number_integer()) {
        throw SignInRejected("GitHub sent no user");
    }
    const std::string email = verified_email(api_get(token, "/user/emails"));
    Json groups = Json::array();
    if (!provider_.roles.empty()) {
        for (const auto& org : api_get(token, "/user/orgs")) {
            if (org.is_object() && !text_of(org, "login").empty()) {
                groups.push_back(text_of(org, "login"));
            }
        }
        for (const auto& team : api_get(token, "/user/teams")) {
            if (team.is_object() && team.contains("organization") &&
                team["organization"].is_object()) {
                groups.push_back(text_of(team["organization"], "login") + "/" +
                                 text_of(team, "slug"));
            }
        }
    }
    const std::string name = text_of(user, "name");
    return Json{{"sub", std::to_string(user["id"].get<int64_t>())},
                {"email", email},
                {"email_verified", !email.empty()},
                {"name", name.empty() ? text_of(user, "login") : name},
                {provider_.policy.roles_claim, std::move(groups)},
                {"nonce", nonce}};
}

}  // namespace loupe::sso
