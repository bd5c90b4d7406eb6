#include "loupe/http/address_policy.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace loupe {
namespace {

struct RefusedNetwork {
    IpNetwork network;
    const char* what;
};

/// The blocks no webhook may reach, parsed once.
const std::vector<RefusedNetwork>& refused_networks() {
    static const std::vector<RefusedNetwork> networks = [] {
        const std::pair<const char*, const char*> table[] = {
            {"0.0.0.0/8", "an unspecified (this-network) address"},
            {"10.0.0.0/8", "a private address"},
            {"100.64.0.0/10", "a carrier-grade NAT address"},
            {"127.0.0.0/8", "a loopback address"},
            {"169.254.0.0/16", "a link-local address"},
            {"172.16.0.0/12", "a private address"},
            {"192.0.0.0/24", "a protocol-assignment address"},
            {"192.0.2.0/24", "a documentation address"},
            {"192.88.99.0/24", "a 6to4 relay address"},
            {"192.168.0.0/16", "a private address"},
            {"198.18.0.0/15", "a benchmarking address"},
            {"198.51.100.0/24", "a documentation address"},
            {"203.0.113.0/24", "a documentation address"},
            {"224.0.0.0/4", "a multicast address"},
            {"240.0.0.0/4", "a reserved address"},
            {"::/128", "the unspecified address"},
            {"::1/128", "a loopback address"},
            {"100::/64", "a discard address"},
            {"2001::/32", "a Teredo address"},
            {"2001:db8::/32", "a documentation address"},
            {"64:ff9b:1::/48", "a local NAT64 address"},
            {"fc00::/7", "a unique local address"},
            {"fe80::/10", "a link-local address"},
            {"fec0::/10", "a site-local address"},
            {"ff00::/8", "a multicast address"},
        };
        std::vector<RefusedNetwork> parsed;
        for (const auto& [cidr, what] : table) {
            parsed.push_back({*parse_ip_network(cidr), what});
        }
        return parsed;
    }();
    return networks;
}

bool starts_with_bytes(const std::array<uint8_t, 16>& address,
                       std::initializer_list<uint8_t> prefix) {
    std::size_t i = 0;
    for (const uint8_t byte : prefix) {
        if (address[i++] != byte) {
            return false;
        }
    }
    return true;
}

/// The IPv4 address an IPv6 one carries (compatible, NAT64, 6to4), as ::ffff:a.b.c.d.
std::optional<std::array<uint8_t, 16>> embedded_ipv4(const std::array<uint8_t, 16>& address) {
    std::array<uint8_t, 16> mapped{};
    mapped[10] = 0xff;
    mapped[11] = 0xff;
    if (starts_with_bytes(address, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}) ||
        starts_with_bytes(address, {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0})) {
        std::copy(address.begin() + 12, address.end(), mapped.begin() + 12);
        return mapped;
    }
    if (starts_with_bytes(address, {0x20, 0x02})) {
        std::copy(address.begin() + 2, address.begin() + 6, mapped.begin() + 12);
        return mapped;
    }
    return std::nullopt;
}

}  // namespace

bool IpNetwork::contains(const std::array<uint8_t, 16>& address) const {
    int bits = prefix;
    for (std::size_t i = 0; i < 16 && bits > 0; ++i, bits -= 8) {
        const int mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
        if ((address[i] & mask) != (base[i] & mask)) {
            return false;
        }
    }
    return true;
}

std::optional<std::array<uint8_t, 16>> parse_ip_address(const std::string& text) {
    std::array<uint8_t, 16> bytes{};
    in_addr v4{};
    if (inet_pton(AF_INET, text.c_str(), &v4) == 1) {
        bytes[10] = 0xff;
        bytes[11] = 0xff;
        std::memcpy(bytes.data() + 12, &v4, 4);
        return bytes;
    }
    const std::string without_zone = text.substr(0, text.find('%'));
    in6_addr v6{};
    if (inet_pton(AF_INET6, without_zone.c_str(), &v6) == 1) {
        std::memcpy(bytes.data(), &v6, 16);
        return bytes;
    }
    return std::nullopt;
}

std::optional<IpNetwork> parse_ip_network(const std::string& text) {
    const auto slash = text.find('/');
    const std::string address_text = text.substr(0, slash);
    if (address_text.find('%') != std::string::npos) {
        return std::nullopt;
    }
    const auto address = parse_ip_address(address_text);
    if (!address) {
        return std::nullopt;
    }
    const bool v4 = address_text.find(':') == std::string::npos;
    IpNetwork network{*address, 128};
    if (slash != std::string::npos) {
        const std::string length = text.substr(slash + 1);
        int bits = -1;
        const auto [end, error] =
            std::from_chars(length.data(), length.data() + length.size(), bits);
        if (length.empty() || error != std::errc{} || end != length.data() + length.size() ||
            bits < 0 || bits > (v4 ? 32 : 128)) {
            return std::nullopt;
        }
        network.prefix = v4 ? 96 + bits : bits;
    }
    // A block written with host bits set ("10.0.0.1/8") is a typo more often than not.
    IpNetwork masked = network;
    for (int bit = network.prefix; bit < 128; ++bit) {
        masked.base[static_cast<std::size_t>(bit / 8)] &=
            static_cast<uint8_t>(~(0x80 >> (bit % 8)));
    }
    if (masked.base != network.base) {
        return std::nullopt;
    }
    return network;
}

AddressPolicy::AddressPolicy(const std::vector<std::string>& allowed_networks) {
    for (const auto& text : allowed_networks) {
        const auto network = parse_ip_network(text);
        if (!network) {
            throw std::invalid_argument("not an IP network (CIDR block or address): " + text);
        }
        allowed_.push_back(*network);
    }
}

std::optional<std::string> AddressPolicy::refusal(const std::string& address) const {
    const auto bytes = parse_ip_address(address);
    if (!bytes) {
        return address + " is not an IP address";
    }
    for (const auto& network : allowed_) {
        if (network.contains(*bytes)) {
            return std::nullopt;
        }
    }
    // An IPv6 address that carries an IPv4 one is judged as the IPv4 address it reaches; "::"
    // and "::1" are themselves.
    auto judged = *bytes;
    const bool unspecified_or_loopback =
        starts_with_bytes(*bytes, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}) &&
        (*bytes)[15] <= 1;
    if (const auto v4 = embedded_ipv4(*bytes); v4 && !unspecified_or_loopback) {
        judged = *v4;
        for (const auto& network : allowed_) {
            if (network.contains(judged)) {
                return std::nullopt;
            }
        }
    }
    for (const auto& refused : refused_networks()) {
        if (refused.network.contains(judged)) {
            return address + " is " + refused.what;
        }
    }
    return std::nullopt;
}

}  // namespace loupe
