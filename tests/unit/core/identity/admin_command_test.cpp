#include <doctest/doctest.h>

#include <sstream>

#include "auth/token_format.hpp"
#include "identity/admin_cli.hpp"
#include "loupe/text/duration.hpp"
#include "unit/core/identity/identity_fixture.hpp"

namespace loupe {
namespace {

struct Run {
    int status = -1;
    std::string out;
    std::string err;
    Json json() const { return Json::parse(out); }
};

struct AdminFixture : test::IdentityFixture {
    Run admin(std::vector<std::string> args) {
        std::ostringstream out;
        std::ostringstream err;
        Run run;
        run.status = run_admin_command(identity, args, out, err);
        run.out = out.str();
        run.err = err.str();
        return run;
    }
    void seed() {
        REQUIRE(admin({"user", "create", "--slug", "alice", "--name", "Alice"}).status == 0);
        REQUIRE(admin({"account", "create", "--slug", "acme", "--name", "Acme", "--owner", "alice"})
                    .status == 0);
    }
};

TEST_CASE_FIXTURE(AdminFixture, "user create and user list, as JSON") {
    const Run created = admin({"user", "create", "--slug", "alice", "--name", "Alice L", "--json"});
    REQUIRE(created.status == 0);
    CHECK(created.err.empty());
    const Json user = created.json()["user"];
    CHECK(user["slug"] == "alice");
    CHECK(user["name"] == "Alice L");
    CHECK(user["staff"] == false);
    CHECK(user["id"].is_string());
    CHECK(user["accountId"].is_string());

    const Run listed = admin({"--json", "user", "list"});
    REQUIRE(listed.status == 0);
    REQUIRE(listed.json()["users"].size() == 1);
    CHECK(listed.json()["users"][0] == user);
    CHECK(listed.out.find('\n') == listed.out.size() - 1);  // exactly one JSON document
}

TEST_CASE_FIXTURE(AdminFixture, "account create and member add") {
    admin({"user", "create", "--slug", "alice", "--name", "Alice"});
    admin({"user", "create", "--slug", "bob", "--name", "Bob"});
    const Run team = admin(
        {"account", "create", "--slug", "acme", "--name", "Acme", "--owner", "alice", "--json"});
    REQUIRE(team.status == 0);
    CHECK(team.json()["account"]["slug"] == "acme");
    CHECK(team.json()["account"]["kind"] == "team");
    CHECK(team.json()["owner"] == "alice");

    const Run member = admin(
        {"member", "add", "--account", "acme", "--user", "bob", "--role", "contributor", "--json"});
    REQUIRE(member.status == 0);
    CHECK(member.json() ==
          Json{{"member", {{"account", "acme"}, {"user", "bob"}, {"role", "contributor"}}}});
    const Run human = admin({"member", "add", "--account=acme", "--user=bob", "--role=member"});
    CHECK(human.status == 0);
    CHECK(human.out == "bob is member of acme\n");
}

TEST_CASE_FIXTURE(AdminFixture, "a slug the server's own paths use is refused, with the reason") {
    identity.set_reserved_slugs({"v2", "d", "healthz"});
    const Run user = admin({"user", "create", "--slug", "v2", "--name", "Vee"});
    CHECK(user.status == 1);
    CHECK(user.err ==
          "loupe admin: Slug \"v2\" is reserved: /v2 is one of the server's own paths, so an "
          "account there would have no page; choose another slug\n");
    REQUIRE(admin({"user", "create", "--slug", "alice", "--name", "Alice"}).status == 0);
    const Run team = admin({"account", "create", "--slug", "d", "--name", "D", "--owner", "alice"});
    CHECK(team.status == 1);
    CHECK(team.err.find("Slug \"d\" is reserved") != std::string::npos);
    CHECK(admin({"--json", "user", "list"}).json()["users"].size() == 1);
    CHECK(
        admin({"account", "create", "--slug", "dev", "--name", "Dev", "--owner", "alice"}).status ==
        0);
}

TEST_CASE_FIXTURE(AdminFixture, "project create prints the project and its token") {
    seed();
    const Run created = admin({"project", "create", "--account", "acme", "--name", "web",
                               "--default-base-branch", "develop", "--json"});
    REQUIRE(created.status == 0);
    const Json json = created.json();
    const std::string token = json["token"];
    CHECK(token.size() == 40);
    CHECK(token.starts_with("argos_"));
    CHECK(json["project"]["name"] == "web");
    CHECK(json["project"]["account"]["slug"] == "acme");
    CHECK(json["project"]["defaultBaseBranch"] == "develop");
    CHECK(json["project"]["hasRemoteContentAccess"] == false);

    const Run human = admin({"project", "create", "--account", "acme", "--name", "api"});
    REQUIRE(human.status == 0);
    CHECK(human.out.find("Created project acme/api (default base branch main)") == 0);
    CHECK(human.out.find("argos_") != std::string::npos);

    const Run listed = admin({"project", "list", "--json"});
    REQUIRE(listed.status == 0);
    REQUIRE(listed.json()["projects"].size() == 2);
    CHECK(listed.json()["projects"][0]["name"] == "api");
    CHECK(listed.json()["projects"][1] == json["project"]);
    const Run table = admin({"project", "list"});
    CHECK(table.out.find("acme/web") != std::string::npos);

    const Run duplicate = admin({"project", "create", "--account", "acme", "--name", "WEB"});
    CHECK(duplicate.status == 1);
    CHECK(duplicate.out.empty());
    CHECK(duplicate.err == "loupe admin: Name is already used by another project\n");
}

TEST_CASE_FIXTURE(AdminFixture, "token create, list and revoke") {
    seed();
    const int64_t before = now_ms();
    const Run created = admin({"token", "create", "--user", "alice", "--account", "acme",
                               "--account", "alice", "--expires-in", "30d", "--json"});
    REQUIRE(created.status == 0);
    const Json json = created.json();
    const std::string token = json["token"];
    CHECK(detect_token_kind(token) == TokenKind::personal);
    CHECK(json["scope"] == Json{"acme", "alice"});
    CHECK(json["user"] == "alice");
    CHECK(json["prefix"] == token_prefix(token));
    const auto expires = parse_iso_time(json["expiresAt"].get<std::string>());
    REQUIRE(expires.has_value());
    const int64_t thirty_days = 30LL * 24 * 3600 * 1000;
    CHECK(*expires >= before + thirty_days - 1000);
    CHECK(*expires <= now_ms() + thirty_days + 1000);

    // Seconds, for short-lived tokens (a CI job's).
    const int64_t before_seconds = now_ms();
    const Run short_lived =
        admin({"token", "create", "--user", "alice", "--expires-in", "30s", "--json"});
    REQUIRE(short_lived.status == 0);
    const auto short_expiry = parse_iso_time(short_lived.json()["expiresAt"].get<std::string>());
    REQUIRE(short_expiry.has_value());
    CHECK(*short_expiry >= before_seconds + 30'000 - 1000);
    CHECK(*short_expiry <= now_ms() + 30'000 + 1000);

    const Run personal = admin({"token", "create", "--user", "alice", "--json"});
    REQUIRE(personal.status == 0);
    CHECK(personal.json()["scope"] == Json{"alice"});
    CHECK(personal.json()["expiresAt"].is_null());

    const Run listed = admin({"token", "list", "--json"});
    REQUIRE(listed.status == 0);
    REQUIRE(listed.json()["tokens"].size() == 3);
    CHECK(listed.json()["tokens"][0]["prefix"] == token_prefix(token));
    CHECK(listed.json()["tokens"][0]["owner"] == "alice");
    CHECK(listed.json()["tokens"][0]["revoked"] == false);

    const Run revoked = admin({"token", "revoke", "--prefix", token_prefix(token), "--json"});
    REQUIRE(revoked.status == 0);
    CHECK(revoked.json() == Json{{"revoked", 1}});
    CHECK(admin({"token", "list", "--json"}).json()["tokens"][0]["revoked"] == true);
    const Run again = admin({"token", "revoke", "--prefix", token_prefix(token)});
    CHECK(again.status == 1);
    CHECK(again.err.find("No active token starts with") != std::string::npos);
    const Run table = admin({"token", "list"});
    CHECK(table.out.find("revoked") != std::string::npos);
}

TEST_CASE_FIXTURE(AdminFixture, "token list tells expired tokens from active ones") {
    seed();
    const Run created =
        admin({"token", "create", "--user", "alice", "--expires-in", "30d", "--json"});
    REQUIRE(created.status == 0);
    const std::string prefix = created.json()["prefix"];
    REQUIRE(admin({"token", "create", "--user", "alice", "--json"}).status == 0);
    execute("UPDATE tokens SET expires_at = :past WHERE prefix = :prefix", now_ms() - 60'000,
            prefix);

    const Json tokens = admin({"token", "list", "--json"}).json()["tokens"];
    REQUIRE(tokens.size() == 2);
    CHECK(tokens[0]["prefix"] == prefix);
    CHECK(tokens[0]["expired"] == true);
    CHECK(tokens[0]["revoked"] == false);
    CHECK(tokens[1]["expired"] == false);

    const Run table = admin({"token", "list"});
    const auto line_of = [&](const std::string& needle) {
        const std::size_t at = table.out.find(needle);
        REQUIRE(at != std::string::npos);
        return table.out.substr(at, table.out.find('\n', at) - at);
    };
    CHECK(line_of(prefix).ends_with("expired"));
    CHECK(table.out.find("active") != std::string::npos);
}

TEST_CASE_FIXTURE(AdminFixture, "usage errors exit 2, refused operations exit 1") {
    seed();
    struct Case {
        std::vector<std::string> args;
        int status;
        std::string message;
    };
    const std::vector<Case> cases{
        {{}, 2, "missing command"},
        {{"user"}, 2, "missing action after \"user\""},
        {{"user", "delete"}, 2, "unknown command \"user delete\""},
        {{"user", "create", "--slug", "bob"}, 2, "`user create` needs --name"},
        {{"user", "create", "--slug", "bob", "--name"}, 2, "option --name needs a value"},
        {{"user", "create", "--slug", "bob", "--name", "B", "--color", "red"},
         2,
         "unknown option --color for `user create`"},
        {{"user", "create", "--slug", "b", "--slug", "c", "--name", "B"},
         2,
         "option --slug is given more than once"},
        {{"user", "create", "bob"}, 2, "unexpected argument \"bob\" for `user create`"},
        {{"member", "add", "--account", "acme", "--user", "alice", "--role", "boss"},
         2,
         "invalid role \"boss\": use owner, member or contributor"},
        {{"token", "create", "--user", "alice", "--expires-in", "30y"},
         2,
         "invalid duration \"30y\": use a positive number followed by d, h, m or s (e.g. 30d, "
         "30s)"},
        {{"token", "create", "--user", "alice", "--expires-in", "0d"}, 2, "invalid duration"},
        {{"token", "create", "--user", "alice", "--expires-in", "0s"}, 2, "invalid duration"},
        {{"token", "create", "--user", "alice", "--expires-in", "30S"}, 2, "invalid duration"},
        {{"user", "create", "--slug", "Bad", "--name", "B"}, 1, "Invalid slug \"Bad\""},
        {{"account", "create", "--slug", "t", "--name", "T", "--owner", "ghost"},
         1,
         "No user with slug \"ghost\""},
        {{"token", "revoke", "--prefix", "argos"}, 1, "Token prefix \"argos\" is too short"},
        {{"token", "create", "--user", "alice", "--account", "nope"},
         1,
         "No account with slug \"nope\""},
    };
    for (const auto& c : cases) {
        std::string joined;
        for (const auto& word : c.args) {
            joined += word + " ";
        }
        CAPTURE(joined);
        auto args = c.args;
        args.push_back("--json");
        const Run run = admin(args);
        CHECK(run.status == c.status);
        CHECK(run.out.empty());
        CHECK(run.err.find("loupe admin: " + c.message) == 0);
        CHECK((c.status == 2) == (run.err.find("usage: loupe admin") != std::string::npos));
    }
}

TEST_CASE_FIXTURE(AdminFixture, "help, durations and a leading `admin`") {
    const Run help = admin({"--help"});
    CHECK(help.status == 0);
    CHECK(help.out.find("token create --user U") != std::string::npos);
    CHECK(admin({"admin", "user", "create", "--slug", "help", "--name", "Help"}).status == 0);
    CHECK(identity.find_user("help").has_value());

    using std::chrono::milliseconds;
    CHECK(parse_duration("45m") == milliseconds(45 * 60'000));
    CHECK(parse_duration("12h") == milliseconds(12 * 3'600'000));
    CHECK(parse_duration("30d") == milliseconds(30LL * 86'400'000));
    CHECK(parse_duration("30s") == milliseconds(30'000));
    CHECK(parse_duration("999999s") == milliseconds(999'999'000));
    for (const char* invalid : {"0s", "30", "d", "-1d", "1.5h", "9999999d", "30S", "30y", ""}) {
        CAPTURE(invalid);
        CHECK_FALSE(parse_duration(invalid).has_value());
    }
}

}  // namespace
}  // namespace loupe
