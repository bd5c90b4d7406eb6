// The web plugin's session secrets: tokens, their stored hash, the CSRF token and the cookie.
#include "session/session_tokens.hpp"

#include <doctest/doctest.h>

#include <set>

using namespace loupe::web;

TEST_CASE("session tokens are 32 random bytes in hex, never repeated") {
    std::set<std::string> seen;
    for (int i = 0; i < 200; ++i) {
        const std::string token = random_token();
        CHECK(is_token_format(token));
        CHECK(seen.insert(token).second);
    }
    CHECK_FALSE(is_token_format(""));
    CHECK_FALSE(is_token_format(std::string(63, 'a')));
    CHECK_FALSE(is_token_format(std::string(64, 'A')));  // upper case is not what we issue
    CHECK_FALSE(is_token_format(std::string(63, 'a') + "g"));
}

TEST_CASE("the stored hash is SHA-256 of the token") {
    CHECK(token_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const std::string token = random_token();
    CHECK(token_hash(token) != token);
    CHECK(token_hash(token).size() == 64);
}

TEST_CASE("the CSRF token belongs to one session and is neither the token nor its hash") {
    const std::string a = random_token();
    const std::string b = random_token();
    const std::string csrf = csrf_token(a);
    CHECK(csrf.size() == 64);
    CHECK(csrf == csrf_token(a));
    CHECK(csrf != csrf_token(b));
    CHECK(csrf != a);
    CHECK(csrf != token_hash(a));
    CHECK(csrf_matches(a, csrf));
    CHECK_FALSE(csrf_matches(b, csrf));
    CHECK_FALSE(csrf_matches(a, ""));
    CHECK_FALSE(csrf_matches(a, csrf.substr(0, 63)));
    CHECK_FALSE(csrf_matches(a, csrf + "0"));
    std::string flipped = csrf;
    flipped[10] = flipped[10] == 'a' ? 'b' : 'a';
    CHECK_FALSE(csrf_matches(a, flipped));
}

TEST_CASE("the session cookie is read from any position of the Cookie header") {
    CHECK(cookie_value("loupe_session=abc", "loupe_session") == "abc");
    CHECK(cookie_value("a=1; loupe_session=abc; b=2", "loupe_session") == "abc");
    CHECK(cookie_value("a=1;loupe_session=abc", "loupe_session") == "abc");
    CHECK(cookie_value("  loupe_session = \"abc\" ", "loupe_session") == "abc");
    CHECK_FALSE(cookie_value("xloupe_session=abc; loupe_sessions=d", "loupe_session").has_value());
    CHECK_FALSE(cookie_value("", "loupe_session").has_value());
    CHECK_FALSE(cookie_value("loupe_session", "loupe_session").has_value());
    CHECK(cookie_value("loupe_session=", "loupe_session") == "");
}

TEST_CASE("the session cookie is HttpOnly, SameSite=Lax and Secure only over https") {
    const std::string plain = session_cookie("tok", {false, 3600});
    CHECK(plain.starts_with("loupe_session=tok;"));
    CHECK(plain.find("HttpOnly") != std::string::npos);
    CHECK(plain.find("SameSite=Lax") != std::string::npos);
    CHECK(plain.find("Path=/") != std::string::npos);
    CHECK(plain.find("Max-Age=3600") != std::string::npos);
    CHECK(plain.find("Secure") == std::string::npos);
    CHECK(session_cookie("tok", {true, 60}).find("; Secure") != std::string::npos);
    const std::string cleared = cleared_session_cookie({false, 3600});
    CHECK(cleared.starts_with("loupe_session=;"));
    CHECK(cleared.find("Max-Age=0") != std::string::npos);
}

TEST_CASE("over https the session cookie is __Host- prefixed: Secure, Path=/, no Domain") {
    const std::string secure = session_cookie("tok", {true, 60});
    CHECK(secure.starts_with("__Host-loupe_session=tok; Path=/;"));
    CHECK(secure.ends_with("; Secure"));
    CHECK(secure.find("Domain") == std::string::npos);
    CHECK(cleared_session_cookie({true, 60}).starts_with("__Host-loupe_session=; Path=/;"));
    CHECK(session_cookie_name(true) == "__Host-loupe_session");
    CHECK(session_cookie_name(false) == "loupe_session");
}

TEST_CASE("only GET, HEAD and OPTIONS go without a CSRF token") {
    CHECK(is_safe_method("GET"));
    CHECK(is_safe_method("HEAD"));
    CHECK(is_safe_method("OPTIONS"));
    for (const char* method : {"POST", "PUT", "PATCH", "DELETE", "get", ""}) {
        CHECK_FALSE(is_safe_method(method));
    }
}
