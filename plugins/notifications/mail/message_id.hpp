#pragma once
// Message-IDs of the mails Loupe sends: "<random@host of the public URL>".

#include <string>

namespace loupe::notifications {

/// A new Message-ID on the host part of `public_url` ("loupe.invalid" when it has none).
std::string new_message_id(const std::string& public_url);

}  // namespace loupe::notifications
