#include "db/sql_statements.hpp"

#include <doctest/doctest.h>

using Statements = std::vector<std::string>;

TEST_CASE("sql statements: a a semicolon at the end of a line ends a statement") {
    const auto statements = loupe::split_sql_statements(
        "CREATE TABLE a (\n"
        "  id {{id}},\n"
        "  note TEXT DEFAULT 'x;y'\n"
        ");\n"
        "CREATE INDEX a_note ON a (note);   \n"
        "\n"
        "INSERT INTO a (note) VALUES ('last')");
    CHECK(statements == Statements{"CREATE TABLE a (\n  id {{id}},\n  note TEXT DEFAULT 'x;y'\n)",
                                   "CREATE INDEX a_note ON a (note)",
                                   "INSERT INTO a (note) VALUES ('last')"});
}

TEST_CASE("sql statements: blank and comment-only pieces are skipped") {
    CHECK(loupe::split_sql_statements("").empty());
    CHECK(loupe::split_sql_statements("  \n\n;\n-- only a comment;\n").empty());
    CHECK(loupe::split_sql_statements("-- make t\nCREATE TABLE t (x INTEGER);\n-- done\n") ==
          Statements{"-- make t\nCREATE TABLE t (x INTEGER)"});
}

TEST_CASE("sql statements: a semicolon inside a line does not split") {
    CHECK(loupe::split_sql_statements("SELECT 1; SELECT 2") == Statements{"SELECT 1; SELECT 2"});
}
