// The address policy of calls whose URL a user gave (webhooks): special addresses are refused
// in every spelling, public ones pass, and an operator's allowed networks pass.
#include "loupe/http/address_policy.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

namespace loupe {
namespace {

std::string why(const AddressPolicy& policy, const std::string& address) {
    return policy.refusal(address).value_or("allowed");
}

}  // namespace

TEST_CASE("address policy: loopback, private, link-local and other special addresses refused") {
    const AddressPolicy policy;
    CHECK(why(policy, "127.0.0.1") == "127.0.0.1 is a loopback address");
    CHECK(why(policy, "127.255.0.9").find("loopback") != std::string::npos);
    CHECK(why(policy, "10.1.2.3").find("private") != std::string::npos);
    CHECK(why(policy, "172.16.0.1").find("private") != std::string::npos);
    CHECK(why(policy, "172.31.255.255").find("private") != std::string::npos);
    CHECK(why(policy, "192.168.1.1").find("private") != std::string::npos);
    CHECK(why(policy, "169.254.169.254").find("link-local") != std::string::npos);
    CHECK(why(policy, "100.64.0.1").find("carrier-grade") != std::string::npos);
    CHECK(why(policy, "0.0.0.0").find("unspecified") != std::string::npos);
    CHECK(why(policy, "224.0.0.1").find("multicast") != std::string::npos);
    CHECK(why(policy, "255.255.255.255").find("reserved") != std::string::npos);
    CHECK(why(policy, "198.18.0.1").find("benchmarking") != std::string::npos);
    CHECK(why(policy, "::1") == "::1 is a loopback address");
    CHECK(why(policy, "::").find("unspecified") != std::string::npos);
    CHECK(why(policy, "fe80::1").find("link-local") != std::string::npos);
    CHECK(why(policy, "fe80::1%eth0").find("link-local") != std::string::npos);
    CHECK(why(policy, "fd12:3456::1").find("unique local") != std::string::npos);
    CHECK(why(policy, "ff02::1").find("multicast") != std::string::npos);
    CHECK(why(policy, "2001:db8::1").find("documentation") != std::string::npos);
    CHECK(why(policy, "not-an-address") == "not-an-address is not an IP address");
}

TEST_CASE("address policy: an IPv4 address inside an IPv6 one is judged as IPv4") {
    const AddressPolicy policy;
    CHECK(why(policy, "::ffff:127.0.0.1").find("loopback") != std::string::npos);
    CHECK(why(policy, "::ffff:a9fe:a9fe").find("link-local") != std::string::npos);
    CHECK(why(policy, "::10.0.0.1").find("private") != std::string::npos);      // compatible
    CHECK(why(policy, "64:ff9b::a00:1").find("private") != std::string::npos);  // NAT64
    CHECK(why(policy, "2002:7f00:1::").find("loopback") != std::string::npos);  // 6to4
    CHECK(why(policy, "::ffff:8.8.8.8") == "allowed");
    CHECK(why(policy, "64:ff9b::808:808") == "allowed");
}

TEST_CASE("address policy: public addresses pass, the edges of blocks too") {
    const AddressPolicy policy;
    for (const char* address : {"8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "100.128.0.1",
                                "169.255.0.1", "2606:4700:4700::1111"}) {
        CAPTURE(address);
        CHECK(why(policy, address) == "allowed");
    }
}

TEST_CASE("address policy: the operator's networks pass, the rest stays refused") {
    const AddressPolicy policy({"10.1.0.0/16", "::1", "fd00::/8"});
    CHECK(why(policy, "10.1.9.9") == "allowed");
    CHECK(why(policy, "::ffff:10.1.0.5") == "allowed");
    CHECK(why(policy, "10.2.0.1").find("private") != std::string::npos);
    CHECK(why(policy, "::1") == "allowed");
    CHECK(why(policy, "fd00::7") == "allowed");
    CHECK(why(policy, "127.0.0.1").find("loopback") != std::string::npos);
}

TEST_CASE("address policy: a malformed network is refused when the policy is made") {
    for (const char* bad : {"10.0.0.1/8", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/x", "nonsense",
                            "fe80::1%eth0/64", "::/129"}) {
        CAPTURE(bad);
        CHECK_THROWS_AS(AddressPolicy({bad}), std::invalid_argument);
    }
    CHECK(parse_ip_network("0.0.0.0/0").has_value());
    CHECK(parse_ip_network("2001:db8::/32")->prefix == 32);
    CHECK(parse_ip_network("192.168.0.0/16")->prefix == 96 + 16);
}

}  // namespace loupe
