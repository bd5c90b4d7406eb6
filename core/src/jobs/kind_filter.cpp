#include "jobs/kind_filter.hpp"

namespace loupe {

KindFilter::KindFilter(std::vector<std::string> kinds) : kinds_(std::move(kinds)) {
    sql_ = "kind IN (";
    for (std::size_t i = 0; i < kinds_.size(); ++i) {
        names_.push_back("kind" + std::to_string(i));
        sql_ += (i == 0 ? ":" : ", :") + names_.back();
    }
    sql_ += ")";
}

void KindFilter::bind(soci::statement& statement) const {
    for (std::size_t i = 0; i < kinds_.size(); ++i) {
        statement.exchange(soci::use(kinds_[i], names_[i]));
    }
}

soci::statement prepare_statement(soci::session& session, const std::string& query,
                                  const std::function<void(soci::statement&)>& exchange) {
    soci::statement statement(session);
    exchange(statement);
    statement.alloc();
    // Each statement runs once: on PostgreSQL a one-time query is a single PQexecParams round
    // trip, where a repeatable one would be prepared, run and deallocated.
    statement.prepare(query, soci::details::st_one_time_query);
    statement.define_and_bind();
    return statement;
}

}  // namespace loupe
