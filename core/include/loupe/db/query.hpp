#pragma once
// A SELECT assembled from optional filters, every value a bound parameter (never spliced into
// the SQL text). Placeholders are written `?` in clauses and numbered when executed. Part of the
// plugin SDK: any plugin's store/ assembles its filtered reads with it.

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "loupe/export.hpp"

namespace soci {
class session;
class row;
}  // namespace soci

namespace loupe {

using QueryValue = std::variant<int64_t, std::string, double>;

/// Runs a statement written with `?` placeholders, each taking the next value.
LOUPE_API void execute(soci::session& session, const std::string& sql,
                       const std::vector<QueryValue>& values);

class LOUPE_API Query {
public:
    /// Adds `AND (<clause>)`; each `?` in the clause takes the next value.
    Query& where(const std::string& clause, std::vector<QueryValue> values = {});
    const std::string& conditions() const { return conditions_; }
    const std::vector<QueryValue>& values() const { return values_; }

    /// SELECT COUNT(*) FROM <table> WHERE <conditions>
    int64_t count(soci::session& session, const std::string& table) const;
    /// SELECT <column> FROM <table> WHERE <conditions> <suffix> (suffix may hold `?` too).
    std::vector<int64_t> ids(soci::session& session, const std::string& table,
                             const std::string& column, const std::string& suffix,
                             std::vector<QueryValue> suffix_values = {}) const;

    /// Calls `each` for every row of SELECT <columns> FROM <table> WHERE <conditions> <suffix>.
    void for_each_row(soci::session& session, const std::string& columns, const std::string& table,
                      const std::string& suffix, const std::function<void(const soci::row&)>& each,
                      std::vector<QueryValue> suffix_values = {}) const;

private:
    std::string conditions_ = "1 = 1";
    std::vector<QueryValue> values_;
};

}  // namespace loupe
