#pragma once
// Which addresses an outgoing call may connect to when its URL comes from a user (a webhook a
// project admin typed): public unicast addresses only, so a URL cannot make the server reach
// itself, the machines of its private network or a cloud metadata service (server-side request
// forgery). Refused unless an allowed network holds them:
//   IPv4  0/8 (this network), 10/8, 172.16/12, 192.168/16 (private), 100.64/10 (carrier-grade
//         NAT), 127/8 (loopback), 169.254/16 (link-local: 169.254.169.254 is the metadata
//         service), 192.0.0/24, 192.0.2/24, 198.18/15, 198.51.100/24, 203.0.113/24 (protocol
//         assignments, benchmarking, documentation), 192.88.99/24 (6to4 relays), 224/4
//         (multicast), 240/4 (reserved, broadcast);
//   IPv6  ::/128, ::1/128, fc00::/7 (unique local), fe80::/10 (link-local), fec0::/10 (site
//         local), ff00::/8 (multicast), 100::/64 (discard), 2001:db8::/32 (documentation),
//         2001::/32 (Teredo), 64:ff9b:1::/48 (local NAT64); and an IPv4 address embedded in an
//         IPv6 one (mapped ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96, 6to4 2002::/16)
//         is judged as that IPv4 address.
// An operator who does want webhooks on an internal network allows it by CIDR block.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

/// An IP network: its first address as 16 bytes (IPv4 as ::ffff:a.b.c.d) and the prefix length
/// over those 128 bits.
struct IpNetwork {
    std::array<uint8_t, 16> base{};
    int prefix = 0;

    bool contains(const std::array<uint8_t, 16>& address) const;
};

/// An IPv4 or IPv6 address as text ("10.0.0.1", "::1", "fe80::1%eth0" without the zone), as
/// 16 bytes; nullopt when it is not one.
LOUPE_API std::optional<std::array<uint8_t, 16>> parse_ip_address(const std::string& text);

/// "a.b.c.d/n", "x:y::/n", or an address alone (a network of one); nullopt when malformed or
/// when bits are set past the prefix.
LOUPE_API std::optional<IpNetwork> parse_ip_network(const std::string& text);

class LOUPE_API AddressPolicy {
public:
    /// Refuses every non-public address except those in `allowed_networks` (CIDR blocks, or
    /// single addresses); throws std::invalid_argument naming a malformed one.
    explicit AddressPolicy(const std::vector<std::string>& allowed_networks = {});

    /// Why `address` (an IPv4 or IPv6 address as text) must not be reached ("127.0.0.1 is a
    /// loopback address"); nullopt when it may.
    std::optional<std::string> refusal(const std::string& address) const;

private:
    std::vector<IpNetwork> allowed_;
};

}  // namespace loupe
