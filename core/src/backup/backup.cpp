#include "backup/backup.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "backup/sqlite_backup.hpp"
#include "blob/local_blob_store.hpp"
#include "blob/s3/s3_blob_store.hpp"
#include "blob/sweep/blob_inventory.hpp"
#include "config/config.hpp"
#include "db/database_url.hpp"
#include "loupe/cli/options.hpp"
#include "loupe/crypto/digest.hpp"
#include "loupe/json.hpp"
#include "runtime.hpp"

namespace loupe {
namespace {

namespace fs = std::filesystem;

constexpr const char* format_name = "loupe-backup";
constexpr int format_version = 1;

struct Arguments {
    std::string directory;
    bool json = false;
    bool verify = false;
};

Arguments parse(const std::vector<std::string>& args, bool restore) {
    // args[0] is "backup" or "restore".
    const cli::Options options(
        {.command = restore ? "restore" : "backup",
         .flags = restore ? std::vector<std::string_view>{"json", "verify"}
                          : std::vector<std::string_view>{"json"},
         .max_positionals = 1},
        std::vector<std::string>(args.begin() + (args.empty() ? 0 : 1), args.end()));
    if (options.positionals().empty()) {
        throw cli::UsageError("the backup folder is required");
    }
    return Arguments{options.positionals().front(), options.has("json"), options.has("verify")};
}

bool is_empty_folder(const fs::path& path) {
    return !fs::exists(path) || (fs::is_directory(path) && fs::is_empty(path));
}

std::string blob_relative_path(const std::string& key) {
    return key.substr(0, 2) + "/" + key.substr(2, 2) + "/" + key;
}

enum class Placed { linked, copied, missing };

/// A hard link to `source` at `target` (same filesystem), else a copy.
Placed link_or_copy(const fs::path& source, const fs::path& target) {
    fs::create_directories(target.parent_path());
    if (::link(source.c_str(), target.c_str()) == 0) {
        return Placed::linked;
    }
    const int error = errno;
    if (error == ENOENT) {
        return Placed::missing;
    }
    if (error == EEXIST) {
        return Placed::linked;
    }
    std::error_code copy_error;
    if (!fs::copy_file(source, target, fs::copy_options::overwrite_existing, copy_error)) {
        if (!fs::exists(source)) {
            return Placed::missing;
        }
        throw std::system_error(copy_error, "cannot copy " + source.string());
    }
    return Placed::copied;
}

void write_file(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
        throw std::runtime_error("cannot write " + path.string());
    }
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read " + path.string());
    }
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void copy_secret(const fs::path& from_folder, const fs::path& to_folder) {
    const auto secret = from_folder / "secret.key";
    if (fs::exists(secret)) {
        fs::copy_file(secret, to_folder / "secret.key", fs::copy_options::overwrite_existing);
        fs::permissions(to_folder / "secret.key", fs::perms::owner_read | fs::perms::owner_write);
    }
}

/// `pg_dump` as the operator should run it (the password masked).
std::string pg_dump_line(const std::string& url, const fs::path& directory) {
    return "pg_dump --format=custom --file '" + (directory / "loupe.pgdump").string() + "' '" +
           mask_database_url(url) + "'";
}

int backup(Runtime& runtime, const Arguments& arguments, std::ostream& out) {
    const fs::path directory = arguments.directory;
    if (!is_empty_folder(directory)) {
        throw std::runtime_error("the backup folder " + directory.string() +
                                 " is not empty: choose a new one");
    }
    fs::create_directories(directory);
    // The copy holds what the data folder holds (token hashes, the signing secret).
    fs::permissions(directory, fs::perms::owner_all);
    const auto url = runtime.config().get_string("db.url", "sqlite:./data/loupe.db");
    const auto target = parse_database_url(url);
    Json manifest = {
        {"format", format_name}, {"version", format_version}, {"createdAt", iso_time(now_ms())}};
    std::vector<std::string> notes;
    if (target.dialect == Dialect::sqlite) {
        const auto bytes = backup_sqlite_database(target.location, (directory / "loupe.db"));
        manifest["database"] = {{"kind", "sqlite"}, {"file", "loupe.db"}, {"bytes", bytes}};
    } else {
        manifest["database"] = {{"kind", "postgresql"}, {"file", "loupe.pgdump"}};
        notes.push_back("database: PostgreSQL is not copied by Loupe; dump it now with\n  " +
                        pg_dump_line(url, directory));
    }

    // Then the blobs: listed (and for the local folder, linked) after the database copy.
    std::vector<std::pair<std::string, uint64_t>> listed;
    runtime.blob_inventory().for_each_blob(
        [&](const StoredBlob& blob) { listed.emplace_back(blob.key, blob.size); });
    std::sort(listed.begin(), listed.end());
    int64_t linked = 0;
    int64_t copied = 0;
    uint64_t bytes = 0;
    std::string lines;
    for (const auto& [key, size] : listed) {
        if (auto* local = runtime.local_blobs()) {
            const auto placed =
                link_or_copy(local->path_for(key), directory / "blobs" / blob_relative_path(key));
            if (placed == Placed::missing) {
                continue;  // removed by the sweep since the listing: nothing references it
            }
            (placed == Placed::linked ? linked : copied) += 1;
        }
        lines += key + " " + std::to_string(size) + "\n";
        bytes += size;
    }
    write_file(directory / "blobs.txt", lines);
    const bool local = runtime.local_blobs() != nullptr;
    manifest["blobs"] = {{"backend", local ? "local" : "s3"},
                         {"manifest", "blobs.txt"},
                         {"count", linked + copied + (local ? 0 : int64_t(listed.size()))},
                         {"bytes", bytes},
                         {"folder", local ? Json("blobs") : Json(nullptr)},
                         {"hardLinked", linked},
                         {"copied", copied}};
    if (!local) {
        const auto& settings = runtime.s3_blobs()->client().settings();
        notes.push_back("blobs: they stay in bucket '" + settings.bucket +
                        "'; blobs.txt lists them. Copy or version the bucket (for example `aws "
                        "s3 sync s3://" +
                        settings.bucket + "/" + settings.prefix + "blobs/ <destination>`)");
    }
    copy_secret(runtime.data_dir(), directory);
    write_file(directory / "backup.json", manifest.dump(2) + "\n");
    if (arguments.json) {
        manifest["notes"] = notes;
        out << manifest.dump() << "\n";
        return 0;
    }
    out << "backup written to " << directory.string() << "\n";
    if (target.dialect == Dialect::sqlite) {
        out << "database: loupe.db (" << manifest["database"]["bytes"].get<uint64_t>()
            << " bytes, an online copy)\n";
    }
    if (local) {
        out << "blobs: " << (linked + copied) << " (" << bytes << " bytes): " << linked
            << " hard-linked, " << copied << " copied\n";
    }
    for (const auto& note : notes) {
        out << note << "\n";
    }
    return 0;
}

int restore(const Config& config, const Arguments& arguments, std::ostream& out) {
    const fs::path directory = arguments.directory;
    const auto manifest = Json::parse(read_file(directory / "backup.json"));
    if (manifest.value("format", "") != format_name ||
        manifest.value("version", 0) != format_version) {
        throw std::runtime_error(directory.string() + " does not hold a Loupe backup (format " +
                                 format_name + " " + std::to_string(format_version) + ")");
    }
    const fs::path data_dir = config.get_string("data.dir", "./data");
    if (!is_empty_folder(data_dir)) {
        throw std::runtime_error("the data folder " + data_dir.string() +
                                 " is not empty: restore into an empty one");
    }
    const auto url = config.get_string("db.url", "sqlite:./data/loupe.db");
    const auto target = parse_database_url(url);
    const auto kind = manifest.at("database").value("kind", "");
    const auto backend = config.get_string("blobs.backend", "local");
    if (kind == "sqlite" && target.dialect != Dialect::sqlite) {
        throw std::runtime_error("the backup holds a SQLite database but db.url is PostgreSQL");
    }
    if (kind == "sqlite" && fs::exists(target.location)) {
        throw std::runtime_error("the database file " + target.location + " exists already");
    }
    std::vector<std::string> notes;
    fs::create_directories(data_dir);
    fs::permissions(data_dir, fs::perms::owner_all);
    if (kind == "sqlite") {
        const fs::path database = target.location;
        if (database.has_parent_path()) {
            fs::create_directories(database.parent_path());
        }
        const fs::path partial = database.string() + ".restoring";
        fs::copy_file(directory / "loupe.db", partial, fs::copy_options::overwrite_existing);
        fs::rename(partial, database);
    } else {
        notes.push_back(
            "database: restore it into an empty PostgreSQL database with\n  "
            "pg_restore --dbname '" +
            mask_database_url(url) + "' '" + (directory / "loupe.pgdump").string() + "'");
    }

    int64_t linked = 0;
    int64_t copied = 0;
    std::vector<std::string> missing;
    const auto& blobs = manifest.at("blobs");
    if (blobs.value("backend", "") == "local" && backend == "local") {
        std::istringstream lines(read_file(directory / "blobs.txt"));
        std::string key;
        uint64_t size = 0;
        while (lines >> key >> size) {
            const auto relative = blob_relative_path(key);
            const auto source = directory / "blobs" / relative;
            const auto destination = data_dir / "blobs" / relative;
            std::error_code error;
            if (!is_blob_key(key) || fs::file_size(source, error) != size || error ||
                (arguments.verify && crypto::sha256_hex(read_file(source)) != key)) {
                missing.push_back(key);
                continue;
            }
            const auto placed = link_or_copy(source, destination);
            if (placed == Placed::missing) {
                missing.push_back(key);
            } else {
                (placed == Placed::linked ? linked : copied) += 1;
            }
        }
    } else if (blobs.value("backend", "") == "local") {
        notes.push_back(
            "blobs: blobs.backend is s3; copy the backup's blobs into the bucket with\n"
            "  loupe admin blobs migrate --to s3 --from '" +
            (directory / "blobs").string() + "'");
    } else {
        notes.push_back(
            "blobs: the backup lists them (blobs.txt); they are in the bucket the "
            "backup was taken from");
    }
    copy_secret(directory, data_dir);
    if (arguments.json) {
        out << Json{{"dataDir", data_dir.string()}, {"database", kind},
                    {"hardLinked", linked},         {"copied", copied},
                    {"missing", missing},           {"notes", notes}}
                   .dump()
            << "\n";
    } else {
        out << "restored " << directory.string() << " into " << data_dir.string() << "\n";
        out << "blobs: " << (linked + copied) << " (" << linked << " hard-linked, " << copied
            << " copied)\n";
        for (const auto& key : missing) {
            out << "missing or damaged in the backup: " << key << "\n";
        }
        for (const auto& note : notes) {
            out << note << "\n";
        }
    }
    return missing.empty() ? 0 : 1;
}

constexpr const char* usage =
    "usage: loupe admin backup DIR [--json]\n"
    "       loupe admin restore DIR [--verify] [--json]\n"
    "  backup: an online copy of the SQLite database, the blob manifest and the blobs (local\n"
    "  folder: hard-linked, or copied across filesystems) into the new folder DIR\n"
    "  restore: into the empty data folder of this configuration (--verify hashes every blob)\n";

}  // namespace

int run_backup_command(Runtime& runtime, const std::vector<std::string>& args, std::ostream& out,
                       std::ostream& err) {
    return cli::run_command("loupe admin backup", usage, {}, out, err,
                            [&] { return backup(runtime, parse(args, false), out); });
}

int run_restore_command(const Config& config, const std::vector<std::string>& args,
                        std::ostream& out, std::ostream& err) {
    return cli::run_command("loupe admin restore", usage, {}, out, err,
                            [&] { return restore(config, parse(args, true), out); });
}

}  // namespace loupe
