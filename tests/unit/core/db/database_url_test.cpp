#include "db/database_url.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using loupe::Dialect;

TEST_CASE("database url: sqlite and postgresql forms") {
    auto target = loupe::parse_database_url("sqlite:./data/loupe.db");
    CHECK(target.dialect == Dialect::sqlite);
    CHECK(target.location == "./data/loupe.db");
    CHECK(loupe::parse_database_url("sqlite:///var/lib/loupe.db").location == "/var/lib/loupe.db");

    target = loupe::parse_database_url("postgresql://u:p@127.0.0.1:5432/loupe?sslmode=disable");
    CHECK(target.dialect == Dialect::postgresql);
    CHECK(target.location == "postgresql://u:p@127.0.0.1:5432/loupe?sslmode=disable");
    CHECK(loupe::parse_database_url("postgres://h/db").dialect == Dialect::postgresql);
}

TEST_CASE("database url: PostgreSQL targets reach SOCI as URIs it does not rewrite") {
    // SOCI rebuilds its connect string as key=value pairs: a URI needs an "=" to survive.
    CHECK(loupe::parse_database_url("postgresql://u:p@db:5432/loupe").location ==
          "postgresql://u:p@db:5432/loupe?application_name=loupe");
    CHECK(loupe::parse_database_url("postgresql://db/loupe?").location ==
          "postgresql://db/loupe?&application_name=loupe");

    // A conninfo becomes the equivalent URI, quoting and escapes resolved, values encoded.
    const auto target = loupe::parse_database_url(
        R"(postgresql:host=127.0.0.1 port = 5432 dbname=loupe password='it\'s a \\ secret' )"
        R"(options=-csearch_path=s1 application_name=ci)");
    CHECK(target.dialect == Dialect::postgresql);
    CHECK(target.location ==
          "postgresql://?host=127.0.0.1&port=5432&dbname=loupe&password=it%27s%20a%20%5C%20secret"
          "&options=-csearch_path%3Ds1&application_name=ci");
    CHECK_THROWS_WITH_AS(loupe::parse_database_url("postgresql:host=db password='open"),
                         "invalid PostgreSQL conninfo in database URL 'postgresql:host=db "
                         "password=***': unterminated quoted value of \"password\"",
                         std::runtime_error);
    CHECK_THROWS_AS(loupe::parse_database_url("postgresql:host"), std::runtime_error);
}

TEST_CASE("database url: an unknown scheme is refused, password masked") {
    CHECK_THROWS_WITH_AS(loupe::parse_database_url("mysql://root:hunter2@localhost/db"),
                         "unsupported database URL 'mysql://root:***@localhost/db': expected "
                         "sqlite:<path>, postgresql://user:password@host:port/db or "
                         "postgresql:<libpq conninfo>",
                         std::runtime_error);
    CHECK_THROWS_AS(loupe::parse_database_url("sqlite:"), std::runtime_error);
}

TEST_CASE("database url: passwords are masked wherever libpq accepts them") {
    CHECK(loupe::mask_database_url("postgresql://loupe:s3cret@db:5432/loupe") ==
          "postgresql://loupe:***@db:5432/loupe");
    CHECK(loupe::mask_database_url("postgresql://loupe@db/loupe?password=s3cret&sslmode=require") ==
          "postgresql://loupe@db/loupe?password=***&sslmode=require");
    CHECK(loupe::mask_database_url("postgresql:host=db password = 's3 cret' dbname=x") ==
          "postgresql:host=db password = *** dbname=x");
    CHECK(loupe::mask_database_url("postgresql://db:5432/loupe") == "postgresql://db:5432/loupe");
    CHECK(loupe::mask_database_url("sqlite:./data/loupe.db") == "sqlite:./data/loupe.db");
}
