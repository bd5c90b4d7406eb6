#include "loupe/db/query.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"

namespace loupe {
namespace {

// Numbers the `?` placeholders as :p1, :p2, ... (SOCI's portable syntax).
std::string number_placeholders(const std::string& sql) {
    std::string out;
    int next = 1;
    for (char c : sql) {
        if (c == '?') {
            out += ":p" + std::to_string(next++);
        } else {
            out += c;
        }
    }
    return out;
}

void run(soci::statement& statement, const std::string& sql,
         const std::vector<QueryValue>& values) {
    statement.alloc();
    statement.prepare(number_placeholders(sql));
    for (const auto& value : values) {
        if (const auto* number = std::get_if<int64_t>(&value)) {
            statement.exchange(soci::use(*number));
        } else if (const auto* real = std::get_if<double>(&value)) {
            statement.exchange(soci::use(*real));
        } else {
            statement.exchange(soci::use(std::get<std::string>(value)));
        }
    }
}

}  // namespace

void execute(soci::session& session, const std::string& sql,
             const std::vector<QueryValue>& values) {
    soci::statement statement(session);
    run(statement, sql, values);
    statement.define_and_bind();
    statement.execute(true);
}

Query& Query::where(const std::string& clause, std::vector<QueryValue> values) {
    conditions_ += " AND (" + clause + ")";
    for (auto& value : values) {
        values_.push_back(std::move(value));
    }
    return *this;
}

int64_t Query::count(soci::session& session, const std::string& table) const {
    soci::statement statement(session);
    run(statement, "SELECT COUNT(*) FROM " + table + " WHERE " + conditions_, values_);
    long long total = 0;
    statement.exchange(soci::into(total));
    statement.define_and_bind();
    statement.execute(true);
    return total;
}

std::vector<int64_t> Query::ids(soci::session& session, const std::string& table,
                                const std::string& column, const std::string& suffix,
                                std::vector<QueryValue> suffix_values) const {
    std::vector<int64_t> ids;
    for_each_row(
        session, column + " AS selected_id", table, suffix,
        [&](const soci::row& row) { ids.push_back(RowReader(row).int64("selected_id")); },
        std::move(suffix_values));
    return ids;
}

void Query::for_each_row(soci::session& session, const std::string& columns,
                         const std::string& table, const std::string& suffix,
                         const std::function<void(const soci::row&)>& each,
                         std::vector<QueryValue> suffix_values) const {
    auto values = values_;
    for (auto& value : suffix_values) {
        values.push_back(std::move(value));
    }
    soci::statement statement(session);
    run(statement, "SELECT " + columns + " FROM " + table + " WHERE " + conditions_ + " " + suffix,
        values);
    soci::row row;
    statement.exchange(soci::into(row));
    statement.define_and_bind();
    if (statement.execute(true)) {
        do {
            each(row);
        } while (statement.fetch());
    }
}

}  // namespace loupe
