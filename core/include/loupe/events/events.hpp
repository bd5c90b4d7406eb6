#pragma once
// In-process publish/subscribe. Subscribers run synchronously on the publisher's thread, after
// the publisher's transaction committed (publish only after commit); a throwing subscriber is
// logged and does not affect the others or the publisher.

#include <functional>
#include <string>

#include "loupe/export.hpp"
#include "loupe/json.hpp"

namespace loupe {

using EventHandler = std::function<void(const std::string& topic, const Json& payload)>;

class LOUPE_API Events {
public:
    virtual ~Events();
    virtual void subscribe(std::string topic, EventHandler handler) = 0;  ///< install() only
    virtual void publish(const std::string& topic, const Json& payload) = 0;
};

}  // namespace loupe
