#pragma once
// `kind IN (:kind0, :kind1, ...)` over the job kinds this process handles, each kind a bound
// parameter. SOCI's `<<` syntax fixes the number of bound values at compile time, so queries
// using the filter are built with prepare_statement().

#include <soci/soci.h>

#include <functional>
#include <string>
#include <vector>

namespace loupe {

class KindFilter {
public:
    explicit KindFilter(std::vector<std::string> kinds);

    bool empty() const { return kinds_.empty(); }
    const std::vector<std::string>& kinds() const { return kinds_; }
    /// "kind IN (:kind0, ...)"; meaningless when empty().
    const std::string& sql() const { return sql_; }
    /// Binds every kind by name; the filter must outlive the statement.
    void bind(soci::statement& statement) const;

private:
    std::vector<std::string> kinds_;
    std::vector<std::string> names_;
    std::string sql_;
};

/// Prepares `query` on `session` with the intos and uses `exchange` adds. Named uses only:
/// the PostgreSQL backend binds a name at its first occurrence only, so never repeat one.
soci::statement prepare_statement(soci::session& session, const std::string& query,
                                  const std::function<void(soci::statement&)>& exchange);

}  // namespace loupe
