#include "identity/admin_output.hpp"

#include <algorithm>

#include "auth/token_format.hpp"
#include "cli/text_table.hpp"
#include "identity/identity_rows.hpp"
#include "loupe/text/strings.hpp"

namespace loupe {
namespace {

Json user_json(const User& user) {
    return Json{{"id", std::to_string(user.id)},
                {"slug", user.slug},
                {"name", user.name},
                {"staff", user.staff},
                {"accountId", std::to_string(user.account_id)}};
}

Json optional_time(std::optional<int64_t> at) {
    return at ? Json(iso_time(*at)) : Json(nullptr);
}

/// An expired token authenticates nobody, revoked or not.
bool is_expired(const TokenListing& token, int64_t now) {
    return token.expires_at && *token.expires_at <= now;
}

}  // namespace

void AdminOutput::emit(const Json& json) {
    out_ << json.dump() << "\n";
}

void AdminOutput::table(const std::vector<std::vector<std::string>>& rows) {
    print_text_table(out_, rows);
}

void AdminOutput::created_user(const User& user) {
    if (json_) {
        return emit({{"user", user_json(user)}});
    }
    out_ << "Created user " << user.slug << " (" << user.name << ") with personal account "
         << user.slug << "\n";
}

void AdminOutput::created_team(const Account& team, const std::string& owner) {
    if (json_) {
        return emit({{"account",
                      {{"id", std::to_string(team.id)},
                       {"slug", team.slug},
                       {"name", team.name},
                       {"kind", "team"}}},
                     {"owner", owner}});
    }
    out_ << "Created team account " << team.slug << " (" << team.name << "), owner " << owner
         << "\n";
}

void AdminOutput::member_set(const std::string& account, const std::string& user, Role role) {
    const std::string role_text(role_name(role));
    if (json_) {
        return emit({{"member", {{"account", account}, {"user", user}, {"role", role_text}}}});
    }
    out_ << user << " is " << role_text << " of " << account << "\n";
}

void AdminOutput::project_level_set(const Project& project, const std::string& user,
                                    const std::optional<std::string>& level) {
    const std::string ref = project.account_slug + "/" + project.name;
    if (json_) {
        return emit(
            {{"grant",
              {{"project", ref}, {"user", user}, {"level", level ? Json(*level) : Json()}}}});
    }
    if (level) {
        out_ << user << " is " << *level << " of " << ref << "\n";
    } else {
        out_ << user << " has no level of its own on " << ref << "\n";
    }
}

void AdminOutput::created_project(const Json& project, const std::string& token) {
    if (json_) {
        return emit({{"project", project}, {"token", token}});
    }
    out_ << "Created project " << project["account"]["slug"].get<std::string>() << "/"
         << project["name"].get<std::string>() << " (default base branch "
         << project["defaultBaseBranch"].get<std::string>() << ")\n"
         << "Project token (shown only once; ARGOS_TOKEN for the Argos CLI):\n"
         << token << "\n";
}

void AdminOutput::created_personal_token(const IssuedToken& token, const std::string& user,
                                         const std::vector<std::string>& scope,
                                         std::optional<int64_t> expires_at) {
    if (json_) {
        return emit({{"token", token.token},
                     {"id", std::to_string(token.id)},
                     {"prefix", token_prefix(token.token)},
                     {"user", user},
                     {"scope", scope},
                     {"expiresAt", optional_time(expires_at)}});
    }
    out_ << "Personal access token of " << user << ", scoped to " << join(scope, ", ")
         << (expires_at ? ", expires " + iso_time(*expires_at) : std::string(", never expires"))
         << " (shown only once):\n"
         << token.token << "\n";
}

void AdminOutput::revoked(int count) {
    if (json_) {
        return emit({{"revoked", count}});
    }
    out_ << "Revoked " << count << (count == 1 ? " token" : " tokens") << "\n";
}

void AdminOutput::tokens(const std::vector<TokenListing>& tokens) {
    const int64_t now = now_ms();
    if (json_) {
        Json list = Json::array();
        for (const auto& token : tokens) {
            list.push_back({{"id", std::to_string(token.id)},
                            {"kind", token.kind},
                            {"prefix", token.prefix},
                            {"owner", token.owner},
                            {"expiresAt", optional_time(token.expires_at)},
                            {"expired", is_expired(token, now)},
                            {"revoked", token.revoked}});
        }
        return emit({{"tokens", list}});
    }
    std::vector<std::vector<std::string>> rows{
        {"ID", "KIND", "PREFIX", "OWNER", "EXPIRES", "STATUS"}};
    for (const auto& token : tokens) {
        rows.push_back({std::to_string(token.id), token.kind, token.prefix, token.owner,
                        token.expires_at ? iso_time(*token.expires_at) : "never",
                        token.revoked            ? "revoked"
                        : is_expired(token, now) ? "expired"
                                                 : "active"});
    }
    table(rows);
}

void AdminOutput::projects(const std::vector<Json>& projects) {
    if (json_) {
        return emit({{"projects", projects}});
    }
    std::vector<std::vector<std::string>> rows{{"ID", "PROJECT", "BASE BRANCH"}};
    for (const auto& project : projects) {
        rows.push_back({project["id"].get<std::string>(),
                        project["account"]["slug"].get<std::string>() + "/" +
                            project["name"].get<std::string>(),
                        project["defaultBaseBranch"].get<std::string>()});
    }
    table(rows);
}

void AdminOutput::users(const std::vector<User>& users) {
    if (json_) {
        Json list = Json::array();
        for (const auto& user : users) {
            list.push_back(user_json(user));
        }
        return emit({{"users", list}});
    }
    std::vector<std::vector<std::string>> rows{{"ID", "SLUG", "NAME", "STAFF"}};
    for (const auto& user : users) {
        rows.push_back({std::to_string(user.id), user.slug, user.name, user.staff ? "yes" : "no"});
    }
    table(rows);
}

}  // namespace loupe
