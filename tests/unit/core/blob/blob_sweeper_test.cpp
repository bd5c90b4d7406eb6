// The blob sweep on a real local blob folder and a real database (SQLite or PostgreSQL): what
// it deletes and keeps, the age rule that protects uploads not referenced yet, the quarantine
// that puts back a blob referenced while the sweep ran, dry runs, and the refusal while a plugin
// whose rows may reference blobs is not loaded. The S3 inventory runs in the "s3" suite.

#include "blob/sweep/blob_sweeper.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <set>

#include "blob/local_blob_store.hpp"
#include "blob/s3/s3_blob_store.hpp"
#include "blob/sweep/blob_holders.hpp"
#include "blob/sweep/blob_inventory.hpp"
#include "db/database_impl.hpp"
#include "db/migration_runner.hpp"
#include "log/stderr_logger.hpp"
#include "loupe/json.hpp"
#include "support/s3_server.hpp"
#include "support/test_database.hpp"
#include "unit/core/blob/blob_test_content.hpp"
#include "unit/core/identity/identity_fixture.hpp"

namespace loupe {
namespace {

namespace fs = std::filesystem;

constexpr int64_t hour_ms = 3'600'000;

std::span<const uint8_t> text_bytes(const std::string& text) {
    return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

struct SweepFixture {
    test::TestDatabase test_database;
    std::unique_ptr<Database> database = open_database(test_database.url(), 4);
    test::TempDir folder;
    LocalBlobStore store{folder.path() + "/blobs", UrlSigner(std::string(64, 'k')),
                         [] { return std::string("https://loupe.example.com"); }};
    std::unique_ptr<BlobInventory> inventory = local_blob_inventory(store);
    test::SilentLogger log;
    std::vector<std::string> unseen;
    std::unique_ptr<BlobSweeper> sweeper;
    int waits = 0;

    SweepFixture() {
        database->transaction([](soci::session& session) {
            session << "CREATE TABLE sweep_references (blob_key TEXT NOT NULL)";
        });
        BlobSweepSettings settings;
        settings.min_age_ms = hour_ms;
        settings.grace_ms = 60'000;
        settings.batch = 2;  // several reference queries per sweep
        sweeper = std::make_unique<BlobSweeper>(
            *database, *inventory,
            [](soci::session& session, const std::vector<std::string>& keys) {
                std::set<std::string> found;
                soci::rowset<std::string> rows =
                    (session.prepare << "SELECT blob_key FROM sweep_references");
                for (const auto& key : rows) {
                    if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
                        found.insert(key);
                    }
                }
                return found;
            },
            [this](soci::session&) { return unseen; }, settings, log);
        // The grace is a real wait in production; here time moves on by itself.
        sweeper->wait = [this](int64_t ms) {
            ++waits;
            offset_ms += ms;
        };
        sweeper->clock = [this] { return now_ms() + offset_ms; };
    }

    int64_t offset_ms = 0;

    /// Stores `bytes` and sets the blob's modification time `age_ms` in the past.
    std::string stored(const std::string& bytes, int64_t age_ms) {
        const auto key = store.put(text_bytes(bytes));
        set_age(key, age_ms);
        return key;
    }
    void set_age(const std::string& key, int64_t age_ms) {
        const int64_t when = now_ms() - age_ms;
        const struct timespec times[2] = {{when / 1000, (when % 1000) * 1'000'000},
                                          {when / 1000, (when % 1000) * 1'000'000}};
        REQUIRE(::utimensat(AT_FDCWD, store.path_for(key).c_str(), times, 0) == 0);
    }
    void reference(const std::string& key) {
        database->transaction([&](soci::session& session) {
            session << "INSERT INTO sweep_references (blob_key) VALUES (:k)", soci::use(key);
        });
    }
    bool present(const std::string& key) { return store.exists(key); }
    std::size_t quarantined() { return inventory->quarantined().size(); }
};

}  // namespace

TEST_CASE("blob sweep: deletes old unreferenced blobs, keeps referenced and recent ones") {
    SweepFixture fixture;
    const auto old_unused = fixture.stored(blob_test::random_bytes(1000, 1), 2 * hour_ms);
    const auto old_unused_too = fixture.stored(blob_test::random_bytes(3000, 2), 5 * hour_ms);
    const auto old_used = fixture.stored(blob_test::random_bytes(500, 3), 2 * hour_ms);
    const auto recent_unused = fixture.stored(blob_test::random_bytes(700, 4), hour_ms / 2);
    fixture.reference(old_used);

    const auto report = fixture.sweeper->sweep({});
    CHECK(report.swept);
    CHECK(report.stored == 4);
    CHECK(report.recent == 1);
    CHECK(report.referenced == 1);
    CHECK(report.removed == 2);
    CHECK(report.removed_bytes == 4000);
    CHECK(report.restored == 0);
    CHECK(fixture.waits == 1);
    CHECK_FALSE(fixture.present(old_unused));
    CHECK_FALSE(fixture.present(old_unused_too));
    CHECK(fixture.present(old_used));
    CHECK(fixture.present(recent_unused));
    CHECK(fixture.quarantined() == 0);

    // Nothing left to do: a second sweep removes nothing and does not wait.
    const auto again = fixture.sweeper->sweep({});
    CHECK(again.removed == 0);
    CHECK(again.stored == 2);
    CHECK(fixture.waits == 1);
}

TEST_CASE("blob sweep: a dry run counts the same and changes nothing") {
    SweepFixture fixture;
    const auto unused = fixture.stored(blob_test::random_bytes(1000, 5), 2 * hour_ms);
    const auto used = fixture.stored(blob_test::random_bytes(2000, 6), 2 * hour_ms);
    const auto recent = fixture.stored(blob_test::random_bytes(10, 7), 0);
    fixture.reference(used);

    BlobSweepOptions options;
    options.dry_run = true;
    auto report = fixture.sweeper->sweep(options);
    CHECK(report.swept);
    CHECK(report.removed == 1);
    CHECK(report.removed_bytes == 1000);
    CHECK(report.referenced == 1);
    CHECK(fixture.present(unused));
    CHECK(fixture.present(used));
    CHECK(fixture.quarantined() == 0);
    CHECK(fixture.waits == 0);

    // Rows the caller would delete: their blobs count as freed, if old enough.
    options.assume_unreferenced = {used, recent};
    report = fixture.sweeper->sweep(options);
    CHECK(report.removed == 2);
    CHECK(report.removed_bytes == 3000);
    CHECK(report.recent == 1);
    CHECK(fixture.present(used));
}

TEST_CASE("blob sweep: bytes written again count as new (an upload not referenced yet)") {
    SweepFixture fixture;
    const std::string bytes = blob_test::random_bytes(1200, 8);
    const auto key = fixture.stored(bytes, 3 * hour_ms);
    // An upload, or a diff mask computed again, stores the same bytes: the blob is about to be
    // referenced, and its modification time says so.
    CHECK(fixture.store.put(text_bytes(bytes)) == key);
    const auto report = fixture.sweeper->sweep({});
    CHECK(report.recent == 1);
    CHECK(report.removed == 0);
    CHECK(fixture.present(key));
}

TEST_CASE("blob sweep: a blob referenced while it waits in quarantine is put back") {
    SweepFixture fixture;
    const auto claimed = fixture.stored(blob_test::random_bytes(900, 9), 2 * hour_ms);
    const auto unused = fixture.stored(blob_test::random_bytes(800, 10), 2 * hour_ms);
    // A build that checked `claimed` exists before the sweep moved it aside, and commits its
    // screenshot row after the sweep's first look at the references.
    fixture.sweeper->after_quarantine = [&] {
        CHECK_FALSE(fixture.present(claimed));  // invisible while quarantined
        CHECK(fixture.quarantined() == 2);
        fixture.reference(claimed);
    };
    const auto report = fixture.sweeper->sweep({});
    CHECK(report.restored == 1);
    CHECK(report.removed == 1);
    CHECK(report.removed_bytes == 800);
    CHECK(fixture.present(claimed));
    CHECK(fixture.store.read(claimed) == blob_test::random_bytes(900, 9));
    CHECK_FALSE(fixture.present(unused));
    CHECK(fixture.quarantined() == 0);
}

TEST_CASE("blob sweep: quarantine entries of an interrupted sweep are settled by the next") {
    SweepFixture fixture;
    const auto referenced = fixture.stored(blob_test::random_bytes(100, 11), 2 * hour_ms);
    const auto unreferenced = fixture.stored(blob_test::random_bytes(200, 12), 2 * hour_ms);
    const auto fresh = fixture.stored(blob_test::random_bytes(300, 13), 2 * hour_ms);
    // Moved aside by a sweep that then crashed (or another instance's sweep still waiting).
    REQUIRE(fixture.inventory->quarantine(referenced, now_ms() - 10 * 60'000));
    REQUIRE(fixture.inventory->quarantine(unreferenced, now_ms() - 10 * 60'000));
    REQUIRE(fixture.inventory->quarantine(fresh, now_ms()));
    fixture.reference(referenced);

    fixture.sweeper->wait = [](int64_t) {};  // no time passes in this sweep
    const auto report = fixture.sweeper->sweep({});
    CHECK(report.restored == 1);
    CHECK(report.removed == 1);
    CHECK(report.removed_bytes == 200);
    CHECK(report.waiting == 1);  // its grace has not passed yet
    CHECK(fixture.present(referenced));
    CHECK_FALSE(fixture.present(unreferenced));
    CHECK_FALSE(fixture.present(fresh));
    CHECK(fixture.quarantined() == 1);
}

TEST_CASE("blob sweep: refuses while a plugin whose rows may hold blob keys is not loaded") {
    SweepFixture fixture;
    const auto unused = fixture.stored(blob_test::random_bytes(100, 14), 2 * hour_ms);
    fixture.unseen = {"deployments"};
    const auto report = fixture.sweeper->sweep({});
    CHECK_FALSE(report.swept);
    CHECK(report.missing_plugins == std::vector<std::string>{"deployments"});
    CHECK(report.refusal.find("deployments") != std::string::npos);
    CHECK(report.removed == 0);
    CHECK(fixture.present(unused));
}

TEST_CASE("blob holders: a plugin not loaded blocks the sweep unless it was seen holding none") {
    test::TestDatabase test_database;
    auto database = open_database(test_database.url(), 2);
    test::SilentLogger log;
    const auto track = [](const std::string& plugin) {
        return MigrationTrack{
            plugin, {MigrationStep{1, "t", "CREATE TABLE " + plugin + "_rows (id INTEGER)"}}};
    };
    run_migrations(*database,
                   {core_migration_track(), track("alpha"), track("beta"), track("gamma")}, log);
    auto session = database->session();
    record_blob_holders(*session, {{"alpha", true}, {"beta", false}});
    // gamma has tables but was never recorded (loaded only by a Loupe that did not record).
    CHECK(unseen_blob_holders(*session, {"alpha", "beta", "gamma"}).empty());
    CHECK(unseen_blob_holders(*session, {"alpha"}) == std::vector<std::string>{"gamma"});
    CHECK(unseen_blob_holders(*session, {"beta", "gamma"}) == std::vector<std::string>{"alpha"});
    CHECK(unseen_blob_holders(*session, {}) == std::vector<std::string>{"alpha", "gamma"});
    record_blob_holders(*session, {{"alpha", false}});
    CHECK(unseen_blob_holders(*session, {}) == std::vector<std::string>{"gamma"});
}

TEST_CASE("quarantine names carry the key and the time") {
    const std::string key(64, 'a');
    std::string parsed;
    int64_t since = 0;
    CHECK(parse_quarantine_name(quarantine_name(key, 1234), parsed, since));
    CHECK(parsed == key);
    CHECK(since == 1234);
    CHECK_FALSE(parse_quarantine_name(key, parsed, since));
    CHECK_FALSE(parse_quarantine_name(key + ".", parsed, since));
    CHECK_FALSE(parse_quarantine_name(key + ".12x", parsed, since));
    CHECK_FALSE(parse_quarantine_name(std::string(64, 'A') + ".1", parsed, since));
    CHECK_FALSE(parse_quarantine_name("../" + key.substr(3) + ".1", parsed, since));
}

TEST_SUITE("s3" * doctest::skip()) {
    TEST_CASE("S3 inventory: lists blobs, quarantines, restores, purges, drops stale uploads") {
        std::string why;
        auto* server = test::S3Server::shared(why);
        REQUIRE_MESSAGE(server != nullptr, why);
        StderrLogger log{"test", LogLevel::error};
        S3BlobStore store(
            server->fresh_bucket(), UrlSigner(std::string(64, 's')),
            [] { return std::string("https://loupe.example.com"); }, 1u << 20, log);
        auto inventory = s3_blob_inventory(store);
        const std::string first_bytes = blob_test::random_bytes(1500, 21);
        const auto first = store.put(text_bytes(first_bytes));
        const auto second = store.put(text_bytes(blob_test::random_bytes(2500, 22)));

        std::map<std::string, StoredBlob> listed;
        inventory->for_each_blob([&](const StoredBlob& blob) { listed[blob.key] = blob; });
        REQUIRE(listed.size() == 2);
        CHECK(listed[first].size == 1500);
        CHECK(listed[second].size == 2500);
        CHECK(std::llabs(listed[first].written_ms - now_ms()) < 120'000);

        REQUIRE(inventory->quarantine(first, 42));
        CHECK_FALSE(inventory->quarantine(first, 43));  // gone already
        CHECK_FALSE(store.exists(first));
        auto entries = inventory->quarantined();
        REQUIRE(entries.size() == 1);
        CHECK(entries[0].key == first);
        CHECK(entries[0].since_ms == 42);
        CHECK(entries[0].size == 1500);
        inventory->restore(entries[0]);
        CHECK(store.read(first) == first_bytes);
        CHECK(inventory->quarantined().empty());

        REQUIRE(inventory->quarantine(second, 7));
        inventory->purge(inventory->quarantined().at(0));
        CHECK_FALSE(store.exists(second));
        CHECK(inventory->quarantined().empty());

        // An upload a client never finished (never promoted): removed once older than the cutoff.
        const auto incoming = store.incoming_name(std::string(64, 'c'));
        REQUIRE(store.client().send("PUT", incoming, {}, {}, "abandoned").status == 200);
        CHECK(inventory->remove_stale_uploads(now_ms() - hour_ms, false) == 0);
        CHECK(inventory->remove_stale_uploads(now_ms() + hour_ms, true) == 1);
        CHECK(store.client().send("HEAD", incoming).status == 200);
        CHECK(inventory->remove_stale_uploads(now_ms() + hour_ms, false) == 1);
        CHECK(store.client().send("HEAD", incoming).status == 404);
    }

    TEST_CASE("S3: the sweep deletes the bucket's unreferenced blobs and keeps the others") {
        std::string why;
        auto* server = test::S3Server::shared(why);
        REQUIRE_MESSAGE(server != nullptr, why);
        StderrLogger log{"test", LogLevel::error};
        S3BlobStore store(
            server->fresh_bucket(), UrlSigner(std::string(64, 's')),
            [] { return std::string("https://loupe.example.com"); }, 1u << 20, log);
        auto inventory = s3_blob_inventory(store);
        test::TestDatabase test_database;
        auto database = open_database(test_database.url(), 2);
        const auto used = store.put(text_bytes(blob_test::random_bytes(100, 31)));
        const auto unused = store.put(text_bytes(blob_test::random_bytes(200, 32)));
        const auto claimed = store.put(text_bytes(blob_test::random_bytes(300, 33)));
        std::set<std::string> references{used};
        BlobSweepSettings settings;
        settings.min_age_ms = hour_ms;
        BlobSweeper sweeper(
            *database, *inventory,
            [&](soci::session&, const std::vector<std::string>& keys) {
                std::set<std::string> found;
                for (const auto& key : keys) {
                    if (references.contains(key)) {
                        found.insert(key);
                    }
                }
                return found;
            },
            [](soci::session&) { return std::vector<std::string>{}; }, settings, log);
        // Two hours from now every object is old enough; the grace passes at once.
        int64_t offset = 2 * hour_ms;
        sweeper.clock = [&] { return now_ms() + offset; };
        sweeper.wait = [&](int64_t ms) { offset += ms; };
        sweeper.after_quarantine = [&] { references.insert(claimed); };

        BlobSweepOptions dry;
        dry.dry_run = true;
        const auto counted = sweeper.sweep(dry);
        CHECK(counted.removed == 2);
        CHECK(store.exists(unused));

        const auto report = sweeper.sweep({});
        CHECK(report.swept);
        CHECK(report.stored == 3);
        CHECK(report.referenced == 1);
        CHECK(report.removed == 1);
        CHECK(report.removed_bytes == 200);
        CHECK(report.restored == 1);
        CHECK(store.exists(used));
        CHECK(store.exists(claimed));
        CHECK_FALSE(store.exists(unused));
        CHECK(inventory->quarantined().empty());
    }
}

}  // namespace loupe
