#pragma once
// What `loupe admin` prints: one JSON object with --json, otherwise lines for people.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "identity/identity_store.hpp"
#include "loupe/json.hpp"

namespace loupe {

class AdminOutput {
public:
    AdminOutput(std::ostream& out, bool json) : out_(out), json_(json) {}

    void created_user(const User& user);
    void created_team(const Account& team, const std::string& owner);
    void member_set(const std::string& account, const std::string& user, Role role);
    void email_set(const std::string& user, const std::string& email);
    void project_level_set(const Project& project, const std::string& user,
                           const std::optional<std::string>& level);
    void created_project(const Json& project, const std::string& token);
    void created_personal_token(const IssuedToken& token, const std::string& user,
                                const std::vector<std::string>& scope,
                                std::optional<int64_t> expires_at);
    void revoked(int count);
    void tokens(const std::vector<TokenListing>& tokens);
    void projects(const std::vector<Json>& projects);
    void users(const std::vector<User>& users);

private:
    void emit(const Json& json);
    void table(const std::vector<std::vector<std::string>>& rows);

    std::ostream& out_;
    bool json_;
};

}  // namespace loupe
