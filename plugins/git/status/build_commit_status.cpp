#include "status/build_commit_status.hpp"

namespace loupe::git {
namespace {

struct FinalStatus {
    const char* github;
    const char* gitlab;
    const char* description;
};

FinalStatus final_status(const std::string& status) {
    if (status == "expired") {
        return {"error", "canceled", "Build expired"};
    }
    if (status == "aborted") {
        return {"error", "canceled", "Build aborted"};
    }
    return {"error", "failed", "Build failed"};
}

std::string text_field(const Json& object, const char* key) {
    if (object.is_object() && object.contains(key) && object[key].is_string()) {
        return object[key].get<std::string>();
    }
    return "";
}

}  // namespace

std::string truncate_utf8(const std::string& text, std::size_t limit) {
    if (text.size() <= limit) {
        return text;
    }
    const std::string ellipsis = "\u2026";
    std::size_t cut = limit - ellipsis.size();
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) {
        --cut;  // do not end inside a multi-byte character
    }
    return text.substr(0, cut) + ellipsis;
}

CommitStatus build_commit_status(const Json& build_resource, const std::string& sha,
                                 const std::string& build_name, Provider provider,
                                 const std::optional<std::string>& shared_with_project) {
    CommitStatus status;
    status.sha = sha;
    status.target_url = text_field(build_resource, "url");
    const Json notification = build_resource.is_object() && build_resource.contains("notification")
                                  ? build_resource["notification"]
                                  : Json();
    const char* provider_key = provider == Provider::gitlab ? "gitlab" : "github";
    if (notification.is_object()) {
        status.state = notification.contains(provider_key)
                           ? text_field(notification[provider_key], "state")
                           : "";
        status.description = text_field(notification, "description");
        status.context = text_field(notification, "context");
        if (const auto url = text_field(notification, "url"); !url.empty()) {
            status.target_url = url;
        }
    } else {
        const auto final = final_status(text_field(build_resource, "status"));
        status.state = provider == Provider::gitlab ? final.gitlab : final.github;
        status.description = final.description;
        status.context = build_name == "default" ? "argos" : "argos/" + build_name;
    }
    if (shared_with_project && status.context.starts_with("argos")) {
        status.context = "argos/" + *shared_with_project + status.context.substr(5);
    }
    status.description =
        truncate_utf8(status.description, provider == Provider::gitlab ? gitlab_description_limit
                                                                       : github_description_limit);
    return status;
}

}  // namespace loupe::git
