#pragma once
// A fresh, isolated database for one test: a SQLite file in a temporary folder by default, or
// a new PostgreSQL schema on the server named by LOUPE_TEST_POSTGRES_URL. Removed afterwards.

#include <string>

namespace loupe::test {

class TestDatabase {
public:
    TestDatabase();
    ~TestDatabase();
    TestDatabase(const TestDatabase&) = delete;
    TestDatabase& operator=(const TestDatabase&) = delete;

    /// The `db.url` to open (sqlite:... or postgresql://...?options=-csearch_path%3D...).
    const std::string& url() const { return url_; }
    bool is_postgres() const { return !schema_.empty(); }

private:
    std::string url_;
    std::string schema_;
    std::string server_url_;
    std::string directory_;
};

/// A fresh temporary directory, removed by the destructor.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

/// True when the suite runs against PostgreSQL.
bool using_postgres();

}  // namespace loupe::test
