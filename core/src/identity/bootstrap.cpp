#include "identity/bootstrap.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "auth/token_format.hpp"
#include "identity/identity_writes.hpp"
#include "loupe/json.hpp"

namespace loupe {

struct BootstrapAccess {
    static Database& database(IdentityStore& identity) { return identity.database_; }
};

namespace {

namespace fs = std::filesystem;

constexpr const char* admin_slug = "admin";
constexpr const char* default_slug = "default";
// The first personal access token lasts 30 days.
constexpr int64_t bootstrap_token_lifetime_ms = 30LL * 24 * 60 * 60 * 1000;

std::runtime_error file_error(const std::string& action, const fs::path& path) {
    return std::runtime_error("bootstrap: cannot " + action + " " + path.string() + ": " +
                              std::strerror(errno));
}

/// Writes `content` to a new file readable by its owner only, flushed to disk.
void write_private_file(const fs::path& path, const std::string& content) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        throw file_error("create", path);
    }
    std::size_t written = 0;
    while (written < content.size()) {
        const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            const auto error = file_error("write", path);
            ::close(fd);
            throw error;
        }
        written += static_cast<std::size_t>(n);
    }
    // The umask could only have narrowed 0600; make the mode exact anyway.
    if (::fchmod(fd, 0600) != 0 || ::fsync(fd) != 0) {
        const auto error = file_error("flush", path);
        ::close(fd);
        throw error;
    }
    if (::close(fd) != 0) {
        throw file_error("close", path);
    }
}

void sync_directory(const fs::path& directory) {
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        throw file_error("open", directory);
    }
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    if (!synced) {
        throw file_error("sync", directory);
    }
}

std::string bootstrap_json(const BootstrapResult& result) {
    nlohmann::ordered_json json{
        {"user", admin_slug},
        {"account", default_slug},
        {"project", default_slug},
        {"projectToken", result.project_token},
        {"personalAccessToken", result.personal_access_token},
        {"personalAccessTokenExpiresAt", iso_time(result.personal_access_token_expires_at)}};
    return json.dump(2) + "\n";
}

void print_framed(std::ostream& out, const BootstrapResult& result,
                  const std::vector<std::string>& extra_lines) {
    std::vector<std::string> lines{
        "Loupe created its first user, account and project.",
        "These tokens are shown only once:",
        "",
        std::string("  user                   ") + admin_slug,
        std::string("  account                ") + default_slug + " (team, owned by " + admin_slug +
            ")",
        std::string("  project                ") + default_slug + "/" + default_slug,
        "  project token          " + result.project_token,
        "  personal access token  " + result.personal_access_token,
        "",
        "Argos CLI: ARGOS_TOKEN=<project token>",
        "Saved to " + result.file + " (mode 0600).",
        "",
        "The personal access token expires on " +
            iso_time(result.personal_access_token_expires_at).substr(0, 10) +
            " (30 days) and acts as the admin",
        "on every project of 'default': once you have your own (loupe admin token create",
        "--user ... --expires-in 30d), revoke it and delete the file:",
        "  loupe admin token revoke --prefix " + token_prefix(result.personal_access_token),
    };
    if (!extra_lines.empty()) {
        lines.emplace_back();
        lines.insert(lines.end(), extra_lines.begin(), extra_lines.end());
    }
    std::size_t width = 0;
    for (const auto& line : lines) {
        width = std::max(width, line.size());
    }
    const std::string border = "+" + std::string(width + 2, '-') + "+\n";
    out << border;
    for (const auto& line : lines) {
        out << "| " << line << std::string(width - line.size(), ' ') << " |\n";
    }
    out << border;
    out.flush();
}

/// Creates everything in one transaction; false when another instance got there first.
bool create_defaults(IdentityStore& identity, const BootstrapResult& result) {
    Database& database = BootstrapAccess::database(identity);
    try {
        return database.transaction([&](soci::session& session) {
            long long users = 0;
            session << "SELECT COUNT(*) FROM users", soci::into(users);
            if (users > 0) {
                return false;
            }
            const int64_t now = now_ms();
            const User admin =
                identity_writes::create_user(session, admin_slug, "Admin", false, now);
            const Account team =
                identity_writes::create_team(session, default_slug, "Default", admin, now);
            identity_writes::create_project(session, team, default_slug, "main",
                                            result.project_token, now);
            identity_writes::create_personal_token(session, admin, {team},
                                                   result.personal_access_token_expires_at,
                                                   result.personal_access_token, now);
            return true;
        });
    } catch (const AdminError&) {
        // A concurrent first start (PostgreSQL) inserted the same slugs and committed first.
        if (identity.has_any_user()) {
            return false;
        }
        throw;
    }
}

}  // namespace

std::optional<BootstrapResult> bootstrap_if_empty(IdentityStore& identity,
                                                  const std::string& data_dir, std::ostream& out) {
    auto result = create_bootstrap_if_empty(identity, data_dir);
    if (result) {
        print_framed(out, *result, {});
    }
    return result;
}

void print_bootstrap(std::ostream& out, const BootstrapResult& result,
                     const std::vector<std::string>& extra_lines) {
    print_framed(out, result, extra_lines);
}

std::optional<BootstrapResult> create_bootstrap_if_empty(IdentityStore& identity,
                                                         const std::string& data_dir) {
    if (identity.has_any_user()) {
        return std::nullopt;
    }
    const fs::path directory(data_dir);
    fs::create_directories(directory);
    const fs::path file = directory / "bootstrap.json";
    fs::path staged = file;
    staged += ".tmp";

    BootstrapResult result{generate_project_token(), generate_personal_token(), file.string(),
                           admin_slug, now_ms() + bootstrap_token_lifetime_ms};
    // Staged before the commit and moved into place after it, so the tokens are never
    // committed without a file that holds them.
    fs::remove(staged);
    write_private_file(staged, bootstrap_json(result));
    bool created = false;
    try {
        created = create_defaults(identity, result);
    } catch (...) {
        std::error_code ignored;
        fs::remove(staged, ignored);
        throw;
    }
    if (!created) {
        fs::remove(staged);
        return std::nullopt;
    }
    fs::rename(staged, file);
    sync_directory(directory);
    return result;
}

}  // namespace loupe
