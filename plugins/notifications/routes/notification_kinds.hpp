#pragma once
// The kinds of mail a user can turn off, as the API names them: "enabled" (every mail) and
// one per reason a mail is sent.

#include <array>
#include <string_view>

namespace loupe::notifications {

struct NotificationKindName {
    std::string_view api_field;  ///< the settings resource's field
    std::string_view kind;       ///< the stored kind
};

inline constexpr std::array<NotificationKindName, 7> notification_kind_names{{
    {"enabled", "all"},
    {"mentions", "mention"},
    {"threadReplies", "reply"},
    {"reviewRequests", "review_request"},
    {"buildReviews", "build_review"},
    {"buildStatuses", "build_status"},
    {"testComments", "test_comment"},
}};

}  // namespace loupe::notifications
