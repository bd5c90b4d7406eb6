#include "blob/s3/blob_migration.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <sstream>

#include "blob/local_blob_store.hpp"
#include "loupe/cli/options.hpp"
#include "loupe/crypto/digest.hpp"
#include "loupe/json.hpp"

namespace loupe {
namespace {

namespace fs = std::filesystem;

std::string read_whole_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
        throw std::runtime_error("cannot read " + path.string());
    }
    return bytes;
}

/// True for <root>/<k[0:2]>/<k[2:4]>/<key> (temporary uploads and strays are not blobs).
bool is_blob_file(const fs::path& path, const fs::path& root) {
    const auto name = path.filename().string();
    if (!is_blob_key(name) || normalize_blob_key(name) != name) {
        return false;
    }
    const auto relative = fs::relative(path, root).string();
    return relative == name.substr(0, 2) + "/" + name.substr(2, 2) + "/" + name;
}

}  // namespace

BlobMigrationReport migrate_blob_folder(const std::string& root, S3BlobStore& store) {
    if (!fs::is_directory(root)) {
        throw std::runtime_error(root + " is not a folder");
    }
    BlobMigrationReport report;
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file() || !is_blob_file(entry.path(), root)) {
            continue;
        }
        const auto key = entry.path().filename().string();
        const auto present = store.stat(key);
        if (present && present->size == entry.file_size()) {
            ++report.skipped;
            continue;
        }
        const auto bytes = read_whole_file(entry.path());
        if (crypto::sha256_hex(bytes) != key) {
            report.corrupt.push_back(entry.path().string());
            continue;
        }
        store.write_verified(key, bytes);
        ++report.copied;
        report.bytes_copied += bytes.size();
    }
    return report;
}

namespace {

int migrate_to_s3(const ConfigView& config, const std::string& from, bool json, std::ostream& out,
                  Logger& log) {
    // The store signs no URL here; the signer only has to exist.
    S3BlobStore store(
        S3Settings::from_config(config), UrlSigner(std::string(32, 'm')),
        [] { return std::string(); }, 0, log);
    store.check_access();
    const auto report = migrate_blob_folder(from, store);
    if (json) {
        out << Json{{"from", from},
                    {"bucket", store.client().settings().bucket},
                    {"copied", report.copied},
                    {"skipped", report.skipped},
                    {"bytesCopied", report.bytes_copied},
                    {"corrupt", report.corrupt}}
                   .dump()
            << "\n";
    } else {
        out << "copied " << report.copied << " blobs (" << report.bytes_copied << " bytes), "
            << report.skipped << " already in bucket '" << store.client().settings().bucket
            << "'\n";
        for (const auto& path : report.corrupt) {
            out << "corrupt (content does not hash to its name, not copied): " << path << "\n";
        }
    }
    return report.corrupt.empty() ? 0 : 1;
}

}  // namespace

int run_blobs_admin_command(const ConfigView& config, const std::string& data_dir,
                            const std::vector<std::string>& args, std::ostream& out,
                            std::ostream& err, Logger& log) {
    constexpr std::string_view usage =
        "usage: loupe admin blobs migrate --to s3 [--from DIR] [--json]\n"
        "  copies DIR (default <data.dir>/blobs) into the bucket of blobs.s3.*\n";
    if (args.size() < 2 || args[0] != "blobs" || args[1] != "migrate") {
        err << usage;
        return 2;
    }
    const std::vector<std::string> words(args.begin() + 2, args.end());
    return cli::run_command("loupe admin blobs migrate", usage, words, out, err, [&] {
        const cli::Options options({.command = "blobs migrate",
                                    .required = {"to"},
                                    .optional = {"from"},
                                    .flags = {"json"}},
                                   words);
        if (options.value("to") != "s3") {
            throw cli::UsageError("--to s3 is required (the only destination)");
        }
        const std::string from =
            options.optional_value("from").value_or((fs::path(data_dir) / "blobs").string());
        return migrate_to_s3(config, from, options.has("json"), out, log);
    });
}

}  // namespace loupe
