// The repository a project is linked to, from its settings page (as `loupe admin project
// link-github|link-gitlab|unlink` do on the server):
//   GET    /_loupe/projects/{owner}/{project}/repository  {"repository": null | {provider, ...}}
//   PUT    /_loupe/projects/{owner}/{project}/repository  {provider, repository, installationId?}
//   DELETE /_loupe/projects/{owner}/{project}/repository
// A link makes Loupe post commit statuses and pull request comments to the repository and lets
// its CI upload without a token, so a project administrator may link only what the server's
// credentials can reach: the GitHub App installation named must see the repository, or the
// server's GitLab token the project; the provider is asked before anything is stored. A token
// file (GitLab) stays the operator's: the page neither shows nor sets one, and re-linking the
// same project keeps it.
#include "routes/repository_link_routes.hpp"

#include <soci/soci.h>

#include "loupe/http/http_client.hpp"
#include "loupe/http/http_error.hpp"
#include "loupe/http/json_reader.hpp"
#include "loupe/text/strings.hpp"
#include "store/links.hpp"

namespace loupe::git {
namespace {

Json public_link_json(const std::optional<RepositoryLink>& link) {
    if (!link) {
        return Json{{"repository", nullptr}};
    }
    Json out{{"provider", provider_name(link->provider)},
             {"repository", link->repository},
             {"ownToken", link->token_file.has_value()}};
    if (link->installation_id) {
        out["installationId"] = std::to_string(*link->installation_id);
    }
    return Json{{"repository", out}};
}

struct LinkInput {
    Provider provider = Provider::github;
    std::string repository;
    std::optional<int64_t> installation_id;
};

LinkInput read_link_input(Request& request) {
    Validation validation;
    JsonReader body(object_body(request), validation);
    LinkInput input;
    const auto provider = body.one_of("provider", true, {"github", "gitlab"});
    const auto repository = body.string("repository", true, 1);
    const auto installation = body.string("installationId", false);
    validation.throw_if_any();
    input.provider = *provider == "github" ? Provider::github : Provider::gitlab;
    input.repository = std::string(trim(*repository));
    if (!repository_name_fits(input.provider, input.repository)) {
        validation.add("repository", input.provider == Provider::github
                                         ? "Expected OWNER/NAME of a GitHub repository"
                                         : "Expected the GROUP/NAME path of a GitLab project");
    }
    if (input.provider == Provider::github) {
        const std::string text = installation.value_or("");
        if (text.empty() || text.size() > 18 ||
            text.find_first_not_of("0123456789") != std::string::npos || text == "0") {
            validation.add("installationId", "Expected the GitHub App installation's number");
        } else {
            input.installation_id = std::stoll(text);
        }
    }
    validation.throw_if_any();
    return input;
}

/// 400 when the server's credentials cannot reach the repository, 502 when the provider does
/// not answer; fills what the provider tells of it (GitLab's numeric id).
void check_reachable(GitProviders& providers, RepositoryLink& link) {
    const bool github = link.provider == Provider::github;
    const ProviderReply reply =
        github ? providers.github().call(*link.installation_id, "GET", "/repos/" + link.repository,
                                         nullptr)
               : providers.gitlab().call(link, "GET",
                                         "/projects/" + url_path_segment(link.repository), nullptr);
    switch (reply.result.outcome) {
        case Outcome::ok:
            if (!github && reply.body.contains("id") && reply.body["id"].is_number_integer()) {
                link.gitlab_project_id = reply.body["id"].get<int64_t>();
            }
            return;
        case Outcome::not_configured:
            throw HttpError::bad_request(github ? "This server has no GitHub App: an operator sets "
                                                  "github.app_id and github.app_private_key_file."
                                                : "This server has no GitLab token: an operator "
                                                  "sets gitlab.token or gitlab.token_file.");
        case Outcome::unavailable:
            throw HttpError(502, std::string(github ? "GitHub" : "GitLab") +
                                     " did not answer: " + reply.result.message);
        case Outcome::not_found:
        case Outcome::not_installed:
        case Outcome::rejected:
            break;
    }
    throw HttpError::bad_request(
        github ? "The GitHub App installation " + std::to_string(*link.installation_id) +
                     " cannot see " + link.repository + "."
               : "The server's GitLab token cannot see " + link.repository + ".");
}

}  // namespace

void add_repository_link_routes(Host& host, GitProviders& providers) {
    const std::string path = "/_loupe/projects/{owner}/{project}/repository";
    const auto admin = RouteAccess::project(ProjectPermission::admin,
                                            "You are not an administrator of this project.");
    host.routes().add(
        Method::get, path, AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::view_settings), [&host](Request& request) {
            auto session = host.db().session();
            return Response::json(
                public_link_json(find_link(*session, request.access().require_project().id)));
        });

    host.routes().add_validated(
        Method::put, path, AuthRequirement::personal_token, admin, read_link_input,
        [&host, &providers](Request& request, const LinkInput& input) {
            const Project& project = request.access().require_project();
            RepositoryLink link;
            link.project_id = project.id;
            link.provider = input.provider;
            link.repository = input.repository;
            link.installation_id = input.installation_id;
            {
                auto session = host.db().session();
                if (const auto current = find_link(*session, project.id);
                    current && current->provider == link.provider &&
                    repository_key(current->repository) == repository_key(link.repository)) {
                    link.token_file = current->token_file;
                }
            }
            // Asked outside any transaction: the provider may take the whole call's budget.
            check_reachable(providers, link);
            host.db().transaction(
                [&](soci::session& session) { save_link(session, link, now_ms()); });
            return Response::json(public_link_json(link));
        });

    host.routes().add(
        Method::del, path, AuthRequirement::personal_token, admin, [&host](Request& request) {
            const int64_t project_id = request.access().require_project().id;
            const bool removed = host.db().transaction(
                [&](soci::session& session) { return delete_link(session, project_id); });
            if (!removed) {
                throw HttpError::not_found("The project is linked to no repository.");
            }
            return Response::no_content();
        });
}

}  // namespace loupe::git
