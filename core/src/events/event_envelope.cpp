#include "events/event_envelope.hpp"

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <stdexcept>
#include <system_error>

namespace loupe {
namespace {

std::string required_text(const Json& payload, const char* key) {
    if (!payload.contains(key) || !payload[key].is_string() ||
        payload[key].get_ref<const std::string&>().empty()) {
        throw std::runtime_error(std::string("not an event delivery: the payload has no \"") + key +
                                 "\"");
    }
    return payload[key].get<std::string>();
}

void fill_random(std::array<uint8_t, 16>& bytes) {
    std::size_t filled = 0;
    while (filled < bytes.size()) {
        const auto got = ::getrandom(bytes.data() + filled, bytes.size() - filled, 0);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            throw std::system_error(errno, std::generic_category(), "getrandom");
        }
        filled += static_cast<std::size_t>(got);
    }
}

}  // namespace

Events::~Events() = default;

Json envelope_json(const EventEnvelope& envelope) {
    return Json{{"id", envelope.id},
                {"type", envelope.type},
                {"version", envelope.version},
                {"publisher", envelope.publisher},
                {"publishedAt", envelope.published_at},
                {"data", envelope.data}};
}

EventEnvelope read_envelope(const Json& payload) {
    if (!payload.is_object()) {
        throw std::runtime_error("not an event delivery: the payload is not a JSON object");
    }
    EventEnvelope envelope;
    envelope.id = required_text(payload, "id");
    envelope.type = required_text(payload, "type");
    envelope.publisher = required_text(payload, "publisher");
    if (!payload.contains("version") || !payload["version"].is_number_integer()) {
        throw std::runtime_error("not an event delivery: the payload has no \"version\"");
    }
    envelope.version = payload["version"].get<int>();
    envelope.published_at = payload.value("publishedAt", int64_t{0});
    envelope.data = payload.contains("data") ? payload["data"] : Json::object();
    return envelope;
}

std::string new_event_id() {
    std::array<uint8_t, 16> bytes{};
    fill_random(bytes);
    const auto ms = static_cast<uint64_t>(now_ms());
    for (int i = 0; i < 6; ++i) {
        bytes[static_cast<std::size_t>(i)] = static_cast<uint8_t>(ms >> (8 * (5 - i)));
    }
    bytes[6] = static_cast<uint8_t>(0x70 | (bytes[6] & 0x0F));  // version 7
    bytes[8] = static_cast<uint8_t>(0x80 | (bytes[8] & 0x3F));  // RFC 9562 variant
    static constexpr char digits[] = "0123456789abcdef";
    std::string id;
    id.reserve(36);
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) {
            id += '-';
        }
        id += digits[bytes[i] >> 4];
        id += digits[bytes[i] & 0x0F];
    }
    return id;
}

}  // namespace loupe
