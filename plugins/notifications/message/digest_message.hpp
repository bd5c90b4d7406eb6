#pragma once
// The mail of one batch: a subject, a plain-text part and an HTML part (every piece of user
// content escaped), each notification with a link into the review page, and the unsubscribe
// link at the bottom. Pure: rendering reads only what the pending rows recorded.

#include <string>
#include <vector>

#include "loupe/json.hpp"

namespace loupe::notifications {

/// One notification as recorded when its event arrived.
struct NotificationItem {
    /// mention | reply | test_comment | review_request | build_review | build_status
    std::string kind;
    std::string actor_name;  ///< who wrote the comment, asked for the review or reviewed
    std::string project;     ///< "account/project"
    int64_t build_number = 0;
    std::string test_name;   ///< a comment on a test: the test it is about (no build)
    std::string media_name;  ///< a comment on a media: the media it is about (no build)
    std::string url;         ///< the page it points to
    std::string body;        ///< the comment's Markdown, as written (hostile); none for reviews
    std::string decision;    ///< build_review: approved | rejected; build_status: the conclusion
};

Json to_payload(const NotificationItem& item);
NotificationItem item_of_payload(const std::string& kind, const Json& payload);

struct DigestMessage {
    std::string subject;
    std::string text;
    std::string html;
};

DigestMessage build_digest(const std::vector<NotificationItem>& items,
                           const std::string& unsubscribe_url, const std::string& home_url);

/// `text` on one line with control characters removed (headers must not carry line breaks).
std::string header_safe(const std::string& text);

}  // namespace loupe::notifications
