#include "routes/account_resources.hpp"

#include <soci/soci.h>

#include "loupe/builds/build_analytics.hpp"
#include "loupe/http/http_error.hpp"

namespace loupe::auth {
namespace {

struct PeriodUsage {
    int64_t builds = 0;
    int64_t screenshots = 0;
};

/// The builds and screenshots of the account's projects created in [from_ms, to_ms].
PeriodUsage usage_of(Host& host, const Account& account, int64_t from_ms, int64_t to_ms) {
    PeriodUsage usage;
    auto* builds = host.services().find<builds::BuildAnalytics>();
    if (builds == nullptr) {
        return usage;
    }
    auto session = host.db().session();
    const auto projects =
        builds->account_projects_with_builds(*session, account.id, from_ms, to_ms);
    for (const auto& row : builds->build_activity(*session, projects, from_ms, to_ms,
                                                  builds::ActivityBucket::month)) {
        usage.builds += row.builds;
        usage.screenshots += row.screenshots;
    }
    return usage;
}

}  // namespace

int64_t member_account_id_of(Request& request) {
    const std::string text = request.param("userId");
    // At most 18 digits: every such number fits a signed 64-bit id.
    const bool digits = !text.empty() && text.size() <= 18 &&
                        text.find_first_not_of("0123456789") == std::string::npos;
    if (!digits) {
        throw HttpError::bad_request("Invalid user account ID.");
    }
    return std::stoll(text);
}

Json team_member_json(const TeamMember& member) {
    return Json{{"id", std::to_string(member.id)},
                {"user",
                 {{"id", std::to_string(member.user_account_id)},
                  {"slug", member.slug},
                  {"name", member.name.empty() ? Json(nullptr) : Json(member.name)}}},
                {"level", role_name(member.role)}};
}

Json account_details_json(Host& host, TeamStore& teams, const Account& account) {
    const int64_t now = now_ms();
    const int64_t start = now - usage_period_ms;
    const PeriodUsage usage = usage_of(host, account, start, now);
    const auto default_level = teams.default_user_level(account);
    return Json{
        {"id", std::to_string(account.id)},
        {"slug", account.slug},
        {"name", account.name.empty() ? Json(nullptr) : Json(account.name)},
        {"type", account.kind == AccountKind::team ? "team" : "user"},
        {"plan", nullptr},
        {"periodStartDate", iso_time(start)},
        {"periodEndDate", iso_time(now)},
        {"currentPeriodScreenshots", usage.screenshots},
        {"currentPeriodBuilds", usage.builds},
        {"includedScreenshots", 0},
        {"consumptionRatio", 0},
        {"additionalScreenshotsCost", 0},
        {"defaultUserLevel", default_level ? Json(role_name(*default_level)) : Json(nullptr)},
    };
}

}  // namespace loupe::auth
