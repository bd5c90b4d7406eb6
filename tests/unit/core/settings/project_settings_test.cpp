// Per-plugin, per-project settings: the storage's NULL convention on both databases, and the
// Project resource's fields as the real builds and deployments plugins declare them, changed
// the way PATCH /projects/{owner}/{project} will change them (in the caller's transaction).
#include "loupe/settings/project_settings.hpp"

#include <doctest/doctest.h>
#include <soci/soci.h>

#include "loupe/http/http_error.hpp"
#include "runtime.hpp"
#include "support/build_paths.hpp"
#include "support/test_database.hpp"

namespace loupe {
namespace {

struct Sample {
    bool enabled = true;
    std::string mode = "project";
    std::optional<std::string> glob;
    std::optional<int64_t> days = 3;  ///< the default when no row; NULL in a row: "never"
    int64_t count = 0;
};

const ProjectSettingsTable<Sample> sample_table("sample_settings",
                                                {setting_column("enabled", &Sample::enabled),
                                                 setting_column("mode", &Sample::mode),
                                                 setting_column("glob", &Sample::glob),
                                                 setting_column("days", &Sample::days),
                                                 setting_column("count", &Sample::count)},
                                                true);

struct RuntimeFixture {
    test::TestDatabase database;
    test::TempDir data;
    std::unique_ptr<Runtime> runtime;
    Project project;

    RuntimeFixture() {
        auto config = Config::load("", {{"db.url", database.url()},
                                        {"data.dir", data.path()},
                                        {"plugins.path", LOUPE_TEST_PLUGIN_DIR},
                                        {"plugins.enabled", "auth, builds, deployments"},
                                        {"log.level", "error"}});
        runtime = std::make_unique<Runtime>(std::move(config));
        runtime->load_plugins();
        runtime->migrate();
        runtime->identity().create_user("ada", "Ada");
        runtime->identity().create_team("acme", "Acme", "ada");
        project = runtime->identity().create_project("acme", "web", "main").first;
    }

    Json resource() { return runtime->identity().project_json(project); }
    void change(const std::string& field, const Json& value) {
        runtime->database().transaction([&](soci::session& sql) {
            runtime->identity().change_project_field(sql, project, field, value);
        });
    }
};

TEST_CASE_FIXTURE(RuntimeFixture, "settings rows: defaults without a row, NULL for unset") {
    runtime->database().transaction([](soci::session& sql) {
        sql << "CREATE TABLE sample_settings (project_id BIGINT PRIMARY KEY, enabled INTEGER NOT "
               "NULL, mode TEXT NOT NULL, glob TEXT, days BIGINT, count BIGINT NOT NULL, "
               "updated_at BIGINT NOT NULL)";
    });
    auto session = runtime->database().session();
    const Sample defaults = sample_table.read(*session, 7);
    CHECK(defaults.enabled);
    CHECK(defaults.days == 3);
    CHECK_FALSE(defaults.glob.has_value());

    Sample changed;
    changed.enabled = false;
    changed.mode = "private";
    changed.glob = "release/*";
    changed.days.reset();  // stored as NULL: "never", not the default
    changed.count = 1LL << 40;
    sample_table.write(*session, 7, changed);
    const auto both = sample_table.read(*session, std::vector<int64_t>{7, 8});
    CHECK_FALSE(both.at(7).enabled);
    CHECK(both.at(7).mode == "private");
    CHECK(both.at(7).glob == "release/*");
    CHECK_FALSE(both.at(7).days.has_value());
    CHECK(both.at(7).count == 1LL << 40);
    CHECK(both.at(8).days == 3);
    int nulls = 0;
    *session << "SELECT COUNT(*) FROM sample_settings WHERE days IS NULL AND updated_at > 0",
        soci::into(nulls);
    CHECK(nulls == 1);

    changed.glob.reset();
    changed.days = 0;
    sample_table.write(*session, 7, changed);  // the same row, updated
    CHECK_FALSE(sample_table.read(*session, 7).glob.has_value());
    CHECK(sample_table.read(*session, 7).days == 0);
    CHECK_THROWS_AS(ProjectSettingsTable<Sample>("bad; DROP TABLE x",
                                                 {setting_column("enabled", &Sample::enabled)})
                        .read(*session, 1),
                    std::invalid_argument);
}

TEST_CASE_FIXTURE(RuntimeFixture,
                  "plugins' fields show in the Project resource and change by field") {
    auto project_json = resource();
    CHECK(project_json["autoApprovedBranchGlob"] == "main");
    CHECK(project_json["deploymentEnabled"] == true);
    CHECK(project_json["deploymentAuth"] == "project");
    CHECK(runtime->identity().is_changeable_project_field("autoApprovedBranchGlob"));
    CHECK(runtime->identity().is_changeable_project_field("deploymentAuth"));
    CHECK(runtime->identity().is_changeable_project_field("retentionDays"));
    // Shown only: quotas are set with `loupe admin quota`, ids never change.
    CHECK_FALSE(runtime->identity().is_changeable_project_field("quota"));
    CHECK_FALSE(runtime->identity().is_changeable_project_field("id"));
    // The identity fields are core's own.
    CHECK(runtime->identity().is_changeable_project_field("name"));
    CHECK(runtime->identity().is_changeable_project_field("defaultUserLevel"));

    change("autoApprovedBranchGlob", "release/*");
    change("deploymentAuth", "private");
    change("ignoreConfig", {{"enabled", false}, {"autoIgnore", {{"changes", 5}}}});
    project_json = resource();
    CHECK(project_json["autoApprovedBranchGlob"] == "release/*");
    CHECK(project_json["deploymentAuth"] == "private");
    CHECK(project_json["ignoreConfig"] ==
          Json{{"enabled", false}, {"autoIgnore", {{"changes", 5}}}});
    change("autoApprovedBranchGlob", nullptr);  // back to the default base branch
    CHECK(resource()["autoApprovedBranchGlob"] == "main");
    CHECK(resource()["deploymentAuth"] == "private");  // other fields of the row kept

    const auto refused = [&](const std::string& field, const Json& value) {
        try {
            change(field, value);
        } catch (const HttpError& error) {
            CHECK(error.status() == 400);
            return error.details().empty() ? std::string(error.what()) : error.details().front();
        }
        return std::string("accepted");
    };
    CHECK(refused("deploymentAuth", "everyone") ==
          "deploymentAuth is Invalid option: expected one of "
          "\"project\"|\"public\"|\"private\"|\"domain-private\"");
    CHECK(refused("deploymentEnabled", "yes") ==
          "deploymentEnabled is Invalid input: expected boolean, received string");
    CHECK(refused("autoApprovedBranchGlob", "") ==
          "autoApprovedBranchGlob is Too small: expected string to have >=1 characters");
    CHECK(refused("ignoreConfig", {{"enabled", true}, {"autoIgnore", {{"changes", 0}}}}) ==
          "ignoreConfig.autoIgnore.changes is Too small: expected number to be >=1");
    CHECK(resource()["deploymentAuth"] == "private");  // a refused change changed nothing
    CHECK_THROWS_AS(change("id", "7"), std::invalid_argument);
    change("name", "renamed");
    CHECK(runtime->identity().find_project(project.id)->name == "renamed");
}

}  // namespace
}  // namespace loupe
