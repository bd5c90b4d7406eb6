#include "gitlab/gitlab_api_client.hpp"

#include <fstream>
#include <sstream>

#include "http/provider_call.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::git {
namespace {

std::string trimmed_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        return "";
    }
    std::stringstream content;
    content << in.rdbuf();
    return std::string(trim_end(content.str(), " \t\r\n"));
}

std::optional<int64_t> integer_field(const Json& object, const char* key) {
    if (object.is_object() && object.contains(key) && object[key].is_number_integer()) {
        return object[key].get<int64_t>();
    }
    return std::nullopt;
}

std::string string_field(const Json& object, const char* key) {
    if (object.is_object() && object.contains(key) && object[key].is_string()) {
        return object[key].get<std::string>();
    }
    return "";
}

/// GitLab refuses to set a status the commit already has while it runs; that is success.
bool already_running(const ProviderReply& reply) {
    return reply.result.http_status == 400 &&
           reply.result.message.find("Cannot transition status") != std::string::npos;
}

}  // namespace

GitLabApiClient::GitLabApiClient(const ProviderHttp& http, const GitSettings& settings)
    : http_(http),
      api_url_(settings.gitlab_api_url),
      token_(settings.gitlab_token),
      token_file_(settings.gitlab_token_file),
      timeout_ms_(settings.timeout_ms) {}

std::string GitLabApiClient::access_token(const RepositoryLink& link) const {
    if (link.token_file) {
        return trimmed_file(*link.token_file);
    }
    if (!token_.empty()) {
        return token_;
    }
    return token_file_.empty() ? "" : trimmed_file(token_file_);
}

bool GitLabApiClient::configured(const RepositoryLink& link) const {
    return !access_token(link).empty();
}

ProviderReply GitLabApiClient::call(const RepositoryLink& link, const std::string& method,
                                    const std::string& path, const Json& body, Deadline deadline) {
    const auto token = access_token(link);
    if (token.empty()) {
        return {failure(Outcome::not_configured,
                        "no GitLab access token for " + link.repository +
                            " (gitlab.token, gitlab.token_file or the link's --token-file)"),
                nullptr};
    }
    ProviderRequest request;
    request.method = method;
    request.url = api_url_ + path;
    request.headers = {{"PRIVATE-TOKEN", token}, {"Accept", "application/json"}};
    if (!body.is_null()) {
        request.body = body.dump();
    }
    return http_.call(request, deadline);
}

ProviderReply GitLabApiClient::call(const RepositoryLink& link, const std::string& method,
                                    const std::string& path, const Json& body) {
    return call(link, method, path, body, deadline_in(timeout_ms_));
}

CallResult GitLabApiClient::job(const std::string& job_token, GitLabJob& job, Deadline deadline) {
    ProviderRequest request;
    request.url = api_url_ + "/job";
    request.headers = {{"JOB-TOKEN", job_token}, {"Accept", "application/json"}};
    auto reply = http_.call(request, deadline);
    if (!reply.result.ok()) {
        return reply.result;
    }
    const auto& body = reply.body;
    const Json pipeline = body.is_object() && body.contains("pipeline") ? body["pipeline"] : Json();
    const auto id = integer_field(body, "id");
    const auto project = integer_field(pipeline, "project_id");
    if (!id || !project) {
        return failure(Outcome::unavailable, "GitLab answered GET /job without its id or project");
    }
    job.id = *id;
    job.project_id = *project;
    job.status = string_field(body, "status");
    job.ref = string_field(body, "ref");
    job.sha = string_field(pipeline, "sha");
    if (job.sha.empty() && body.contains("commit")) {
        job.sha = string_field(body["commit"], "id");
    }
    return {};
}

CallResult GitLabApiClient::job(const std::string& job_token, GitLabJob& job) {
    return this->job(job_token, job, deadline_in(timeout_ms_));
}

CallResult GitLabApiClient::project_id(const RepositoryLink& link, int64_t& id, Deadline deadline) {
    if (link.gitlab_project_id) {
        id = *link.gitlab_project_id;
        return {};
    }
    {
        std::lock_guard lock(mutex_);
        auto known = project_ids_.find(link.repository);
        if (known != project_ids_.end()) {
            id = known->second;
            return {};
        }
    }
    auto reply =
        call(link, "GET", "/projects/" + url_path_segment(link.repository), nullptr, deadline);
    if (!reply.result.ok()) {
        return reply.result;
    }
    const auto found = integer_field(reply.body, "id");
    if (!found) {
        return failure(Outcome::unavailable, "GitLab answered a project without its id");
    }
    id = *found;
    std::lock_guard lock(mutex_);
    project_ids_[link.repository] = id;
    return {};
}

CallResult GitLabApiClient::create_commit_status(const RepositoryLink& link,
                                                 const CommitStatus& status) {
    const Json body{{"state", status.state},
                    {"name", status.context},
                    {"description", status.description},
                    {"target_url", status.target_url}};
    auto reply = call(link, "POST",
                      "/projects/" + url_path_segment(link.repository) + "/statuses/" +
                          url_path_segment(status.sha),
                      body);
    return already_running(reply) ? CallResult{} : reply.result;
}

}  // namespace loupe::git
