// The OpenID Connect providers' settings: ids from the list or from the keys, every option read,
// and a start refused with the key named when one is wrong.
#include "settings/oidc_providers.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

#include "settings/saml_providers.hpp"

namespace {

class MapConfig final : public loupe::ConfigView {
public:
    explicit MapConfig(std::map<std::string, std::string> values) : values_(std::move(values)) {}
    std::optional<std::string> find(const std::string& key) const override {
        const auto found = values_.find(key);
        return found == values_.end() ? std::nullopt : std::optional(found->second);
    }
    std::vector<std::string> keys_with_prefix(const std::string& prefix) const override {
        std::vector<std::string> keys;
        for (const auto& [key, value] : values_) {
            if (key.starts_with(prefix)) {
                keys.push_back(key);
            }
        }
        return keys;
    }

private:
    std::map<std::string, std::string> values_;
};

}  // namespace

using namespace loupe::sso;

TEST_CASE("OIDC providers: no provider configured reads none") {
    CHECK(read_oidc_providers(MapConfig({})).empty());
}

TEST_CASE("OIDC providers: every option of a provider found by its issuer key") {
    const auto secret = (std::filesystem::temp_directory_path() /
                         ("loupe-oidc-secret-" + std::to_string(::getpid())))
                            .string();
    std::ofstream(secret) << "  s3cret\n";
    const auto providers = read_oidc_providers(MapConfig({
        {"auth.oidc.corp.issuer", "https://id.example.com/realms/staff/"},
        {"auth.oidc.corp.client_id", "loupe"},
        {"auth.oidc.corp.client_secret_file", secret},
        {"auth.oidc.corp.name", "Example SSO"},
        {"auth.oidc.corp.scopes", "email, groups profile"},
        {"auth.oidc.corp.email_domains", "Example.com, example.org"},
        {"auth.oidc.corp.roles_claim", "roles"},
        {"auth.oidc.corp.roles.designers", "acme:member"},
        {"auth.oidc.corp.roles", "leads=acme:owner, ops = infra:contributor"},
    }));
    REQUIRE(providers.size() == 1);
    const auto& corp = providers[0];
    CHECK(corp.id == "corp");
    CHECK(corp.issuer == "https://id.example.com/realms/staff");
    CHECK(corp.client_secret == "s3cret");
    CHECK(corp.display_name == "Example SSO");
    CHECK(corp.scopes == std::vector<std::string>{"openid", "email", "groups", "profile"});
    CHECK(corp.policy.allowed_email_domains ==
          std::vector<std::string>{"example.com", "example.org"});
    CHECK(corp.policy.roles_claim == "roles");
    REQUIRE(corp.roles.size() == 3);
    CHECK(corp.roles.at("designers").account_slug == "acme");
    CHECK(corp.roles.at("leads").role == loupe::Role::owner);
    CHECK(corp.roles.at("ops").account_slug == "infra");
    CHECK(corp.roles.at("ops").role == loupe::Role::contributor);
    std::filesystem::remove(secret);
}

TEST_CASE("OIDC providers: ids from auth.oidc.providers (keys from the environment), defaults") {
    const auto providers = read_oidc_providers(MapConfig({
        {"auth.oidc.providers", "google, corp"},
        {"auth.oidc.google.issuer", "https://accounts.google.com"},
        {"auth.oidc.google.client_id", "g"},
        {"auth.oidc.corp.issuer", "http://127.0.0.1:9000"},
        {"auth.oidc.corp.client_id", "c"},
    }));
    REQUIRE(providers.size() == 2);
    CHECK(providers[0].id == "google");
    CHECK(providers[0].display_name == "google");
    CHECK(providers[0].client_secret.empty());
    CHECK(providers[0].scopes == std::vector<std::string>{"openid", "email", "profile"});
    CHECK(providers[0].policy.roles_claim == "groups");
    CHECK(providers[1].id == "corp");
}

TEST_CASE("OIDC providers: a wrong setting stops the start naming its key") {
    using Values = std::map<std::string, std::string>;
    const auto refusal = [](Values values) {
        try {
            read_oidc_providers(MapConfig(std::move(values)));
        } catch (const std::runtime_error& error) {
            return std::string(error.what());
        }
        return std::string();
    };
    CHECK(refusal({{"auth.oidc.providers", "corp"}}) ==
          "configuration key 'auth.oidc.corp.issuer': missing (provider \"corp\" needs it)");
    CHECK(refusal({{"auth.oidc.providers", "Corp!"}})
              .starts_with(
                  "configuration key 'auth.oidc.providers': \"Corp!\" is not a provider id"));
    const Values base{{"auth.oidc.corp.issuer", "https://id.example.com"},
                      {"auth.oidc.corp.client_id", "loupe"}};
    auto values = base;
    values["auth.oidc.corp.issuer"] = "id.example.com";
    CHECK(refusal(values) == "configuration key 'auth.oidc.corp.issuer': must be an http(s) URL");
    values = base;
    values["auth.oidc.corp.client_secret_file"] = "/nonexistent/secret";
    CHECK(refusal(values) ==
          "configuration key 'auth.oidc.corp.client_secret_file': cannot read "
          "the file /nonexistent/secret");
    values = base;
    values["auth.oidc.corp.roles.admins"] = "acme:admin";
    CHECK(
        refusal(values).starts_with("configuration key 'auth.oidc.corp.roles.admins': unknown "
                                    "role \"admin\""));
    values = base;
    values["auth.oidc.corp.roles"] = "admins";
    CHECK(refusal(values).starts_with("configuration key 'auth.oidc.corp.roles': expected"));
}

TEST_CASE("SAML providers: found by their metadata key, files read, a missing key named") {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("loupe-saml-settings-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto write = [&](const char* name, const char* text) {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    };
    const auto metadata = write("idp.xml", "<md:EntityDescriptor entityID=\"https://idp\"/>\n");
    const auto key =
        write("sp.key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    const auto cert =
        write("sp.crt", "-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----\n");
    CHECK(read_saml_providers(MapConfig({})).empty());
    const auto providers = read_saml_providers(MapConfig({
        {"auth.saml.corp.idp_metadata_file", metadata},
        {"auth.saml.corp.sp_key_file", key},
        {"auth.saml.corp.sp_cert_file", cert},
        {"auth.saml.corp.name", "Corp SSO"},
        {"auth.saml.corp.roles_attribute", "memberOf"},
        {"auth.saml.corp.email_domains", "Example.com"},
        {"auth.saml.corp.roles.design", "acme:member"},
    }));
    REQUIRE(providers.size() == 1);
    const auto& corp = providers[0];
    CHECK(corp.id == "corp");
    CHECK(corp.display_name == "Corp SSO");
    CHECK(corp.idp_metadata.starts_with("<md:EntityDescriptor"));
    CHECK(corp.sp_key.find("PRIVATE KEY") != std::string::npos);
    CHECK(corp.email_attribute == "email");
    CHECK(corp.name_attribute == "displayName");
    CHECK(corp.policy.roles_claim == "memberOf");
    CHECK(corp.policy.allowed_email_domains == std::vector<std::string>{"example.com"});
    CHECK(corp.roles.contains("design"));

    try {
        read_saml_providers(MapConfig({{"auth.saml.corp.idp_metadata_file", metadata}}));
        FAIL("a provider without its key pair must be refused");
    } catch (const std::runtime_error& error) {
        CHECK(std::string(error.what()).find("auth.saml.corp.sp_key_file") != std::string::npos);
    }
    std::filesystem::remove_all(dir);
}
