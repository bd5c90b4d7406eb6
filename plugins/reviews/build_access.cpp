#include "build_access.hpp"

namespace loupe::reviews {

BuildAccess open_build(Host& host, builds::BuildsService& builds, Request& request,
                       int64_t number) {
    const AccessGrant& grant = request.access();
    const Project& project = grant.require_project();
    std::optional<builds::BuildSummary> build;
    {
        auto session = host.db().session();
        build = builds.find_build(*session, project.id, number);
    }
    if (!build) {
        throw HttpError::not_found();
    }
    return BuildAccess{project, std::move(*build), request.principal().user_id, grant.permissions};
}

std::optional<int64_t> parse_id(const std::string& text) {
    if (text.empty() || text.size() > 18 || text[0] == '0') {
        return std::nullopt;
    }
    int64_t value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
        value = value * 10 + (c - '0');
    }
    return value;
}

int64_t parse_build_number_param(Request& request) {
    Validation validation;
    auto number = parse_build_number(request.param("buildNumber"), validation);
    validation.throw_if_any();
    return *number;
}

std::optional<int64_t> parse_build_number(const std::string& text, Validation& validation) {
    bool digits = !text.empty() && text.size() <= 15;
    for (char c : text) {
        digits = digits && c >= '0' && c <= '9';
    }
    if (!digits) {
        validation.add("", "Invalid input: expected number, received NaN");
        return std::nullopt;
    }
    const int64_t number = std::stoll(text);
    if (number < 1) {
        validation.add("", "Too small: expected number to be >=1");
        return std::nullopt;
    }
    return number;
}

}  // namespace loupe::reviews
