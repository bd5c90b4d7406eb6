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

}  // namespace

void add_exchange_routes(Host& host, TokenlessAuth& tokenless) {
    add_exchange(host, tokenless, "/auth/github-actions/tokenless/exchange",
                 &TokenlessAuth::exchange_github);
    add_exchange(host, tokenless, "/auth/gitlab-ci/tokenless/exchange",
                 &TokenlessAuth::exchange_gitlab);
}

}  // namespace loupe::git
