#include "routes/exchange_routes.hpp"

#include "loupe/http/json_reader.hpp"

namespace loupe::git {
namespace {

struct ExchangeInput {
    std::string tokenless_token;
    std::string commit;
    std::string branch;
};

ExchangeInput parse_exchange(Request& request) {
    const Json& body = object_body(request);
    Validation validation;
    JsonReader reader(body, validation);
    auto token = reader.string("tokenlessToken", true, 1);
    auto commit = reader.pattern("commit", true, sha1_pattern);
    auto branch = reader.string("branch", true, 1);
    validation.throw_if_any();
    return ExchangeInput{*token, *commit, *branch};
}

using Exchange = Json (TokenlessAuth::*)(const std::string&, const std::string&,
                                         const std::string&);

void add_exchange(Host& host, TokenlessAuth& tokenless, const char* path, Exchange exchange) {
    host.routes().add_validated(
        Method::post, path, AuthRequirement::none,
        RouteAccess::public_route("the CI job's credential in the body is verified with the "
                                  "git provider; it answers a token of the linked project"),
        parse_exchange, [&tokenless, exchange](Request&, ExchangeInput& input) {
            return Response::json(
                (tokenless.*exchange)(input.tokenless_token, input.commit, input.branch));
        });
}

OidcExchangeInput parse_oidc_exchange(Request& request) {
    const Json& body = object_body(request);
    Validation validation;
    JsonReader reader(body, validation);
    auto token = reader.string("oidcToken", true, 1);
    auto repository = reader.pattern("repository", false, "^[^/]+/[^/]+$");
    auto commit = reader.pattern("commit", false, sha1_pattern);
    validation.throw_if_any();
    return OidcExchangeInput{*token, repository, commit};
}

using OidcExchange = Json (CiOidcExchange::*)(const OidcExchangeInput&);

void add_oidc_exchange(Host& host, CiOidcExchange& oidc, const char* path, OidcExchange exchange) {
    host.routes().add_validated(
        Method::post, path, AuthRequirement::none,
        RouteAccess::public_route("the CI job's OpenID Connect ID token in the body is verified "
                                  "against its issuer's keys; it answers a token of the linked "
                                  "project"),
        parse_oidc_exchange, [&oidc, exchange](Request&, OidcExchangeInput& input) {
            return Response::json((oidc.*exchange)(input));
        });
}

}  // namespace

void add_oidc_exchange_routes(Host& host, CiOidcExchange& oidc) {
    add_oidc_exchange(host, oidc, "/auth/github-actions/oidc/exchange",
                      &CiOidcExchange::exchange_github);
    add_oidc_exchange(host, oidc, "/auth/gitlab-ci/oidc/exchange",
                      &CiOidcExchange::exchange_gitlab);
}

void add_exchange_routes(Host& host, TokenlessAuth& tokenless) {
    add_exchange(host, tokenless, "/auth/github-actions/tokenless/exchange",
                 &TokenlessAuth::exchange_github);
    add_exchange(host, tokenless, "/auth/gitlab-ci/tokenless/exchange",
                 &TokenlessAuth::exchange_gitlab);
}

}  // namespace loupe::git
