#include "support/s3_server.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "blob/s3/s3_client.hpp"
#include "support/build_paths.hpp"

namespace loupe::test {
namespace {

namespace fs = std::filesystem;

std::string s3_folder() {
    return std::string(LOUPE_TEST_SOURCE_DIR) + "/tests/s3";
}

std::string read_line(int fd) {
    std::string line;
    char c = 0;
    while (::read(fd, &c, 1) == 1) {
        if (c == '\n') {
            return line;
        }
        line += c;
    }
    return line;
}

}  // namespace

S3Server* S3Server::shared(std::string& why) {
    static std::unique_ptr<S3Server> server;
    static std::string failure;
    if (!server && failure.empty()) {
        if (!fs::exists(s3_folder() + "/node_modules/@20minutes/s3rver")) {
            failure = "tests/s3/node_modules is missing (run npm ci in tests/s3)";
        } else {
            auto started = std::unique_ptr<S3Server>(new S3Server());
            try {
                started->start();
                server = std::move(started);
            } catch (const std::exception& error) {
                failure = error.what();
            }
        }
    }
    why = failure;
    return server.get();
}

void S3Server::start() {
    directory_ =
        (fs::temp_directory_path() / ("loupe-s3rver-" + std::to_string(::getpid()))).string();
    fs::remove_all(directory_);
    int to_child[2];
    int from_child[2];
    if (::pipe(to_child) != 0 || ::pipe(from_child) != 0) {
        throw std::runtime_error("pipe failed");
    }
    pid_ = ::fork();
    if (pid_ < 0) {
        throw std::runtime_error("fork failed");
    }
    if (pid_ == 0) {
        ::dup2(to_child[0], 0);
        ::dup2(from_child[1], 1);
        ::close(to_child[1]);
        ::close(from_child[0]);
        const std::string script = s3_folder() + "/s3rver.mjs";
        ::execlp("node", "node", script.c_str(), directory_.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(to_child[0]);
    ::close(from_child[1]);
    stdin_fd_ = to_child[1];
    const auto line = read_line(from_child[0]);
    ::close(from_child[0]);
    if (line.empty()) {
        throw std::runtime_error("s3rver did not start");
    }
    endpoint_ = nlohmann::json::parse(line).at("endpoint").get<std::string>();
}

S3Settings S3Server::fresh_bucket() {
    S3Settings settings;
    settings.scheme = "http";
    settings.host = "127.0.0.1";
    settings.port = static_cast<uint16_t>(std::stoi(endpoint_.substr(endpoint_.rfind(':') + 1)));
    settings.bucket = "loupe-" + std::to_string(::getpid()) + "-" + std::to_string(++buckets_);
    settings.scope.region = "us-east-1";
    settings.credentials = {"S3RVER", "S3RVER", ""};
    settings.addressing = S3Addressing::path;
    settings.max_attempts = 2;
    settings.retry_base_ms = 10;
    settings.multipart_threshold = 6ull << 20;  // small, so the tests cover multipart cheaply
    settings.part_size = 5ull << 20;
    S3Client client(settings);
    const auto created = client.send("PUT", "");
    if (created.status != 200) {
        throw std::runtime_error("cannot create bucket " + settings.bucket + ": HTTP " +
                                 std::to_string(created.status));
    }
    return settings;
}

S3Server::~S3Server() {
    if (stdin_fd_ >= 0) {
        ::close(stdin_fd_);  // s3rver.mjs stops when its input closes
    }
    if (pid_ > 0) {
        int status = 0;
        bool reaped = false;
        for (int i = 0; i < 50 && !reaped; ++i) {
            reaped = ::waitpid(pid_, &status, WNOHANG) == pid_;
            if (!reaped) {
                ::usleep(20000);
            }
        }
        if (!reaped) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, &status, 0);
        }
    }
    std::error_code ignored;
    fs::remove_all(directory_, ignored);
}

}  // namespace loupe::test
