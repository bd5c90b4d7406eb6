#include "webhooks/pull_request_webhook.hpp"

#include "loupe/crypto/digest.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::git {
namespace {

const Json* member(const Json& object, const char* name) {
    if (!object.is_object()) {
        return nullptr;
    }
    auto it = object.find(name);
    return it == object.end() ? nullptr : &*it;
}

std::optional<std::string> text_member(const Json& object, const char* name) {
    const Json* value = member(object, name);
    if (value == nullptr || !value->is_string() || value->get_ref<const std::string&>().empty()) {
        return std::nullopt;
    }
    return value->get<std::string>();
}

std::optional<int64_t> positive_member(const Json& object, const char* name) {
    const Json* value = member(object, name);
    if (value == nullptr || !value->is_number_integer() || value->get<int64_t>() <= 0) {
        return std::nullopt;
    }
    return value->get<int64_t>();
}

int64_t time_or(const Json& object, const char* name, int64_t now) {
    auto text = text_member(object, name);
    if (!text) {
        return now;
    }
    return parse_iso_time(*text).value_or(now);
}

}  // namespace

std::optional<MergedPullRequest> github_merge_of(const std::string& event, const Json& payload,
                                                 int64_t now) {
    if (event != "pull_request" || text_member(payload, "action") != "closed") {
        return std::nullopt;
    }
    const Json* pull_request = member(payload, "pull_request");
    const Json* repository = member(payload, "repository");
    if (pull_request == nullptr || repository == nullptr) {
        return std::nullopt;
    }
    const Json* merged = member(*pull_request, "merged");
    auto number = positive_member(*pull_request, "number");
    auto name = text_member(*repository, "full_name");
    if (merged == nullptr || !merged->is_boolean() || !merged->get<bool>() || !number || !name) {
        return std::nullopt;
    }
    return MergedPullRequest{Provider::github, *name, *number,
                             time_or(*pull_request, "merged_at", now)};
}

std::optional<MergedPullRequest> gitlab_merge_of(const Json& payload, int64_t now) {
    if (text_member(payload, "object_kind") != "merge_request") {
        return std::nullopt;
    }
    const Json* attributes = member(payload, "object_attributes");
    const Json* project = member(payload, "project");
    if (attributes == nullptr || project == nullptr) {
        return std::nullopt;
    }
    const bool merged = text_member(*attributes, "action") == "merge" ||
                        text_member(*attributes, "state") == "merged";
    auto iid = positive_member(*attributes, "iid");
    auto path = text_member(*project, "path_with_namespace");
    if (!merged || !iid || !path) {
        return std::nullopt;
    }
    // GitLab's payload carries no merge time of its own: the last update is the merge.
    return MergedPullRequest{Provider::gitlab, *path, *iid,
                             time_or(*attributes, "updated_at", now)};
}

std::optional<OpenedPullRequest> github_opened_of(const std::string& event, const Json& payload) {
    const auto action = text_member(payload, "action");
    if (event != "pull_request" ||
        (action != "opened" && action != "reopened" && action != "ready_for_review")) {
        return std::nullopt;
    }
    const Json* pull_request = member(payload, "pull_request");
    const Json* repository = member(payload, "repository");
    const Json* head = pull_request != nullptr ? member(*pull_request, "head") : nullptr;
    const Json* head_repository = head != nullptr ? member(*head, "repo") : nullptr;
    if (repository == nullptr || head_repository == nullptr) {
        return std::nullopt;
    }
    auto number = positive_member(*pull_request, "number");
    auto name = text_member(*repository, "full_name");
    auto head_name = text_member(*head_repository, "full_name");
    auto branch = text_member(*head, "ref");
    if (!number || !name || !head_name || !branch || !equals_ignoring_case(*name, *head_name)) {
        return std::nullopt;
    }
    return OpenedPullRequest{Provider::github, *name, *number, *branch};
}

std::optional<OpenedPullRequest> gitlab_opened_of(const Json& payload) {
    if (text_member(payload, "object_kind") != "merge_request") {
        return std::nullopt;
    }
    const Json* attributes = member(payload, "object_attributes");
    const Json* project = member(payload, "project");
    if (attributes == nullptr || project == nullptr) {
        return std::nullopt;
    }
    const auto action = text_member(*attributes, "action");
    if (action != "open" && action != "reopen") {
        return std::nullopt;
    }
    auto iid = positive_member(*attributes, "iid");
    auto path = text_member(*project, "path_with_namespace");
    auto branch = text_member(*attributes, "source_branch");
    auto source = positive_member(*attributes, "source_project_id");
    auto target = positive_member(*attributes, "target_project_id");
    if (!iid || !path || !branch || !source || source != target) {
        return std::nullopt;
    }
    return OpenedPullRequest{Provider::gitlab, *path, *iid, *branch};
}

bool github_signature_fits(const std::string& secret, const std::string& body,
                           const std::string& signature) {
    const std::string expected = "sha256=" + crypto::hmac_sha256_hex(secret, body);
    return crypto::equal_in_constant_time(expected, signature);
}

}  // namespace loupe::git
