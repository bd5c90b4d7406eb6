#include "tokenless/tokenless_token.hpp"

#include "loupe/crypto/encoding.hpp"
#include "loupe/json.hpp"

namespace loupe::git {
namespace {

/// The JSON object after `marker`, or nullopt.
std::optional<Json> payload(const std::string& token, const std::string& marker) {
    if (token.size() > max_tokenless_token_length || !token.starts_with(marker) ||
        token.size() == marker.size()) {
        return std::nullopt;
    }
    const auto decoded = crypto::base64_decode(std::string_view(token).substr(marker.size()));
    if (!decoded) {
        return std::nullopt;
    }
    auto object = Json::parse(*decoded, nullptr, false);
    if (object.is_discarded() || !object.is_object()) {
        return std::nullopt;
    }
    return object;
}

bool read_string(const Json& object, const char* key, std::string& out) {
    auto field = object.find(key);
    if (field == object.end() || !field->is_string()) {
        return false;
    }
    out = field->get<std::string>();
    return true;
}

/// An optional string: absent is fine, anything but a string is not.
bool read_optional_string(const Json& object, const char* key, std::optional<std::string>& out) {
    auto field = object.find(key);
    if (field == object.end()) {
        return true;
    }
    if (!field->is_string()) {
        return false;
    }
    out = field->get<std::string>();
    return true;
}

}  // namespace

std::optional<GitHubTokenlessToken> decode_github_token(const std::string& token) {
    auto object = payload(token, github_token_marker);
    GitHubTokenlessToken decoded;
    if (!object || !read_string(*object, "owner", decoded.owner) ||
        !read_string(*object, "repository", decoded.repository) ||
        !read_string(*object, "jobId", decoded.job_id) ||
        !read_string(*object, "runId", decoded.run_id) ||
        !read_optional_string(*object, "project", decoded.project)) {
        return std::nullopt;
    }
    return decoded;
}

std::optional<GitLabTokenlessToken> decode_gitlab_token(const std::string& token) {
    auto object = payload(token, gitlab_token_marker);
    GitLabTokenlessToken decoded;
    if (!object || !read_string(*object, "gitlabProject", decoded.gitlab_project) ||
        !read_string(*object, "jobToken", decoded.job_token) ||
        !read_optional_string(*object, "project", decoded.project) ||
        decoded.gitlab_project.empty() || decoded.job_token.empty()) {
        return std::nullopt;
    }
    return decoded;
}

}  // namespace loupe::git
