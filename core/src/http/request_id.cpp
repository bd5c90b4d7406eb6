#include "http/request_id.hpp"

#include <cstdint>
#include <random>

namespace loupe {

std::string new_request_id() {
    thread_local std::mt19937_64 generator{[] {
        std::random_device device;
        return (static_cast<uint64_t>(device()) << 32) ^ device();
    }()};
    static constexpr char digits[] = "0123456789abcdef";
    uint64_t value = generator();
    std::string id(16, '0');
    for (char& c : id) {
        c = digits[value & 0xf];
        value >>= 4;
    }
    return id;
}

}  // namespace loupe
