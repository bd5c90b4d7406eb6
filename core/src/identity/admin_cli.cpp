#include "identity/admin_cli.hpp"

#include <algorithm>
#include <functional>
#include <sstream>

#include "identity/admin_output.hpp"
#include "identity/identity_rows.hpp"
#include "loupe/cli/options.hpp"

namespace loupe {
namespace {

using cli::Options;
using cli::UsageError;

struct AdminCommand {
    std::string_view group;
    std::string_view action;
    cli::OptionSpec spec;
    std::string_view synopsis;
    std::function<void(IdentityStore&, const Options&, AdminOutput&)> run;
};

Role parse_role_option(const std::string& text) {
    auto role = parse_role(text);
    if (!role) {
        throw UsageError("invalid role \"" + text + "\": use owner, member or contributor");
    }
    return *role;
}

void user_create(IdentityStore& identity, const Options& args, AdminOutput& output) {
    output.created_user(identity.create_user(args.value("slug"), args.value("name")));
}

void account_create(IdentityStore& identity, const Options& args, AdminOutput& output) {
    const auto& owner = args.value("owner");
    output.created_team(identity.create_team(args.value("slug"), args.value("name"), owner), owner);
}

void member_add(IdentityStore& identity, const Options& args, AdminOutput& output) {
    const Role role = parse_role_option(args.value("role"));
    identity.add_member(args.value("account"), args.value("user"), role);
    output.member_set(args.value("account"), args.value("user"), role);
}

// A contributor's level on one project: what they may see and do there.
void project_grant(IdentityStore& identity, const Options& args, AdminOutput& output) {
    const auto& level = args.value("level");
    if (level != "admin" && level != "reviewer" && level != "viewer" && level != "none") {
        throw UsageError("invalid level \"" + level + "\": use admin, reviewer, viewer or none");
    }
    const std::optional<std::string> granted =
        level == "none" ? std::nullopt : std::optional<std::string>(level);
    const auto project =
        identity.grant_project_level(args.value("project"), args.value("user"), granted);
    output.project_level_set(project, args.value("user"), granted);
}

void project_create(IdentityStore& identity, const Options& args, AdminOutput& output) {
    auto [project, token] =
        identity.create_project(args.value("account"), args.value("name"),
                                args.optional_value("default-base-branch").value_or("main"));
    output.created_project(identity.project_json(project), token.token);
}

void token_create(IdentityStore& identity, const Options& args, AdminOutput& output) {
    std::optional<int64_t> expires_at;
    if (auto expires_in = args.optional_value("expires-in")) {
        expires_at = now_ms() + cli::duration_option(args, "expires-in").count();
    }
    auto accounts = args.values("account");
    const auto& user = args.value("user");
    auto token = identity.create_personal_token(user, accounts, expires_at);
    if (accounts.empty()) {
        accounts.push_back(user);  // the default scope: the user's personal account
    }
    output.created_personal_token(token, user, accounts, expires_at);
}

void token_revoke(IdentityStore& identity, const Options& args, AdminOutput& output) {
    const auto& prefix = args.value("prefix");
    const int revoked = identity.revoke_tokens(prefix);
    if (revoked == 0) {
        throw AdminError("No active token starts with \"" + prefix + "\"");
    }
    output.revoked(revoked);
}

void token_list(IdentityStore& identity, const Options&, AdminOutput& output) {
    output.tokens(identity.list_tokens());
}

void project_list(IdentityStore& identity, const Options&, AdminOutput& output) {
    std::vector<Json> projects;
    for (const auto& project : identity.list_projects()) {
        projects.push_back(identity.project_json(project));
    }
    output.projects(projects);
}

void user_list(IdentityStore& identity, const Options&, AdminOutput& output) {
    output.users(identity.list_users());
}

const std::vector<AdminCommand>& commands() {
    static const std::vector<AdminCommand> all{
        {"user",
         "create",
         {.command = "user create", .required = {"slug", "name"}},
         "user create --slug S --name N",
         user_create},
        {"user", "list", {.command = "user list"}, "user list", user_list},
        {"account",
         "create",
         {.command = "account create", .required = {"slug", "name", "owner"}},
         "account create --slug S --name N --owner USER",
         account_create},
        {"member",
         "add",
         {.command = "member add", .required = {"account", "user", "role"}},
         "member add --account A --user U --role owner|member|contributor",
         member_add},
        {"project",
         "create",
         {.command = "project create",
          .required = {"account", "name"},
          .optional = {"default-base-branch"}},
         "project create --account A --name P [--default-base-branch B]",
         project_create},
        {"project", "list", {.command = "project list"}, "project list", project_list},
        {"project",
         "grant",
         {.command = "project grant", .required = {"project", "user", "level"}},
         "project grant --project A/P --user U --level admin|reviewer|viewer|none",
         project_grant},
        {"token",
         "create",
         {.command = "token create",
          .required = {"user"},
          .optional = {"expires-in"},
          .repeatable = {"account"}},
         "token create --user U [--account A]... [--expires-in 30d|12h|45m|30s]",
         token_create},
        {"token",
         "revoke",
         {.command = "token revoke", .required = {"prefix"}},
         "token revoke --prefix P",
         token_revoke},
        {"token", "list", {.command = "token list"}, "token list", token_list},
    };
    return all;
}

void print_usage(std::ostream& stream, const std::vector<std::string>& plugin_synopses) {
    stream << "usage: loupe admin COMMAND [OPTIONS] [--json]\n\ncommands:\n";
    for (const auto& command : commands()) {
        stream << "  " << command.synopsis << "\n";
    }
    for (const auto& synopsis : plugin_synopses) {
        stream << "  " << synopsis << "\n";
    }
    stream << "\nWithout --account, a personal access token is scoped to the user's personal "
              "account.\n--json prints exactly one JSON object.\n";
}

}  // namespace

bool is_core_admin_group(const std::string& word) {
    return std::any_of(commands().begin(), commands().end(),
                       [&](const AdminCommand& command) { return command.group == word; });
}

bool is_core_admin_command(const std::string& group, const std::string& action) {
    return std::any_of(commands().begin(), commands().end(), [&](const auto& command) {
        return command.group == group && command.action == action;
    });
}

int run_admin_command(IdentityStore& identity, const std::vector<std::string>& args,
                      std::ostream& out, std::ostream& err,
                      const std::vector<std::string>& plugin_synopses) {
    const cli::CommandWords line = cli::command_words(args, "admin");
    const auto& words = line.words;
    const bool json = line.json;
    std::ostringstream usage;
    print_usage(usage, plugin_synopses);
    return cli::run_command("loupe admin", usage.str(), words, out, err, [&] {
        if (words.size() < 2) {
            throw UsageError(words.empty() ? "missing command"
                                           : "missing action after \"" + words[0] + "\"");
        }
        auto command = std::find_if(commands().begin(), commands().end(), [&](const auto& c) {
            return c.group == words[0] && c.action == words[1];
        });
        if (command == commands().end()) {
            throw UsageError("unknown command \"" + words[0] + " " + words[1] + "\"");
        }
        const Options arguments(command->spec,
                                std::vector<std::string>(words.begin() + 2, words.end()));
        AdminOutput output(out, json);
        command->run(identity, arguments, output);
        return 0;
    });
}

}  // namespace loupe
