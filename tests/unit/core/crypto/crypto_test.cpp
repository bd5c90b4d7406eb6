#include <doctest/doctest.h>

#include <map>
#include <set>

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/encoding.hpp"
#include "loupe/crypto/random.hpp"

namespace loupe::crypto {
namespace {

TEST_CASE("SHA-256 of the FIPS 180-2 vectors, one-shot and streamed") {
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const std::string two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    CHECK(sha256_hex(two_blocks) ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK(sha256(two_blocks) == from_hex(sha256_hex(two_blocks)));

    Sha256 streamed;
    for (std::size_t at = 0; at < two_blocks.size(); at += 7) {
        streamed.update(std::string_view(two_blocks).substr(at, 7));
    }
    CHECK(streamed.finish_hex() == sha256_hex(two_blocks));
    streamed.update("abc");  // finish() starts over
    CHECK(streamed.finish_hex() == sha256_hex("abc"));
    CHECK(streamed.finish() == sha256(""));
}

TEST_CASE("HMAC-SHA256 of the RFC 4231 vectors") {
    CHECK(hmac_sha256_hex(std::string(20, '\x0b'), "Hi There") ==
          "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    CHECK(hmac_sha256_hex("Jefe", "what do ya want for nothing?") ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    // A key longer than the block is hashed first (test case 6).
    CHECK(hmac_sha256_hex(std::string(131, '\xaa'),
                          "Test Using Larger Than Block-Size Key - Hash Key First") ==
          "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    CHECK(hmac_sha256("", "").size() == sha256_size);
}

TEST_CASE("constant-time comparison compares bytes and lengths") {
    CHECK(equal_in_constant_time("abc", "abc"));
    CHECK(equal_in_constant_time("", ""));
    CHECK_FALSE(equal_in_constant_time("abc", "abd"));
    CHECK_FALSE(equal_in_constant_time("abc", "ab"));
    CHECK_FALSE(equal_in_constant_time(std::string("a\0b", 3), std::string("a\0c", 3)));
}

TEST_CASE("hex and base64 of the RFC 4648 vectors") {
    const std::map<std::string, std::string> vectors{{"", ""},
                                                     {"f", "Zg=="},
                                                     {"fo", "Zm8="},
                                                     {"foo", "Zm9v"},
                                                     {"foob", "Zm9vYg=="},
                                                     {"fooba", "Zm9vYmE="},
                                                     {"foobar", "Zm9vYmFy"}};
    for (const auto& [bytes, text] : vectors) {
        CHECK(base64_encode(bytes) == text);
        CHECK(base64_decode(text) == bytes);
        std::string unpadded = text;
        while (!unpadded.empty() && unpadded.back() == '=') {
            unpadded.pop_back();
        }
        CHECK(base64_decode(unpadded) == bytes);
        CHECK(base64url_encode(bytes) == unpadded);
        CHECK(base64url_decode(unpadded) == bytes);
        CHECK(from_hex(to_hex(bytes)) == bytes);
    }
    const std::string high("\xfb\xff\xbf", 3);
    CHECK(base64_encode(high) == "+/+/");
    CHECK(base64url_encode(high) == "-_-_");
    CHECK(base64url_decode("-_-_") == high);
    CHECK(to_hex(std::string("\x00\xff\x10", 3)) == "00ff10");
    CHECK(from_hex("00FF10") == std::string("\x00\xff\x10", 3));
}

TEST_CASE("decoders refuse what no encoder writes") {
    CHECK_FALSE(base64_decode("Zm9v YmFy"));  // whitespace
    CHECK_FALSE(base64_decode("Zm9vY"));      // 5 characters: a dangling 6 bits
    CHECK_FALSE(base64_decode("Zg="));        // padding without the full quantum
    CHECK_FALSE(base64_decode("Zg==="));
    CHECK_FALSE(base64_decode("Z=g="));
    CHECK_FALSE(base64_decode("-_-_"));     // the URL alphabet in standard base64
    CHECK_FALSE(base64url_decode("+/+/"));  // and the reverse
    CHECK_FALSE(base64url_decode("Zm9v\n"));
    CHECK_FALSE(from_hex("abc"));
    CHECK_FALSE(from_hex("zz"));
}

TEST_CASE("random bytes and tokens differ every time and use the whole alphabet") {
    CHECK(random_bytes(0).empty());
    CHECK(random_bytes(32).size() == 32);
    CHECK(random_bytes(32) != random_bytes(32));
    const auto hex = random_hex(16);
    CHECK(hex.size() == 32);
    CHECK(hex.find_first_not_of("0123456789abcdef") == std::string::npos);
    const auto url = random_base64url(32);
    CHECK(url.size() == 43);
    CHECK(base64url_decode(url).value().size() == 32);

    const std::string alphabet = "abc";
    const auto sample = random_characters(3000, alphabet);
    std::map<char, int> counts;
    for (const char c : sample) {
        counts[c]++;
    }
    CHECK(counts.size() == 3);
    for (const auto& [c, count] : counts) {
        CHECK(count > 800);  // 1000 expected; 800 is more than 7 standard deviations away
    }
    CHECK_THROWS_AS(random_characters(1, "a"), std::invalid_argument);
}

}  // namespace
}  // namespace loupe::crypto
