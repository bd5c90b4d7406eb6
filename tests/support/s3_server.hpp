#pragma once
// A real S3-protocol server for the tests: s3rver (tests/s3, the fork that verifies AWS
// Signature V4) started once per test process on an ephemeral port, with a fresh bucket per
// caller. Needs node and `npm ci` in tests/s3; available() says why not otherwise.

#include <string>

#include "blob/s3/s3_settings.hpp"

namespace loupe::test {

class S3Server {
public:
    /// The shared server, started on first use; nullptr (and `why` filled) when it cannot run.
    static S3Server* shared(std::string& why);

    const std::string& endpoint() const { return endpoint_; }
    /// Settings for a new, empty bucket on this server (path-style, the server's keys).
    S3Settings fresh_bucket();

    ~S3Server();

private:
    S3Server() = default;
    void start();

    int pid_ = -1;
    int stdin_fd_ = -1;
    std::string directory_;
    std::string endpoint_;
    int buckets_ = 0;
};

}  // namespace loupe::test
